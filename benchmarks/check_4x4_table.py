"""Check the perfect AI on 4x4 against a complete table of every reachable position.

Run by hand from the repository root (not in CI). Building the table takes ~45 s and ~110 MB
here; checking runs at ~3,500 positions a second per core, so all 9 million take ~45 minutes
in one process, ~22 in two shards (see benchmarks/README.md); `--limit` checks a random sample.

    python benchmarks/check_4x4_table.py [--limit N] [--analyse-sample 3000] [--seed 1]
    python benchmarks/check_4x4_table.py --shard 1/2 & python benchmarks/check_4x4_table.py --shard 2/2

`--shard K/N` checks every Nth position in play, finished position and sampled position
from the Kth (each shard builds the table itself): N shards together check everything
once, one core each. Their reports add up.

1. The table. Every position reachable from the empty 4x4 board (four in a row, either side
   first) is solved by a memoised negamax written here, sharing nothing with the engine: its
   own lines, no pruning, no symmetry, no threat logic, every move of every position tried.
   A position is (me, them), the side to move first, as in the engine, so X-first and O-first
   games share it. Values use the engine's convention: a win scores the empty cells before the
   winning move, a loss the negative, a draw 0 (fastest win, slowest loss). They are kept in a
   `bytearray` indexed by the position in base 3 (3**16 bytes), with the positions listed in
   the order they were solved.
2. The engine, on every reachable position still in play: the hard AI's move, through
   `MinimaxStrategy.find_best_move` on a `GameBoard` (its shared `Search` table, no book on
   4x4, a seeded `random.Random`), as the game calls it. Its reported verdict
   (`last_decision.verdict`) must be the table's value, and the value of the move it chose
   must be that value (a best move: never a slower win or a faster loss). On every finished
   position the search must refuse (ValueError). On `--analyse-sample` positions `analyse`
   (every move's verdict, and which are best) must agree with the table move by move.

Prints one markdown table; a mismatch is listed (up to 10 of each kind) and exits with 1.
`--limit N` checks N positions drawn at random, for a quick trial.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from array import array
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = 4
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
OFFSET = 64  # a value v is stored as v + OFFSET; 0 means "not seen"
FINISHED = 1  # stored for a finished position (someone has won, or the board is full)


def four_in_a_row() -> list[int]:
    """The 10 lines of 4x4 as bitmasks: 4 rows, 4 columns, 2 diagonals."""
    lines = []
    for k in range(SIZE):
        lines.append(sum(1 << (k * SIZE + j) for j in range(SIZE)))  # row k
        lines.append(sum(1 << (j * SIZE + k) for j in range(SIZE)))  # column k
    lines.append(sum(1 << (j * SIZE + j) for j in range(SIZE)))
    lines.append(sum(1 << (j * SIZE + SIZE - 1 - j) for j in range(SIZE)))
    return lines


LINES = four_in_a_row()
HAS_LINE = bytearray(any(mask & line == line for line in LINES) for mask in range(1 << CELLS))
EMPTY_BITS = [
    tuple(1 << cell for cell in range(CELLS) if not occupied >> cell & 1)
    for occupied in range(1 << CELLS)
]
BASE3 = [0] * (1 << CELLS)  # the mask's cells as 1s in base 3
for _mask in range(1, 1 << CELLS):
    _low = _mask & -_mask
    BASE3[_mask] = BASE3[_mask ^ _low] + 3 ** (_low.bit_length() - 1)


def index(me: int, them: int) -> int:
    """The position in base 3: a cell of `me` is digit 1, of `them` digit 2."""
    return BASE3[me] + 2 * BASE3[them]


class Table:
    """Every reachable position's value, by memoised negamax over the whole game."""

    def __init__(self) -> None:
        self.values = bytearray(3**CELLS)
        self.in_play = array("I")  # me | them << 16, in the order solved
        self.finished = array("I")

    def build(self) -> int:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 100))
        return self._solve(0, 0, CELLS)

    def _solve(self, me: int, them: int, empties: int) -> int:
        values = self.values
        position = BASE3[me] + 2 * BASE3[them]
        stored = values[position]
        if stored:
            return stored - OFFSET
        best = -CELLS - 1
        for bit in EMPTY_BITS[me | them]:
            mine = me | bit
            if HAS_LINE[mine] or empties == 1:
                score = empties if HAS_LINE[mine] else 0
                after = BASE3[them] + 2 * BASE3[mine]
                if not values[after]:
                    values[after] = FINISHED
                    self.finished.append(them | mine << CELLS)
            else:
                score = -self._solve(them, mine, empties - 1)
            if score > best:
                best = score
        values[position] = best + OFFSET
        self.in_play.append(me | them << CELLS)
        return best

    def value(self, me: int, them: int) -> int:
        stored = self.values[index(me, them)]
        assert stored > FINISHED, "not a reachable position in play"
        return stored - OFFSET

    def move_value(self, me: int, them: int, cell: int) -> int:
        """Value for the side to move of playing `cell`."""
        mine = me | 1 << cell
        empties = CELLS - (me | them).bit_count()
        if HAS_LINE[mine]:
            return empties
        if empties == 1:
            return 0
        return -self.value(them, mine)


