"""The search explorer (`t`): step through the AI's search of a position, node by node.

Three searches of the same position, switched with `m`: plain minimax, alpha-beta
(its cuts greyed, with their condition) and the engine's own (its memory hits drawn as
links to where each position was first solved). What is shown comes from
`ui/explorer_view.py`, which knows no Textual; this screen keeps Textual's `Tree` in
step with it. The tree holds only nodes reached, and of those only the ones under an
expanded node: a finished node folds up, and its children are added when it is opened
again. How big each search is gets counted in a thread, within the node budget; End
and Left past the cache replay up to that budget, so they run in a thread too, on a walk
of their own, taken only if no key moved the walk since (`generation`). In alpha-beta, `g`
asks the learner for the next node's alpha and beta, typed in a box over the keys, and grades
them against the search's own window before stepping there (`explorer_view.guess_target`).
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static, Tree
from textual.widgets.tree import TreeNode
from textual.worker import get_current_worker

from tui_tictactoe.engine.predictions import grade_window
from tui_tictactoe.engine.search_steps import METHODS, Method
from tui_tictactoe.ui.explorer_view import (
    GUESS_LENGTH,
    METHOD_NAMES,
    Change,
    Path,
    Position,
    Segment,
    Size,
    Walk,
    counts_line,
    guess_target,
    jumped,
    measure,
    node_label,
    panel_lines,
    parse_window,
    step_line,
    why_line,
    window_words,
)
from tui_tictactoe.ui.screens.stale_resize import IgnoresStaleResize
from tui_tictactoe.ui.widgets import TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint

SPEEDS = (1, 2, 5, 10, 20, 50, 100)
"""Steps a second when playing by itself (Space); + and - pick the next one."""

KEYS = (
    KeyHint("→", "Step", "right"),
    KeyHint("←", "Back", "left"),
    KeyHint("Home/End", "Jump"),
    KeyHint("m", "Search", "m"),
    KeyHint("Space", "Play", "space"),
    KeyHint("+/-", "Speed"),
    KeyHint("Esc", "Close", "escape"),
)

GUESS_KEY = KeyHint("g", "Guess", "g")
"""Guess the next node's alpha and beta: in the alpha-beta search only, where `g` acts."""

GUESSING_KEYS = (
    KeyHint("Enter", "Grade the guess"),
    KeyHint("Esc", "No guess", "escape"),
)
"""The key bar while a guess is typed: the other keys type into it or wait."""


def explorer_keys(method: Method) -> tuple[KeyHint, ...]:
    """The key bar for `method`: `g` only where it guesses (alpha-beta)."""
    if method != "alphabeta":
        return KEYS
    return (*KEYS[:4], GUESS_KEY, *KEYS[4:])


NARROW = 80
"""Below this width the path panel goes under the tree instead of beside it."""

NARROW_PANEL = 4
"""Its lines there (the CSS's max-height): the heading and the three deepest levels."""


class SearchTree(Tree[Path]):
    """The tree of the search so far; its data is each node's path."""

    ICON_NODE = "▸ "
    ICON_NODE_EXPANDED = "▾ "


