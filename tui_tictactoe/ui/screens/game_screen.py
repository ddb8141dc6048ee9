"""The game: board, score, status and buttons, wired to a `GameController`.

Every human move goes through `play_at`, whether it came from a click, Enter,
Space or a digit. The keyboard cursor is this screen's own state rather than
"whatever has focus", because `focus()` is deferred and keys arrive in bursts
over SSH and tmux: `down right enter` typed at once must play the same cell as
typed slowly. For the same reason every key binding is a priority binding (see
`BINDINGS`).

The AI thinks in a thread worker. Its reply comes back as a message tagged
with the controller and round generation it was computed for, so a reply that
outlives a reset or a new game is dropped instead of landing on the new board.
While it thinks the screen holds back its frames (see `_hold_frames`), so the
human's move and the AI's reply reach the terminal as one small update.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from contextlib import ExitStack
from typing import ClassVar, NamedTuple

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Header, Static
from textual.worker import get_current_worker

from ...controller import AIRequest, GameController
from ...engine.board import Cell
from ..widgets import (
    ActionButton,
    GameCell,
    GameFooter,
    GameGrid,
    ReasoningPanel,
    Scoreboard,
    StatusLine,
)

MIN_WIDTH, MIN_HEIGHT = 50, 18
"""Below this the board cannot be drawn properly: a message asks for a larger terminal."""

REPLY_WAIT = 0.1
"""Seconds the screen holds its frames for the AI's reply; a slower AI is then shown thinking."""

CONTROL_ROW = 3
"""The keyboard cursor's row for the buttons under the board (rows 0-2 are the grid)."""

CONTROLS: tuple[tuple[str, str, str], ...] = (
    # (id, label, action): one button under each column of the board.
    ("reset", "Reset", "screen.new_round"),
    ("new-game", "New game", "screen.new_game"),
    ("exit", "Exit", "app.quit"),
)


class GameOptions(NamedTuple):
    """What a game is set up with; the new-game dialog returns a changed copy."""

    symbol: str = "X"
    first: str = "human"
    difficulty: str = "hard"
    alternate: bool = False


ControllerFactory = Callable[[GameOptions], GameController]


def step(cursor: Cell, drow: int, dcol: int) -> Cell:
    """Move the cursor one place, stopping at the edges; row 3 is the row of buttons."""
    row = min(max(cursor[0] + drow, 0), CONTROL_ROW)
    col = min(max(cursor[1] + dcol, 0), 2)
    return row, col


