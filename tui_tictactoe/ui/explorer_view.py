"""What the search explorer shows, made from a search's steps (`engine.search_steps`).

No Textual here: the screen (`screens/explorer_screen.py`) draws what this module says,
and the tests and benchmarks drive it without a terminal. A `Walk` is one search
stepped through: the nodes reached so far (the tree grows only as the search goes),
the current step, and a bounded cache of recent steps so stepping back is an undo;
beyond the cache, stepping back replays the generator from the start. Nothing is
searched before it is asked for: opening costs the root's first step.

Words follow the seeds: the player maximises, the AI minimises (between people X
maximises). The steps give values in the root's view (negamax); here they turn into
the maximiser's view, so a + is good for the maximiser at every depth.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

from tui_tictactoe.engine.board import GameBoard, other
from tui_tictactoe.engine.geometry import Geometry
from tui_tictactoe.engine.predictions import Window, WindowGrade
from tui_tictactoe.engine.search_steps import WIDE, Method, Step, steps

if TYPE_CHECKING:
    from tui_tictactoe.controller import GameController
    from tui_tictactoe.rooms.game import RoomGame

BUDGET = 25_000
"""Nodes a walk goes to at most: End stops there and says so, and a search that needs
more is shown first level first, with one line saying why. 25,000 holds every 3x3
position but plain minimax from the empty board and after one mark (about 55,000 to
550,000), alpha-beta from the empty board (20,866) included."""

CACHE = 2_000
"""Recent steps kept so Left undoes at once; further back replays from the start."""

METHOD_NAMES: Mapping[Method, str] = {
    "minimax": "plain minimax",
    "alphabeta": "alpha-beta",
    "engine": "the engine's",
}
SHORT_NAMES: Mapping[Method, str] = {
    "minimax": "minimax",
    "alphabeta": "alpha-beta",
    "engine": "engine",
}
"""The counts line's names: the three fit one line of 60 columns."""

NOTHING_TO_EXPLORE = "The round is over: no search to explore (r starts a new round)."
"""What `t` says on a finished position."""

CUT = -1
"""The cell of a cut's entry under the node it cut (the cells it left unsearched)."""

Path = tuple[int, ...]
NodeKind = Literal["open", "done", "leaf", "hit", "cut", "pending"]


class Position(NamedTuple):
    """The position searched, and who is who: `mover` moves at the root, `maximiser`
    is the side the scores favour, `names` each side's words ("you", "the AI")."""

    geometry: Geometry
    me: int
    them: int
    mover: str
    maximiser: str
    names: Mapping[str, str]

    @classmethod
    def of_board(
        cls, board: GameBoard, mover: str, maximiser: str, names: Mapping[str, str]
    ) -> Position | None:
        """The position on `board` with `mover` to move; None once the game is over."""
        if board.is_game_over():
            return None
        me, them = board.masks_for(mover)
        return cls(board.geometry, me, them, mover, maximiser, dict(names))

    @property
    def empties(self) -> int:
        return self.geometry.cells - (self.me | self.them).bit_count()

    def side_at(self, depth: int) -> str:
        """Who moves at `depth` (0: the root)."""
        return self.mover if depth % 2 == 0 else other(self.mover)

    def role_at(self, depth: int) -> str:
        return "max" if self.side_at(depth) == self.maximiser else "min"

    def maxview(self, value: int) -> int:
        """A root-view value in the maximiser's view."""
        return value if self.mover == self.maximiser else -value

    def window(self, alpha: int, beta: int) -> tuple[int, int]:
        """A root-view window (alpha, beta) in the maximiser's view: alpha is what the
        maximiser is sure of, beta what the minimiser is."""
        return (alpha, beta) if self.mover == self.maximiser else (-beta, -alpha)

    def name(self, symbol: str) -> str:
        return self.names.get(symbol, symbol)

    def roles(self) -> str:
        """Who maximises, in the seeds' words, once."""
        top, bottom = self.maximiser, other(self.maximiser)
        top_name, bottom_name = self.name(top), self.name(bottom)
        if top_name == top:
            return f"{top} maximises, {bottom} minimises"
        verb = "maximise" if top_name == "you" else "maximises"
        return f"{top_name.capitalize()} ({top}) {verb}, {bottom_name} ({bottom}) minimises"

    def score_words(self, value: int, depth: int) -> str:
        """A root-view value at `depth`, as the maximiser's score and what it means: a
        win scores the empty cells before its move, so a sooner win scores more and a
        later loss less badly (the depth rule)."""
        score = self.maxview(value)
        if score == 0:
            return "0 draw"
        plies = self.empties - abs(score) + 1 - depth
        winner = self.maximiser if score > 0 else other(self.maximiser)
        who = self.name(winner)
        sign = f"{score:+d}"
        if plies <= 0:
            return f"{sign} {who} won"
        verb = "win" if who == "you" else "wins"
        return f"{sign} {who} {verb} in {plies}"

    def cells(self, path: Path) -> str:
        """A path as the players name cells: "1, 5, 3"."""
        return ", ".join(str(cell + 1) for cell in path)


