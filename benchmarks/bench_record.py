"""What the lifetime record costs: saving a round at its end, and reading statistics.

Run by hand from the repository root:

    python benchmarks/bench_record.py [--rounds 400] [--keep]

Prints one markdown table. Takes ~20 s, most of it filling a database with 100,000 rounds.

- **Round end**: the controller plays seeded rounds (hard AI against a seeded random human);
  the clock runs from the last move of a round until the result is known, the score updated
  and, in the recorded variant, `save_round` has returned True (committed, `synchronous=FULL`:
  an fsync per round). The baseline is the same loop without the record; the two variants
  alternate round by round, so both see the same machine. The database already holds the
  100,000 rounds below, as a long-time player's would.
- **Statistics** on 100,000 rounds, two shapes: one player owning all of them (the worst case
  for `stats(player)`), and 1,000 players of 100 rounds each (a server; `leaderboard()`
  reads every hard and medium round).
- **Start-up**, since the app opens the record before its first frame: in fresh processes
  (medians of 7, compiled bytecode cached), `import tui_tictactoe.record` after the package
  is imported, and `Record.open()` + `settings()` of the one-player database (this includes
  importing `sqlite3`, which the module leaves until then).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # rebuild_standings and ai_reply live with the tests

from controller_tools import ai_reply  # noqa: E402  (after the path tweak)
from record_tools import rebuild_standings  # noqa: E402  (after the path tweak)

from tui_tictactoe.controller import GameController, GameOptions  # noqa: E402
from tui_tictactoe.record import (  # noqa: E402
    DATABASE_NAME,
    FinishedRound,
    Record,
)

BIG = 100_000
PLAYERS = 1_000
LEVELS = ("easy", "medium", "hard")
RESULTS = ("win", "loss", "draw", "abandoned")


def fill(path: Path, players: int, seed: int) -> None:
    """`BIG` rounds spread over `players`, written straight into the record's schema."""
    Record.open(path).close()  # the schema, made by the module itself
    rng = random.Random(seed)
    rows = []
    for n in range(BIG):
        moves = rng.sample(range(1, 10), rng.randint(3, 9))
        player = f"player-{n % players}"
        rows.append(
            (
                "2026-11-23T12:00:00Z",
                player,
                player,
                3,
                rng.choice(LEVELS),
                rng.choice("XO"),
                rng.choice(("human", "ai")),
                ",".join(map(str, moves)),
                rng.choices(RESULTS, weights=(3, 3, 3, 1))[0],
                int(rng.random() < 0.05),
            )
        )
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO rounds (played_at, player, display_name, board_size, difficulty,"
            " symbol, first, moves, result, took_back) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        conn.executemany(
            "INSERT OR IGNORE INTO players VALUES (?, ?)",
            [(f"player-{p}", f"player-{p}") for p in range(players)],
        )
    rebuild_standings(path)


