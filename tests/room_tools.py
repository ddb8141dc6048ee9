"""What the room tests share: an app on a `MemoryHub`, a clock the test moves, and
views of the room screen. The hub runs in the test's own event loop, beside the app."""

from __future__ import annotations

import random

from textual import events
from textual.pilot import Pilot
from textual.widget import Widget

from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.limits import UNTIMED, RoomLimits
from tui_tictactoe.rooms.memory_hub import MemoryHub
from tui_tictactoe.rooms.request import RoomRequest, RoomsEntry
from tui_tictactoe.rooms.view import Person, RoomView, SeatView, Ticket
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.rooms.room_screen import RoomScreen
from tui_tictactoe.ui.widgets import TitleBar

ANN, BOB, EVE = Person("ann", "k-ann"), Person("bob", "k-bob"), Person("eve", "k-eve")


class Clock:
    """The hub's clock, moved by the test: no real time passes in a room test."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_hub(clock: Clock | None = None, seed: int = 11, limits: RoomLimits = UNTIMED) -> MemoryHub:
    return MemoryHub(limits, clock=clock or Clock(), rng=random.Random(seed))


def room_app(
    hub: MemoryHub,
    room: RoomRequest | None = None,
    person: Person = ANN,
    clock: Clock | None = None,
) -> TicTacToeApp:
    """An app started with `hub` (the lobby when `room` is None), seeded, no animation."""
    app = TicTacToeApp(
        seed=7, record=False, rooms=RoomsEntry(hub, person, room, clock or hub.clock)
    )
    app.animation_level = "none"
    return app


def room_of(app: TicTacToeApp) -> RoomScreen:
    screen = app.screen
    assert isinstance(screen, RoomScreen), screen
    return screen


async def settle(pilot: Pilot[None]) -> None:
    """Let the hub's views reach the screen (the worker posts, the screen takes)."""
    for _ in range(3):
        await pilot.pause()


def state(app: TicTacToeApp) -> str:
    return room_of(app).status.state.text


def note(app: TicTacToeApp) -> str:
    said = room_of(app).status.note
    return said.text if said is not None else ""


def shown_board(app: TicTacToeApp) -> str:
    """The board as the cells show it (reading order, `.` for empty)."""
    return "".join(cell.symbol if cell.symbol != " " else "." for cell in room_of(app).grid.cells)


def title(app: TicTacToeApp) -> str:
    """The title bar's text as drawn (plain: what the player reads)."""
    return room_of(app).query_one(TitleBar).render().plain


def drawn(widget: Widget) -> str:
    """What a widget draws, as plain text (markup, had it been read, would be gone)."""
    rendered = widget.render()
    return rendered.plain if hasattr(rendered, "plain") else str(rendered)


async def burst(pilot: Pilot[None], keys: list[str]) -> None:
    """Keys posted without waiting between them (`support.burst`, for a room app)."""
    for key in keys:
        pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
    await pilot.pause()


HERE = SeatView(ANN, True), SeatView(BOB, True)


def view(
    moves: tuple[int, ...] = (),
    *,
    generation: int = 5,
    seats: tuple[SeatView, SeatView] = HERE,
    **fields: object,
) -> RoomView:
    base = dict(
        code="ABCD",
        size=3,
        generation=generation,
        round=1,
        first="X",
        moves=moves,
        seats=seats,
        score=(0, 0, 0),
    )
    base.update(fields)
    return RoomView(**base)  # type: ignore[arg-type]


def game_of(seat: str | None, *views: RoomView, token: str = "tok") -> RoomGame:
    game = RoomGame(Ticket("ABCD", seat, token if seat else ""))  # type: ignore[arg-type]
    for each in views:
        game.take(each)
    return game
