"""What a room's screen says, as pure functions of a `RoomGame`: testable without a UI.

The status line keeps the game's two lines (`controller.status`): the state of play
(`room_state`) and a note under it (a refusal from the hub, why a key does nothing).
Every name comes from `RoomGame.name` (made displayable) and is shown as text.
Clocks are passed in: the seconds a dropped player has left are `back_by - now`, and
the mover's are `deadline - now`, shown in the last `CLOCK_SHOWN` seconds only (so a
screen is the same frame after frame until then, and a snapshot has no clock in it).
"""

from __future__ import annotations

import math

from tui_tictactoe.controller.status import Status, Tone, analysis_progress, refused
from tui_tictactoe.controller.teaching import AnalysisFound
from tui_tictactoe.engine.board import other
from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.refusals import ANALYSIS_WHILE_PLAYING, OFFER_WORDS, no_room
from tui_tictactoe.rooms.request import RoomAddress
from tui_tictactoe.rooms.room import may_analyse
from tui_tictactoe.rooms.view import SEATS, Offer, Person, SeatName, SeatView, claim_from

WAITING_FOR_VIEW = Status("Entering the room…", "thinking")
CLOCK_SHOWN = 20
"""The last seconds of a mover's time, counted down on every screen of the room."""

NO_HINT = refused("No hints in a game against a person.")
NO_ANALYSIS_FOR_PLAYERS = refused("No analysis while you play a person: it is for spectators.")
NO_REMATCH_NOW = refused("A rematch is asked for once the round is over.")
WATCHERS_DO_NOT_PLAY = refused("You are watching: only the players play.")

UNREACHABLE_TO_MOVE = "Database unreachable: your move waits until it is back."
UNREACHABLE = "Database unreachable: the room waits until it is back."
"""While the hub cannot reach the room's database (`RoomView.unreachable`): no change can
land, so the state of play is this until it is back (both fit 57 columns)."""

LINK_LOST = "The room's server is gone: press q."
"""When the hub's link (a socket) broke: nothing in the rooms is reachable now."""

LEAVE_QUESTION = Status("Leave and abandon the round? q or y: yes; other keys: no.", "question")
"""Asked once when `q` comes mid-round from a player, as the game asks before quitting."""


def room_state(game: RoomGame, now: float) -> Status:
    """The first line: the result and the rematch, who is away, or whose turn it is (or
    that nothing can happen while the hub's database is out of reach)."""
    view = game.view
    if view is None:
        return WAITING_FOR_VIEW
    if view.closed and view.aborted_by is not None:
        return _aborted(game, view.aborted_by)
    if view.closed:
        return Status(f"Room {view.code} has closed: every player left.", "refused")
    if view.unreachable:
        to_move = view.result is None and game.seat == view.to_move
        return Status(UNREACHABLE_TO_MOVE if to_move else UNREACHABLE, "refused")
    if view.result is not None:
        return _result(game)
    waiting = _waiting(game, now)
    if waiting is not None:
        return waiting
    if view.offer is not None:
        return _with_clock(_offer(game, view.offer), game, now)
    return _turn(game, now)


def _aborted(game: RoomGame, by: SeatName) -> Status:
    """A quick match aborted before its game began: not rated, and who is where now."""
    if game.seat == by:
        return Status("You did not play in time: no game, and out of the queue.", "refused")
    if game.seat is not None:
        return Status(f"{game.name(by)} did not play: no game. Back to the queue.", "refused")
    return Status(f"{game.name(by)} did not play: no game.", "refused")


def opening_left(game: RoomGame, now: float) -> int | None:
    """A quick match's opening (`RoomView.matched`): the whole seconds left for the first
    move or the first reply, always shown (None once it is over)."""
    view = game.view
    if view is None or not view.matched or view.deadline is None or view.to_move is None:
        return None
    if view.round != 1 or len(view.moves) >= 2:
        return None
    return seconds_left(view.deadline, now)