def game_position(game: GameController) -> Position | None:
    """The game's position with whoever is to move there; None once the round is over.
    The player maximises and the AI minimises; between people X maximises."""
    if game.between_people:
        names = {"X": "X", "O": "O"}
        maximiser = "X"
    else:
        names = {game.human_symbol: "you", game.ai_symbol: "the AI"}
        maximiser = game.human_symbol
    return Position.of_board(game.board, game.current_player.symbol, maximiser, names)


def room_position(game: RoomGame) -> Position | None:
    """A room's position as the hub's board has it, whoever is to move (X maximises, as
    between people; the players' names, a client's, stay out). A round over on a full or
    won board is explored from before its last move, the position that decided it; None
    before the first view, or if there is nothing to search."""
    view = game.view
    if view is None:
        return None
    board = game.board
    if board.is_game_over() and view.moves:
        board = GameBoard.replay(board.geometry, view.first, view.moves[:-1])
    me, them = board.masks_for("X")
    mover = view.first if (me | them).bit_count() % 2 == 0 else other(view.first)
    return Position.of_board(board, mover, "X", {"X": "X", "O": "O"})


def bound(value: int) -> str:
    """An alpha or beta: a number, or an open end."""
    if value >= WIDE:
        return "+∞"
    if value <= -WIDE:
        return "-∞"
    return f"{value:+d}" if value else "0"


@dataclass(slots=True)
class Node:
    """One node of the tree so far: a position reached (or a cut's entry)."""

    path: Path
    kind: NodeKind
    window: tuple[int, int] | None = None  # at its enter, root view (alpha-beta)
    value: int | None = None  # root view, once known
    best: int | None = None  # the chosen child's cell, once known
    first: Path | None = None  # a hit: where it was first solved
    pruned: tuple[int, ...] = ()  # a cut: the cells left unsearched
    entered_at: int = 0  # nodes counted at its enter
    searched: int = 0  # nodes its search took, once known
    children: list[int] = field(default_factory=list)


class Change(NamedTuple):
    """What a step changed in the tree so far, for the screen to follow; `rebuild`:
    too much to follow (a jump, a replay), draw it again."""

    added: tuple[Path, ...] = ()
    removed: tuple[Path, ...] = ()
    updated: frozenset[Path] = frozenset()
    rebuild: bool = False


class Size(NamedTuple):
    """A search's size from this position: its nodes (and hits) up to the budget."""

    nodes: int
    hits: int
    finished: bool


def measure(
    position: Position, method: Method, budget: int = BUDGET, stop: Callable[[], bool] = bool
) -> Size | None:
    """How big `method`'s tree is, up to `budget` nodes (for a thread: `stop` is asked
    every 1,024 steps; None if it said stop)."""
    last: Step | None = None
    for index, last in enumerate(steps(position.me, position.them, position.geometry, method)):
        if last.nodes > budget:
            return Size(last.nodes - 1, last.hits, False)
        if index % 1024 == 1023 and stop():
            return None
    assert last is not None
    return Size(last.nodes, last.hits, True)


