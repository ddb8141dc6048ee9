"""Grading a `MoveStrategy` against the exact solver (`tui-tictactoe grade`).

CS188's autograder plays students' agents against fixed opponents; here the yardstick is
exact. On 3x3 the strategy meets every sequence of opponent moves (`exhaustive`), with
each seat and symbol: X first and O first, the strategy moving first and second. On a
bigger board (4x4, 5x5) it plays a seeded sample of games (`sampled`) against an
opponent who plays the engine's best move or, half the time, a random one. At each of
its moves the oracle (`known.known_scores`, else the exact search) gives the position's
value and the move's score, so a move that throws a won position into a draw, or wins
slower than it could, is caught even where the opponent's play never punishes it.

The strategy runs through `GuardedStrategy`: a move that raises, is illegal or runs out
of time forfeits that game and is counted; a strategy still stuck in a move stops the
grading (it cannot be asked again while it runs).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter

from tui_tictactoe.engine.board import Cell, GameBoard, Symbol, other
from tui_tictactoe.engine.geometry import Geometry, is_bounded
from tui_tictactoe.engine.guarded import FaultKind, GuardedStrategy, StrategyFault
from tui_tictactoe.engine.known import known_scores
from tui_tictactoe.engine.players import AIPlayer
from tui_tictactoe.engine.solver import NodeCounter, Verdict, shared_solver
from tui_tictactoe.engine.strategies import MinimaxStrategy, search_of

MAX_TIMEOUTS = 3
"""Moves over the time limit before grading stops: each costs the whole limit."""

SEATS: tuple[tuple[Symbol, Symbol], ...] = (("X", "X"), ("X", "O"), ("O", "O"), ("O", "X"))
"""(who moves first, the strategy's symbol): each symbol, moving first and second."""

FAULT_KINDS: tuple[FaultKind, ...] = ("illegal", "raised", "timeout", "hung")

Progress = Callable[[int], None]
"""Told the number of games graded so far, now and then."""


@dataclass(frozen=True)
class Example:
    """A position a finding is about, as a person reads it: the moves so far by cell number
    (1 top-left), the board, the strategy's move and what the oracle says of it."""

    first: Symbol
    strategy: Symbol
    moves: tuple[int, ...]
    board: str  # GameBoard.to_string(): rows top to bottom, '.' empty
    played: int | None  # the strategy's cell (None: no legal move came back)
    best: tuple[int, ...]  # the best cells by the oracle ((): a finished game)
    before: str  # the position's verdict for the strategy ("win in 3")
    after: str  # the verdict of the move it played ("draw"); "" if none
    message: str  # one line: what happened

    def line(self) -> str:
        """The moves as "X 1, O 5, X 9"."""
        symbols = [self.first, other(self.first)]
        return ", ".join(f"{symbols[i % 2]} {cell}" for i, cell in enumerate(self.moves))

    def to_json(self) -> dict[str, object]:
        return {
            "first": self.first,
            "strategy": self.strategy,
            "moves": list(self.moves),
            "board": self.board,
            "played": self.played,
            "best": list(self.best),
            "before": self.before,
            "after": self.after,
            "message": self.message,
        }


@dataclass
class Finding:
    """How many times something happened, and the first time."""

    count: int = 0
    first: Example | None = None

    def add(self, example: Callable[[], Example]) -> None:
        self.count += 1
        if self.first is None:
            self.first = example()

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "first": None if self.first is None else self.first.to_json()}


@dataclass
class Costs:
    """Time and nodes per move: the strategy's, plain minimax's, the engine's."""

    strategy_seconds: list[float] = field(default_factory=list)
    strategy_nodes: list[int] = field(default_factory=list)  # if it sets `last_nodes`
    plain_nodes: list[int] = field(default_factory=list)  # 3x3: the whole tree from there
    plain_seconds_per_node: float | None = None  # measured once on this machine
    engine_seconds: list[float] = field(default_factory=list)
    engine_nodes: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        plain = _mean(self.plain_nodes)
        rate = self.plain_seconds_per_node
        return {
            "strategy": {
                "seconds_per_move": _mean(self.strategy_seconds),
                "max_seconds": max(self.strategy_seconds, default=None),
                "nodes_per_move": _mean(self.strategy_nodes),
            },
            "plain_minimax": {
                "nodes_per_move": plain,
                "seconds_per_move": None if plain is None or rate is None else plain * rate,
            },
            "engine": {
                "seconds_per_move": _mean(self.engine_seconds),
                "nodes_per_move": _mean(self.engine_nodes),
            },
        }


