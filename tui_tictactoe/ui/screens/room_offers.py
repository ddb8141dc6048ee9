"""The room screen's offers between the players: `d` offers a draw, the other player
answers `y` (take it) or `n`, and any other key declines it. The hub decides
(`room.Room.make_offer`, `answer`) and every screen shows the offer from the room's
view (`rooms.status`). A mixin of `RoomScreen`, apart to keep that module short; a
take-back request is meant to come here too, under the same rule.
"""

from __future__ import annotations

from collections.abc import Awaitable

from tui_tictactoe.rooms.game import RoomGame
from tui_tictactoe.rooms.hub import RoomHub
from tui_tictactoe.ui.widgets import StatusLine

ANSWER_KEYS = ("y", "n")


class RoomOffers:
    """`action_offer_draw`, `action_answer_offer` and `decline_on_key` for `RoomScreen`."""

    game: RoomGame
    hub: RoomHub
    status: StatusLine
    entered: bool

    async def _ask(self, call: Awaitable[None]) -> bool:
        raise NotImplementedError  # RoomScreen's

    @property
    def offer_to_me(self) -> bool:
        """The other player's offer waits for this player's answer."""
        view, seat = self.game.view, self.game.ticket.seat
        return view is not None and view.offer is not None and seat not in (None, view.offer.by)

    async def action_offer_draw(self) -> None:
        if self.entered and self.game.view is not None:
            await self._ask(self.hub.offer(self.game.ticket, "draw"))

    async def action_answer_offer(self, yes: bool) -> None:
        if self.entered and self.offer_to_me:
            await self._ask(self.hub.answer(self.game.ticket, yes))

    async def decline_on_key(self, key: str) -> None:
        """Any key but `y` and `n` declines an offer waiting for this player (then does
        what it does): the app calls this with every key before it acts."""
        if key not in ANSWER_KEYS and self.offer_to_me and not self.status.asking:
            await self.action_answer_offer(False)