def jumped(
    position: Position,
    method: Method,
    size: Size | None,
    to: int | None,
    budget: int = BUDGET,
    stop: Callable[[], bool] = bool,
) -> Walk:
    """A walk of its own at step `to` (None: the end), for a thread: End, or Left past
    the cache, replays up to a budget of steps, too long for the UI's thread, and the
    screen's walk is the UI's to read meanwhile. `size`: the one the screen's walk has.
    Told to `stop` (asked every 1,024 steps), it is left part way."""
    walk = Walk(position, method, budget)
    if size is not None:
        walk.set_size(size)
    if to is None:
        walk.end(stop)
    else:
        walk.replay(to, stop)
    return walk


class Level(NamedTuple):
    """One level of the current path, for the panel beside the tree."""

    label: str  # "root" or "5 X"
    role: str  # "max" or "min"
    alpha: int | None  # the live window, maximiser's view (alpha-beta only)
    beta: int | None
    best: int | None  # the best value so far, maximiser's view
    best_cell: int | None


class Walk:
    """One search stepped through: forward, back (an undo, or a replay), Home, End."""

    def __init__(
        self, position: Position, method: Method, budget: int = BUDGET, cache: int = CACHE
    ) -> None:
        self.position = position
        self.method = method
        self.budget = budget
        self.cache = cache
        self.size: Size | None = None  # once measured (`set_size`)
        self._restart(0)

    # -- state -----------------------------------------------------------------------

    @property
    def current(self) -> Step:
        return self._recent[-1]

    @property
    def nodes(self) -> int:
        return self.current.nodes

    @property
    def hits(self) -> int:
        return self.current.hits

    @property
    def done(self) -> bool:
        """The root's value is known: the search is over."""
        return self.current.kind == "back" and not self.current.path

    @property
    def too_big(self) -> bool:
        return self.size is not None and not self.size.finished

    def node(self, path: Path) -> Node:
        return self.nodes_so_far[path]

    def children(self, path: Path) -> list[Path]:
        return [(*path, cell) for cell in self.nodes_so_far[path].children]

    # -- moving ----------------------------------------------------------------------

    def forward(self) -> Change | None:
        """One step on; None (changing nothing) at the end or at the budget."""
        step = self._next()
        if step is None:
            return None
        before = self._marked()
        change = self._apply(step)
        self._recent.append(step)
        self.index += 1
        return self._with_marks(change, before)

    def back(self) -> Change | None:
        """One step back; None at the start. An undo from the cache, else a replay."""
        if self.index == 0:
            return None
        if len(self._recent) == 1:
            self._restart(self.index - 1)
            return Change(rebuild=True)
        before = self._marked()
        step = self._recent.pop()
        self._ahead.append(step)
        self.index -= 1
        return self._with_marks(self._undo(step), before)

    def home(self) -> Change | None:
        if self.index == 0:
            return None
        self._restart(0)
        return Change(rebuild=True)

    def end(self, stop: Callable[[], bool] = bool) -> Change | None:
        """As far as the search goes, within the budget; None if already there. For a
        thread: `stop` is asked every 1,024 steps, and a walk told to stop is left there."""
        moved = False
        while (step := self._next()) is not None:
            self._apply(step)
            self._recent.append(step)
            self.index += 1
            moved = True
            if self.index % 1024 == 0 and stop():
                break
        return Change(rebuild=True) if moved else None

    def replay(self, index: int, stop: Callable[[], bool] = bool) -> None:
        """To step `index` by a replay from the start, without following each step."""
        self._restart(index, stop)

    @property
    def back_replays(self) -> bool:
        """Left here replays from the start (the step before is past the cache)."""
        return self.index > 0 and len(self._recent) == 1

    def go(self, index: int) -> None:
        """To step `index` (as far as there is), by replay: what the tests compare with."""
        self._restart(0)
        while self.index < index and self.forward() is not None:
            pass

    @property
    def at_budget(self) -> bool:
        """The next step would pass the budget (so the walk stops here)."""
        return not self._ahead and self._peek() is not None and self._peek_over

    @property
    def at_end(self) -> bool:
        return self._peek() is None

    @property
    def upcoming(self) -> Step | None:
        """The step Right takes next (None at the end or the budget): what a guess of the
        next node's window is about."""
        step = self._peek()
        if step is None or (not self._ahead and self._peek_over):
            return None
        return step

    def set_size(self, size: Size) -> Change:
        """The tree's size is known: a tree too big shows the root's moves at once."""
        self.size = size
        if size.finished:
            return Change()
        self._restart(self.index)
        return Change(rebuild=True)

    # -- inside ----------------------------------------------------------------------

    def _restart(self, index: int, stop: Callable[[], bool] = bool) -> None:
        """Replay from the start to step `index` (never past the end or the budget);
        `stop` as for `end`."""
        position = self.position
        self._steps: Iterator[Step] = steps(
            position.me, position.them, position.geometry, self.method
        )
        self._ahead: list[Step] = []
        self._peeked: Step | None = None
        self._peek_over = False
        self._recent: deque[Step] = deque(maxlen=self.cache)
        self.nodes_so_far: dict[Path, Node] = {}
        if self.too_big:
            taken = position.me | position.them
            moves = [cell for cell in range(position.geometry.cells) if not taken >> cell & 1]
            self.nodes_so_far[()] = Node((), "pending", children=list(moves))
            for cell in moves:
                self.nodes_so_far[(cell,)] = Node((cell,), "pending")
        self.index = -1
        first = self._next()
        assert first is not None  # a position in play has its root
        self._apply(first)
        self._recent.append(first)
        self.index = 0
        while self.index < index and (step := self._next()) is not None:
            self._apply(step)
            self._recent.append(step)
            self.index += 1
            if self.index % 1024 == 0 and stop():
                break

    def _peek(self) -> Step | None:
        if self._ahead:
            return self._ahead[-1]
        if self._peeked is None:
            self._peeked = next(self._steps, None)
            self._peek_over = self._peeked is not None and self._peeked.nodes > self.budget
        return self._peeked

    def _next(self) -> Step | None:
        if self._ahead:
            return self._ahead.pop()
        step = self._peek()
        if step is None or self._peek_over:
            return None
        self._peeked = None
        return step

    def _apply(self, step: Step) -> Change:
        nodes, path = self.nodes_so_far, step.path
        if step.kind == "enter":
            existing = nodes.get(path)
            node = Node(path, "open", window=self._window(step), entered_at=step.nodes)
            if existing is not None:  # a first-level move shown ahead of its search
                node.children = existing.children if not path else []
                nodes[path] = node
                return Change(updated=frozenset({path}))
            nodes[path] = node
            if path:
                nodes[path[:-1]].children.append(path[-1])
            return Change(added=(path,))
        if step.kind in ("leaf", "hit"):
            kind: NodeKind = "leaf" if step.kind == "leaf" else "hit"
            node = Node(path, kind, value=step.value, first=step.first, entered_at=step.nodes)
            node.searched = 1 if kind == "leaf" else 0
            if path in nodes:  # a pending first-level move
                nodes[path] = node
                return Change(updated=frozenset({path}))
            nodes[path] = node
            nodes[path[:-1]].children.append(path[-1])
            return Change(added=(path,))
        node = nodes[path]
        if step.kind == "back":
            node.kind, node.value, node.best = "done", step.value, step.best
            node.searched = step.nodes - node.entered_at + 1
            updated = {path}
            if step.best is not None and (*path, step.best) in nodes:
                updated.add((*path, step.best))
            return Change(updated=frozenset(updated))
        # a cut: its entry under the node
        cut_path = (*path, CUT)
        assert step.alpha is not None and step.beta is not None
        nodes[cut_path] = Node(cut_path, "cut", window=(step.alpha, step.beta), pruned=step.pruned)
        node.children.append(CUT)
        return Change(added=(cut_path,))

    def _undo(self, step: Step) -> Change:
        nodes, path = self.nodes_so_far, step.path
        if step.kind in ("enter", "leaf", "hit"):
            if self.too_big and len(path) == 1:
                nodes[path] = Node(path, "pending")
                return Change(updated=frozenset({path}))
            del nodes[path]
            if path:
                parent = nodes[path[:-1]]
                assert parent.children[-1] == path[-1]
                parent.children.pop()
            return Change(removed=(path,))
        if step.kind == "back":
            node = nodes[path]
            updated = {path}
            if node.best is not None and (*path, node.best) in nodes:
                updated.add((*path, node.best))
            node.kind, node.value, node.best, node.searched = "open", None, None, 0
            return Change(updated=frozenset(updated))
        del nodes[(*path, CUT)]
        nodes[path].children.pop()
        return Change(removed=((*path, CUT),))

    def _window(self, step: Step) -> tuple[int, int] | None:
        if step.alpha is None or step.beta is None:
            return None
        return step.alpha, step.beta

    def _marked(self) -> frozenset[Path]:
        """The nodes whose look depends on where the walk is: the current path, and the
        principal variation once the search is over."""
        path = self.current.path
        marked = {path[:depth] for depth in range(len(path) + 1)}
        if self.done:
            marked.update(self.principal_variation())
        return frozenset(marked)

    def _with_marks(self, change: Change, before: frozenset[Path]) -> Change:
        moved = (before ^ self._marked()) & self.nodes_so_far.keys()
        return change._replace(updated=change.updated | moved)

    # -- what is shown -----------------------------------------------------------------

    def principal_variation(self) -> tuple[Path, ...]:
        """The best line from the root as far as the tree so far has it (once over)."""
        line: list[Path] = [()]
        node = self.nodes_so_far[()]
        while node.best is not None:
            path = (*node.path, node.best)
            found = self.nodes_so_far.get(path)
            if found is None:
                break
            line.append(path)
            node = found
        return tuple(line)

    def on_path(self, path: Path) -> bool:
        return self.current.path[: len(path)] == path

    def is_chosen(self, path: Path) -> bool:
        """The child whose value its (finished) parent took."""
        if not path or path[-1] == CUT:
            return False
        parent = self.nodes_so_far.get(path[:-1])
        return parent is not None and parent.kind == "done" and parent.best == path[-1]

    def on_pv(self, path: Path) -> bool:
        return self.done and path in self.principal_variation()

    def levels(self) -> list[Level]:
        """The current path, root first: each level's live window and best so far."""
        position, walk_path = self.position, self.current.path
        levels: list[Level] = []
        for depth in range(len(walk_path) + 1):
            path = walk_path[:depth]
            node = self.nodes_so_far.get(path)
            if node is None:
                break
            role = position.role_at(depth)
            label = "root" if not path else f"{path[-1] + 1} {position.side_at(depth - 1)}"
            values = [
                (position.maxview(child.value), cell)
                for cell in node.children
                if cell != CUT and (child := self.nodes_so_far[(*path, cell)]).value is not None
            ]
            if node.kind in ("leaf", "hit") and node.value is not None:
                best: int | None = position.maxview(node.value)
                best_cell = None
            elif values:
                pick = max if role == "max" else min
                best, best_cell = pick(values, key=lambda pair: pair[0])
                if node.kind == "done" and node.best is not None:
                    best_cell = node.best
            else:
                best, best_cell = None, None
            alpha = beta = None
            if node.window is not None:
                alpha, beta = position.window(*node.window)
                if best is not None and node.kind == "open":
                    if role == "max":
                        alpha = max(alpha, best)
                    else:
                        beta = min(beta, best)
            levels.append(Level(label, role, alpha, beta, best, best_cell))
        return levels


