"""4x4 and 5x5 boards in the game: the option, the grid, the keys, and cancelling the AI.

The engine's exactness on big boards is tested with the engine; here the game side:
the size reaches the board from every place an option comes from, every input plays
on it, and a long search is stopped (never reported as an error) when the game
moves on or quits.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from support import (
    SIZE,
    GatedSearch,
    ScriptedStrategy,
    cell,
    make_app,
    note,
    press,
    settle,
    status,
)

from tui_tictactoe import cli
from tui_tictactoe.controller import CHOICES, AIRequest, GameController, GameOptions
from tui_tictactoe.controller.status import FINDING_HINT
from tui_tictactoe.engine.board import Cell, GameBoard
from tui_tictactoe.engine.cancel import SearchCancelled
from tui_tictactoe.engine.geometry import geometry
from tui_tictactoe.engine.players import AIPlayer
from tui_tictactoe.engine.search import Search, shared_search
from tui_tictactoe.engine.solver import Verdict
from tui_tictactoe.engine.strategies import Decision, MinimaxStrategy, MoveStrategy, RandomStrategy
from tui_tictactoe.record import Record
from tui_tictactoe.ui.widgets.reasoning_panel import describe


class EndlessSearch(MoveStrategy):
    """A search that never finishes on its own: it only polls `cancelled`, as the real
    one does, and says (by events, not by time) that it started and that it stopped."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.stopped = threading.Event()

    def find_best_move(
        self, board: GameBoard, player: Any, cancelled: Any = None
    ) -> Cell:  # pragma: no cover - the loop ends by cancellation only
        stopped = self.stopped  # this search's own flag: a test may swap in a new one
        self.started.set()
        while cancelled is None or not cancelled():
            threading.Event().wait(0.005)
        stopped.set()
        raise SearchCancelled()

    async def until(self, event: threading.Event) -> None:
        assert await asyncio.to_thread(event.wait, 10)


# -- the option ---------------------------------------------------------------------


def test_board_sizes_come_from_the_one_list() -> None:
    assert CHOICES["board"] == ("3", "4", "5", "6")
    assert GameOptions().geometry == geometry(3, 3)
    assert GameOptions(board="4").geometry == geometry(4, 4)
    assert GameOptions(board="5").geometry == geometry(5, 4)
    assert GameOptions(board="6").geometry == geometry(6, 5)
    with pytest.raises(ValueError, match="board"):
        GameOptions(board="7").validated()


