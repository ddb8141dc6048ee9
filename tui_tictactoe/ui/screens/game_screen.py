"""The game: board, score, status and buttons, wired to a `GameController`.

Every human move goes through `play_at`, whether it came from a click, Enter,
Space or a digit. The keyboard cursor is this screen's own state, drawn as the
CSS class `-cursor`, and nothing on the screen takes focus: keys typed in a
burst (over SSH, tmux, a paste) then act exactly like keys typed slowly, since
no key waits for a focus change made by the key before it.

Every background job runs the same way: the controller hands out a request (the AI's
move, a hint, the big board's analysis), a thread worker runs its `compute()` and posts
each reply back in one message, `Replied`, and the controller applies it or drops it as
stale (this screen never checks rounds). Moves and cursor keys that arrive while the AI
thinks wait for its reply (see `type_ahead`); a new round, a new game or a quit act at once.

This screen alone changes its state: its helpers compute and return, or are handed
what they need (`ThinkingClock`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.worker import Worker, WorkerState

from tui_tictactoe.controller import (
    AIReply,
    GameController,
    GameOptions,
    HintReply,
    Reply,
    Status,
)
from tui_tictactoe.controller.status import (
    FINDING_HINT,
    PEOPLE_REFUSE,
    QUIT_QUESTION,
    analysis_status,
    board_fit_status,
    game_title,
    hint_status,
    info_status,
    move_refused,
    refused,
    take_back_status,
    turn_status,
)
from tui_tictactoe.engine.board import IllegalMove
from tui_tictactoe.ui.key_table import PAIR_LETTERS, PLAY, bindings
from tui_tictactoe.ui.screens.board_screen import MIN_SIZE, PLAY_WIDTH, BoardScreen, middle
from tui_tictactoe.ui.thinking_clock import ThinkingClock
from tui_tictactoe.ui.type_ahead import TypeAhead, after_the_ai
from tui_tictactoe.ui.widgets import ControlButton, Scoreboard, TitleBar
from tui_tictactoe.ui.widgets.key_bar import KeyBar, KeyHint, game_keys
from tui_tictactoe.ui.widgets.too_small import (
    COMPACT_CELL_ROWS,
    COMPACT_CHROME_ROWS,
    WayOn,
    fits,
)

if TYPE_CHECKING:
    from tui_tictactoe.engine.predictions import Grade
    from tui_tictactoe.ui.record_link import RecordLink
    from tui_tictactoe.ui.widgets.reasoning_panel import ReasoningPanel

__all__ = ["MIN_SIZE", "PANEL_ROOM", "PLAY_WIDTH", "GameScreen"]


class Control(NamedTuple):
    """A button under the board; the keyboard cursor reaches it below the last row."""

    id: str
    label: str
    action: str


CONTROLS = (
    Control("reset", "Reset", "screen.new_round"),
    Control("new-game", "New game", "screen.new_game"),
    Control("exit", "Exit", "app.ask_quit"),  # asks mid-round, like `q`
)

PANEL_ROOM = Size(80, 20)
"""The AI info panel shows beside the board from this size: its 22 columns and a gap
still leave the board's column the whole score line (57), and 20 rows give it the 16
it needs. In a smaller terminal it waits, out of the way, until there is room."""


class GameScreen(BoardScreen):
    """The board and everything around it."""

    CSS_PATH = "game_screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = bindings("game")
    """From the command table (`ui/key_table.py`), as the key bar, the menu and the help."""

    # The buttons shrink to one row first (`-compact`), then the cells to two (no top
    # border: `GameGrid`), so that 6x6 fits 80x24 and every board 60x19.
    CELL_ROWS = COMPACT_CELL_ROWS
    CHROME_ROWS = COMPACT_CHROME_ROWS
    COMPACT_BUTTONS = True
    BUTTONS = len(CONTROLS)
    game_menu = True

    title_tail = ""
    """Said after the game in the title, on every change: " · still in the queue" while
    this game passes the time of a quick match's wait (`MatchScreen`)."""

    show_analysis: reactive[bool] = reactive(False, init=False)
    show_info: reactive[bool] = reactive(False, init=False)

    class Ready(Message):
        """The game is on screen: keys typed ahead of it may act now."""

    def __init__(self, controller: GameController, link: RecordLink | None = None) -> None:
        """`link`: the player's record, for saved settings that wait for the next game."""
        super().__init__(controller.board.geometry, grid_id="grid", status_id="status")
        self.controller = controller
        self.link = link
        self.type_ahead = TypeAhead()
        # Mounted when first shown: start-up does not pay for it.
        self._info: ReasoningPanel | None = None
        self.key_bar = KeyBar(self._keys(), id="keys")
        # The AI's thinking time, on 4x4 and 5x5: the state of play while it thinks.
        self.clock = ThinkingClock(controller, self.status.show, self.set_interval)
        # A note for once the game shows: a remembered board that did not fit (`_fitted`).
        self._pending_note: Status | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        # A grid whose columns put each button under a column of the board. The
        # screen lays out horizontally: the AI info panel (#info) is mounted
        # beside #play when first shown.
        with Container(id="play"):
            yield Scoreboard(id="scoreboard")
            yield self.grid
            yield self.status
            for control in CONTROLS:
                yield ControlButton(control.label, id=control.id, action=control.action)
        yield self.key_bar
        yield self.too_small  # hidden by the CSS unless the screen is too small

    def on_mount(self) -> None:
        self._begin_round()
        self._say_pending()
        self.app.post_message(self.Ready())

    def say_when_shown(self, note: Status) -> None:
        """A note for the status line once the game is on screen (the first round's
        start clears notes): the quick match's "Still in the queue"."""
        self._pending_note = note

    # -- moves --------------------------------------------------------------

    def play(self, key: int) -> None:
        self._show_cursor()
        self.play_at(*self.geometry.cell_of_key(key))

    def play_at(self, row: int, col: int) -> None:
        """Play the human's move: the one path for clicks, Enter, Space and digits."""
        try:
            self.controller.play_human_move(row, col)
        except IllegalMove as refusal:  # the game's or the board's (`MoveRefused`)
            self.status.say(move_refused(refusal))
            return
        self._after_change()

    click = after_the_ai(BoardScreen.click)

    def _after_change(self) -> None:
        """Show the game as it now is, and ask the AI if it is to move."""
        self._show_all()
        request = self.controller.ai_request()
        if request is not None:
            self._run("ai", request)
            self.clock.start()

    # -- background jobs: the AI, hints, the big board's analysis (`BoardScreen._run`) --

    def _take(self, reply: Reply) -> None:
        """Give the reply to the controller; show what it changed (a stale one, nothing)."""
        if not self.controller.apply(reply):
            return
        if isinstance(reply, AIReply):
            self._after_change()
        elif isinstance(reply, HintReply):
            self.grid.show_marker("-hint", self.controller.teacher.hinted)
            self.status.say(hint_status(self.controller, self.controller.teacher.hinted))
        else:
            self._draw_analysis()

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Replayed once the worker that brought the reply has finished: a move among
        # the held keys starts the next one, which would cancel a worker still running.
        if event.worker.group == "ai" and event.state == WorkerState.SUCCESS:
            await self.type_ahead.replay(until=lambda: self.controller.is_ai_turn)

    # -- rounds and games ---------------------------------------------------

    def _begin_round(self) -> None:
        self._fit_board(self.controller.board.geometry)  # a new game may have changed it
        if self.controller.between_people:  # no AI to explain or to analyse with
            self.show_analysis = self.show_info = False
        self.key_bar.hints = self._keys()
        self._show_cursor()
        self._after_change()

    def action_new_round(self) -> None:
        self.type_ahead.clear()
        self.workers.cancel_group(self, "ai")
        # Saved settings that arrived after the first move wait for this: a game of their own.
        waiting = self.link.take_waiting() if self.link is not None else None
        if waiting is None:
            self.controller.new_round()
        else:
            self.controller.new_game(self._fitted(waiting))
        self._begin_round()
        self._say_pending()

    def use_saved_options(self, options: GameOptions) -> bool:
        """Saved settings arrived: start the first round again with them, unless play has
        begun (a move, a move typed ahead, a round played): False then, changing nothing."""
        if self.controller.play_begun or self.type_ahead:
            return False
        self.workers.cancel_group(self, "ai")
        fitted = self._fitted(options)
        self.controller.new_game(fitted, abandon=False)  # the AI's first move is no round left
        self._begin_round()
        self._say_pending()
        return True

    def _fitted(self, options: GameOptions) -> GameOptions:
        """Saved settings whose board does not fit this terminal (remembered from a larger
        one) start on the largest board that fits instead, unless `--board` named it; the
        record keeps the board remembered. `_say_pending` says so once the game is shown."""
        board = options.board
        if self.link is not None and "board" in self.link.given:
            return options
        size, needs = self.app.size, self.board_needs()
        fitting = self._fitting(size)
        if fits(size, needs[board]) or not fitting:
            return options
        self._pending_note = board_fit_status(board, fitting[-1], *needs[board])
        return options._replace(board=fitting[-1])

    def _say_pending(self) -> None:
        """The note that waited for the game to show, if any."""
        if self._pending_note is not None:
            self.status.say(self._pending_note)
            self._pending_note = None

    def action_new_game(self) -> None:
        # Imported on demand, like the help: start-up does not need the dialog.
        from tui_tictactoe.ui.screens.new_game_screen import NewGameScreen

        # Saved settings that wait for the next game, else the game's own options.
        waiting = self.link.waiting if self.link is not None else None
        shown = waiting or self.controller.options
        # The turn bell is for rooms, which a browser (serve-web) has none of.
        has_bell = self.link is not None and not self.app.is_web
        bell = self.link.turn_bell.enabled if has_bell and self.link is not None else None
        needs, offered = self.board_needs(), shown
        if self.has_class("-too-small"):  # `n` on the message: a board that fits, chosen
            fitting = self._fitting(self.app.size)
            if fitting and shown.board not in fitting:
                offered = shown._replace(board=fitting[-1])  # Start keeps it in the record
        abandons = self.controller.in_progress
        dialog = NewGameScreen(offered, abandons=abandons, bell=bell, needs=needs)
        self.app.push_screen(
            dialog, lambda options: self._apply_options(shown, options, dialog.bell)
        )

    def _apply_options(
        self, shown: GameOptions, options: GameOptions | None, bell: bool | None = None
    ) -> None:
        if options is None or self.app.return_code is not None:  # cancelled, or quitting
            return
        if self.link is not None:  # the record keeps what the player changed
            self.link.options_chosen(shown, options)
            if bell is not None:
                self.link.bell_chosen(bell)
        self.type_ahead.clear()
        self.workers.cancel_group(self, "ai")
        self.controller.new_game(options)
        self._begin_round()

    # -- keyboard -----------------------------------------------------------

    # Keys that come while the AI thinks wait for its reply (`type_ahead`).
    action_navigate = after_the_ai(BoardScreen.action_navigate)
    action_play = after_the_ai(BoardScreen.action_play)

    @after_the_ai
    async def action_select(self) -> None:
        if self.cursor_on_controls:
            await self.run_action(CONTROLS[self.cursor[1]].action)
        else:
            self.play_at(*self.cursor)

    @property
    def cursor_on_exit(self) -> bool:
        """Enter or Space now presses Exit (which asks before quitting mid-round)."""
        return self.cursor_on_controls and CONTROLS[self.cursor[1]].id == "exit"

    def _show_cursor(self) -> None:
        on_controls = self.cursor_on_controls
        self.grid.show_marker("-cursor", None if on_controls else self.cursor)
        for col, control in enumerate(CONTROLS):
            button = self.query_one(f"#{control.id}")
            button.set_class(on_controls and col == self.cursor[1], "-cursor")

    # -- teaching aids ------------------------------------------------------

    def _keys(self) -> tuple[KeyHint, ...]:
        people, over = self.controller.between_people, self.controller.game_over
        return game_keys(self.geometry.size, self.show_analysis, people=people, over=over)

    async def action_toggle(self, attribute_name: str) -> None:
        """`a` and `i` (and the menu's entries): between people they only say why not."""
        if self.controller.between_people and not getattr(self, attribute_name):
            self.status.say(refused(PEOPLE_REFUSE[attribute_name]))
            return
        await super().action_toggle(attribute_name)

    def watch_show_analysis(self, show: bool) -> None:
        self.key_bar.hints = self._keys()
        self._show_overlays()
        said = analysis_status(self.controller, show)
        if said is not None:
            self.status.say(said)

    @after_the_ai
    def action_hint(self) -> None:
        """Mark a best move: at once on 3x3, found in a thread on the big boards."""
        request = self.controller.teacher.hint_request()
        if request is None:
            self.status.say(hint_status(self.controller, None))
        elif request.instant:
            self._take(request.compute())
        else:
            self.status.say(FINDING_HINT)
            self._run("hint", request)

    @after_the_ai
    def action_predict(self) -> None:
        """`p`: before the overlay, the player marks each empty cell win, draw or loss and the
        solver grades it (`PredictScreen`); back with a grade, the overlay shows the truth."""
        from tui_tictactoe.ui.screens.predict_screen import PredictScreen, predict_refusal

        refusal = predict_refusal(self.controller)
        if refusal is not None:
            self.status.say(refusal)
            return
        board, symbol = self.controller.board.copy(), self.controller.human_symbol
        cursor = middle(self.geometry) if self.cursor_on_controls else self.cursor
        self.app.push_screen(PredictScreen(board, symbol, cursor), self._predicted)

    def _predicted(self, found: Grade | None) -> None:
        """Back from `p`: graded, the overlay shows the truth and the note says the score;
        cancelled (Escape), nothing changed."""
        if found is None or self.app.return_code is not None:
            return
        from tui_tictactoe.ui.screens.predict_screen import graded_status

        self.show_analysis = True
        self.status.say(graded_status(found))

    def action_explore(self) -> None:
        """`t`: the search explorer on the position as it stands, whoever is to move."""
        from tui_tictactoe.ui.explorer_view import NOTHING_TO_EXPLORE, game_position
        from tui_tictactoe.ui.screens.explorer_screen import ExplorerScreen

        position = game_position(self.controller)
        if position is None:
            self.status.say(refused(NOTHING_TO_EXPLORE))
        else:
            self.app.push_screen(ExplorerScreen(position))

    def action_review(self) -> None:
        """`v`: the round's review, once it is over (`ui/screens/review_screen.py`)."""
        from tui_tictactoe.ui.screens.review_screen import REVIEW_LATER, review_of_game

        screen = review_of_game(self.controller)
        if screen is None:
            self.status.say(refused(REVIEW_LATER))
        else:
            self.app.push_screen(screen)

    def action_why(self) -> None:
        """`w`, "why can't I win?" (6x6): the AI's pairs drawn on the board as letters, a
        pair's two cells one letter, until the position changes; or the human's own forced
        line of fours; or that nothing is proven."""
        from tui_tictactoe.controller.status import why_status  # only when asked

        proof = self.controller.teacher.why()
        geometry = self.controller.board.geometry
        letters: dict[tuple[int, int], str] = {}
        if proof is not None and proof.kind == "pairing":
            for number, (a, b) in enumerate(sorted(proof.pairs)):
                letters[geometry.coords(a)] = letters[geometry.coords(b)] = PAIR_LETTERS[number]
        self.grid.show_pairs(letters)
        self.status.say(why_status(self.controller, proof))

    def action_take_back(self) -> None:
        """`u` acts at once, like `r`, not after the AI's reply: a reply still on its way is
        dropped by the controller, and keys held for the undone position with it."""
        result = self.controller.take_back()
        if result.undone:
            self.type_ahead.clear()
            self.workers.cancel_group(self, "ai")
            self._show_all()  # the human to move: nothing to ask the AI
        self.status.say(take_back_status(self.controller, result))  # under the turn

    def watch_show_info(self, show: bool) -> None:
        if self._info is None:
            if not show:
                return
            from tui_tictactoe.ui.widgets.reasoning_panel import (
                ReasoningPanel,  # start-up does not need it
            )

            self._info = ReasoningPanel(id="info")
            self.mount(self._info)
        self._place_info()
        if not self.has_room_for_info:
            self.status.say(info_status(show, PANEL_ROOM.width, PANEL_ROOM.height))
        self._show_info()

    @property
    def has_room_for_info(self) -> bool:
        size = self.app.size
        return size.width >= PANEL_ROOM.width and size.height >= PANEL_ROOM.height

    def _place_info(self) -> None:
        """Show the panel if asked for and there is room; else it waits for room. Once it
        shows, the note that it was waiting ("AI info needs 80x20") goes: it is moot."""
        if self._info is None:
            return
        shown = self.show_info and self.has_room_for_info
        self._info.set_class(shown, "-visible")
        if shown and self.status.note == info_status(True, PANEL_ROOM.width, PANEL_ROOM.height):
            self.status.clear_note()

    # -- showing the state --------------------------------------------------

    def _show_all(self) -> None:
        controller = self.controller
        self.grid.show_pairs({})  # `w`'s pairs were about the position before
        self.grid.show_board(controller.board, {"-last-ai": controller.last_answered})
        score = (controller.score, controller.round, controller.human_symbol, controller.ai_symbol)
        self.query_one(Scoreboard).show(*score, people=controller.between_people)
        self._show_overlays()
        self._show_info()
        # The position changed: a note about the last one goes, and so does a quit
        # question about a round that has just ended (moot: the result shows).
        self.status.show(turn_status(controller))
        self.status.clear_note(keep_question=controller.in_progress)
        self.key_bar.hints = self._keys()  # the round over: its review in the hint's place

    def _show_overlays(self) -> None:
        """The analysis (only on the human's turn: the AI's would flash while it thinks)
        and the hint. On the big boards the analysis is found cell by cell, in a thread."""
        controller = self.controller
        on = self.show_analysis and controller.is_human_turn
        if controller.teacher.analysis_ready:
            self.grid.show_analysis(controller.teacher.analysis() if on else None)
        elif on:
            request = controller.teacher.analysis_request()  # None: under way for this position
            if request is not None:
                self._run("analysis", request)
        else:
            self.grid.show_analysis(None)
            controller.teacher.stop_analysis()  # no search for an overlay no one sees
        self.grid.show_marker("-hint", controller.teacher.hinted)
        self._draw_analysis()

    def _draw_analysis(self) -> None:
        """The big board's overlay as far as found, and the title counting its cells: the
        status line keeps the state of play and the note (why a key did nothing)."""
        found = self.controller.teacher.analysis_found if self.show_analysis else None
        if found is not None and self.controller.is_human_turn:
            self.grid.show_analysis(found.analysis)
        self.sub_title = game_title(self.controller, self.show_analysis, found) + self.title_tail

    def _show_info(self) -> None:
        """Why the AI played its move that is last on the board now, if it has one."""
        if self._info is None or not self.show_info:
            return
        explains = self.controller.minimax is not None
        self._info.show(self.controller.last_decision, self.geometry, explains=explains)

    # -- terminal size ------------------------------------------------------

    def _size_checked(self) -> None:
        self._place_info()

    def _way_on(self, size: Size) -> WayOn:
        return WayOn(self.controller.options.board, self._fitting(size))

    def _fitting(self, size: Size) -> tuple[str, ...]:
        """The boards that fit a terminal of `size`, smallest first."""
        return tuple(board for board, need in self.board_needs().items() if fits(size, need))

    def _too_small_actions(self) -> tuple[str, ...]:
        """`n`, where a board fits (`q` is the app's): never stuck on the message."""
        return ("new_game",) if self._fitting(self.app.size) else ()

    # -- what the app asks ----------------------------------------------------

    async def ask_quit(self) -> None:
        """Quit at once, but in the middle of a round ask first, once (Ctrl+Q never asks)."""
        if self.controller.in_progress and not self.status.asking:
            self.status.say(QUIT_QUESTION)
            if self.app.screen is not self or self.has_class("-too-small"):
                self.app.notify(QUIT_QUESTION.text, title="Quit?")
            return
        self.app.exit()

    async def confirm_quit(self) -> None:
        self.app.exit()

    def plays_on(self, event: events.InputEvent) -> bool:
        """As every board's (`BoardScreen.plays_on`), and Enter on Exit says yes."""
        if isinstance(event, events.Key) and event.key in PLAY.key_names:
            return not self.cursor_on_exit
        return super().plays_on(event)

    def stop_searching(self) -> None:
        self.controller.stop_thinking()  # a long search (5x5) must not hold up the exit