# -- words ---------------------------------------------------------------------------

Segment = tuple[str, str]
"""A piece of a line and what it is ("cell", "meta", "score", "muted", "hit", "cut"):
the screen picks its style."""


def node_label(walk: Walk, path: Path) -> tuple[Segment, ...]:
    """A node's line in the tree: its cell (1-based), who played it, its depth, who is
    to move there (max or min), and its score once known (or how it ended)."""
    position, node = walk.position, walk.node(path)
    depth = len(path)
    marks: list[Segment] = []
    if walk.on_pv(path):
        marks.append(("★ ", "pv"))
    elif walk.is_chosen(path):
        marks.append(("✓ ", "chosen"))
    if node.kind == "cut":
        alpha, beta = position.window(*node.window) if node.window else (0, 0)
        cells = " ".join(str(cell + 1) for cell in node.pruned)
        return (
            ("✂ ", "cut"),
            (f"{cells} · cut: alpha {bound(alpha)} >= beta {bound(beta)}", "cut"),
        )
    if not path:
        head: list[Segment] = [
            (f"{position.name(position.mover)} ({position.mover}) to move", "cell"),
            (f"  {position.role_at(0)}", "meta"),
        ]
    else:
        head = [
            (f"{path[-1] + 1} {position.side_at(depth - 1)}", "cell"),
            (f"  d{depth} {position.role_at(depth) if node.kind != 'leaf' else 'end'}", "meta"),
        ]
    tail: list[Segment]
    if node.kind == "pending":
        tail = [("  not searched yet", "muted")]
    elif node.kind == "open":
        tail = [("  …", "muted")]
    elif node.kind == "hit":
        assert node.value is not None and node.first is not None
        score = position.maxview(node.value)
        tail = [
            (f"  = as after {position.cells(node.first)}:", "hit"),
            (f" {score:+d}" if score else " 0", "score"),
        ]
    else:
        assert node.value is not None
        tail = [(f"  {position.score_words(node.value, depth)}", "score")]
        if depth == 1 and node.kind == "done":
            tail.append((f"  ({node.searched:,} nodes)", "muted"))
    return (*marks, *head, *tail)