def _opening(game: RoomGame, left: int) -> Status:
    """The opening's countdown, on every screen: the mover starts the game in time or
    there is none ("Your turn: you play X. 27 s, or no game.")."""
    view = game.view
    assert view is not None and view.to_move is not None
    mover, last = view.to_move, game.last_move
    played = f"{game.name(last.seat)} played {last.cell}. " if last is not None else ""
    clock = f"{left} s, or no game."
    if game.seat == mover:
        return Status(f"{played}Your turn: you play {mover}. {clock}", "turn")
    if game.seat is not None:
        return Status(f"Waiting for {game.name(mover)} ({mover}): {clock}", "thinking")
    return Status(f"{played}{game.name(mover)} to play: {clock}", "turn")


def _offer(game: RoomGame, offer: Offer) -> Status:
    """An offer waiting: the other player is asked, its maker waits (or, with a draw
    offered on their own turn, plays on: a move declines it), spectators are told ("ann
    offers a draw", "ann asks to take back 5")."""
    by, last = game.name(offer.by), game.last_move
    mover = game.view.to_move if game.view is not None else None
    if offer.kind == "take_back" and last is not None:
        asks, asked = f"asks to take back {last.cell}", f"asked to take back {last.cell}"
    else:
        asks, asked = f"offers {OFFER_WORDS[offer.kind]}", f"offered {OFFER_WORDS[offer.kind]}"
    if game.seat == offer.by and mover == offer.by:  # their clock runs: it is their move
        return Status(f"You {asked}. Your turn: you play {mover}.", "turn")
    if game.seat == offer.by:
        return Status(f"You {asked}: waiting for {game.name(other(offer.by))}.", "thinking")
    if game.seat is None:
        return Status(f"{by} {asks}.", "thinking")
    return Status(f"{by} {asks}: y/n", "question")


def _result(game: RoomGame) -> Status:
    """The round's result, then what the rematch waits for."""
    view = game.view
    assert view is not None and view.result is not None
    tone: Tone
    if view.result == "draw":
        said, tone = ("Draw agreed." if view.agreed else "Draw."), "draw"
    elif view.result == "abandoned":
        left = view.left_by
        said = f"{game.name(left)} left: the round is abandoned." if left else "Abandoned."
        if left and view.cause == "claimed":
            said = f"{game.name(left)} left: {game.name(other(left))} claimed the round."
        tone = "draw"
    else:
        said = f"{game.name(view.result)} wins!"
        if view.cause == "time":
            said = f"{game.name(other(view.result))} ran out of time: {said}"
        tone = _tone_of_win(game, view.result)
    return Status(f"{said} {rematch_state(game)}".rstrip(), tone)


def _tone_of_win(game: RoomGame, winner: SeatName) -> Tone:
    if game.seat is None or game.seat == winner:
        return "win"
    return "loss"


def rematch_state(game: RoomGame) -> str:
    """Who has asked for the next round (r), as this session should read it."""
    view = game.view
    assert view is not None
    seats = tuple(held.person is not None for held in view.seats)
    if not all(seats):
        waiting = "Waiting for a second player." if game.is_player else ""
        return f"{who_left(game)}{waiting}".rstrip()
    asked = set(view.rematch)
    if game.seat is None:
        if len(asked) == 1:
            (seat,) = asked
            return f"{game.name(seat)} wants a rematch."
        return ""
    them = other(game.seat)
    if game.seat in asked:
        return f"Waiting for {game.name(them)} to press r."
    if them in asked:
        return f"{game.name(them)} wants a rematch: press r."
    return "r: a rematch."


def who_left(game: RoomGame) -> str:
    """Who left a seat once the round was over ("ann left. "; a round they abandoned
    says so already): the view shows only an empty seat, this session saw who sat there
    (`RoomGame.departed`)."""
    view = game.view
    assert view is not None
    gone = [seat for seat in SEATS if seat in game.departed and seat != view.left_by]
    return "".join(f"{game.name(seat)} left. " for seat in gone)


