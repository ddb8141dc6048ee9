"""Make the SVG screenshots of the main states of the game: `python screenshots/make_screenshots.py`.

Each state is played with keys through Textual's pilot in an 80x24 headless
terminal, with a seeded AI and animations off, so running it again gives the
same pictures. The human's moves come from the engine's own analysis of the
position (its best move, or a losing one on purpose), so every game reaches the
ending its screenshot is named after; the script checks that it did.

Writes screenshots/*.svg next to this file. Convert one to look at it with
`rsvg-convert -o start.png screenshots/start.svg` (package librsvg2-bin).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from tui_tictactoe.ui.app import TicTacToeApp

HERE = Path(__file__).resolve().parent
# The Pilot steps are the tests' own (tests/support.py): one copy of them.
sys.path.insert(0, str(HERE.parent / "tests"))
from support import SIZE, make_app, press, settle  # noqa: E402

SEED = 3

Pick = Callable[[TicTacToeApp], tuple[int, int]]
Steps = Callable[[Pilot], Awaitable[None]]


def best(app: TicTacToeApp) -> tuple[int, int]:
    """The first of the best moves for the human."""
    return app.controller.analysis().best[0]


def worst(app: TicTacToeApp) -> tuple[int, int]:
    """A move that loses as fast as possible, if there is one."""
    moves = app.controller.analysis().moves
    losing = [move for move in moves if move.verdict.outcome == "loss"]
    pool = losing or list(moves)
    return min(pool, key=lambda move: (move.verdict.outcome != "loss", move.verdict.plies)).cell


def play_round(pick: Pick) -> Steps:
    """Play the human's moves chosen by `pick`, by digit keys, until the round ends."""

    async def steps(pilot: Pilot) -> None:
        app = pilot.app
        assert isinstance(app, TicTacToeApp)
        while not app.controller.game_over:
            await press(pilot, str(app.controller.board.geometry.key(*pick(app))))

    return steps


def moves(pick: Pick, count: int) -> Steps:
    """Play `count` of the human's moves chosen by `pick` (each answered by the AI)."""

    async def steps(pilot: Pilot) -> None:
        app = pilot.app
        assert isinstance(app, TicTacToeApp)
        for _ in range(count):
            await press(pilot, str(app.controller.board.geometry.key(*pick(app))))

    return steps


def keys(*names: str) -> Steps:
    async def steps(pilot: Pilot) -> None:
        await press(pilot, *names)

    return steps


def then(*parts: Steps) -> Steps:
    async def steps(pilot: Pilot) -> None:
        for part in parts:
            await part(pilot)

    return steps


# name: (title, app options, steps, expected status text or None)
SHOTS: dict[str, tuple[str, dict[str, object], Steps, str | None]] = {
    "start": ("A new game", {}, keys(), "Your turn"),
    "mid_game": (
        "Mid-game, cursor moved with the arrows",
        {},
        then(keys("5"), moves(best, 1), keys("up")),
        "Your turn",
    ),
    "win": (
        "A win: the line is highlighted",
        {"difficulty": "easy"},
        play_round(best),
        "You win with X!",
    ),
    "loss": (
        "A loss against the perfect AI",
        {},
        play_round(worst),
        "The AI wins with O.",
    ),
    "draw": ("A draw: best play on both sides", {}, play_round(best), "It's a draw."),
    "analysis": (
        "Analysis overlay: the verdict of every move",
        {"difficulty": "easy"},  # the easy AI leaves a win, a loss and draws on the board
        keys("2", "4", "a"),
        "Your turn",
    ),
    "hint": ("A hint", {}, keys("1", "h"), "Hint:"),
    "help": ("Help", {}, keys("question_mark"), None),
    "new_game": ("New game options", {}, then(keys("5"), keys("n")), None),
    "playing_o": (
        "Playing O, the AI starts",
        {"symbol": "O", "first": "ai"},
        keys("1"),
        "Your turn",
    ),
}


async def shoot(
    name: str, title: str, options: dict[str, object], steps: Steps, expect: str | None
) -> Path:
    app = make_app(seed=SEED, **options)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)
        if expect is not None:
            status = app.game.status.text
            if expect not in status:
                raise SystemExit(f"{name}: expected {expect!r} in the status, got {status!r}")
        svg = app.export_screenshot(title=f"tui-tictactoe: {title}")
    path = HERE / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return path


async def main(names: list[str]) -> None:
    unknown = set(names) - set(SHOTS)
    if unknown:
        raise SystemExit(
            f"unknown screenshot(s): {', '.join(sorted(unknown))}; choose from {', '.join(SHOTS)}"
        )
    for name in names or SHOTS:
        path = await shoot(name, *SHOTS[name])
        print(path.relative_to(HERE.parent))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