def plain(segments: tuple[Segment, ...]) -> str:
    return "".join(text for text, _ in segments)


def step_line(walk: Walk) -> str:
    """What the current step did, in words."""
    position, step = walk.position, walk.current
    depth = step.depth
    where = "the root" if not step.path else f"{step.path[-1] + 1}"
    number = f"Step {walk.index + 1}"
    if step.kind == "enter":
        said = f"{number}: search {where} ({position.role_at(depth)} to move)"
        if step.alpha is not None and step.beta is not None:
            alpha, beta = position.window(step.alpha, step.beta)
            said += f", alpha {bound(alpha)} beta {bound(beta)}"
        return said
    if step.kind == "leaf":
        assert step.value is not None
        return f"{number}: {where} ends the game: {position.score_words(step.value, depth)}"
    if step.kind == "hit":
        assert step.value is not None and step.first is not None
        return (
            f"{number}: {where} met before (hit {step.hits}), = as after "
            f"{position.cells(step.first)}: {position.score_words(step.value, depth)}"
        )
    if step.kind == "cut":
        assert step.alpha is not None and step.beta is not None
        alpha, beta = position.window(step.alpha, step.beta)
        cells = " ".join(str(cell + 1) for cell in step.pruned)
        return f"{number}: cut at {where}: alpha {bound(alpha)} >= beta {bound(beta)}, {cells} not searched"
    assert step.value is not None
    score = position.score_words(step.value, depth)
    best = "" if step.best is None else f" (best move {step.best + 1})"
    up = "is the answer" if not step.path else "goes up"
    return f"{number}: {where}'s value {score} {up}{best}"


