"""`analyse --proof` and `--json`: every verdict carries its line of play and its proof, and
every proof shown checks, by the package's checkers (`pairing.check`, `fours.check_line`) and
by an independent one written here from the rules (lines of five listed by hand).

On 3x3 every line of every position is replayed: a win in N is N moves ending in the mover's
line, a draw fills the board with no line. On 6x6: the empty board (no "unknown": every move a
draw by pairings), and mid-game positions with a win by fours, a loss, and draws.
"""

from __future__ import annotations

import json

import pytest
from reference import reachable

from tui_tictactoe.cli import main
from tui_tictactoe.engine.analysis import analyse
from tui_tictactoe.engine.board import GameBoard
from tui_tictactoe.engine.fours import check_line
from tui_tictactoe.engine.geometry import STANDARD, geometry
from tui_tictactoe.engine.pairing import check

G6 = geometry(6, 5)
X_FIRST = reachable("X")

Json = dict[str, object]


def lines_of_five() -> list[frozenset[int]]:
    """Every line of five on 6x6, as cell numbers (1 top-left), listed from the rules."""
    found = []
    for row in range(6):
        for col in range(6):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + dr * step, col + dc * step) for step in range(5)]
                if all(0 <= r < 6 and 0 <= c < 6 for r, c in cells):
                    found.append(frozenset(r * 6 + c + 1 for r, c in cells))
    return found


LINES = lines_of_five()


def stones(board: str, mark: str) -> set[int]:
    return {index + 1 for index, char in enumerate(board) if char == mark}


def pairs_hold(board: str, breaker: str, pairs: list[list[int]]) -> bool:
    """Independently: the pairs are disjoint pairs of empty cells and every line without a
    stone of `breaker` holds both cells of one of them."""
    flat = [cell for pair in pairs for cell in pair]
    if any(len(pair) != 2 for pair in pairs) or len(flat) != len(set(flat)):
        return False
    if any(board[cell - 1] != "." for cell in flat):
        return False
    mine = stones(board, breaker)
    return all(any(set(pair) <= line for pair in pairs) for line in LINES if not line & mine)


def fours_hold(board: str, attacker: str, line: list[int]) -> bool:
    """Independently: the attacker's moves each leave exactly the defender's next move as
    a line's last empty cell (or two: the defender blocks one), and the last completes five."""
    cells = dict(enumerate(board, 1))
    defender = "O" if attacker == "X" else "X"
    for number, cell in enumerate(line):
        if cells[cell] != ".":
            return False
        cells[cell] = attacker if number % 2 == 0 else defender
        if number % 2 == 0:
            five = any(all(cells[c] == attacker for c in each) for each in LINES)
            if five:
                return number == len(line) - 1
            open_fours = {
                next(c for c in each if cells[c] == ".")
                for each in LINES
                if sum(cells[c] == attacker for c in each) == 4
                and sum(cells[c] == "." for c in each) == 1
            }
            if number + 1 >= len(line) or line[number + 1] not in open_fours:
                return False
    return False


def run_json(capsys: pytest.CaptureFixture[str], board: str) -> Json:
    assert main(["analyse", board, "--json"]) == 0
    found: Json = json.loads(capsys.readouterr().out)
    return found


def moves_of(result: Json) -> list[Json]:
    moves = result["moves"]
    assert isinstance(moves, list)
    return moves


def after(board: str, cell: int, mark: str) -> str:
    return board[: cell - 1] + mark + board[cell:]


def check_pairing_proof(board: str, mover: str, move: Json) -> None:
    """The other side's pairs (after its reply) and the mover's own pairs (or one pairing
    per reply) hold, by both checkers."""
    proof = move["proof"]
    assert isinstance(proof, dict) and proof["kind"] == "pairing"
    them = "O" if mover == "X" else "X"
    played = after(board, int(move["cell"]), mover)  # type: ignore[call-overload]
    theirs = played if proof["reply"] is None else after(played, proof["reply"], them)
    for text, breaker, pairs in [(theirs, them, proof["pairs"])] + (
        [(played, mover, proof["guard"])] if "guard" in proof else []
    ):
        assert pairs_hold(text, breaker, pairs)
        me, other = GameBoard.from_string(text, G6).masks_for(breaker)
        assert check(G6, me, other, tuple((a - 1, b - 1) for a, b in pairs)) is None
    for answer in proof.get("answers", []):
        text = after(played, answer["reply"], them)
        if answer["answer"] is not None:
            text = after(text, answer["answer"], mover)
        assert pairs_hold(text, mover, answer["pairs"])
    if "answers" in proof:
        assert len(proof["answers"]) == played.count(".")


def test_the_empty_6x6_board_is_a_draw_everywhere_with_every_pairing_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    board = "." * 36
    result = run_json(capsys, board)
    moves = moves_of(result)
    assert len(moves) == 36
    assert {move["outcome"] for move in moves} == {"draw"}
    for move in moves:
        check_pairing_proof(board, "X", move)
        line = move["line"]
        assert isinstance(line, list) and line[0] == move["cell"]
    assert len(result["best"]) == 36  # type: ignore[arg-type]  # all proven equal


