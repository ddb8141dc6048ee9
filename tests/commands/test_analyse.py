"""`tui-tictactoe analyse`: every verdict checked against an independent brute-force solver.

The reference (`tests/reference.py`) knows nothing of the engine: it recurses
over a 9-character string, plays every continuation to the end and reports, for
the side making a move, how the game ends under best play and how many moves
are left in it (this one included).

The exhaustive checks run in-process through `cli.main([...])` (the same code
path as the console script, minus the interpreter start); `test_cli.py` covers
the real subprocesses, exit codes and stderr.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from reference import (
    EMPTY_BOARD,
    has_line,
    move_value,
    position_value,
    rank,
    reachable,
    status,
)

from tui_tictactoe.cli import main
from tui_tictactoe.commands.analyse import board_from_text
from tui_tictactoe.engine.analysis import InvalidPosition, analyse
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.geometry import STANDARD

X_FIRST = reachable("X")
O_FIRST = reachable("O")


def expected_json(board: str, mover: str) -> dict[str, Any]:
    state = status(board)
    moves: list[dict[str, object]] = []
    best: list[list[int]] = []
    if state == "in_progress":
        results = {cell: move_value(board, cell, mover) for cell, c in enumerate(board) if c == "."}
        top = max(rank(result) for result in results.values())
        for cell, (outcome, plies) in results.items():
            moves.append({"row": cell // 3, "col": cell % 3, "outcome": outcome, "plies": plies})
        best = [[cell // 3, cell % 3] for cell, result in results.items() if rank(result) == top]
    return {"board": board, "to_move": mover, "status": state, "moves": moves, "best": best}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["analyse", *args, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    assert out.endswith("\n") and out.count("\n") == 1, "one JSON object on one line"
    found: dict[str, Any] = json.loads(out)
    moves = found["moves"]
    assert isinstance(moves, list)
    return {**found, "moves": [old_keys(move) for move in moves]}


# -- the reference itself --------------------------------------------------------


def test_reference_solver_knows_the_classic_facts() -> None:
    assert len(X_FIRST) == 5478  # the well-known count of reachable positions
    assert position_value(EMPTY_BOARD, "X") == ("draw", 9)
    # Every opening move draws with best play.
    assert {move_value(EMPTY_BOARD, cell, "X") for cell in range(9)} == {("draw", 9)}
    # X to move can win at once in the top row; O threatens nothing.
    assert move_value("XX.OO....", 2, "X") == ("win", 1)
    # X.O/.X./..O with X to move: anything but blocking at 6 (row 1, col 2) loses.
    assert move_value("X.O.X...O", 5, "X") == ("draw", 5)
    assert move_value("X.O.X...O", 1, "X") == ("loss", 2)


# -- exhaustive agreement --------------------------------------------------------


def o_first_args(board: str, mover: str) -> list[str]:
    """Arguments for an O-first position: equal counts would mean X, so say that O moves."""
    x_count, o_count = board.count("X"), board.count("O")
    return [board, "--to-move", mover] if x_count == o_count else [board]


def engine_json(*args: str) -> dict[str, Any]:
    """What `analyse --json` prints, straight from the engine (the CLI adds only json.dumps)."""
    board, to_move = args[0], (args[2] if len(args) > 2 else None)
    found: dict[str, Any] = json.loads(
        json.dumps(analyse(GameBoard.from_string(board), to_move).to_json(STANDARD))
    )
    return {**found, "moves": [old_keys(move) for move in found["moves"]]}


OLD_KEYS = ("row", "col", "outcome", "plies")
"""The keys of a move the reference checks (the line and proof are checked on their own)."""


def old_keys(move: dict[str, object]) -> dict[str, object]:
    return {key: move[key] for key in OLD_KEYS}


def test_every_move_of_every_x_first_position() -> None:
    for board, mover in X_FIRST.items():
        # Without --to-move the side comes from the counts (equal: X).
        assert engine_json(board) == expected_json(board, mover), board


def test_every_move_of_every_o_first_position() -> None:
    with_flag = 0
    for board, mover in O_FIRST.items():
        args = o_first_args(board, mover)
        with_flag += len(args) > 1
        assert engine_json(*args) == expected_json(board, mover), board
    assert with_flag > 2000


def test_the_command_agrees_on_a_sample_of_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    # Building the argument parser costs ~1 ms a call: every 7th position keeps this quick.
    for board, mover in itertools.islice(X_FIRST.items(), 0, None, 7):
        assert run_json(capsys, board) == expected_json(board, mover), board
        # A --to-move that agrees with the counts changes nothing.
        assert run_json(capsys, board, "--to-move", mover) == expected_json(board, mover)
    for board, mover in itertools.islice(O_FIRST.items(), 3, None, 7):
        assert run_json(capsys, *o_first_args(board, mover)) == expected_json(board, mover)


def test_rows_may_be_separated_by_slashes(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "X.O/.X./..O")
    # X.O/.X./..O has two X and two O: X moves, and only blocking at (1, 2) saves the game.
    assert result["board"] == "X.O.X...O"
    assert result["to_move"] == "X"
    assert result["best"] == [[1, 2]]
    assert result == expected_json("X.O.X...O", "X")


def test_finished_games_list_no_moves(capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        "XXX/OO./...": "X_wins",
        "XO./XO./X..": "X_wins",
        "OOO/XX./X..": "O_wins",
        "OXX/.O./X.O": "O_wins",
        "XOX/XOO/OXX": "draw",
    }
    for board, state in cases.items():
        result = run_json(capsys, board)
        assert result["status"] == state
        assert result["moves"] == []
        assert result["best"] == []


# -- which boards are refused ----------------------------------------------------

ALL_BOARDS = ["".join(cells) for cells in itertools.product("XO.", repeat=9)]


def engine_accepts(board: str, to_move: str | None) -> str | None:
    """The side the engine says moves, or None if it refuses the board."""
    try:
        return analyse(GameBoard.from_string(board), to_move).to_move
    except InvalidPosition:
        return None


def test_exactly_the_reachable_boards_are_accepted_with_to_move() -> None:
    # A board is valid with T to move iff some game (X-first or O-first) reaches it with T next.
    for to_move in ("X", "O"):
        for board in ALL_BOARDS:
            expected = to_move if _reached_with(board, to_move) else None
            assert engine_accepts(board, to_move) == expected, (board, to_move)


def _reached_with(board: str, mover: str) -> bool:
    return X_FIRST.get(board) == mover or O_FIRST.get(board) == mover


def test_exactly_the_reachable_boards_are_accepted_without_to_move() -> None:
    for board in ALL_BOARDS:
        x_count, o_count = board.count("X"), board.count("O")
        if x_count != o_count:
            mover = "X" if x_count < o_count else "O"
        elif has_line(board, "X") and not has_line(board, "O"):
            # Equal counts and X has a line: X cannot have moved last in an X-first
            # game, so the engine reads it as an O-first game X has just won (O next).
            mover = "O"
        else:
            mover = "X"
        expected = mover if _reached_with(board, mover) else None
        assert engine_accepts(board, None) == expected, board


@pytest.mark.parametrize(
    ("board", "reason"),
    [
        ("X.O/.X./.O", "9, 16, 25 or 36 cells"),
        ("X.O/.X./..O/X", "9, 16, 25 or 36 cells"),
        ("", "9, 16, 25 or 36 cells"),
        ("X.O.X.Z.O", "bad character 'Z' at position 7"),
        ("X.O-X...O", "bad character '-' at position 4"),
        ("X.ß......", "bad character 'ß' at position 3"),
        ("/////X////........", "misplaced '/' at position 1"),
        ("X.O/.X./..O/", "misplaced '/' at position 12"),
        ("XXX......", "impossible counts"),
        ("OO.......", "impossible counts"),
        ("XXX/OOO/...", "both X and O"),
        ("XXX/OO./OO.", "after it won"),  # O moved after X's line (X to move by counts)
        ("OOO/XX./XX.", "after it won"),  # X moved after O's line
        ("XXX/OOO/XO.", "both X and O"),
        ("XXX/O.O/XXX", "impossible counts"),
        ("xo", "9, 16, 25 or 36 cells"),
    ],
)
def test_invalid_boards_exit_2_with_a_one_line_error(
    capsys: pytest.CaptureFixture[str], board: str, reason: str
) -> None:
    for extra in ([], ["--json"]):
        assert main(["analyse", board, *extra]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith("tui-tictactoe analyse: error: ")
        assert err.count("\n") == 1 and err.endswith("\n")
        assert reason in err


# -- the board syntax (`GameBoard.from_string`) ----------------------------------


def cells_of(board: GameBoard) -> str:
    return board.to_string()


@pytest.mark.parametrize(
    "text",
    [
        "X.O.X...O",  # 9 cells in reading order
        "X.O/.X./..O",  # 3 rows of 3, one / between rows
        "x.o.X...o",  # either case
        "X O X   O",  # a space is an empty cell, like .
        "X O/ X / .O",
    ],
)
def test_accepted_board_syntax(text: str) -> None:
    assert cells_of(GameBoard.from_string(text)) == "X.O.X...O"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Characters other than X, O, x, o, '.', ' ' and '/': the first one, as typed.
        ("X.O.X.Z.O", "bad character 'Z' at position 7 of 'X.O.X.Z.O'"),
        ("X.O.X...0", "bad character '0' at position 9 of 'X.O.X...0'"),
        # .upper() would turn ß into SS (and make it look like an 'S' cell).
        ("X.ß......", "bad character 'ß' at position 3 of 'X.ß......'"),
        ("ẞ........", "bad character 'ẞ' at position 1"),
        ("X.O\tX...O", "bad character '\\t' at position 4"),
        ("X.O\nX...O", "bad character '\\n' at position 4"),
        ("\x1b[2J....", "bad character '\\x1b' at position 1"),
        ("X.O|.X.|..O", "bad character '|' at position 4"),
        ("X.O,.X.,..O", "bad character ',' at position 4"),
        # Wrong number of cells.
        ("", "board must have 9 cells, got 0 in ''"),
        ("X.O.X...", "board must have 9 cells, got 8 in 'X.O.X...'"),
        ("X.O.X...O.", "board must have 9 cells, got 10"),
        ("X.O/.X./.O", "board must have 9 cells, got 8"),
        ("X.O/.X./..O/X", "board must have 9 cells, got 10"),
        (" X.O.X...O", "board must have 9 cells, got 10"),  # no trimming: a space is a cell
        ("X.O.X...O\n", "bad character '\\n' at position 10"),
        # '/' only between every two rows: not at the ends, not doubled, not inside a row.
        ("/////X////........", "misplaced '/' at position 1 of '/////X////........'"),
        ("/X.O/.X./..O", "misplaced '/' at position 1"),
        ("X.O/.X./..O/", "misplaced '/' at position 12"),
        ("X.O//.X...O", "misplaced '/' at position 5"),
        ("XX/X.O./..O", "misplaced '/' at position 3"),
        ("X.O.X.../O", "misplaced '/' at position 9"),
        # Some rows separated, some not.
        ("X.O/.X...O", "missing '/' at position 8 of 'X.O/.X...O'"),
        ("X.O.X./..O", "missing '/' at position 4"),
    ],
)
def test_rejected_board_syntax(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        GameBoard.from_string(text)
    text_of_error = str(caught.value)
    assert message in text_of_error
    assert "\n" not in text_of_error and "\x1b" not in text_of_error  # one line, no raw escapes
    assert not isinstance(caught.value, InvalidPosition)  # syntax, not an impossible position


def test_exactly_the_two_documented_forms_are_accepted() -> None:
    # Every string of '.' and '/' up to 13 characters: where the slashes may go
    # does not depend on which cells hold what.
    documented = re.compile(r"[XxOo. ]{9}|[XxOo. ]{3}/[XxOo. ]{3}/[XxOo. ]{3}")
    accepted = 0
    for length in range(14):
        for chars in itertools.product("./", repeat=length):
            text = "".join(chars)
            try:
                GameBoard.from_string(text)
            except ValueError as error:
                assert not documented.fullmatch(text), (text, error)
                assert "/" in str(error) or "9 cells" in str(error)
            else:
                assert documented.fullmatch(text), text
                accepted += 1
    assert accepted == 2


def test_rejections_never_quote_more_than_40_characters_of_the_input() -> None:
    for text in ("a" * 5000, "." * 5000, "/" * 5000, "X" + "/" * 4999, "X.O/" * 1250, "ß" * 5000):
        with pytest.raises(ValueError) as caught:
            GameBoard.from_string(text)
        message = str(caught.value)
        assert len(message) < 200, message
        quoted = message.split(" of ", 1)[-1] if " of " in message else message.split(" in ", 1)[1]
        assert quoted.index("…") <= 42, message  # at most ~40 characters of input, then …


def test_a_bad_character_far_in_is_still_named_with_its_position() -> None:
    with pytest.raises(ValueError, match="bad character 'Z' at position 5000 of '"):
        GameBoard.from_string("." * 4999 + "Z")


def test_the_command_quotes_the_bad_character_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "XOß......"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tui-tictactoe analyse: error: bad character 'ß' at position 3")
    assert "'S'" not in err and err.count("\n") == 1
    assert main(["analyse", "ß" * 5000, "--json"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and len(err) < 250


def test_to_move_that_contradicts_the_counts_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Three X, two O: O must move.
    assert main(["analyse", "XX./OO./X..", "--to-move", "X"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "O moves" in err


def test_o_first_win_by_x_needs_no_flag_but_refuses_x_to_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # O, X, O, X, O, X: X completes the top row; counts are equal.
    board = "XXX/OO./O.."
    assert run_json(capsys, board)["to_move"] == "O"
    assert run_json(capsys, board, "--to-move", "O")["status"] == "X_wins"
    assert main(["analyse", board, "--to-move", "X"]) == 2
    capsys.readouterr()


# -- the text output -------------------------------------------------------------


def test_text_output_lists_every_move_and_the_best(capsys: pytest.CaptureFixture[str]) -> None:
    for board in ("X.O.X...O", EMPTY_BOARD, "XO.XO....", "....X...."):
        mover = X_FIRST[board]
        assert main(["analyse", board]) == 0
        out, _ = capsys.readouterr()
        lines = out.splitlines()
        assert lines[:3] == [" ".join(board[r * 3 : r * 3 + 3]) for r in range(3)]
        assert f"{mover} to move." in lines
        expected = expected_json(board, mover)
        rows = [line.split() for line in lines if line.split()[:1] and line.split()[0].isdigit()]
        assert len(rows) == len(expected["moves"])
        for row, move in zip(rows, expected["moves"], strict=True):
            key, r, c, *verdict = row
            assert (int(r) - 1, int(c) - 1) == (move["row"], move["col"])  # 1-based in text
            assert int(key) == move["row"] * 3 + move["col"] + 1
            assert verdict[0] == move["outcome"]
            if move["outcome"] != "draw":
                assert verdict[2] == str(move["plies"])
            assert (verdict[-1] == "best") == ([move["row"], move["col"]] in expected["best"])
        assert lines[-1].startswith("Best: cell ")


def test_text_output_names_cells_as_the_game_draws_them(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 21: one name per cell. The game draws each empty cell's number (also on 4x4
    and 5x5) and says "AI played 15", "Hint: cell 6"; `analyse` calls them the same."""
    assert main(["analyse", "X.../.O../..../...."]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "cell  row col  verdict     line" in lines
    rows = [line.split() for line in lines if line.split()[:1] and line.split()[0].isdigit()]
    assert len(rows) == 14
    for cell, row, col, *_ in rows:
        assert int(cell) == (int(row) - 1) * 4 + int(col)
    assert lines[-1].startswith("Best: cell ")


def test_text_output_of_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "XOX/XOO/OXX"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "It's a draw."
    assert main(["analyze", "XXX/OO./..."]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "X has won."


# -- 4x4 and 5x5 (four in a row): the cell count picks the board --------------------------


@pytest.mark.parametrize(
    ("size", "empties", "rows"), [(4, 8, False), (4, 7, True), (5, 7, False), (5, 6, True)]
)
def test_analyse_big_boards_agrees_with_brute_force(
    size: int, empties: int, rows: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    from search_oracles import oracle_value, oracle_wins, random_ending

    from tui_tictactoe.engine.board import other
    from tui_tictactoe.engine.solver import Verdict

    rng = random.Random(size * 10 + empties)
    for _ in range(4):
        cells, mover = random_ending(rng, size, 4, empties)
        text = "/".join(cells[r * size : (r + 1) * size] for r in range(size)) if rows else cells
        assert main(["analyse", text, "--to-move", mover, "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["board"] == cells and result["to_move"] == mover
        scores = {}
        for index in (i for i, char in enumerate(cells) if char == "."):
            after = cells[:index] + mover + cells[index + 1 :]
            if oracle_wins(after, size, 4, mover):
                score = empties
            else:
                score = -oracle_value(after, size, 4, other(mover))
            scores[divmod(index, size)] = score
        found = {(m["row"], m["col"]): (m["outcome"], m["plies"]) for m in result["moves"]}
        verdicts = {cell: Verdict.from_score(score, empties) for cell, score in scores.items()}
        assert found == {cell: (v.outcome, v.plies) for cell, v in verdicts.items()}
        top = max(scores.values())
        assert {tuple(cell) for cell in result["best"]} == {
            cell for cell, score in scores.items() if score == top
        }


def test_analyse_names_every_board_size_when_the_count_fits_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyse", "X.O.X...O."]) == 2
    error = capsys.readouterr().err
    assert "board must have 9, 16, 25 or 36 cells, got 10 in 'X.O.X...O.'" in error
    assert main(["analyse", "X.O.X...O.!"]) == 2  # a bad character is still named first
    assert "bad character '!' at position 11" in capsys.readouterr().err


# -- rows separated by spaces, as people type them ---------------------------------------


@pytest.mark.parametrize(
    ("typed", "cells"),
    [
        ("x.o .x. ..o", "X.O.X...O"),
        ("X.O .X. ..O", "X.O.X...O"),
        ("x... .o.. ..x. ...o", "X....O....X....O"),
        (".x... ..o.. ..... ..... .....", ".X.....O................."),
        # Exactly 9, 16 or 25 characters: read cell by cell, a space is an empty cell.
        ("X O.X. .O", "X.O.X...O"),
        ("X O/ X / .O", "X.O.X...O"),  # with '/' between rows, too
    ],
)
def test_rows_may_be_separated_by_one_space(
    typed: str, cells: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert board_from_text(typed).to_string() == cells
    assert main(["analyse", typed, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == cells


EXAMPLES = ("X.O/.X./..O", "X.O .X. ..O")  # every syntax error shows one of them


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("x.o .x ..o", "got rows of 3, 2 and 3 cells in 'x.o .x ..o': with spaces between rows"),
        ("x o .x. ..o", "got rows of 1, 1, 3 and 3 cells in"),
        ("x.o .x.", "got 2 rows of 3 cells in 'x.o .x.'"),
        ("x.o. .x.. ..o.", "got 3 rows of 4 cells"),
        (" ".join("." * 30), "got 30 rows in"),
        ("x.o  .x. ..o", "misplaced space at position 5 of 'x.o  .x. ..o'"),
        (" x.o .x. ..o", "misplaced space at position 1"),
        ("x.o .x. ..o ", "misplaced space at position 12"),
        (
            "X.O.X...O..",
            "board must have 9, 16, 25 or 36 cells, got 11 in 'X.O.X...O..': type rows of",
        ),
        (
            "x.o/.x. ..o",
            "board must have 9, 16, 25 or 36 cells, got 10",
        ),  # '/' there: a space is a cell
        ("X.O.X.Z.O", "bad character 'Z' at position 7 of 'X.O.X.Z.O': type rows of X, O or '.'"),
        ("x.o .x. ..0", "bad character '0' at position 11"),
        ("X.O//.X...O", "misplaced '/' at position 5"),
        ("X.O/.X...O", "missing '/' at position 8"),
    ],
)
def test_each_board_error_says_what_to_type(
    typed: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError) as caught:
        board_from_text(typed)
    assert message in str(caught.value)
    assert any(example in str(caught.value) for example in EXAMPLES), caught.value
    assert main(["analyse", typed]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err == f"tui-tictactoe analyse: error: {caught.value}\n"


def test_exactly_the_documented_board_forms_are_read() -> None:
    # Every string of '.', ' ' and '/' up to 11 characters (every 3x3 form fits in 11): a
    # space is a row separator or an empty cell by the rule in the help, never a guess.
    documented = re.compile(r"[. ]{9}|[. ]{3}/[. ]{3}/[. ]{3}|\.{3} \.{3} \.{3}")
    accepted = 0
    for length in range(12):
        for chars in itertools.product("./ ", repeat=length):
            text = "".join(chars)
            try:
                board_from_text(text)
            except ValueError as error:
                assert not documented.fullmatch(text), (text, error)
            else:
                assert documented.fullmatch(text), text
                accepted += 1
    assert accepted == 2**9 + 2**9 + 1


def test_the_help_states_how_spaces_are_read(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["analyse", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "A space is an empty cell only where it cannot separate rows" in help_text
    assert "'X.O .X. ..O'" in help_text and "X.O/.X./..O" in help_text


def test_a_6x6_board_is_analysed_with_proven_wins_and_unknowns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """36 cells are 6x6, five in a row: the bounded search proves X's open four (cell 5:
    .XXXX. in the top row) and says "unknown" elsewhere; the same board twice gives the
    same answer (a count of positions, not a clock, bounds each move)."""
    board = ".XXX.. O..... .O.... ...... ..O... ......"
    assert main(["analyse", board, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    outcomes = {(move["row"], move["col"]): move["outcome"] for move in first["moves"]}
    assert len(outcomes) == 30 and outcomes[(0, 4)] == "win" and first["best"] == [[0, 4]]
    assert "unknown" in outcomes.values()
    assert set(outcomes.values()) <= {"win", "loss", "draw", "unknown"}
    assert main(["analyse", board, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert main(["analyse", "X....." + "." * 29 + "O"]) == 0
    out = capsys.readouterr().out
    assert "X to move." in out and out.rstrip().endswith('a verdict shown "unknown" is unproven)')
