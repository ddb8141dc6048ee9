"""The search explorer screen (`t`): opened mid-game on any position, stepped forward and
back to the same state, its three searches' counts equal the searches', Home and End, a
tree too big shown first level first, auto-play, and Escape back to the game unchanged."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from support import (
    SIZE,
    GatedStrategy,
    ScriptedStrategy,
    burst,
    key_event,
    make_app,
    press,
    settle,
)
from textual.pilot import Pilot
from textual.widgets import Static

from tui_tictactoe.engine.search_steps import METHODS, count
from tui_tictactoe.identity import current_identity
from tui_tictactoe.record import FinishedRound, Record
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.explorer_view import BUDGET, NOTHING_TO_EXPLORE, Path, Walk
from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen, SearchTree
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.replay_screen import ReplayScreen


def explorer(app: TicTacToeApp) -> ExplorerScreen:
    screen = app.screen
    assert isinstance(screen, ExplorerScreen)
    return screen


def seen(screen: ExplorerScreen) -> tuple[int, dict[Path, str], str, str]:
    """What the screen shows: the step, every node in the tree with its label, the panel
    and the step's line."""
    labels = {path: str(node.label) for path, node in screen.shown.items()}
    panel = str(screen.query_one("#explorer-panel", Static).content)
    step = str(screen.query_one("#explorer-step", Static).content)
    return screen.walk.index, labels, panel, step


def tree_paths(screen: ExplorerScreen) -> set[Path]:
    """The paths of every node in the Tree widget itself (not the screen's own map)."""
    found: set[Path] = set()
    stack = [screen.query_one(SearchTree).root]
    while stack:
        node = stack.pop()
        assert node.data is not None
        found.add(node.data)
        stack.extend(node.children)
    return found


async def open_mid_game(pilot: Pilot[None], *keys: str) -> ExplorerScreen:
    await press(pilot, *keys, "t")
    return explorer(pilot.app)  # type: ignore[arg-type]


async def test_t_opens_it_mid_game_and_20_steps_there_and_back_show_the_same() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mid_game(pilot, "5")
        assert screen.walk.index == 0 and screen.position.empties == 7
        start = seen(screen)
        await pilot.press(*["right"] * 20)
        await settle(pilot)
        there = seen(screen)
        assert there[0] == 20 and len(there[1]) > len(start[1])
        assert tree_paths(screen) == set(screen.shown)
        await pilot.press(*["left"] * 20)
        await settle(pilot)
        assert seen(screen) == start
        await pilot.press(*["right"] * 20)
        await settle(pilot)
        assert seen(screen) == there


async def test_each_search_counts_what_the_search_counts_and_end_and_home() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mid_game(pilot, "1")
        position = screen.position
        for index, method in enumerate(METHODS):
            if index:
                await press(pilot, "m")
            assert screen.method == method
            await press(pilot, "end")
            nodes, hits, finished = count(position.me, position.them, position.geometry, method)
            assert finished and screen.walk.done
            assert (screen.walk.nodes, screen.walk.hits) == (nodes, hits)
            counts = str(screen.query_one("#explorer-counts", Static).content)
            assert f"{nodes:,}" in counts
            why = str(screen.query_one("#explorer-why", Static).content)
            assert why.startswith(f"Done in {nodes:,} nodes: best line ")
            assert str(screen.shown[()].label).startswith("★ ")
            await press(pilot, "home")
            assert screen.walk.index == 0 and set(screen.shown) == {()}
            await press(pilot, "end")  # kept: switching back finds it where it was left
        await press(pilot, "m")
        assert screen.method == "minimax" and screen.walk.done


async def test_escape_goes_back_to_the_game_as_it_was() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        board, round_ = app.controller.board.to_string(), app.controller.round
        await press(pilot, "t", "right", "right", "m", "end", "space")
        await burst(pilot, ["escape", "escape"])  # a burst closes it once
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert (app.controller.board.to_string(), app.controller.round) == (board, round_)
        await press(pilot, "1")  # and the game goes on
        assert app.controller.board.count("X") == 2


async def test_it_opens_on_the_ais_turn_and_says_why_not_once_the_round_is_over() -> None:
    strategy = GatedStrategy((0, 0))
    app = make_app(record=False, strategy=strategy)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await strategy.until_thinking()
        await pilot.press("t")
        await pilot.pause()
        screen = explorer(app)
        assert screen.position.mover == "O" and screen.position.maximiser == "X"
        assert "the AI (O) to move  min" in str(screen.shown[()].label)
        strategy.gate.set()
        await pilot.press("escape")
        await settle(pilot)
        await press(pilot, "r")
    scripted = make_app(record=False, strategy=ScriptedStrategy((1, 0), (1, 1)))
    async with scripted.run_test(size=SIZE) as pilot:
        await press(pilot, "1", "2", "3", "t")  # X wins on the top row
        assert scripted.controller.game_over and isinstance(scripted.screen, GameScreen)
        note = scripted.game.status.note
        assert note is not None and note.text == NOTHING_TO_EXPLORE