class GameScreen(Screen[None]):
    """The board and everything around it."""

    # All priority: priority bindings run as the app reads each key, in order,
    # while other keys are first forwarded to the focused widget and bubble
    # back up through several message queues. Mixing the two reorders a burst
    # (`down enter` would play before moving).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "navigate(-1, 0)", "Up", show=False, priority=True),
        Binding("down", "navigate(1, 0)", "Down", show=False, priority=True),
        Binding("left", "navigate(0, -1)", "Left", show=False, priority=True),
        Binding("right", "navigate(0, 1)", "Right", show=False, priority=True),
        Binding("enter,space", "select", "Play", show=False, priority=True),
        *(
            Binding(str(key), f"play({key})", f"Play {key}", show=False, priority=True)
            for key in range(1, 10)
        ),
        Binding("r", "new_round", "Reset", priority=True),
        Binding("n", "new_game", "New game", priority=True),
        Binding("a", "toggle_analysis", "Analysis", priority=True),
        Binding("h", "hint", "Hint", priority=True),
        Binding("i", "toggle_info", "Info", priority=True),
    ]

    AUTO_FOCUS = ""
    """No automatic focus: `on_mount` focuses the cursor's cell (focusing the first
    cell on the way would restyle it twice)."""

    show_analysis: reactive[bool] = reactive(False, init=False)
    show_info: reactive[bool] = reactive(False, init=False)

    class AIMoved(Message):
        """The AI thread's answer, for the round it was asked about."""

        def __init__(self, controller: GameController, generation: int, cell: Cell) -> None:
            super().__init__()
            self.controller = controller
            self.generation = generation
            self.cell = cell

    class AIFailed(Message):
        """The AI thread raised instead of answering."""

        def __init__(self, controller: GameController, generation: int, error: str) -> None:
            super().__init__()
            self.controller = controller
            self.generation = generation
            self.error = error

    def __init__(
        self,
        controller: GameController,
        options: GameOptions,
        new_controller: ControllerFactory,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.options = options
        self.new_controller = new_controller
        self.cursor: Cell = (1, 1)
        self.hint: Cell | None = None
        self.ai_error: str | None = None
        self._frame_hold: ExitStack | None = None
        self._resumed = False
        # Mounted when first needed: start-up does not pay for them.
        self._info: ReasoningPanel | None = None
        self._too_small: Static | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        # One container between the screen and the game's widgets, a grid whose
        # three columns put each button under a column of the board: every level
        # of nesting costs a whole-area render in the first frame. The screen lays
        # out horizontally: the AI info panel (#info) is mounted beside #play when
        # first shown, and the too-small message (#too-small) when needed.
        with Container(id="play"):
            yield Scoreboard(id="scoreboard")
            yield GameGrid(id="grid")
            yield StatusLine(id="status")
            for id, label, action in CONTROLS:
                # "-style-default" is Button's own class (see GameCell).
                yield ActionButton(label, id=id, action=action, classes="control -style-default")
        yield GameFooter(show_command_palette=False, compact=True)

    @property
    def grid(self) -> GameGrid:
        return self.query_one(GameGrid)

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def on_mount(self) -> None:
        self._begin_round()
        self._focus_cursor()

    # -- moves --------------------------------------------------------------

    def play_at(self, row: int, col: int) -> None:
        """Play the human's move: the one path for clicks, Enter, Space and digits."""
        if self.ai_error is not None:
            self._show_status()
            return
        ok, message = self.controller.play_human_move(row, col)
        if not ok:
            self.status.say(message, "refused")
            return
        self.hint = None
        self._after_move()

    @on(Button.Pressed, "GameCell")
    def _cell_pressed(self, event: Button.Pressed) -> None:
        cell = event.button
        assert isinstance(cell, GameCell)
        self.cursor = (cell.row, cell.col)
        self.play_at(cell.row, cell.col)

    def _after_move(self) -> None:
        self._show_all()
        if self.controller.is_ai_turn:
            self._hold_frames()
            self._think(self.controller, self.controller.ai_request())

    # -- the AI -------------------------------------------------------------

    @work(thread=True, exclusive=True, group="ai", exit_on_error=False)
    def _think(self, controller: GameController, request: AIRequest) -> None:
        """Find the AI's move off the UI thread; never touches a widget."""
        reply: Message
        try:
            cell = controller.find_best_ai_move(request.board)
        except Exception as error:
            reply = self.AIFailed(
                controller, request.generation, f"{type(error).__name__}: {error}"
            )
        else:
            reply = self.AIMoved(controller, request.generation, cell)
        if not get_current_worker().is_cancelled:
            self.post_message(reply)

    def _is_current(self, reply: AIMoved | AIFailed) -> bool:
        return (
            reply.controller is self.controller
            and reply.generation == self.controller.generation
            and self.controller.is_ai_turn
        )

    @on(AIMoved)
    def _ai_moved(self, reply: AIMoved) -> None:
        if not self._is_current(reply):
            return  # computed for a round that has since been reset or replaced
        ok, message = self.controller.play_ai_move(*reply.cell, generation=reply.generation)
        if not ok:
            self.ai_error = message  # a broken strategy: say so rather than hang
        if self.show_info:
            self._show_info()
        self._show_all()
        self._release_frames_when_refreshed()

    @on(AIFailed)
    def _ai_failed(self, reply: AIFailed) -> None:
        if self._is_current(reply):
            self.ai_error = reply.error
            self._show_status()
            self._release_frames_when_refreshed()

    def _cancel_ai(self) -> None:
        self.workers.cancel_group(self, "ai")
        self._release_frames()

    # -- one frame for the move and the reply ---------------------------------

    def _hold_frames(self) -> None:
        """Hold back painting until the AI's reply is on the widgets.

        The reply comes back from the thread a few milliseconds after the move,
        but the screen paints as soon as the UI is idle, so the human's mark
        went out alone (and the paint delayed the reply further). Textual's
        frame limiter then held the AI's mark back for a frame period or two:
        17-33 ms later, in a second update. Held, both marks go out in one
        small partial update. Only painting waits: keys and widget state are
        handled as usual. An AI still thinking after `REPLY_WAIT` is let
        through, to show "AI is thinking…".
        """
        if self._frame_hold is None:
            hold = ExitStack()
            hold.enter_context(self.app.batch_update())
            hold.callback(self.set_timer(REPLY_WAIT, self._release_frames).stop)
            self._frame_hold = hold

    def _release_frames(self) -> None:
        hold, self._frame_hold = self._frame_hold, None
        if hold is not None:
            hold.close()
            # Paint now, even if every repaint request reached the screen while held.
            self.check_idle()

    def _release_frames_when_refreshed(self) -> None:
        """Release the hold once the widgets' repaints have reached the screen.

        A widget asks the screen for a repaint only when its message queue has
        drained (in its idle step), not when it is changed: released straight
        from `_ai_moved`, the screen would paint the human's mark and leave the
        AI's to the next frame. So, like Pilot waiting for a screen to settle,
        queue a callback on every widget and release when the last has run:
        each widget goes on to its idle step in the same turn of the event
        loop, before the screen's next turn.
        """
        hold = self._frame_hold
        if hold is None:
            return
        waiting = 0

        def settled() -> None:
            nonlocal waiting
            waiting -= 1
            if waiting == 0 and self._frame_hold is hold:
                self._release_frames()

        # call_later is False for a widget that is closing: do not wait for it.
        waiting = sum(widget.call_later(settled) for widget in self.walk_children(Widget))
        if not waiting:
            self._release_frames()

    # -- rounds and games ---------------------------------------------------

    def _begin_round(self) -> None:
        self.hint = None
        self.ai_error = None
        self.sub_title = (
            f"you {self.controller.human_symbol} vs AI {self.controller.ai_symbol}"
            f" · {self.options.difficulty}"
        )
        self._after_move()

    def action_new_round(self) -> None:
        self._cancel_ai()
        self.controller.new_round()
        self._begin_round()

    def action_new_game(self) -> None:
        # Imported on demand, like the help: start-up does not need the dialog.
        from .new_game_screen import NewGameScreen

        self.app.push_screen(NewGameScreen(self.options), self._apply_options)

    def _apply_options(self, options: GameOptions | None) -> None:
        if options is None:
            return
        self._cancel_ai()
        self.options = options
        self.controller = self.new_controller(options)
        self._show_info()
        self._begin_round()

    # -- keyboard -----------------------------------------------------------

    def action_navigate(self, drow: int, dcol: int) -> None:
        self.cursor = step(self.cursor, drow, dcol)
        self._focus_cursor()

    async def action_select(self) -> None:
        row, col = self.cursor
        if row == CONTROL_ROW:
            await self.app.run_action(CONTROLS[col][2], default_namespace=self)
        else:
            self.play_at(row, col)

    def action_play(self, key: int) -> None:
        self.cursor = divmod(key - 1, 3)
        self._focus_cursor()
        self.play_at(*self.cursor)

    def _widget_at(self, cursor: Cell) -> Widget:
        row, col = cursor
        if row == CONTROL_ROW:
            return self.query_one(f"#{CONTROLS[col][0]}")
        return self.grid.cell(row, col)

    def _focus_cursor(self) -> None:
        # set_focus is immediate, unlike Widget.focus(), so the next key in a
        # burst already sees the new focus.
        self.set_focus(self._widget_at(self.cursor))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Let the cursor follow focus moved by the mouse or Tab."""
        widget = event.widget
        if widget is not self.focused:
            return  # a later key has moved on already
        if isinstance(widget, GameCell):
            self.cursor = (widget.row, widget.col)
        else:
            for col, (id, _, _) in enumerate(CONTROLS):
                if widget.id == id:
                    self.cursor = (CONTROL_ROW, col)

    # -- teaching aids ------------------------------------------------------

    def action_toggle_analysis(self) -> None:
        self.show_analysis = not self.show_analysis

    def watch_show_analysis(self) -> None:
        self._show_overlays()

    def action_hint(self) -> None:
        cell = self.controller.hint()
        if cell is None:
            if self.controller.game_over:
                self.status.say("The round is over: press r for a new round.", "refused")
            else:
                self.status.say("No hint now: it is the AI's turn.", "refused")
            return
        self.hint = cell
        self.grid.show_hint(cell)
        row, col = cell
        self.status.say(f"Hint: cell {row * 3 + col + 1} is a best move.", "hint")

    def action_toggle_info(self) -> None:
        self.show_info = not self.show_info

    def watch_show_info(self, show: bool) -> None:
        if self._info is None:
            if not show:
                return
            self._info = ReasoningPanel(id="info")
            self.mount(self._info)
        self._info.set_class(show, "-visible")
        if show:
            self._show_info()

    # -- showing the state --------------------------------------------------

    def _show_all(self) -> None:
        controller = self.controller
        self.grid.show_board(controller.board)
        self.query_one(Scoreboard).show(
            controller.score, controller.round, controller.human_symbol, controller.ai_symbol
        )
        self._show_overlays()
        self._show_status()

    def _show_overlays(self) -> None:
        controller = self.controller
        # Only on the human's turn: the AI's view would flash for the instant it thinks.
        on = self.show_analysis and controller.is_human_turn
        self.grid.show_analysis(controller.analysis() if on else None)
        self.grid.show_hint(self.hint)

    def _show_status(self) -> None:
        controller = self.controller
        over, result = controller.check_game_over()
        if over:
            outcome = controller.outcome
            assert outcome is not None
            if outcome.winner is None:
                tone = "draw"
            elif outcome.winner == controller.human_symbol:
                tone = "win"
            else:
                tone = "loss"
            self.status.say(f"{result} Press r for a new round.", tone)
        elif self.ai_error is not None:
            self.status.say(f"The AI failed ({self.ai_error}). Press r to restart.", "error")
        elif controller.is_ai_turn:
            self.status.say("AI is thinking…", "thinking")
        else:
            self.status.say(f"Your turn: you play {controller.human_symbol}.", "turn")

    def _show_info(self) -> None:
        """Read the AI's last decision here, on the UI thread, after its move was applied."""
        if self._info is None:
            return  # filled in when it is first shown
        minimax = self.controller.minimax
        self._info.show(
            minimax.last_decision if minimax is not None else None, explains=minimax is not None
        )

    # -- terminal size ------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)

    @on(events.ScreenResume)
    def _keep_styles_on_first_resume(self, event: events.ScreenResume) -> None:
        """Skip Textual's restyle of the whole screen when it first appears (~10 ms).

        Textual restyles a resumed screen because the CSS may have changed while
        it was covered. The first resume comes right after the widgets were
        mounted, each styled as it was registered and again on every change of
        class or focus since, so it would recompute the same styles for all of
        them in the middle of the first frame. Later resumes (after the help or
        the new-game dialog) still restyle. Runs before `Screen._on_screen_resume`,
        which reads the flag.
        """
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
            # `TicTacToeApp.run` held back garbage collection for the start-up:
            # the first frame is painted by the end of this event.
            self.call_later(gc.enable)

    def on_screen_resume(self) -> None:
        self._check_size(self.app.size)

    def _check_size(self, size: Size) -> None:
        too_small = size.width < MIN_WIDTH or size.height < MIN_HEIGHT
        if too_small:
            if self._too_small is None:
                self._too_small = Static(id="too-small")
                self.mount(self._too_small)
            self._too_small.update(
                f"Please enlarge the terminal to play: it needs at least {MIN_WIDTH} columns"
                f" and {MIN_HEIGHT} rows (it has {size.width} and {size.height})."
            )
        recovered = self.has_class("-too-small") and not too_small
        self.set_class(too_small, "-too-small")
        if recovered:
            self.call_after_refresh(self._focus_cursor)