def test_board_flag(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[object] = []

    def run_play(args: argparse.Namespace) -> int:
        seen.append(args.board)
        return 0

    monkeypatch.setattr(cli, "run_play", run_play)
    assert cli.main(["--board", "5"]) == 0
    assert cli.main([]) == 0
    assert seen == ["5", None]  # not given: the saved setting, else 3
    assert "{3,4,5,6}" in cli.build_parser().format_help()
    with pytest.raises(SystemExit):
        cli.main(["--board", "7"])
    assert "(choose from 3, 4, 5, 6)" in capsys.readouterr().err


def test_board_size_is_a_saved_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_TICTACTOE_DATA_DIR", str(tmp_path))
    with Record.open() as record:
        assert record.save_settings("alice", board="4")
        assert record.settings("alice") == {"board": "4"}
        with pytest.raises(ValueError):
            record.save_settings("alice", board="7")


@pytest.mark.parametrize(("board", "size", "win"), [("3", 3, 3), ("4", 4, 4), ("5", 5, 4)])
def test_the_controller_builds_the_board_of_its_options(board: str, size: int, win: int) -> None:
    controller = GameController(GameOptions(difficulty="easy", board=board))
    assert controller.board.geometry == geometry(size, win)
    controller.play_human_move(size - 1, size - 1)  # MoveRefused if refused
    request = controller.ai_request()
    assert request is not None
    assert controller.apply(request.compute())
    assert len(controller.board.moves) == 2
    controller.new_round()
    assert controller.board.geometry == geometry(size, win)


def test_a_search_is_told_to_stop_when_the_game_moves_on() -> None:
    controller = GameController(GameOptions(first="ai", board="5"))
    request = controller.ai_request()
    assert request is not None and request.cancelled is not None
    assert not request.cancelled()
    controller.new_round()  # the generation moves on
    assert request.cancelled()
    # An empty 5x5 board without the book is seconds of search: cancelled, it gives up.
    slow = AIRequest(request.generation, request.board, AIPlayer("X", MinimaxStrategy(book={})))
    reply = slow._replace(cancelled=request.cancelled).compute()
    assert reply.cancelled and reply.move is None and reply.error is None
    assert not controller.apply(reply)


def test_ai_player_hands_its_cancel_check_to_the_strategy_as_it_is() -> None:
    seen: list[object] = []

    class Recording(MoveStrategy):
        def find_best_move(self, board: GameBoard, player: Any, cancelled: Any = None) -> Cell:
            seen.append(cancelled)
            return board.get_empty_cells()[0]

    def stop() -> bool:
        return False

    player = AIPlayer("O", Recording())
    assert player.find_best_move(GameBoard(geometry(4, 4)), cancelled=stop) == (0, 0)
    assert player.find_best_move(GameBoard(geometry(4, 4))) == (0, 0)
    assert seen == [stop, None]


@pytest.mark.parametrize(
    "strategy", [MinimaxStrategy(), MinimaxStrategy(depth=1), RandomStrategy()]
)
def test_every_shipped_strategy_takes_the_cancel_check(strategy: MoveStrategy) -> None:
    board = GameBoard.from_string("XO.......")
    assert strategy.find_best_move(board, "X", lambda: False) in board.get_empty_cells()


def test_info_panel_on_a_perfect_big_board_search() -> None:
    decision = Decision((1, 2), Verdict("draw", 0), 1234, 0.25, None, None)
    rows = dict(describe(decision, geometry(4, 4)))
    assert rows["Played"] == "cell 7"
    assert rows["Row, column"] == "2, 3"
    assert rows["Plain minimax"] == "too big to count"


# -- the app --------------------------------------------------------------------------


async def test_4x4_plays_by_arrows_enter_and_mouse_not_digits() -> None:
    app = make_app(board="4", difficulty="easy", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        cells = app.game.grid.cells
        assert len(cells) == 16
        # Each cell shows the number every message names it by (digits do not play it).
        assert [str(c.label) for c in cells] == [str(key) for key in range(1, 17)]
        await press(pilot, "1", "9")
        before = app.controller.board.moves  # named: mypy would keep `moves` empty below
        assert before == ()
        assert note(app) == "On 4x4 use the arrows and Enter: digits play 3x3 only."
        assert app.game.cursor == (2, 2)
        await press(pilot, "right", "enter")
        assert app.controller.board.moves[0] == (2, 3)
        moves = app.controller.board.moves  # named: mypy would keep `moves` at two below
        assert len(moves) == 2  # the AI answered
        free = next(c for c in app.game.grid.cells if c.symbol == " ")
        assert await pilot.click(f"#{free.id}")
        await settle(pilot)
        assert app.controller.board.moves[2] == (free.row, free.col)
        digit = app.game.active_bindings.get("1")
        assert digit is None or not digit.enabled  # the digits do not play on 4x4
        shown = " ".join(app.game.key_bar.lines(SIZE[0]))
        assert "Enter Play" in shown and "1-9" not in shown  # the key bar says so


async def test_the_dialog_changes_the_board_size_and_back() -> None:
    app = make_app(difficulty="easy", record=False)
    async with app.run_test(size=(80, 25)) as pilot:  # 6x6's least height (`test_fit`)
        await settle(pilot)
        await press(pilot, "n", *["down"] * 4, "right", "right", "enter")  # Board: 3x3 → 5x5
        assert app.controller.options.board == "5"
        await settle(pilot)
        assert len(app.game.grid.cells) == 25
        assert app.game.cursor == (2, 2)
        await press(pilot, "down", "down", "right", "right", "enter")
        assert app.controller.board.moves[0] == (4, 4)
        await press(pilot, "n", *["down"] * 4, "right", "enter")  # 5x5 → 6x6
        await settle(pilot)
        assert app.controller.options.board == "6"
        assert len(app.game.grid.cells) == 36
        assert app.game.cursor == (3, 3)  # a middle cell, as on 4x4
        await press(pilot, "n", *["down"] * 4, "right", "enter")  # 6x6 → 3x3 (wraps around)
        await settle(pilot)
        assert app.controller.options.board == "3"
        assert len(app.game.grid.cells) == 9
        assert str(cell(app, 0, 0).label) == "1"  # the key numbers are back
        await press(pilot, "1")
        assert app.controller.board.moves[0] == (0, 0)


async def test_big_board_analysis_fills_in_and_the_hint_is_a_best_move() -> None:
    app = make_app(board="4", record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # (2, 2), then the AI's reply
        await press(pilot, "a")
        for _ in range(200):  # cell by cell, in a thread; bounded by steps, not by time
            if (app.game.sub_title or "").endswith("analysis done"):
                break
            await pilot.pause(0.05)
        assert (app.game.sub_title or "").endswith("· analysis done")  # in the title, apart
        assert status(app).startswith("AI played")  # the status keeps the AI's move
        empty = [c for c in app.game.grid.cells if c.symbol == " "]
        assert len(empty) == 14 and all(c.verdict is not None for c in empty)
        # Exact: the best cells' verdict is the position's own value.
        controller = app.controller
        me, them = controller.board.masks_for(controller.human_symbol)
        value = shared_search(controller.board.geometry).value(me, them)
        best = {c.verdict.verdict for c in empty if c.verdict is not None and c.verdict.best}
        assert best == {Verdict.from_score(value, 14)}
        await press(pilot, "h")  # found in a thread, like the AI's moves
        for _ in range(200):
            if app.controller.teacher.hinted is not None:
                break
            await pilot.pause(0.05)
        assert app.controller.teacher.hinted is not None
        hinted = app.game.grid.cell(*app.controller.teacher.hinted)
        assert hinted.verdict is not None and hinted.verdict.best
        assert "-hint" in hinted.classes
        assert note(app).startswith(f"Hint: cell {hinted.key} ")
        await press(pilot, "a")
        assert all(c.verdict is None for c in app.game.grid.cells)
        assert status(app).startswith("AI played")


async def test_the_analysis_progress_never_hides_why_a_key_was_refused() -> None:
    """Found in tmux: Enter on a taken cell while the overlay filled in, and the next cell
    found replaced the refusal at once. The progress is now counted in the title: the
    status line keeps the AI's move and the refusal under it."""
    gate = threading.Event()
    app = make_app(board="4", record=False)
    app.controller.teacher.analysis_search = lambda g: GatedSearch(shared_search(g), gate)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")  # (2, 2), and the AI's reply
        await pilot.press("a", "enter")  # the overlay on (held at the gate); (2, 2) again
        played = status(app)
        assert played.startswith("AI played")
        refusal = note(app)
        said = app.game.status.note
        assert said is not None and said.tone == "refused" and "taken" in refusal
        assert (app.game.sub_title or "").endswith("· analysing 0/14…")
        found = app.controller.teacher.analysis_found
        assert found is not None and found.found == 0
        gate.set()  # now the cells are found, after the refusal
        for _ in range(200):  # bounded by steps, not time
            found = app.controller.teacher.analysis_found
            if found is not None and found.done:
                break
            await pilot.pause(0.05)
        assert found is not None and found.found == found.total == 14
        assert (status(app), note(app)) == (played, refusal)
        assert (app.game.sub_title or "").endswith("· analysis done")


async def until_title(app: Any, pilot: Any, pattern: str) -> None:
    """Pause until the game's title matches `pattern` (bounded by steps, not time)."""
    for _ in range(200):
        if re.search(pattern, app.game.sub_title):
            return
        await pilot.pause(0.05)
    raise AssertionError(f"the title never matched {pattern!r}: {app.game.sub_title!r}")


async def test_a_long_big_board_analysis_never_holds_up_the_game(scripted) -> None:
    """The 5x5 opening is read from the stored scores at once; past it, the overlay's search
    (held shut here: as long as a real one) never holds up a move, `a` or a quit."""
    gate = threading.Event()  # never opened: each searched cell waits until stopped
    app = make_app(board="5", strategy=scripted((0, 0), (4, 4), (0, 4)), record=False)
    app.controller.teacher.analysis_search = lambda g: GatedSearch(shared_search(g), gate)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")  # the empty board: stored, done without a search
        await until_title(app, pilot, "· analysis done$")
        await pilot.press("enter", "right")  # (2, 2); the AI's corner; two stones: stored
        await until_title(app, pilot, "· analysis done$")
        await pilot.press("enter")  # (2, 3); the AI's reply: four stones, searched
        await until_title(app, pilot, r"· analysing \d+/21…$")
        assert status(app).startswith("AI played")
        await pilot.press("right", "enter")  # the game goes on: the stale search stops
        await until_title(app, pilot, r"· analysing \d+/19…$")
        assert app.controller.board.moves[4] == (2, 4) and len(app.controller.board.moves) == 6
        await pilot.press("a")  # switched off: its search stops
        await settle(pilot)  # every worker, the analysis's too, has finished
        assert status(app).startswith("AI played")
        await pilot.press("a")  # on again: the search starts over for this position
        await until_title(app, pilot, r"· analysing \d+/19…$")
        await pilot.press("ctrl+q")  # quitting stops it: the app exits
    assert app.return_code == 0


async def test_reset_cancels_a_long_search_and_shows_the_time() -> None:
    strategy = EndlessSearch()
    app = make_app(board="5", first="ai", strategy=strategy, record=False)
    async with app.run_test(size=SIZE) as pilot:
        await strategy.until(strategy.started)
        for _ in range(100):  # the clock ticks every 0.1 s; no assert on how long it took
            if re.fullmatch(r"AI is thinking… \d+\.\d s", status(app)):
                break
            await pilot.pause(0.05)
        assert re.fullmatch(r"AI is thinking… \d+\.\d s", status(app))
        first = strategy.stopped
        strategy.stopped = threading.Event()
        strategy.started.clear()
        await pilot.press("r")
        await strategy.until(first)  # the search of the old round was told to stop
        await strategy.until(strategy.started)  # the new round's search began
        assert app.controller.ai_error is None
        assert "failed" not in status(app)
        await pilot.press("ctrl+q")  # quitting while it thinks exits
    assert app.return_code == 0
    assert strategy.stopped.is_set()


async def test_quit_with_q_while_a_big_search_runs() -> None:
    strategy = EndlessSearch()
    app = make_app(board="4", first="ai", strategy=strategy, record=False)
    async with app.run_test(size=SIZE) as pilot:
        await strategy.until(strategy.started)
        await pilot.press("q")  # no move of the human's yet: quits at once
    assert app.return_code == 0
    assert strategy.stopped.is_set()


def test_serve_ssh_passes_the_board_on() -> None:
    from server_tools import game_argv

    from tui_tictactoe.servers.games.command import parse_play_options

    argv = game_argv(parse_play_options("--board 5"))
    assert argv[argv.index("--board") + 1] == "5"
    assert "--board" not in game_argv(parse_play_options(""))


def test_a_big_round_replays_without_analysis() -> None:
    from tui_tictactoe.controller.replay import Replay

    steps = Replay.of_round(4, "X", "human", (1, 6, 2, 7, 3, 8, 4)).moves
    assert [step.cell for step in steps][-1] == (0, 3)
    assert len(steps) == 7  # four in a row on 4x4: a row of three does not end it
    assert all(step.verdict is None for step in steps)


async def test_a_saved_board_size_is_the_next_game_and_the_dialog_saves_it() -> None:
    from tui_tictactoe.identity import current_identity

    player = current_identity().player
    with Record.open() as record:
        assert record.save_settings(player, board="4")
    app = make_app()  # the record of this test's own (conftest): saved settings apply
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):  # the settings arrive from the record's thread
            if len(app.game.grid.cells) == 16:
                break
            await pilot.pause(0.05)
        assert app.controller.options.board == "4"
        assert len(app.game.grid.cells) == 16
        await press(pilot, "n", *["down"] * 4, "right", "enter")  # 4x4 → 5x5, saved
        await settle(pilot)
        assert len(app.game.grid.cells) == 25
        for _ in range(100):  # saved in the record's thread
            with Record.open() as record:
                if record.settings(player).get("board") == "5":
                    break
            await pilot.pause(0.05)
    with Record.open() as record:
        assert record.settings(player)["board"] == "5"


class GatedHintSearch(MinimaxStrategy):
    """The real hint search, held until `gate` opens and deaf to cancelling: the test decides
    when the hint is found, whatever the machine's speed, and its answer comes late."""

    gate = threading.Event()

    def find_best_move(self, board: GameBoard, player: Any, cancelled: Any = None) -> Cell:
        assert self.gate.wait(10), "the test never opened the gate"
        return super().find_best_move(board, player)


async def test_a_slow_big_board_hint_never_holds_up_the_game_and_a_late_one_is_dropped() -> None:
    # The hint's search is held at a gate: on a quick machine the real 2 s search on 5x5
    # could end before the status was read (it did, under load from other processes).
    # Six stones: past the opening, where the hint is read, not searched.
    GatedHintSearch.gate.clear()
    ai = ScriptedStrategy((0, 4), (0, 3), (4, 4), (4, 3))
    app = make_app(board="5", record=False, strategy=ai)
    app.controller.teacher.hint_strategy = lambda rng: GatedHintSearch(rng=rng)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # The centre, then (0, 0), (0, 1) and (4, 1), each answered by the AI.
        for key in ("up", "up", "left", "left", "enter", "right", "enter"):
            await pilot.press(key)
        await settle(pilot)
        for key in ("down", "down", "down", "down", "enter"):
            await pilot.press(key)
        await settle(pilot)
        played: tuple[tuple[int, int], ...] = ((0, 0), (0, 4), (0, 1), (0, 3), (4, 1), (4, 4))
        assert app.controller.board.moves == played
        await pilot.press("h")
        await pilot.pause()
        assert note(app) == FINDING_HINT.text
        await pilot.press("right", "enter")  # the game goes on, the hint still searching
        for _ in range(200):  # the AI's reply (bounded by steps; the hint holds `settle`)
            if len(app.controller.board.moves) == 8:
                break
            await pilot.pause(0.05)
        played += ((4, 2), (4, 3))
        assert app.controller.board.moves == played
        GatedHintSearch.gate.set()  # the hint about the old position comes now: dropped
        await settle(pilot)  # every worker, the hint's too, has finished
        assert app.controller.board.moves == played
        assert app.controller.teacher.hinted is None
        assert not any("-hint" in c.classes for c in app.game.grid.cells)
        assert not note(app).startswith("Hint")
        await pilot.press("h", "ctrl+q")  # quitting stops a hint's search too
    assert app.return_code == 0


# -- the real search, cancelled -------------------------------------------------------


class WatchedMinimax(MinimaxStrategy):
    """The real perfect AI on 5x5, with no opening book and a cold table of its own: the
    empty board is seconds of search. It says, by events, when a search started and
    when one gave up because it was cancelled (never when it just finished)."""

    def __init__(self) -> None:
        super().__init__(rng=random.Random(3), search=Search(geometry(5, 4)), book={})
        self.started = threading.Event()
        self.cancelled = threading.Event()
        # Set by a test that needs the UI for a while first: Pilot waits up to 1 s after
        # each key for the process to go idle, which a search never lets it, so three
        # keys could outlast the whole search (seen in CI) before the one that cancels.
        self.go = threading.Event()
        self.go.set()

    def find_best_move(self, board: GameBoard, player: Any, cancelled: Any = None) -> Cell:
        self.started.set()
        assert self.go.wait(30), "the test never let the search go"
        try:
            return super().find_best_move(board, player, cancelled)
        except SearchCancelled:
            self.cancelled.set()
            raise

    async def until(self, event: threading.Event) -> None:
        # Bounded so a broken cancel fails the test rather than hanging it; an
        # uncancelled search ends without setting `cancelled`, so it fails too.
        assert await asyncio.to_thread(event.wait, 30)


@pytest.mark.parametrize("keys", [("r",), ("n", "down", "right", "enter")])
async def test_a_new_round_or_game_stops_the_real_5x5_search(keys: tuple[str, ...]) -> None:
    # r: alternating starts hand the next round to the human; n: the dialog's second
    # row (who starts) is switched to the human. Either way no search follows, so any
    # move on the board afterwards would be the stale one.
    strategy = WatchedMinimax()
    strategy.go.clear()  # held until the last key is due: see WatchedMinimax.go
    app = make_app(board="5", first="ai", alternate=True, strategy=strategy, record=False)
    async with app.run_test(size=SIZE) as pilot:
        await strategy.until(strategy.started)
        assert app.controller.is_ai_turn
        for key in keys[:-1]:
            await pilot.press(key)
        strategy.go.set()
        await asyncio.sleep(0.2)  # the search is well under way (it takes seconds)
        assert not strategy.cancelled.is_set()
        await pilot.press(keys[-1])
        await strategy.until(strategy.cancelled)
        await settle(pilot)  # every worker has finished: a stale reply would be applied by now
        assert app.controller.board.moves == ()
        assert app.controller.is_human_turn
        assert app.controller.ai_error is None
        assert status(app).startswith("Your turn")
        assert app.controller.round == 2 or keys[0] == "n"


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_q_stops_the_real_5x5_search_and_quits(key: str) -> None:
    strategy = WatchedMinimax()
    app = make_app(board="5", first="ai", strategy=strategy, record=False)
    async with app.run_test(size=SIZE) as pilot:
        await strategy.until(strategy.started)
        await pilot.press(key)  # no move of the human's yet: quits at once
        await strategy.until(strategy.cancelled)
    assert app.return_code == 0
    assert app.controller.board.moves == ()


# -- a whole round on the big boards ---------------------------------------------------------


@pytest.mark.parametrize("size", [4, 5])
async def test_a_won_big_round_is_highlighted_scored_and_saved(size: int) -> None:
    from tui_tictactoe.identity import current_identity

    # The AI is scripted down the bottom row; the human fills the top row from (0, 0).
    ai_cells = [(size - 1, col) for col in range(size)]
    app = make_app(board=str(size), strategy=ScriptedStrategy(*ai_cells))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, *["up"] * (size // 2), *["left"] * (size // 2), "enter")
        for _ in range(3):
            await press(pilot, "right", "enter")
        outcome = app.controller.board.outcome()
        assert outcome is not None and outcome.winner == "X"
        line = set(outcome.line or ())
        assert line == {(0, col) for col in range(4)}
        for c in app.game.grid.cells:
            assert c.has_class("-winning") == ((c.row, c.col) in line)
        assert app.game.grid.has_class("-over")
        assert app.controller.score.human == 1 and app.controller.score.ai == 0
        assert "You win" in status(app)
        await settle(pilot)
    player = current_identity().player
    with Record.open() as record:
        (kept,) = record.recent_rounds(player, 10)
        assert record.stats(player).by_difficulty["hard"].wins == 1
    assert (kept.board_size, kept.result, kept.symbol, kept.first) == (size, "win", "X", "human")
    bottom = (size - 1) * size
    assert kept.moves == (1, bottom + 1, 2, bottom + 2, 3, bottom + 3, 4)


def test_every_board_is_named_everywhere() -> None:
    """CONTRIBUTING's recipe "a new board", kept true: each size in `options.BOARDS` is in
    the dialog, `analyse`'s help and `--board`'s, the README (the flag, the dialog's list,
    the least terminal size) and the PostgreSQL rooms' size CHECK (its latest step)."""
    from tui_tictactoe.options import BOARDS, board_geometry
    from tui_tictactoe.rooms.postgres.schema import MIGRATIONS
    from tui_tictactoe.ui.screens.game_screen import MIN_SIZE, GameScreen
    from tui_tictactoe.ui.screens.new_game_screen import SHOWN
    from tui_tictactoe.ui.widgets.too_small import needed_size

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    analyse_help = " ".join(cli.BOARD_RULES.split())
    board_help = " ".join(cli.build_parser().format_help().split())
    assert f"[--board {'|'.join(BOARDS)}]" in readme
    assert f"board size ({', '.join(f'{b}x{b}' for b in BOARDS)})" in readme
    checks = [step for steps in MIGRATIONS for step in steps if "size IN (" in step]
    assert f"size IN ({', '.join(BOARDS)})" in checks[-1]
    for board in BOARDS:
        size = int(board)
        name = f"{size}x{size}"
        assert SHOWN[board] == name
        assert f"{size * size}" in analyse_help and name in analyse_help
        assert name in board_help
        least = needed_size(MIN_SIZE, size, GameScreen.CELL_ROWS, GameScreen.CHROME_ROWS)
        if least != MIN_SIZE:
            assert f"{name} {least.width}x{least.height}" in readme, name
        assert board_geometry(board).size == size