async def test_a_tree_too_big_shows_the_first_level_and_says_why() -> None:
    app = make_app(record=False, board="4")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "t")  # the empty 4x4 board: far more than the budget
        screen = explorer(app)
        root = screen.query_one(SearchTree).root
        assert len(root.children) == 16
        assert all("not searched yet" in str(child.label) for child in root.children)
        why = str(screen.query_one("#explorer-why", Static).content)
        assert why.startswith("Too big to show whole: plain minimax passes 25,000 nodes")
        await pilot.press(*["right"] * 30)
        await settle(pilot)
        assert screen.walk.index == 30 and len(root.children) == 16


async def test_space_plays_the_steps_by_itself_until_pressed_again() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_mid_game(pilot, "5")
        await press(pilot, "plus", "plus", "plus", "space")  # 100 steps a second
        for _ in range(2_000):
            if screen.walk.index >= 5:
                break
            await pilot.pause(0.01)
        await press(pilot, "space")
        stopped = screen.walk.index
        assert stopped >= 5 and screen.timer is None
        await pilot.pause(0.1)
        assert screen.walk.index == stopped


async def test_t_in_a_replay_opens_it_on_the_position_shown() -> None:
    with Record.open() as record:
        assert record.save_round(
            current_identity().player,
            FinishedRound(
                difficulty="hard",
                symbol="X",
                first="human",
                moves=(1, 2, 5, 9, 7, 3, 4),
                result="win",
                board_size=3,
                played_at=datetime(2026, 11, 20, 9, 0, tzinfo=UTC),
            ),
        )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "s", "enter", "right", "right", "right", "t")
        screen = explorer(app)
        assert screen.position.empties == 6 and screen.position.mover == "O"
        await press(pilot, "escape")
        assert isinstance(app.screen, ReplayScreen)


def one_mark_app() -> TicTacToeApp:
    """The AI's centre, the player to move: plain minimax's End goes to the budget of
    25,000 nodes, the longest End on 3x3 (over a second on these cores)."""
    return make_app(record=False, first="ai", strategy=ScriptedStrategy((1, 1)))


async def test_escape_during_an_end_closes_at_once() -> None:
    """End runs in a thread: the Escape right behind it closes the screen before the
    jump is done, and the jump's walk is never taken (before: End walked on the UI's
    thread, so the Escape waited for the whole walk)."""
    app = one_mark_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_mid_game(pilot)
        assert screen.position.empties == 8
        await burst(pilot, ["end", "escape"])
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert screen.walk.index == 0, "the screen closed before the jump's walk came"
        await settle(pilot)  # the thread stops at its next look at the flag
        assert screen.walk.index == 0
        await press(pilot, "t", "escape")
        assert isinstance(app.screen, GameScreen)


async def test_end_let_finish_is_the_searchs_own_count_and_says_so_meanwhile() -> None:
    app = one_mark_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_mid_game(pilot)
        position = screen.position
        app.post_message(key_event("end"))
        why = screen.query_one("#explorer-why", Static)
        note = "plain minimax: jumping to the end…"
        for _ in range(100_000):  # the loop's turns, while the thread walks
            if screen.walk.index > 0 or str(why.content) == note:
                break
            await asyncio.sleep(0)
        assert str(why.content) == note, "said while the thread walks (25,000 nodes)"
        await settle(pilot)
        nodes, _, finished = count(position.me, position.them, position.geometry, "minimax", BUDGET)
        assert not finished and screen.walk.nodes == nodes - 1 == BUDGET
        reference = Walk(position, "minimax")
        size = screen.walk.size
        assert size is not None
        reference.set_size(size)
        reference.end()
        assert screen.walk.index == reference.index
        assert screen.walk.nodes_so_far == reference.nodes_so_far
        assert tree_paths(screen) == set(screen.shown)
        said = str(why.content)
        assert (
            said
            == f"Too big to show whole: plain minimax passes {BUDGET:,} nodes; steps stop there"
        )
        await pilot.press("end")  # there already: nothing to do
        await pilot.press("left")  # one step back (an undo from the cache)
        await settle(pilot)
        assert screen.walk.index == reference.index - 1