class ExplorerScreen(IgnoresStaleResize, Screen[None]):
    """A position's search, step by step, in three ways."""

    CSS_PATH = "explorer_screen.tcss"
    AUTO_FOCUS = "SearchTree"

    # Priority: the tree's own Space (fold), Home and End (scroll) give way to stepping;
    # Up, Down and Enter stay the tree's, to look around and fold or open a node.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step", "Step", priority=True),
        Binding("left", "back", "Back", priority=True),
        Binding("home", "home", "Start", priority=True),
        Binding("end", "end", "End", priority=True),
        Binding("m", "switch", "Search", priority=True),
        Binding("space", "play", "Play", priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster", priority=True),
        Binding("minus", "speed(-1)", "Slower", priority=True),
        Binding("g", "guess", "Guess", priority=True),
        Binding("escape,t", "close", "Close", priority=True),
    ]

    def __init__(self, position: Position, method: Method = "minimax") -> None:
        super().__init__()
        self.position = position
        self.method: Method = method
        self.walks: dict[Method, Walk | None] = dict.fromkeys(METHODS)
        self.sizes: dict[Method, Size] = {}
        self.speed = 3  # an index into SPEEDS: 10 a second
        self.timer: Timer | None = None
        self.search_tree: SearchTree = SearchTree("", data=())
        self.shown: dict[Path, TreeNode[Path]] = {}
        self.filled: set[Path] = set()  # shown nodes whose children are in the tree
        self.roles = Static(id="explorer-roles", markup=False)
        self.counts = Static(id="explorer-counts")
        self.panel = Static(id="explorer-panel", markup=False)
        self.step_said = Static(id="explorer-step", markup=False)
        self.why = Static(id="explorer-why", markup=False)
        self.key_bar = KeyBar(KEYS, id="explorer-keys")
        self.closed = False
        self._styles_of = ""
        self._style_cache: dict[str, Style] = {}
        self._state_due = self._cursor_due = False
        # A jump (End, Left past the cache) runs in a thread; every key that moves the
        # walk counts one here, so a jump's walk about an older request is dropped.
        self.generation = 0
        self.jumping: tuple[int | None, str] | None = None  # its target and its note
        # `g`: the box the learner types alpha and beta into (while it shows), the node the
        # guess is about, and the last grade's line (until the walk moves on).
        self.guess_box: Input | None = None
        self.guessed: Path | None = None
        self.guess_note: str | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield self.roles
        yield self.counts
        with Container(id="explorer-main"):
            yield self.search_tree
            yield self.panel
        yield self.step_said
        yield self.why
        yield self.key_bar

    def on_mount(self) -> None:
        self.search_tree.guide_depth = 2
        self.search_tree.auto_expand = True
        self._place(self.app.size.width)
        self._switch_to(self.method)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self._place(self.app.size.width)
        if self.walks[self.method] is not None:
            self._show_state()

    def _place(self, width: int) -> None:
        narrow = width < NARROW
        self.set_class(narrow, "-narrow")
        negamax = "(= negamax)" if narrow else "· negamax: the same, signs flipped"
        self.roles.update(f"{self.position.roles()} {negamax}")

    @property
    def walk(self) -> Walk:
        walk = self.walks[self.method]
        assert walk is not None
        return walk

    # -- keys ------------------------------------------------------------------------

    def action_step(self) -> None:
        self._moved()
        self._follow(self.walk.forward())

    def action_back(self) -> None:
        """One step back: an undo, or past the cache a replay (in a thread, as End)."""
        target = self.jumping[0] if self.jumping is not None else None
        if target is not None:  # a replay under way: one further back
            self._jump(max(target - 1, 0))
        elif self.walk.back_replays:
            self._jump(self.walk.index - 1)
        else:
            self._moved()
            self._follow(self.walk.back())

    def action_home(self) -> None:
        self._moved()
        self._follow(self.walk.home())

    def action_end(self) -> None:
        """As far as the search goes: up to a budget of steps, in a thread (the screen
        answers meanwhile: Escape closes it at once)."""
        self._stop_playing()
        if self.jumping is not None and self.jumping[0] is None:
            return  # on its way there already
        if self.walk.at_end or self.walk.at_budget:
            self._moved()
            self._show_state()
        else:
            self._jump(None)

    def action_switch(self) -> None:
        self._stop_playing()
        self._moved()
        self._switch_to(METHODS[(METHODS.index(self.method) + 1) % len(METHODS)])

    def action_play(self) -> None:
        if self.timer is not None:
            self._stop_playing()
        else:
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._show_state()

    def action_speed(self, delta: int) -> None:
        self.speed = min(max(self.speed + delta, 0), len(SPEEDS) - 1)
        if self.timer is not None:
            self.timer.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._show_state()

    # -- g: guess the next node's alpha and beta ---------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a guess is typed, every key but Escape goes to its box (`-` is a minus
        there, not Slower; Space a space, not Play)."""
        return self.guess_box is None or action == "close"

    def action_guess(self) -> None:
        """`g`: before stepping, guess the window the next node is entered with."""
        self._stop_playing()
        target = guess_target(self.walk)
        if isinstance(target, str):
            self._say(target)
            return
        self.guessed = target[0]
        self._say(f"Guess alpha and beta as the search enters {self.position.cells(target[0])}")
        box = Input(
            placeholder="alpha beta, e.g. -inf 3 (Enter grades, Esc: none)",
            max_length=GUESS_LENGTH,
            restrict=r"[-+0-9 ,infINF∞]*",
            id="explorer-guess",
        )
        self.guess_box = box
        self.mount(box, before=self.key_bar)
        self.set_focus(box)  # immediate: keys typed in a burst land in the box
        self.key_bar.hints = GUESSING_KEYS

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.guessed is None or self.guess_box is None:
            return
        try:
            guess = parse_window(event.value)
        except ValueError as bad:
            self._say(f"{bad}; Esc: no guess")
            return
        target = guess_target(self.walk)
        path = self.guessed
        self._end_guess()
        if isinstance(target, str) or target[0] != path:  # the walk moved meanwhile
            self._say(target if isinstance(target, str) else "The walk moved: g again")
            return
        words = window_words(grade_window(guess, target[1]), self.position, path)
        self.action_step()  # the node is entered: its window shows on the path
        self._say(words)

    def _end_guess(self) -> None:
        box, self.guess_box, self.guessed = self.guess_box, None, None
        if box is not None:
            box.remove()
        self.key_bar.hints = explorer_keys(self.method)
        self.set_focus(self.search_tree)

    def _say(self, line: str) -> None:
        """A line in place of the walk's own (`why_line`) until the walk moves."""
        self.guess_note = line
        self._show_state()

    def action_close(self) -> None:
        if self.guess_box is not None:  # Escape takes back the guess, not the screen
            self._end_guess()
            self._say("No guess: → steps on, g guesses again")
            return
        if self.closed or not self.is_active:
            return  # a burst of Escapes closes it once
        self.closed = True
        self._stop_playing()
        self.workers.cancel_node(self)
        self.dismiss()

    def _tick(self) -> None:
        self._moved()
        change = self.walk.forward()
        if change is None:
            self._stop_playing()
        self._follow(change)

    def _stop_playing(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    # -- jumps, in a thread -------------------------------------------------------------

    def _moved(self) -> None:
        """A key moved the walk: a jump under way is about an older request now, and a
        guess's grade is old news."""
        self.generation += 1
        self.guess_note = None
        if self.jumping is not None:
            self.jumping = None
            self.workers.cancel_group(self, "explorer-jump")

    def _jump(self, to: int | None) -> None:
        """Start a jump to step `to` (None: the end) on a walk of the thread's own."""
        self.generation += 1
        name = METHOD_NAMES[self.method]
        note = (
            f"{name}: jumping to the end…"
            if to is None
            else f"{name}: going back to step {to + 1}…"
        )
        self.jumping = (to, note)
        walk = self.walk
        self._jump_in_thread(self.generation, self.method, walk.size, to, walk.budget)
        self._show_state()

    @work(thread=True, exclusive=True, group="explorer-jump")
    def _jump_in_thread(
        self, generation: int, method: Method, size: Size | None, to: int | None, budget: int
    ) -> None:
        worker = get_current_worker()
        walk = jumped(self.position, method, size, to, budget, lambda: worker.is_cancelled)
        if not worker.is_cancelled:
            self.post_message(self.Jumped(generation, method, walk))

    class Jumped(Message):
        """A jump's walk, from its thread, with the generation it was asked in."""

        def __init__(self, generation: int, method: Method, walk: Walk) -> None:
            super().__init__()
            self.generation, self.method, self.walk = generation, method, walk

    def on_explorer_screen_jumped(self, message: Jumped) -> None:
        if self.closed or message.generation != self.generation or message.method != self.method:
            return  # stale: a key moved the walk since, or the screen is closing
        self.jumping = None
        self.walks[self.method] = message.walk
        self._follow(Change(rebuild=True))

    # -- the searches --------------------------------------------------------------------

    def _switch_to(self, method: Method) -> None:
        self.method = method
        self.key_bar.hints = explorer_keys(method)
        if self.walks[method] is None:
            self.walks[method] = Walk(self.position, method)
            # After the frame: the count shares the interpreter with the screen's first draw.
            self.call_after_refresh(self._start_measuring, method)
        self._rebuild()
        self._show_state()

    def _start_measuring(self, method: Method) -> None:
        if not self.closed:  # Escape may have come first
            self._measure(method)

    @work(thread=True, group="explorer-size")
    def _measure(self, method: Method) -> None:
        worker = get_current_worker()
        size = measure(self.position, method, stop=lambda: worker.is_cancelled)
        if size is not None and not worker.is_cancelled:
            # Posted, never `call_from_thread`: that waits for the UI, and raises once the
            # app has gone (a quit while it counted).
            self.post_message(self.Sized(method, size))

    class Sized(Message):
        """A search's size, counted in the thread."""

        def __init__(self, method: Method, size: Size) -> None:
            super().__init__()
            self.method, self.size = method, size

    def on_explorer_screen_sized(self, message: Sized) -> None:
        method, size = message.method, message.size
        if self.closed:
            return
        self.sizes[method] = size
        walk = self.walks[method]
        assert walk is not None
        change = walk.set_size(size)
        if method == self.method:
            self._follow(change)
            if self.jumping is not None:  # its walk was made without the size: again
                self._jump(self.jumping[0])

    # -- the tree ------------------------------------------------------------------------

    def _follow(self, change: Change | None) -> None:
        """Bring the tree in step with the walk after `change` (None: nothing moved)."""
        if change is None:
            self._show_state()
            return
        if change.rebuild:
            self._rebuild()
        else:
            for path in change.removed:
                node = self.shown.pop(path, None)
                if node is not None:
                    node.remove()
                    self._forget(path)
            for path in change.added:
                self._add(path)
            for path in change.updated:
                self._relabel(path)
            step = self.walk.current
            if step.kind == "back" and step.path:
                folded = self.shown.get(step.path)
                if folded is not None:
                    folded.collapse()
        self._reveal()
        self._show_state()

    def _forget(self, path: Path) -> None:
        """A removed node's descendants go with it."""
        self.filled.discard(path)
        for other in [each for each in self.shown if each[: len(path)] == path]:
            del self.shown[other]
            self.filled.discard(other)

    def _rebuild(self) -> None:
        tree = self.search_tree
        tree.clear()
        self.shown = {(): tree.root}
        self.filled = set()
        tree.root.data = ()
        self._relabel(())
        walk = self.walk
        keep_open = {walk.current.path[:depth] for depth in range(walk.current.depth + 1)}
        if walk.done:
            keep_open.update(walk.principal_variation())
        self._fill((), keep_open)
        tree.root.expand()

    def _fill(self, path: Path, keep_open: set[Path]) -> None:
        """Put `path`'s children in the tree; those in `keep_open`, opened, theirs too."""
        self.filled.add(path)
        for child in self.walk.children(path):
            node = self._add(child)
            if node is not None and child in keep_open:
                self._fill(child, keep_open)
                node.expand()

    def _add(self, path: Path) -> TreeNode[Path] | None:
        parent = self.shown.get(path[:-1])
        if parent is None or path[:-1] not in self.filled or path in self.shown:
            return None
        has_children = bool(self.walk.node(path).children)
        node = parent.add(self._label(path), data=path, allow_expand=has_children)
        self.shown[path] = node
        if not has_children:
            self.filled.add(path)
        return node

    def _relabel(self, path: Path) -> None:
        node = self.shown.get(path)
        if node is None or path not in self.walk.nodes_so_far:
            return
        node.set_label(self._label(path))
        node.allow_expand = bool(self.walk.node(path).children)

    def _reveal(self) -> None:
        """The current path shown and open, and the tree's cursor on its last node."""
        path = self.walk.current.path
        for depth in range(len(path) + 1):
            prefix = path[:depth]
            node = self.shown.get(prefix)
            if node is None:
                break
            if prefix not in self.filled:
                self._fill(prefix, set())
            if depth < len(path) and not node.is_expanded:
                node.expand()
        if not self._cursor_due:  # once the tree has its lines, for a burst of steps
            self._cursor_due = True
            self.call_after_refresh(self._cursor_to_current)

    def _cursor_to_current(self) -> None:
        self._cursor_due = False
        self._cursor_to(self.walk.current.path)

    def _cursor_to(self, path: Path) -> None:
        node = self.shown.get(path)
        if node is not None and node.line >= 0:
            self.search_tree.move_cursor(node)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Path]) -> None:
        path = event.node.data
        if path is not None and path not in self.filled:
            self._fill(path, set())

    def on_tree_node_selected(self, event: Tree.NodeSelected[Path]) -> None:
        """Enter on a memory hit goes to where that position was first solved."""
        path = event.node.data
        if path is None or path not in self.walk.nodes_so_far:
            return
        first = self.walk.node(path).first
        if first is None:
            return
        for depth in range(1, len(first) + 1):
            node = self.shown.get(first[: depth - 1])
            if node is not None:
                if first[: depth - 1] not in self.filled:
                    self._fill(first[: depth - 1], set())
                node.expand()
        self.call_after_refresh(self._cursor_to, first)

    # -- words -------------------------------------------------------------------------

    def _styles(self) -> dict[str, Style]:
        """Each segment's style, from the theme: made once a theme (`_label` runs a lot)."""
        theme = self.app.current_theme
        if self._styles_of != theme.name:
            self._styles_of = theme.name
            self._style_cache = {
                "cell": Style(bold=True),
                "meta": Style(dim=True),
                "score": Style(color=theme.accent or theme.primary),
                "muted": Style(dim=True),
                "hit": Style(color=theme.secondary or theme.primary, italic=True),
                "cut": Style(dim=True),
                "pv": Style(color=theme.success or "green", bold=True),
                "chosen": Style(color=theme.success or "green"),
                "shown": Style(bold=True, reverse=True),
            }
        return self._style_cache

    def _text(self, segments: tuple[Segment, ...] | list[Segment]) -> Text:
        styles = self._styles()
        text = Text()
        for piece, role in segments:
            text.append(piece, styles.get(role))
        return text

    def _label(self, path: Path) -> Text:
        text = self._text(node_label(self.walk, path))
        walk = self.walk
        if walk.on_pv(path):
            text.stylize(Style(underline=True))
        elif walk.on_path(path):
            text.stylize(Style(bold=True))
        return text

    def _show_state(self) -> None:
        """The lines around the tree, drawn once for a burst of steps (before the frame)."""
        if not self._state_due:
            self._state_due = True
            self.call_later(self._draw_state)

    def _draw_state(self) -> None:
        self._state_due = False
        walk = self.walk
        self.sub_title = (
            f"search explorer · {METHOD_NAMES[walk.method]} · "
            f"{self.position.geometry.size}x{self.position.geometry.size}, "
            f"{self.position.mover} to move"
        )
        counts = counts_line(self.walks, self.method)
        playing = f"  ▶ {SPEEDS[self.speed]}/s" if self.timer is not None else ""
        speed = playing or f"  {SPEEDS[self.speed]}/s"
        self.counts.update(self._text([*counts, (speed, "muted")]))
        room = NARROW_PANEL if self.has_class("-narrow") else None
        self.panel.update("\n".join(panel_lines(walk, room)))
        self.step_said.update(step_line(walk))
        if self.jumping is not None:
            self.why.update(self.jumping[1])
        else:
            self.why.update(self.guess_note or why_line(walk))
        # A guess's grade wraps where the walk's own line is cut (narrow: the CSS).
        self.why.set_class(self.jumping is None and self.guess_note is not None, "-note")
