"""A game process's side of the rooms, as a script the socket tests run in its own process.

`python tests/room_client.py SOCKET` connects a `SocketHub` and answers one JSON line
on standard output for each JSON line on standard input:
{"op": "create", "name": "ann", "size": 3, "first": "X", "public": false}, {"op": "join", "code": ...,
"name": ...}, {"op": "watch", "code": ..., "name": ...} (each answers the ticket and
opens the ticket's update stream), {"op": "move", "cell": 5, "generation": 3},
{"op": "view", "at_least": 3} (the stream's first view of that generation or later),
{"op": "rooms"}. A refusal answers {"refused": reason}.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

from tui_tictactoe.rooms.socket import wire
from tui_tictactoe.rooms.socket.client import SocketHub
from tui_tictactoe.rooms.view import Person, Refused, RoomView, Ticket


class Player:
    def __init__(self, hub: SocketHub) -> None:
        self.hub = hub
        self.ticket: Ticket | None = None
        self.stream: AsyncIterator[RoomView] | None = None

    async def answer(self, command: dict[str, Any]) -> dict[str, Any]:
        op = command["op"]
        hub = self.hub
        if op in ("create", "join", "watch"):
            who = Person(command["name"])
            if op == "create":
                public = command.get("public", False)
                self.ticket = await hub.create(who, command["size"], command["first"], public)
            elif op == "join":
                self.ticket = await hub.join(command["code"], who)
            else:
                self.ticket = await hub.watch(command["code"], who)
            self.stream = hub.updates(self.ticket)
            return {"ticket": list(self.ticket)}
        if op == "rooms":
            return {"rooms": [list(summary) for summary in await hub.rooms()]}
        assert self.ticket is not None and self.stream is not None
        if op == "move":
            await hub.move(self.ticket, command["cell"], command["generation"])
            return {"ok": True}
        if op == "view":
            while (view := await anext(self.stream)).generation < command["at_least"]:
                pass
            return {"room": wire.view_to_json(view)}
        raise ValueError(op)


async def main(path: str) -> None:
    loop = asyncio.get_running_loop()
    player = Player(await SocketHub.connect(path))
    print(json.dumps({"ready": True}), flush=True)
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        try:
            reply = await player.answer(json.loads(line))
        except Refused as refused:
            reply = {"refused": refused.reason}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