def _waiting(game: RoomGame, now: float) -> Status | None:
    """A seat still free, or its player away: the round waits (None if it does not)."""
    view = game.view
    assert view is not None
    for seat, held in zip(SEATS, view.seats, strict=True):
        if held.person is None:
            if game.is_player:
                return Status(
                    f"Waiting for a second player: give them the code {view.code}.", "thinking"
                )
            return Status("Waiting for a second player.", "thinking")
        if not held.present and held.back_by is not None and seat != game.seat:
            return _away(game.name(seat), seconds_left(held.back_by, now), claim_in(game, now))
    return None


def _away(name: str, wait: int, claim: int | None) -> Status:
    """An opponent away: the wait for them, and for the player left behind the claim."""
    if claim == 0:
        return Status(f"{name} left: c claims the round, or wait {wait} s.", "turn")
    if claim is not None:
        return Status(f"{name} left: waiting {wait} s; c claims it in {claim} s.", "thinking")
    return Status(f"{name} left: waiting {wait} s for them to come back.", "thinking")


def claim_in(game: RoomGame, now: float) -> int | None:
    """Whole seconds until this player may claim the round of an opponent who left (0:
    now, `c`); None where there is nothing to claim (`Room.claim`'s rule, as the view
    shows it: a round on, a move played, the other seat held by someone away)."""
    view, them = game.view, game.opponent
    if view is None or them is None or view.result is not None or not view.moves:
        return None
    if view.grace <= 0:  # a hub that says no grace: nothing to claim before it ends
        return None
    held: SeatView = view.seats[SEATS.index(them)]
    if held.person is None or held.present or held.back_by is None:
        return None
    return seconds_left(claim_from(held.back_by, view.grace), now)


def seconds_left(back_by: float, now: float) -> int:
    """Whole seconds until `back_by`, rounded up, never below 0."""
    return max(0, math.ceil(back_by - now))


def clock_left(game: RoomGame, now: float) -> int | None:
    """The mover's whole seconds left, in the last `CLOCK_SHOWN` only (None before, and
    while no clock runs)."""
    view = game.view
    if view is None or view.deadline is None or view.to_move is None:
        return None
    left = seconds_left(view.deadline, now)
    return left if left <= CLOCK_SHOWN else None


def _with_clock(status: Status, game: RoomGame, now: float) -> Status:
    """An offer waiting in the mover's last seconds: the clock still runs, so it is said
    after the offer ("ann asks to take back 5: y/n · you: 12 s left")."""
    left, view = clock_left(game, now), game.view
    if left is None or view is None or view.to_move is None:
        return status
    who = "you" if game.seat == view.to_move else game.name(view.to_move)
    return Status(f"{status.text.rstrip('.')} · {who}: {left} s left", status.tone)


def _turn(game: RoomGame, now: float) -> Status:
    view = game.view
    assert view is not None and view.to_move is not None
    mover = view.to_move
    opening = opening_left(game, now)
    if opening is not None:  # a quick match not yet begun: counted down all along
        return _opening(game, opening)
    left, answered = clock_left(game, now), answer_said(game)
    if left is not None:  # the last seconds: the clock is the news, on every screen
        if game.seat == mover:
            return Status(f"{answered}Your turn ({mover}): {left} s left.", "turn")
        return Status(f"{answered}{game.name(mover)} ({mover}): {left} s left.", "thinking")
    last = game.last_move
    played = f"{game.name(last.seat)} played {last.cell}. " if last is not None else ""
    played = answered or played  # the news since the last move: the answer to an offer
    if game.seat == mover:
        return Status(f"{played}Your turn: you play {mover}.", "turn")
    if game.seat is not None:
        return Status(f"{answered}Waiting for {game.name(mover)} ({mover}).", "thinking")
    return Status(f"{played}{game.name(mover)} to play.", "turn")


def answer_said(game: RoomGame) -> str:
    """The last offer's answer, on every screen until the position changes ("bob declined
    the draw. ", "You agreed to the take-back. "); "" if there is none."""
    view = game.view
    answer = None if view is None else view.answered
    if answer is None:
        return ""
    answerer = other(answer.by)
    who = "You" if game.seat == answerer else game.name(answerer)
    thing = "the draw" if answer.kind == "draw" else "the take-back"
    return f"{who} {'agreed to' if answer.yes else 'declined'} {thing}. "