def _mean(values: list[int] | list[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass
class Grade:
    """What `grade` found; `failed` (a loss or a fault) makes its exit status 1."""

    name: str
    size: int
    mode: str  # "exhaustive" or "sampled"
    seed: int | None
    move_seconds: float
    games: int = 0
    decisions: int = 0  # moves the strategy was asked for
    wins: int = 0
    draws: int = 0
    losses: Finding = field(default_factory=Finding)
    thrown_draws: Finding = field(default_factory=Finding)  # a won position played to a draw
    slow_wins: Finding = field(default_factory=Finding)  # a win, but a faster one was there
    losing_moves: Finding = field(default_factory=Finding)  # a drawn or won position to a loss
    faults: dict[str, Finding] = field(default_factory=lambda: {k: Finding() for k in FAULT_KINDS})
    stopped: str | None = None  # why grading ended early
    costs: Costs = field(default_factory=Costs)
    seconds: float = 0.0

    @property
    def fault_count(self) -> int:
        return sum(finding.count for finding in self.faults.values())

    @property
    def failed(self) -> bool:
        return self.losses.count > 0 or self.fault_count > 0

    def to_json(self) -> dict[str, object]:
        return {
            "strategy": self.name,
            "board": self.size,
            "mode": self.mode,
            "seed": self.seed,
            "move_seconds": self.move_seconds,
            "games": self.games,
            "decisions": self.decisions,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses.to_json(),
            "thrown_draws": self.thrown_draws.to_json(),
            "slow_wins": self.slow_wins.to_json(),
            "losing_moves": self.losing_moves.to_json(),
            "faults": {kind: finding.to_json() for kind, finding in self.faults.items()},
            "stopped": self.stopped,
            "costs": self.costs.to_json(),
            "seconds": self.seconds,
            "passed": not self.failed,
        }


def can_grade(geometry: Geometry) -> bool:
    """Boards with an exact oracle: up to 5x5 (6x6 is only searched within a bound)."""
    return not is_bounded(geometry)


class Grader:
    """Grades one guarded strategy on one board shape; `run` returns the `Grade`."""

    def __init__(
        self,
        strategy: GuardedStrategy,
        geometry: Geometry,
        *,
        games: int | None = None,
        seed: int = 0,
        progress: Progress | None = None,
    ) -> None:
        if not can_grade(geometry):
            raise ValueError(
                f"no exact oracle for {geometry.size}x{geometry.size}: grade plays 3x3, 4x4 and 5x5"
            )
        self.strategy = strategy
        self.geometry = geometry
        self.exhaustive = games is None
        self.games = games or 0
        self.rng = random.Random(seed)
        self.engine = MinimaxStrategy(rng=random.Random(seed))
        self.progress = progress
        self.grade = Grade(
            name=strategy.name,
            size=geometry.size,
            mode="exhaustive" if self.exhaustive else "sampled",
            seed=None if self.exhaustive else seed,
            move_seconds=strategy.seconds,
        )
        self._seat: tuple[Symbol, Symbol] = SEATS[0]
        # What the strategy is handed as `player`: an AIPlayer, as the game hands it.
        self._players = {symbol: AIPlayer(symbol, strategy) for symbol in ("X", "O")}
        self._table = geometry.cells <= 9

    def run(self) -> Grade:
        start = perf_counter()
        if self._table:
            self.grade.costs.plain_seconds_per_node = plain_seconds_per_node(self.geometry)
        if self.exhaustive:
            for seat in SEATS:
                self._seat = seat
                self._walk(GameBoard(self.geometry), seat[0], [])
                if self.grade.stopped:
                    break
        else:
            for game in range(self.games):
                self._seat = SEATS[game % len(SEATS)]
                self._sample_game()
                if self.grade.stopped:
                    break
        self.grade.seconds = perf_counter() - start
        return self.grade

    # -- the games -------------------------------------------------------------

    def _walk(self, board: GameBoard, mover: Symbol, moves: list[int]) -> None:
        """Every continuation from `board`: one move of the strategy's, every move of the
        opponent's."""
        if self.grade.stopped:
            return
        if self._finished(board, moves):
            return
        if mover == self._seat[1]:
            cell = self._decide(board, mover, moves)
            if cell is None:
                return
            replies = [cell]
        else:
            replies = board.get_empty_cells()
        for row, col in replies:
            board.make_move(row, col, mover)
            moves.append(self.geometry.key(row, col))
            self._walk(board, other(mover), moves)
            moves.pop()
            board.undo()
            if self.grade.stopped:
                return

    def _sample_game(self) -> None:
        board = GameBoard(self.geometry)
        mover: Symbol = self._seat[0]
        moves: list[int] = []
        while not self._finished(board, moves):
            if mover == self._seat[1]:
                cell = self._decide(board, mover, moves)
                if cell is None:
                    return
            elif self.rng.random() < 0.5:
                cell = self.rng.choice(board.get_empty_cells())
            else:
                cell = self.engine.find_best_move(board, mover)
            board.make_move(*cell, mover)
            moves.append(self.geometry.key(*cell))
            mover = other(mover)

    def _finished(self, board: GameBoard, moves: list[int]) -> bool:
        """Count a finished game (win, draw or loss for the strategy); True if it is over."""
        outcome = board.outcome()
        if outcome is None:
            return False
        grade = self.grade
        grade.games += 1
        if self.progress is not None and grade.games % 100 == 0:
            self.progress(grade.games)
        if outcome.winner is None:
            grade.draws += 1
        elif outcome.winner == self._seat[1]:
            grade.wins += 1
        else:
            grade.losses.add(
                lambda: self._example(board, moves, None, (), "", "", f"{outcome.winner} won")
            )
        return True

    # -- one move of the strategy's -------------------------------------------

    def _decide(self, board: GameBoard, mover: Symbol, moves: list[int]) -> Cell | None:
        """The strategy's move, judged by the oracle; None if it gave no legal move (the
        game is forfeited and counted as a fault)."""
        try:
            cell = self.strategy.find_best_move(board, self._players[mover])
        except StrategyFault as fault:
            self._fault(fault, board, moves)
            return None
        grade = self.grade
        grade.decisions += 1
        costs = grade.costs
        costs.strategy_seconds.append(self.strategy.last_seconds)
        nodes = getattr(self.strategy.inner, "last_nodes", None)
        if isinstance(nodes, int) and not isinstance(nodes, bool):
            costs.strategy_nodes.append(nodes)
        me, them = board.masks_for(mover)
        empties = self.geometry.cells - (me | them).bit_count()
        best, chosen = self._judge(me, them, self.geometry.index(*cell))

        def example(message: str) -> Callable[[], Example]:
            return lambda: self._judged(
                board, moves, cell, self._scores(me, them), empties, message
            )

        if best > 0 and chosen == 0:
            grade.thrown_draws.add(example("a won position played to a draw"))
        elif best > 0 and 0 < chosen < best:
            grade.slow_wins.add(example("a win, slower than the fastest"))
        if best >= 0 > chosen:
            grade.losing_moves.add(example("a move that loses against best play"))
        self._compare(board, mover, me, them)
        return cell

    def _fault(self, fault: StrategyFault, board: GameBoard, moves: list[int]) -> None:
        grade = self.grade
        grade.games += 1  # the game ends there: forfeited
        grade.faults[fault.kind].add(
            lambda: self._example(board, moves, None, (), "", "", fault.message)
        )
        if fault.kind == "hung" or self.strategy.hung:
            grade.stopped = (
                f"{self.strategy.name} did not return from a move it had "
                f"{self.strategy.seconds:g} s for (it ignores cancelled()): grading stopped"
            )
        elif grade.faults["timeout"].count >= MAX_TIMEOUTS:
            grade.stopped = f"{MAX_TIMEOUTS} moves over the time limit: grading stopped"

    def _judge(self, me: int, them: int, cell: int) -> tuple[int, int]:
        """(the position's value, the score of playing `cell`) by the oracle: on 3x3 from
        the solved table, else what the engine knows, then two searches (not one a cell:
        on 5x5 each costs seconds)."""
        geometry = self.geometry
        occupied = me | them
        cells = [index for index in range(geometry.cells) if not occupied >> index & 1]
        known = known_scores(geometry, me, them, cells)
        if len(known) == len(cells):
            return max(known.values()), known[cell]
        search = search_of(geometry)
        chosen = known[cell] if cell in known else search.move_score(me, them, cell)
        return search.value(me, them), chosen

    def _scores(self, me: int, them: int) -> dict[int, int]:
        """The oracle: every empty cell's exact score for the side to move."""
        geometry = self.geometry
        occupied = me | them
        cells = [cell for cell in range(geometry.cells) if not occupied >> cell & 1]
        scores = known_scores(geometry, me, them, cells)
        missing = [cell for cell in cells if cell not in scores]
        if missing:
            search = search_of(geometry)
            for cell in missing:
                scores[cell] = search.move_score(me, them, cell)
        return scores

    def _compare(self, board: GameBoard, mover: Symbol, me: int, them: int) -> None:
        """What plain minimax (3x3: its tree size) and the engine spend on this position."""
        costs = self.grade.costs
        if self._table:
            costs.plain_nodes.append(shared_solver(self.geometry).tree_size(me, them))
        start = perf_counter()
        self.engine.find_best_move(board, mover)
        costs.engine_seconds.append(perf_counter() - start)
        decision = self.engine.last_decision
        if decision is not None:
            costs.engine_nodes.append(decision.positions_searched)

    # -- examples --------------------------------------------------------------

    def _judged(
        self,
        board: GameBoard,
        moves: list[int],
        cell: Cell,
        scores: dict[int, int],
        empties: int,
        message: str,
    ) -> Example:
        best = max(scores.values())
        played = self.geometry.index(*cell)
        return self._example(
            board,
            moves,
            played + 1,
            tuple(index + 1 for index, score in scores.items() if score == best),
            str(Verdict.from_score(best, empties)),
            str(Verdict.from_score(scores[played], empties)),
            f"{message}: played {played + 1}",
        )

    def _example(
        self,
        board: GameBoard,
        moves: list[int],
        played: int | None,
        best: tuple[int, ...],
        before: str,
        after: str,
        message: str,
    ) -> Example:
        return Example(
            first=self._seat[0],
            strategy=self._seat[1],
            moves=tuple(moves),
            board=board.to_string(),
            played=played,
            best=tuple(sorted(best)),
            before=before,
            after=after,
            message=message,
        )


def plain_seconds_per_node(geometry: Geometry) -> float:
    """The time plain minimax spends a node here, measured on a position of ~7,000 nodes
    (two marks on 3x3), so `grade` can say what it would cost on every position."""
    counter = NodeCounter()
    start = perf_counter()
    _plain_minimax(1 << 4, 1, geometry, counter)
    return (perf_counter() - start) / counter.nodes


def _plain_minimax(me: int, them: int, geometry: Geometry, counter: NodeCounter) -> int:
    """Textbook negamax, no pruning and no memory (`tests/textbook_search.py`'s)."""
    counter.nodes += 1
    occupied = me | them
    empties = geometry.cells - occupied.bit_count()
    best = -geometry.cells - 1
    for cell in range(geometry.cells):
        if occupied >> cell & 1:
            continue
        mine = me | 1 << cell
        if geometry.completes_line(mine, cell):
            counter.nodes += 1
            score = empties
        elif empties == 1:
            counter.nodes += 1
            score = 0
        else:
            score = -_plain_minimax(them, mine, geometry, counter)
        best = max(best, score)
    return best
