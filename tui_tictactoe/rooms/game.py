"""`RoomGame`: one session's picture of a room, rebuilt from each `RoomView` the hub sends.

The hub is the one truth: this session never changes the board itself. A key that
plays becomes a `MoveRequest` for `RoomHub.move` (with the generation it was made on),
and the board on screen changes only when the hub's next view arrives. A newer
generation replaces the view held; an older or equal one is dropped (`take`).
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.analysis import Analysis, analyse
from ..engine.board import GameBoard, other
from ..engine.players import HumanPlayer, Player
from ..identity import displayable
from ..options import WIN_LENGTHS, board_geometry
from .view import SEATS, RoomView, SeatName, SeatView, Ticket

ANALYSIS_CELLS = 9
"""Spectators' analysis is offered on 3x3, where the solved table answers at once on the
event loop; the big boards would need a search in a thread for every move (not yet)."""


class RemotePlayer(Player):
    """A seat played from elsewhere (another session of the room): its moves come from
    the hub's views, never from this terminal."""

    def __init__(self, symbol: str, seat: SeatView) -> None:
        super().__init__(symbol)
        person = seat.person
        self.name = displayable(person.name) if person is not None else ""
        self.present = seat.present
        self.back_by = seat.back_by


class MoveRequest(NamedTuple):
    """What `RoomHub.move` is called with: the ticket, the cell's key, the generation."""

    ticket: Ticket
    cell: int
    generation: int


class LastMove(NamedTuple):
    """The latest move on the board: whose (seat) and which cell (its key)."""

    seat: SeatName
    cell: int


class RoomGame:
    """This session's room: its ticket (seat X, O or a spectator) and the newest view."""

    def __init__(self, ticket: Ticket) -> None:
        self.ticket = ticket
        self.view: RoomView | None = None
        self.board = GameBoard()
        # The last name each seat had: a player who left is still named ("bob left").
        self.names: dict[SeatName, str] = {seat: "" for seat in SEATS}

    # -- views --------------------------------------------------------------

    def take(self, view: RoomView) -> bool:
        """Hold `view` if it is newer than the one held: True if it was taken. The board
        is rebuilt from its moves (a view is whole, never a patch)."""
        if view.code != self.ticket.code or str(view.size) not in WIN_LENGTHS:
            return False  # another room's, or a board no game plays: never shown
        if self.view is not None and view.generation <= self.view.generation:
            return False
        self.board = rebuilt(view)
        self.view = view
        for seat, held in zip(SEATS, view.seats, strict=True):
            if held.person is not None:
                self.names[seat] = displayable(held.person.name)
        return True

    # -- who -----------------------------------------------------------------

    @property
    def seat(self) -> SeatName | None:
        """This session's seat; None for a spectator."""
        return self.ticket.seat

    @property
    def is_player(self) -> bool:
        return self.ticket.seat is not None

    def seat_view(self, seat: SeatName) -> SeatView:
        assert self.view is not None
        return self.view.seats[SEATS.index(seat)]

    def name(self, seat: SeatName) -> str:
        """The name of who sits (or last sat) in `seat`, made displayable; "…" if none yet."""
        return self.names[seat] or "…"

    @property
    def players(self) -> tuple[Player, Player]:
        """The seats as the engine's players: this terminal's person (`HumanPlayer`) in its
        own seat, `RemotePlayer`s elsewhere."""
        if self.view is None:
            return (RemotePlayer("X", SeatView()), RemotePlayer("O", SeatView()))
        return tuple(  # type: ignore[return-value]  # two seats, two players
            HumanPlayer(seat) if seat == self.seat else RemotePlayer(seat, held)
            for seat, held in zip(SEATS, self.view.seats, strict=True)
        )

    @property
    def opponent(self) -> SeatName | None:
        return other(self.seat) if self.seat is not None else None

    # -- the round -----------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """A round is on (not over, room not closed)."""
        return self.view is not None and self.view.result is None and not self.view.closed

    @property
    def round_begun(self) -> bool:
        """A round on with a move played: leaving now abandons it (before, it just waits)."""
        return self.in_progress and self.view is not None and bool(self.view.moves)

    @property
    def my_turn(self) -> bool:
        return self.in_progress and self.view is not None and self.view.to_move == self.seat

    @property
    def last_move(self) -> LastMove | None:
        if self.view is None or not self.view.moves:
            return None
        moves = self.view.moves
        by = self.view.first if len(moves) % 2 == 1 else other(self.view.first)
        return LastMove(by, moves[-1])

    def move_request(self, cell: int) -> MoveRequest | None:
        """The hub call for playing `cell` (its key), made on the view held; None before the
        first view. Whether it is allowed is the hub's to say: it refuses with the reason."""
        if self.view is None:
            return None
        return MoveRequest(self.ticket, cell, self.view.generation)

    def analysis(self) -> Analysis | None:
        """Every empty cell's verdict, for a spectator's overlay: 3x3 only, and only while
        the round is on (`analysis_offered`)."""
        if not self.analysis_offered or not self.in_progress or self.view is None:
            return None
        to_move = self.view.to_move
        return analyse(self.board, to_move) if to_move is not None else None

    @property
    def analysis_offered(self) -> bool:
        """The overlay is a spectator's, on 3x3 (`ANALYSIS_CELLS`)."""
        return not self.is_player and self.board.geometry.cells <= ANALYSIS_CELLS


def rebuilt(view: RoomView) -> GameBoard:
    """The board of `view`: its moves from `first`, alternating. A move the board does not
    take (a hub that lies) is skipped: the screen shows what it can, never crashes."""
    board = GameBoard(board_geometry(view.size))
    geometry = board.geometry
    symbol = view.first
    for key in view.moves:
        if isinstance(key, int) and 1 <= key <= geometry.cells:
            board.make_move(*geometry.cell_of_key(key), symbol)
        symbol = other(symbol)
    return board