def test_a_pairing_that_does_not_hold_is_refused_by_both_checkers() -> None:
    board = "." * 36
    assert not pairs_hold(board, "O", [[1, 2]])
    assert check(G6, 0, 0, ((0, 1),)) is not None
    assert not pairs_hold(board, "O", [[1, 2], [2, 3]])  # not disjoint


MID_GAME = {
    # X has four in the top row: a win in one at 5.
    "four": "XXXX...O.......O......O............O",
    # X to move, O threatens five at cell 5: everything but the block loses in 2.
    "threat": "OOOO..XX....X.....X.................",
    # A quiet position: the pairings prove most moves draws.
    "quiet": ".......X.O....X......O..............",
}


@pytest.mark.parametrize("name", sorted(MID_GAME))
def test_mid_game_proofs_check_and_lines_start_with_the_move(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    board = MID_GAME[name]
    result = run_json(capsys, board)
    mover = str(result["to_move"])
    them = "O" if mover == "X" else "X"
    outcomes = set()
    for move in moves_of(result):
        outcomes.add(move["outcome"])
        line = move["line"]
        assert isinstance(line, list) and line and line[0] == move["cell"]
        proof = move["proof"]
        if proof is None:
            assert move["outcome"] == "unknown"
            continue
        assert isinstance(proof, dict)
        if proof["kind"] == "fours":
            attacker = mover if move["outcome"] == "win" else them
            forced = proof["line"]
            assert forced == line
            if attacker == mover:
                assert fours_hold(board, mover, forced)
                me, other = GameBoard.from_string(board, G6).masks_for(mover)
                assert check_line(G6, me, other, tuple(c - 1 for c in forced)) is None
            else:  # the move, then the other side's fours (or its five)
                assert fours_hold(after(board, forced[0], mover), them, forced[1:])
        elif proof["kind"] == "pairing":
            assert move["outcome"] == "draw"
            check_pairing_proof(board, mover, move)
    if name == "four":
        assert "win" in outcomes
        won = next(move for move in moves_of(result) if move["cell"] == 5)
        assert won["outcome"] == "win" and won["plies"] == 1 and won["line"] == [5]
    if name == "threat":
        loss = [move for move in moves_of(result) if move["outcome"] == "loss"]
        assert len(loss) == len(moves_of(result)) - 1
        assert all(move["plies"] == 2 and move["line"][1] == 5 for move in loss)  # type: ignore[index]
    if name == "quiet":
        assert "draw" in outcomes


def test_proof_prints_the_pairs_as_letters_and_the_forcing_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyse", "." * 36, "--proof"]) == 0
    out = capsys.readouterr().out
    assert "every line X could still fill holds one of them" in out
    assert "  A A" in out or "A A" in out.replace(".", "").replace("  ", " ")
    assert "unknown" not in out.split("Best:")[0]
    assert main(["analyse", MID_GAME["four"], "--proof"]) == 0
    out = capsys.readouterr().out
    assert "   5    1   5  win in 1    5   best" in out
    assert "forced: " in out


def test_every_3x3_line_of_play_is_legal_and_reaches_its_verdict() -> None:
    """From the solved table's memory: a win (loss) in N is N moves, the mover's (the
    other's) line completed by the last; a draw fills the board with no line."""
    for board, mover in X_FIRST.items():
        game = GameBoard.from_string(board, STANDARD)
        if game.outcome() is not None:
            continue
        for move in analyse(game, mover).moves:
            copy, side = game.copy(), mover
            for cell in move.line:
                copy.make_move(*STANDARD.coords(cell), side)
                side = "O" if side == "X" else "X"
            assert move.line[0] == STANDARD.index(*move.cell)
            outcome = copy.outcome()
            assert outcome is not None, (board, move)
            if move.verdict.outcome == "draw":
                assert outcome.winner is None
            else:
                assert len(move.line) == move.verdict.plies
                winner = mover if move.verdict.outcome == "win" else ("O" if mover == "X" else "X")
                assert outcome.winner == winner, (board, move)


def test_a_5x5_line_is_read_from_the_book_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """O must block at 4; the line after it comes from the search's memory, legal throughout
    (it may stop short where the memory has nothing, never run past the verdict)."""
    board = "XXX..OO.................."
    result = run_json(capsys, board)
    block = next(move for move in moves_of(result) if move["cell"] == 4)
    line = block["line"]
    assert isinstance(line, list) and line[0] == 4 and len(line) > 2
    assert len(set(line)) == len(line) and all(board[cell - 1] == "." for cell in line)
    for move in moves_of(result):
        if move["outcome"] == "loss":
            assert move["line"][:2] == [move["cell"], 4]  # type: ignore[index]