def time_calls(call: Callable[[], object], repeats: int) -> list[float]:
    call()  # warm the page cache and the statement cache
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def round_ends(record: Record, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """Per round: last move -> result (baseline), the same + save_round, save_round alone."""
    rng = random.Random(7)
    controller = GameController(
        GameOptions(difficulty="hard", alternate=True), rng=random.Random(7)
    )
    plain: list[float] = []
    recorded: list[float] = []
    saves: list[float] = []
    for n in range(2 * rounds):
        controller.new_round()
        with_record = n % 2 == 1
        while True:
            play: Callable[[], object]
            if controller.is_ai_turn:  # as the app does: the reply is computed, then applied
                reply = ai_reply(controller)
                assert reply.move is not None, reply
                move = reply.move
                play = partial(controller.apply, reply)
            else:
                move = rng.choice(controller.board.legal_moves())
                play = partial(controller.play_human_move, *move)
            last = len(controller.board.moves) == 8 or _finishes(controller, move)
            if not last:
                play()
                continue
            start = time.perf_counter()
            play()
            assert controller.result is not None
            if with_record:
                saved_at = time.perf_counter()
                assert record.save_round(
                    "bench",
                    FinishedRound(
                        difficulty=controller.difficulty,
                        symbol=controller.human_symbol,
                        first=controller.starter,
                        moves=[
                            controller.board.geometry.key(*cell) for cell in controller.board.moves
                        ],
                        result=_result(controller),
                    ),
                )
                saves.append(time.perf_counter() - saved_at)
            (recorded if with_record else plain).append(time.perf_counter() - start)
            break
    return plain, recorded, saves


def _finishes(controller: GameController, move: tuple[int, int]) -> bool:
    board = controller.board.copy()
    board.make_move(*move, controller.current_player.symbol)
    return board.is_game_over()


def _result(controller: GameController) -> str:
    outcome = controller.outcome
    assert outcome is not None
    if outcome.winner is None:
        return "draw"
    return "win" if outcome.winner == controller.human_symbol else "loss"


def fresh_process_ms(code: str, pycache: Path, runs: int = 7) -> float:
    """Median wall time of `code` (which prints its own seconds) in fresh interpreters.

    They reuse compiled bytecode from `pycache`, as an installed wheel would (an
    editable install under PYTHONDONTWRITEBYTECODE=1 compiles every module on every
    start); one discarded run fills it.
    """
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(pycache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    results = []
    for _ in range(runs + 1):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env=env,
        ).stdout
        results.append(float(out))
    return statistics.median(results[1:]) * 1000


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400, help="rounds per variant")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    args = parser.parse_args()

    top = Path(tempfile.mkdtemp(prefix="bench-record-"))
    one_player = top / "one" / DATABASE_NAME
    server = top / "server" / DATABASE_NAME
    one_player.parent.mkdir()
    server.parent.mkdir()
    print(f"filling two databases of {BIG:,} rounds in {top} ...", file=sys.stderr)
    fill(one_player, 1, seed=1)
    fill(server, PLAYERS, seed=2)

    rows: list[tuple[str, str, str, str, str]] = []
    with Record.open(one_player) as record:
        plain, recorded, saves = round_ends(record, args.rounds)
        added = statistics.median(recorded) - statistics.median(plain)
        for label, times in (
            ("round end, no record (baseline)", plain),
            ("round end + save_round", recorded),
            ("save_round alone (commit + fsync)", saves),
        ):
            rows.append(
                (
                    label,
                    ms(statistics.median(times)),
                    ms(percentile(times, 0.99)),
                    ms(max(times)),
                    "",
                )
            )
        rows.append(("added by the record (difference of medians)", ms(added), "", "", "≤ 5 ms"))
        stats = time_calls(lambda: record.stats("player-0"), 20)
        rows.append(
            (
                "stats(player), one player with all 100,000 rounds",
                ms(statistics.median(stats)),
                "",
                ms(max(stats)),
                "< 200 ms",
            )
        )
        recent = time_calls(lambda: record.recent_rounds("player-0"), 20)
        rows.append(
            ("recent_rounds(player), same", ms(statistics.median(recent)), "", ms(max(recent)), "")
        )
        assert record.notice is None, record.notice
    with Record.open(server) as record:
        stats = time_calls(lambda: record.stats("player-17"), 20)
        rows.append(
            (
                "stats(player), 1,000 players x 100 rounds",
                ms(statistics.median(stats)),
                "",
                ms(max(stats)),
                "",
            )
        )
        board = time_calls(record.leaderboard, 10)
        rows.append(
            (
                "leaderboard(), 1,000 players x 100 rounds",
                ms(statistics.median(board)),
                "",
                ms(max(board)),
                "",
            )
        )

    pycache = top / "pycache"
    module = fresh_process_ms(
        "import time, tui_tictactoe; start = time.perf_counter(); "
        "import tui_tictactoe.record; print(time.perf_counter() - start)",
        pycache,
    )
    opened = fresh_process_ms(
        "import tui_tictactoe.record as r, time; start = time.perf_counter(); "
        f"rec = r.Record.open({str(one_player)!r}); rec.settings('player-0'); "
        "print(time.perf_counter() - start)",
        pycache,
    )
    rows.append(
        (
            "import tui_tictactoe.record after the package (fresh process)",
            ms(module / 1000),
            "",
            "",
            "",
        )
    )
    rows.append(
        (
            "Record.open() + settings(), fresh process (incl. import sqlite3)",
            ms(opened / 1000),
            "",
            "",
            "",
        )
    )

    print(f"\n{args.rounds} rounds per variant, interleaved; times in ms\n")
    print("| measurement | median | p99 | max | target |")
    print("|---|---:|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if not args.keep:
        import shutil

        shutil.rmtree(top)


if __name__ == "__main__":
    main()