def room_title(game: RoomGame, found: AnalysisFound | None = None) -> str:
    """The title bar: "Room ABCD · ann (X) vs bob (O) · 2 watching", and on the big
    boards how far a spectator's overlay has got (`found`; as the game's title says it)."""
    view = game.view
    code = game.ticket.code
    if view is None:
        return f"Room {code}"
    seated = [
        f"{game.name(seat)} ({seat})" if held.person is not None else f"… ({seat})"
        for seat, held in zip(SEATS, view.seats, strict=True)
    ]
    title = f"Room {view.code} · {seated[0]} vs {seated[1]}"
    if view.watchers:
        title += f" · {view.watchers} watching"
    if found is not None:
        title += f" · {analysis_progress(found)}"
    return title


def score_line(game: RoomGame) -> str:
    """The score between the two at the table, and the round; a seat left empty is
    "…", as in the title (its player's name goes with them)."""
    view = game.view
    if view is None:
        return ""
    x, o = (
        game.name(seat) if held.person else "…"
        for seat, held in zip(SEATS, view.seats, strict=True)
    )
    x_wins, o_wins, draws = view.score
    return f"{x} {x_wins} · {o} {o_wins} · draws {draws} · round {view.round}"


def invite_lines(game: RoomGame, address: RoomAddress, guest: bool) -> tuple[str, ...]:
    """How others get in (join while a seat is free, else watch), and for a guest the
    seat token that gives their seat back after a dropped link (in a browser, the tab
    keeps it: reloading gives the seat back)."""
    view = game.view
    code = game.ticket.code
    lines = []
    free = view is not None and any(held.person is None for held in view.seats)
    if free and game.is_player:
        lines.append(f"Friend: {address.command(f'--join {code}')}")
    elif view is not None and not view.watching:
        lines.append("Watching is off: w lets people with the code watch.")
    else:
        lines.append(f"Watch: {address.command(f'--watch {code}')}")
    if guest and game.is_player and game.ticket.token and address.url:
        lines.append("Your seat back: reload this page (this tab keeps it)")
    elif guest and game.is_player and game.ticket.token:
        lines.append(f"Your seat back: --join {code} --seat {game.ticket.token}")
    return tuple(lines)


def analysis_refused(game: RoomGame, who: Person) -> Status | None:
    """Why `a` does nothing for this session (`who`); None where the overlay is offered.
    Fair play: a spectator who plays in this room (`room.may_analyse`) gets none."""
    if game.is_player:
        return NO_ANALYSIS_FOR_PLAYERS
    if game.view is not None and not may_analyse(game.view, who):
        return refused(ANALYSIS_WHILE_PLAYING)
    return None


NO_EXPLORER_MID_ROUND = refused("No search explorer while you play: t opens it after the round.")


def explorer_refused(game: RoomGame, who: Person) -> Status | None:
    """Why `t` opens nothing for this session (`who`); None where the explorer is offered.
    Fair play as for the overlay: no engine's help to a player while their round is on
    (here or, as a spectator, from another session of theirs)."""
    if game.view is None:
        return refused("Not in the room yet: nothing to explore.")
    if game.is_player and game.in_progress:
        return NO_EXPLORER_MID_ROUND
    if not game.is_player and not may_analyse(game.view, who):
        return NO_EXPLORER_MID_ROUND
    return None


def analysis_switched(on: bool) -> Status:
    return Status("Analysis on: every empty cell's verdict." if on else "Analysis off.", "hint")


def rematch_refused(game: RoomGame) -> Status | None:
    """Why `r` does nothing now; None where the hub should be asked."""
    if not game.is_player:
        return refused("You are watching: only the players ask for a rematch.")
    if game.in_progress:
        return NO_REMATCH_NOW
    return None


def watch_instead(code: str, wanted_seat: bool, reason: str) -> bool:
    """After `reason` (a refusal, or a place lost), is watching room `code` the next step
    to offer? To a would-be player with a code, unless the room is not there to watch
    (or nothing is: the link to the rooms is lost)."""
    return bool(code) and wanted_seat and reason not in (no_room(code).args[0], LINK_LOST)