def panel_lines(walk: Walk, room: int | None = None) -> list[str]:
    """The current path, one level a line: the live alpha and beta (alpha-beta), and the
    best value so far, with the move that gives it. With `room` lines only, the heading
    and the deepest levels (where the search is)."""
    windows = walk.method == "alphabeta"
    lines = ["path     " + ("  α   β " if windows else "") + " best"]  # noqa: RUF001
    for level in walk.levels():
        row = f"{level.label:<5} {level.role}"
        if windows:
            alpha = bound(level.alpha) if level.alpha is not None else ""
            beta = bound(level.beta) if level.beta is not None else ""
            row += f" {alpha:>3} {beta:>3}"
        if level.best is None:
            row += "  …"
        else:
            row += f" {bound(level.best):>3}"
            if level.best_cell is not None:
                row += f" at {level.best_cell + 1}"
        lines.append(row)
    if room is not None and len(lines) > room:
        lines = [lines[0], *lines[len(lines) - room + 1 :]]
    return lines


def counts_line(walks: Mapping[Method, Walk | None], shown: Method) -> list[Segment]:
    """The three searches with their live counts; the one shown first marked."""
    segments: list[Segment] = []
    for method, name in SHORT_NAMES.items():
        walk = walks.get(method)
        if segments:
            segments.append((" · ", "muted"))
        count = "(m)" if walk is None else f"{walk.nodes:,}"
        if walk is not None and method == "engine":
            count += f" ({walk.hits:,} hit{'' if walk.hits == 1 else 's'})"
        segments.append((f"{name} {count}", "shown" if method == shown else "muted"))
    return segments