def verdict(score: int, empties: int) -> tuple[str, int]:
    """(outcome, plies left including this move) of a move's score, decoded here."""
    if score > 0:
        return "win", empties - score + 1
    if score < 0:
        return "loss", empties + score + 1
    return "draw", empties


def board_of(me: int, them: int):  # -> GameBoard
    """The position as the game holds it: X to move on equal counts, else O."""
    from tui_tictactoe.engine import GameBoard, geometry

    mover, waiting = ("X", "O") if me.bit_count() == them.bit_count() else ("O", "X")
    board = GameBoard(geometry(SIZE, 4))
    for cell in range(CELLS):
        row, col = divmod(cell, SIZE)
        if me >> cell & 1:
            board.game_board[row][col] = mover
        elif them >> cell & 1:
            board.game_board[row][col] = waiting
    return board, mover


def show(me: int, them: int) -> str:
    """The position in reading order, `m` the side to move, `t` the other."""
    return "/".join(
        "".join(
            "m" if me >> (r * SIZE + c) & 1 else "t" if them >> (r * SIZE + c) & 1 else "."
            for c in range(SIZE)
        )
        for r in range(SIZE)
    )


def shard(text: str) -> tuple[int, int]:
    """`K/N` (1 <= K <= N) as (K - 1, N)."""
    k, _, n = text.partition("/")
    try:
        first, step = int(k) - 1, int(n)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not K/N: {text[:20]!r}") from None
    if not 0 <= first < step:
        raise argparse.ArgumentTypeError(f"K must be from 1 to N: {text[:20]!r}")
    return first, step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="check only N random positions")
    parser.add_argument("--analyse-sample", type=int, default=3000, help="positions for analyse")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shard", type=shard, default=(0, 1), help="K/N: the Kth of N shares")
    args = parser.parse_args()
    first, step = args.shard

    start = time.perf_counter()
    table = Table()
    empty_value = table.build()
    build_seconds = time.perf_counter() - start
    build_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    positions = len(table.in_play) + len(table.finished)
    print(
        f"table: {positions:,} positions ({len(table.finished):,} finished), "
        f"empty board {verdict(empty_value, CELLS)}, {build_seconds:.1f} s",
        file=sys.stderr,
    )

    from tui_tictactoe.engine import MinimaxStrategy, SearchCancelled, analyse, geometry

    shape = geometry(SIZE, 4)
    rng = random.Random(args.seed)
    strategy = MinimaxStrategy(rng=rng)
    assert strategy.book_for(shape) == {}, "4x4 has no opening book"
    search = strategy.search_for(shape)

    chosen: Sequence[int] = range(len(table.in_play))
    if args.limit:
        chosen = sorted(rng.sample(chosen, min(args.limit, len(chosen))))
    chosen = chosen[first::step]
    finished = table.finished[first::step]
    value_wrong: list[str] = []
    move_wrong: list[str] = []
    start = time.perf_counter()
    for done, position in enumerate(chosen, 1):
        key = table.in_play[position]
        me, them = key & FULL, key >> CELLS
        board, mover = board_of(me, them)
        row, col = strategy.find_best_move(board, mover)
        decision = strategy.last_decision
        assert decision is not None
        empties = CELLS - (me | them).bit_count()
        expected = table.value(me, them)
        if tuple(decision.verdict) != verdict(expected, empties):
            value_wrong.append(f"{show(me, them)}: AI says {decision.verdict}, table {expected}")
        got = table.move_value(me, them, row * SIZE + col)
        if got != expected:
            move_wrong.append(
                f"{show(me, them)}: AI played {(row, col)} worth {got}, best {expected}"
            )
        if not done % 500_000:
            elapsed = time.perf_counter() - start
            print(f"  {done:,} positions checked, {elapsed:.0f} s", file=sys.stderr)
    check_seconds = time.perf_counter() - start

    refused = 0
    for key in finished:
        try:
            search.value(key & FULL, key >> CELLS)
        except ValueError:
            refused += 1
        except SearchCancelled:  # pragma: no cover - no flag is passed
            raise

    analyse_wrong: list[str] = []
    sample = rng.sample(range(len(table.in_play)), min(args.analyse_sample, len(table.in_play)))
    sample = sample[first::step]
    start = time.perf_counter()
    for position in sample:
        key = table.in_play[position]
        me, them = key & FULL, key >> CELLS
        board, mover = board_of(me, them)
        result = analyse(board)
        empties = CELLS - (me | them).bit_count()
        best = max(
            table.move_value(me, them, cell) for cell in range(CELLS) if not (me | them) >> cell & 1
        )
        for move in result.moves:
            cell = move.cell[0] * SIZE + move.cell[1]
            score = table.move_value(me, them, cell)
            if tuple(move.verdict) != verdict(score, empties) or move.best != (score == best):
                analyse_wrong.append(f"{show(me, them)} cell {move.cell}: {move}, table {score}")
        if len(result.moves) != empties:
            analyse_wrong.append(f"{show(me, them)}: {len(result.moves)} moves for {empties} cells")
    analyse_seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    checked = len(chosen)
    share = f", shard {first + 1}/{step}" if step > 1 else ""
    print(f"4x4, four in a row: the table vs the engine (seed {args.seed}{share})\n")
    print("| measurement | value |")
    print("|---|---:|")
    print(f"| reachable positions (side to move, other side) | {positions:,} |")
    print(f"| finished (a line or a full board) | {len(table.finished):,} |")
    print(f"| in play | {len(table.in_play):,} |")
    print(f"| empty board, by the table | {' in '.join(map(str, verdict(empty_value, CELLS)))} |")
    print(f"| table built (memoised negamax, no pruning) | {build_seconds:.1f} s |")
    print(f"| peak memory after the table (max RSS) | {build_peak:.0f} MB |")
    print(f"| positions in play checked: the AI's move and verdict | {checked:,} |")
    print(f"| AI's verdict not the position's value | {len(value_wrong)} |")
    print(f"| AI's move not a best move | {len(move_wrong)} |")
    print(f"| time to check them (with the board set up per position) | {check_seconds:.0f} s |")
    print(f"| finished positions the search refuses | {refused:,} of {len(finished):,} |")
    print(
        f"| `analyse` on a sample: positions / wrong verdicts or best marks | "
        f"{len(sample):,} / {len(analyse_wrong)} |"
    )
    print(f"| time for the `analyse` sample | {analyse_seconds:.0f} s |")
    print(f"| entries in the AI's table at the end | {len(search):,} |")
    print(f"| peak memory of the whole run (max RSS) | {peak:.0f} MB |")
    failures = value_wrong + move_wrong + analyse_wrong
    for line in value_wrong[:10] + move_wrong[:10] + analyse_wrong[:10]:
        print(line)
    if failures or refused != len(finished):
        sys.exit(1)


if __name__ == "__main__":
    main()
