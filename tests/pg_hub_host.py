"""A room host for the tests, in a process of its own: a `PostgresHub` on the database
given, served by a `HubServer` on the socket given, as a `serve-ssh` host runs them.

    python pg_hub_host.py URL SOCKET GRACE HEARTBEAT HOST_TIMEOUT REREAD

Prints one line `ready HOST_ID` once it serves; SIGTERM stops it the orderly way
(`shutdown`), SIGKILL is a host dying.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from dataclasses import replace

from tui_tictactoe.rooms.limits import UNTIMED
from tui_tictactoe.rooms.postgres.hub import PostgresHub
from tui_tictactoe.rooms.socket.server import HubServer


async def main(
    url: str, path: str, grace: float, heartbeat: float, timeout: float, reread: float
) -> None:
    hub = PostgresHub(
        url,
        replace(UNTIMED, reconnect_grace=grace),
        heartbeat=heartbeat,
        host_timeout=timeout,
        reread=reread,
    )
    await hub.start()
    server = HubServer(hub, path, log=lambda line: print(line, file=sys.stderr, flush=True))
    await server.start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", hub.host_id, flush=True)
    await stop.wait()
    await hub.shutdown()
    await server.stop()


if __name__ == "__main__":
    url, path, *numbers = sys.argv[1:]
    grace, heartbeat, timeout, reread = map(float, numbers)
    asyncio.run(main(url, path, grace, heartbeat, timeout, reread))
