"""Makes `record-schema-1.sqlite3`: a record written by the last program of schema 1.

Kept to show how the file was made, not run by the tests. With that program's
package first on the path (commit af90eaa, the last of schema 1):

    git archive af90eaa tui_tictactoe | tar -x -C /tmp/schema-1
    PYTHONPATH=/tmp/schema-1 python tests/record/data/make_record_schema_1.py tests/record/data

Seeded: 60 rounds of three players on 3x3, 4x4 and 5x5, at every level, with every
result, some with a move taken back; settings and a display name.
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tui_tictactoe.record import Record, schema_version

PLAYERS = (
    ("alice", None),
    ("SHA256:q2mvG7Xh0YsN1bJ8c5t4RkD9wLzPaE3uFoIiT6gHjKs", "bob"),
    ("carol", None),
)


def main(folder: Path) -> None:
    assert schema_version() == 1, "run it with the package of schema 1 first on the path"
    path = folder / "record-schema-1.sqlite3"
    path.unlink(missing_ok=True)
    rng = random.Random(21)
    start = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
    with Record.open(path) as record:
        for number in range(60):
            player, name = rng.choice(PLAYERS)
            size = rng.choice((3, 3, 4, 5))
            moves = rng.sample(range(1, size * size + 1), rng.randint(0, 7))
            assert record.save_round(
                player,
                display_name=name,
                difficulty=rng.choice(("easy", "medium", "hard")),
                symbol=rng.choice("XO"),
                first=rng.choice(("human", "ai")),
                moves=moves,
                result=rng.choice(("win", "loss", "draw", "draw", "abandoned")),
                took_back=rng.random() < 0.2,
                board_size=size,
                played_at=start + timedelta(minutes=number),
            )
        assert record.save_settings("alice", symbol="O", board="4", theme="nord")
    print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
