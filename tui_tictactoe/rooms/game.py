"""`RoomGame`: one session's picture of a room, rebuilt from each `RoomView` the hub sends.

The hub is the one truth: this session never changes the board itself. A key that
plays becomes a `MoveRequest` for `RoomHub.move` (with the generation it was made on),
and the board on screen changes only when the hub's next view arrives. A newer
generation replaces the view held; an older or equal one is dropped (`take`), unless
it only says that the hub lost (or found again) its database (`RoomView.unreachable`).

A spectator's analysis overlay on 4x4 and 5x5 is the game's (`controller.teaching`): an
`AnalysisRequest` the screen runs in a thread, cell by cell, whose replies `apply` keeps
only while they are about the position now (`position`, moved on by a view that changes
the board, not by one that only counts watchers) and the overlay is still on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import NamedTuple

from tui_tictactoe.controller.teaching import (
    AnalysisFound,
    AnalysisRequest,
    AnalysisRun,
    CellScores,
)
from tui_tictactoe.engine.analysis import Analysis, MoveScorer, analyse
from tui_tictactoe.engine.board import GameBoard, other
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.strategies import search_of
from tui_tictactoe.identity import displayable, set_apart
from tui_tictactoe.options import WIN_LENGTHS, board_geometry
from tui_tictactoe.record.names import labelled_name
from tui_tictactoe.rooms.view import SEATS, Person, Result, RoomView, SeatName, SeatView, Ticket

INSTANT_CELLS = 9
"""On 3x3 the solved table answers at once, on the event loop (`RoomGame.analysis`); the
big boards are searched in a thread, cell by cell (`RoomGame.analysis_request`)."""


def seat_name(person: Person, seated: Sequence[Person | None]) -> str:
    """`person`'s name as a room's title and statuses show it: set apart from the words
    around it (`identity.set_apart`), and where the other seat's person has the same name
    and another key, with the start of its key's fingerprint (`record.names.labelled_name`), so
    that two "bob"s in one room are told apart by what they cannot choose."""
    name = displayable(person.name)
    shown = set_apart(name)
    twins = [
        other
        for other in seated
        if other is not None and other.key != person.key and displayable(other.name) == name
    ]
    if twins and person.key:
        fingerprint = labelled_name(person.key, person.key)
        return f"{shown} ({fingerprint})"
    return shown


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
        # Seats whose person left since this session saw them there (empty until refilled).
        self.departed: set[SeatName] = set()
        # The big boards' overlay: the engine behind it (tests hold it at a gate), the
        # position it is about, and its run so far.
        self.analysis_search: Callable[[Geometry], MoveScorer] = search_of
        self.position = 0  # +1 whenever the board (or the round) changes
        self._stale = threading.Event()  # set when `position` moves on
        self._analysis: AnalysisRun | None = None

    # -- views --------------------------------------------------------------

    def take(self, view: RoomView) -> bool:
        """Hold `view` if it is newer than the one held: True if it was taken. The board
        is rebuilt from its moves (a view is whole, never a patch)."""
        if view.code != self.ticket.code or str(view.size) not in WIN_LENGTHS:
            return False  # another room's, or a board no game plays: never shown
        if self.view is not None and not _newer(view, self.view):
            return False
        before, self.view = self.view, view
        if before is None or _position(before) != _position(view):
            self.board = rebuilt(view)
            self.position += 1
            self._stale.set()  # a search about the last position stops early
            self._stale = threading.Event()
        people = [held.person for held in view.seats]
        for seat, held, was in zip(SEATS, view.seats, _seats(before), strict=True):
            if held.person is not None:
                self.names[seat] = seat_name(held.person, people)
                self.departed.discard(seat)
            elif was.person is not None:
                self.departed.add(seat)
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
        """The name of who sits (or last sat) in `seat`, as `seat_name` shows it; "…" if
        none yet."""
        return self.names[seat] or "…"

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

    # -- offers and who opened the room -------------------------------------------

    @property
    def offer_to_me(self) -> bool:
        """The other player's offer waits for this player's answer (`y` or `n`)."""
        view, seat = self.view, self.seat
        return view is not None and view.offer is not None and seat not in (None, view.offer.by)

    @property
    def may_take_back(self) -> bool:
        """This player made the last move and the other has not answered it yet: `u`."""
        view, seat = self.view, self.seat
        return (
            view is not None
            and view.result is None
            and bool(view.moves)
            and seat is not None
            and view.to_move not in (None, seat)
            and view.offer is None
        )

    @property
    def opened_by_me(self) -> bool:
        """This player opened the room: theirs to list in the lobby or make private."""
        view = self.view
        return view is not None and view.opener is not None and view.opener == self.seat

    # -- a spectator's analysis ---------------------------------------------------

    @property
    def analysis_offered(self) -> bool:
        """The overlay is a spectator's (players get none against a person)."""
        return not self.is_player

    @property
    def analysis_ready(self) -> bool:
        """`analysis()` answers at once (3x3); the big boards need `analysis_request`."""
        return self.board.geometry.cells <= INSTANT_CELLS

    @property
    def _to_analyse(self) -> SeatName | None:
        """The side whose moves the overlay judges: the seat to move, while the round is
        on and the overlay is this session's to have."""
        if not self.analysis_offered or not self.in_progress or self.view is None:
            return None
        return self.view.to_move

    def analysis(self) -> Analysis | None:
        """Every empty cell's verdict on 3x3, for a spectator's overlay (None elsewhere,
        and once the round is over)."""
        to_move = self._to_analyse
        if to_move is None or not self.analysis_ready:
            return None
        return analyse(self.board, to_move)

    def analysis_request(self) -> AnalysisRequest | None:
        """On 4x4 and 5x5, a search for the overlay of the position now (for a thread),
        unless one for it is under way or done; it stops once the position moves on or
        `stop_analysis` is called. None on 3x3 (`analysis`), where none is offered, and where
        every verdict is known at once (the 5x5 opening: `analysis_found` is whole)."""
        to_move = self._to_analyse
        if to_move is None or self.analysis_ready:
            return None
        run = self._analysis
        if run is not None and run.live(self.position):
            return None
        self._analysis = AnalysisRun(self.position, self.board.copy(), to_move)
        if self._analysis.whole:  # known at once (the 5x5 opening): `analysis_found` has it
            return None
        return self._analysis.request(self.analysis_search, self._stale.is_set)

    def apply(self, reply: CellScores) -> bool:
        """Keep one cell's score if it is about the position now and the overlay is still
        on; False, changing nothing, for a late reply (the one place that judges it)."""
        run = self._analysis
        return reply.generation == self.position and run is not None and run.add(reply)

    @property
    def analysis_found(self) -> AnalysisFound | None:
        """The big board's overlay as far as found, for the position now (else None)."""
        run = self._analysis
        if run is None or not run.live(self.position) or self._to_analyse is None:
            return None
        return run.found()

    def stop_analysis(self) -> None:
        """The overlay is off, or this session leaves: its search stops (and starts over,
        for the position then, when it is turned on again)."""
        if self._analysis is not None:
            self._analysis.stop.set()


def _position(view: RoomView) -> tuple[int, int, str, tuple[int, ...], Result | None, bool]:
    """What the board and the side to move depend on: a view that changes none of it
    (a watcher more, a link dropped) leaves a search about the position running."""
    return (view.round, view.size, view.first, view.moves, view.result, view.closed)


def _newer(view: RoomView, held: RoomView) -> bool:
    """A later generation, or the same one with the hub's database lost or found again."""
    if view.generation != held.generation:
        return view.generation > held.generation
    return view.unreachable != held.unreachable


def _seats(view: RoomView | None) -> tuple[SeatView, SeatView]:
    return view.seats if view is not None else (SeatView(), SeatView())


def rebuilt(view: RoomView) -> GameBoard:
    """The board of `view`: its moves from `first`, alternating. A move the board does not
    take (a hub that lies) ends the board there: the screen shows what it can, never
    crashes."""
    return GameBoard.replay(board_geometry(view.size), view.first, view.moves)