def why_line(walk: Walk) -> str:
    """One line on where the walk stands: counting, too big, the budget, the end."""
    name = METHOD_NAMES[walk.method]
    size = walk.size
    if walk.done:
        line = walk.position.cells(walk.principal_variation()[-1])
        value = walk.node(()).value
        assert value is not None
        return (
            f"Done in {walk.nodes:,} nodes: best line {line}: {walk.position.score_words(value, 0)}"
        )
    if size is not None and not size.finished:
        return f"Too big to show whole: {name} passes {walk.budget:,} nodes; steps stop there"
    if walk.at_budget:
        return f"Stopped at the budget of {walk.budget:,} nodes"
    if size is None:
        return f"{name}: counting its nodes…"
    total = f"{size.nodes:,} nodes"
    if walk.method == "engine":
        total += f", {size.hits:,} hits"
    return f"{name}: {walk.nodes:,} of {total}"


# -- guessing alpha and beta (g) ---------------------------------------------------------

GUESS_LENGTH = 24
"""The most characters a typed guess may hold (two bounds and a space, with room)."""

INFINITIES = {"inf": WIDE, "+inf": WIDE, "∞": WIDE, "+∞": WIDE, "-inf": -WIDE, "-∞": -WIDE}


def parse_window(text: str) -> Window:
    """Two bounds typed by the learner, alpha then beta: whole numbers or -inf/inf (or ∞),
    apart by spaces or a comma. ValueError, one line, for anything else."""
    if len(text) > GUESS_LENGTH:
        raise ValueError(f"at most {GUESS_LENGTH} characters: alpha, a space, beta")
    words = text.replace(",", " ").split()
    if len(words) != 2:
        raise ValueError("type two bounds, alpha then beta, e.g. -inf 3")
    found = []
    for word in words:
        if word.lower() in INFINITIES:
            found.append(INFINITIES[word.lower()])
            continue
        try:
            value = int(word)
        except ValueError:
            raise ValueError(f"{word[:8]!r} is no bound: a whole number, -inf or inf") from None
        if abs(value) >= WIDE:
            raise ValueError("a bound beyond any score: use -inf or inf")
        found.append(value)
    return found[0], found[1]


def guess_target(walk: Walk) -> tuple[Path, Window] | str:
    """The node a guess is about, the next one Right enters, and its real window in the
    maximiser's view; or why there is none now (a line to show)."""
    if walk.method != "alphabeta":
        return "g guesses alpha and beta in the alpha-beta search: m switches to it"
    step = walk.upcoming
    if step is None:
        return "No node left to guess: the search is over (Home starts again)"
    if step.kind != "enter" or step.alpha is None or step.beta is None:
        return "The next step enters no node (a leaf, a value going up or a cut): → on"
    return step.path, walk.position.window(step.alpha, step.beta)


def possessive(name: str) -> str:
    """ "you" -> "your", "the AI" -> "the AI's", "X" -> "X's"."""
    return "your" if name == "you" else f"{name}'s"


def window_words(found: WindowGrade, position: Position, path: Path) -> str:
    """The grade of a guess in one line: right, or each wrong bound and what it is (alpha:
    the maximiser's best so far on the way here; beta: the minimiser's)."""
    where = position.cells(path)
    alpha, beta = (bound(value) for value in found.truth)
    if found.right:
        return f"Right: alpha {alpha}, beta {beta} at {where}"
    top = possessive(position.name(position.maximiser))
    bottom = possessive(position.name(other(position.maximiser)))
    if not (found.alpha_right or found.beta_right):
        guessed = tuple(bound(value) for value in found.guess)
        return (
            f"At {where}: alpha {alpha}, not {guessed[0]}; beta {beta}, not {guessed[1]} "
            f"({top} best so far, {bottom})"
        )
    if not found.alpha_right:
        return f"At {where}: alpha is {alpha}, not {bound(found.guess[0])}: {top} best so far"
    return f"At {where}: beta is {beta}, not {bound(found.guess[1])}: {bottom} best so far"
