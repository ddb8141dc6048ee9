"""The room screen's offers between the players: `d` offers a draw, `u` asks to take
back the move just made, the other player answers `y` (agree) or `n`, and any other key
declines. The hub decides (`room.Room.make_offer`, `answer`) and every screen shows the
offer from the room's view (`rooms.status`). `c` claims the round of an opponent who
left (`Room.claim`), once the view says it may. A mixin of `RoomScreen`, apart to keep
that module short.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.rooms.status import claim_in
from tui_tictactoe.ui.widgets import StatusLine

ANSWER_KEYS = ("y", "n")


class RoomOffers:
    """`action_offer_draw`, `action_answer_offer` and `decline_on_key` for `RoomScreen`."""

    game: RoomGame
    hub: RoomHub
    status: StatusLine
    entered: bool
    clock: Callable[[], float]

    async def _ask(self, call: Awaitable[None]) -> bool:
        raise NotImplementedError  # RoomScreen's

    @property
    def offer_to_me(self) -> bool:
        """The other player's offer waits for this player's answer."""
        view, seat = self.game.view, self.game.ticket.seat
        return view is not None and view.offer is not None and seat not in (None, view.offer.by)

    @property
    def may_take_back(self) -> bool:
        """This player made the last move and the other has not answered it yet: `u`."""
        view, seat = self.game.view, self.game.ticket.seat
        return (
            view is not None
            and view.result is None
            and bool(view.moves)
            and seat is not None
            and view.to_move not in (None, seat)
            and view.offer is None
        )

    @property
    def may_claim(self) -> bool:
        """The opponent left and half the grace has passed: `c` (the view's rule)."""
        return claim_in(self.game, self.clock()) == 0

    async def action_offer_draw(self) -> None:
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.offer(self.game.ticket, "draw"))

    async def action_offer_take_back(self) -> None:
        """Ask to take back the last move (refused, with the reason, unless it was ours)."""
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.offer(self.game.ticket, "take_back"))

    async def action_claim(self) -> None:
        """Claim the round of an opponent who left (the hub says how long to wait, if)."""
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.claim(self.game.ticket))

    async def action_answer_offer(self, yes: bool) -> None:
        if self.entered and self.offer_to_me:
            await self._ask(self.hub.answer(self.game.ticket, yes))

    async def decline_on_key(self, key: str) -> None:
        """Any key but `y` and `n` declines an offer waiting for this player (then does
        what it does): the app calls this with every key before it acts."""
        if key not in ANSWER_KEYS and self.offer_to_me and not self.status.asking:
            await self.action_answer_offer(False)
