"""The app's side of the player's record: who plays, saved settings, rounds saved.

Nothing here runs on the first frame's path or blocks the UI: the record (and
`sqlite3`) is opened in a thread worker once the game is on screen, and every
write (a round's fsync included) runs in a thread worker too. Whichever thread
needs the record first opens it. A `Record` never raises and is thread-safe; what
it has to say (a damaged file moved aside, a read-only directory) is shown once,
as a notification.

Settings saved in the record are the defaults; options the player gives in this
run, on the command line or in the new-game dialog, win for that run. Saved
settings arrive a moment after the game is drawn: they replace the defaults at
once while the player has not moved yet, else they wait for the next new round
or new game (the dialog opens with them), so they are never lost, and never
overwritten with the defaults they were about to replace. Whether play has begun is
the game screen's to say (`use_options`, given by the app): this module knows no screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from tui_tictactoe.controller import GameController, GameOptions
from tui_tictactoe.controller.game_options import SETTINGS
from tui_tictactoe.controller.rounds import RoundSummary
from tui_tictactoe.identity import Identity, current_identity
from tui_tictactoe.ui.turn_bell import TurnBell

if TYPE_CHECKING:
    from textual.app import App

    from tui_tictactoe.record import Match, Record

NOT_WRITTEN = ("opponent",)
"""Settings never remembered: every run starts against the AI (the default) unless
`--opponent human` or the dialog says otherwise, so a hot-seat evening does not leave
the next player facing an empty seat."""
LEAVE_DEADLINE = 0.1
"""Seconds quitting waits for a round in progress to be saved (a save takes ~1 ms)."""


class RecordLink:
    """The record as the running app uses it."""

    def __init__(
        self,
        app: App[Any],
        controller: GameController,
        given: Mapping[str, object],
        *,
        use_options: Callable[[GameOptions], bool],
        enabled: bool = True,
        identity: Identity | None = None,
        turn_bell: TurnBell | None = None,
    ) -> None:
        """`given`: the options set on the command line (they beat saved settings);
        `use_options`: starts the game again with saved settings, unless play has begun
        (False); `enabled` False (`--no-record`): nothing is read or written."""
        self.app = app
        self.turn_bell = turn_bell if turn_bell is not None else TurnBell(app.bell)
        self._bell_loaded = False  # the saved bell setting has been read (and applied)
        self.controller = controller
        self.use_options = use_options
        self.given = dict(given)  # the options the player gave in this run
        # Saved settings that arrived once play had begun: the next round or game's.
        self.waiting: GameOptions | None = None
        self.enabled = enabled
        self.identity = identity if identity is not None else current_identity()
        self._record: Record | None = None
        self._leaving = False  # quitting: a round left now is saved before the exit
        self._leave_deadline = LEAVE_DEADLINE
        self._lock = threading.Lock()
        self._theme: str | None = (
            None  # the theme as saved (or loaded): unchanged ones are not written
        )
        controller.on_round_end = self.round_ended
        if self.identity.hosted:
            controller.player_name = self.identity.name

    @property
    def player(self) -> str | None:
        return self.identity.player

    @property
    def hosted(self) -> bool:
        return self.identity.hosted

    def record(self) -> Record:
        """The record, opened on first use (call it from a thread: it may touch the disk)."""
        with self._lock:
            if self._record is None:
                from tui_tictactoe.record import Record

                self._record = Record.open() if self.enabled else Record.disabled()
            return self._record

    def rating(self, player: str) -> int:
        """`player`'s Elo rating, or the starting one (never rated, or no record): blocking,
        call it from a thread."""
        from tui_tictactoe.record.people import START

        if not player:
            return START
        rating = self.record().people.stats(player).rating
        return START if rating is None else rating

    # -- opening ---------------------------------------------------------------------

    def start(self) -> None:
        """Open the record and load the settings in a thread (call once the game is drawn)."""
        if self.enabled:
            self._in_thread(self._load_settings, "open the record")

    def _load_settings(self) -> None:
        settings = self.record().settings(self.player)
        self._on_ui(self._apply_settings, settings)

    def load_bell(self) -> None:
        """Read the saved bell setting alone, in a thread: a room's session, whose record
        waits for a game against the AI (`start`), still hears its player's choice."""
        if self.enabled and self.player is not None and not self._bell_loaded:
            self._in_thread(
                lambda: self._on_ui(self._apply_bell, self.record().settings(self.player)),
                "read the settings",
            )

    def _apply_bell(self, settings: dict[str, Any]) -> None:
        if not self._bell_loaded and isinstance(settings.get("bell"), bool):
            self.turn_bell.enabled = settings["bell"]
        self._bell_loaded = True

    def bell_chosen(self, on: bool) -> None:
        """The new-game dialog's bell setting: in force now, kept if it changed."""
        self._bell_loaded = True  # a setting read later does not undo the player's choice
        if on == self.turn_bell.enabled:
            return
        self.turn_bell.enabled = on
        if self.enabled and self.player is not None:
            self._in_thread(lambda: self._save_settings({"bell": on}), "save the bell")

    def _apply_settings(self, settings: dict[str, Any]) -> None:
        """Saved settings over the defaults, under the options given in this run."""
        self._apply_bell(settings)
        app = self.app
        theme = settings.get("theme")
        if theme and theme in app.available_themes:
            app.theme = theme
        self._theme = app.theme
        current = self.controller.options
        options = current.with_settings(settings, self.given)
        if options != current and not self.use_options(options):  # play has begun
            self.waiting = options
            app.notify(
                "Your saved settings apply from the next round (r) or new game (n).",
                title="Record",
            )
        self.show_notice()

    def take_waiting(self) -> GameOptions | None:
        """The saved settings waiting for the next round or game, once (None: none wait)."""
        waiting, self.waiting = self.waiting, None
        return waiting

    def options_chosen(self, shown: GameOptions, chosen: GameOptions) -> None:
        """The player started a new game from the dialog, which showed `shown`.

        What they confirmed wins for the rest of the run, like a flag: settings read
        later do not replace it. Only the values they changed are saved: the others
        may be defaults shown before the saved settings had arrived, or flags.
        """
        self.waiting = None
        self.given = {name: getattr(chosen, name) for name in SETTINGS}
        changed = {
            name: getattr(chosen, name)
            for name in SETTINGS
            if getattr(chosen, name) != getattr(shown, name) and name not in NOT_WRITTEN
        }
        if changed and self.enabled and self.player is not None:
            self._in_thread(lambda: self._save_settings(changed), "save the settings")

    # -- writing ---------------------------------------------------------------------

    def round_ended(self, summary: RoundSummary) -> None:
        """The controller's `on_round_end`: save the round in a thread (guests' are not kept).

        A round between people (hot seat) goes to the rounds between people, never to the
        player's standings against the AI."""
        if not self.enabled or self.player is None:
            return
        if summary.opponent == "human":
            self.match_ended(self._hot_seat_match(summary))
            return
        if self._leaving:
            self._save_before_exit(summary)
        else:
            self._in_thread(lambda: self._save_round(summary), "save a round")

    def _hot_seat_match(self, summary: RoundSummary) -> Match:
        from tui_tictactoe.record.own_rounds import hot_seat_match

        assert self.player is not None
        return hot_seat_match(summary, self.identity.name, self.player)

    def leave(self, *, hung_up: bool = False) -> None:
        """The app is quitting: a round in progress is saved as abandoned before it exits,
        waiting at most LEAVE_DEADLINE. When the terminal has gone nobody waits on the
        exit, so the save may outwait a busy record (the busy timeout: another game's
        write) rather than lose the round to a loaded machine."""
        self._leaving = True
        if hung_up:
            from tui_tictactoe.record.sqlite_file import BUSY_TIMEOUT

            self._leave_deadline = BUSY_TIMEOUT + 1.0
        self.controller.leave()

    def match_ended(self, match: Match) -> None:
        """A round between people is over, or left: keep it, in a thread (on quitting, as a
        round against the AI is, waiting at most LEAVE_DEADLINE).

        Both players' sessions may call this for one round with the same `round_key`:
        the record keeps it, and moves the ratings, once. A round of guests alone is not
        kept (nobody could see it). ValueError at once for an invalid `Match`.
        """
        from tui_tictactoe.record.validation import check_match

        check_match(match)
        if not self.enabled or (match.x.key is None and match.o.key is None):
            return
        if self._leaving:
            self._save_before_exit(match, target=self._write_match)
        else:
            self._in_thread(lambda: self._save_match(match), "save a round between people")

    def _save_match(self, match: Match) -> None:
        self._write_match(match)
        self._on_ui(self.show_notice)

    def _write_match(self, match: Match) -> None:
        self.record().people.save_match(match)

    def _save_before_exit(
        self,
        summary: Any,
        target: Callable[[Any], None] | None = None,
    ) -> None:
        """Save, waiting at most the leave's deadline: the save runs in a daemon thread that the wait
        gives up on, so a busy or slow record (its busy timeout is seconds) never holds the
        exit. A save cut short is a transaction never committed, which SQLite rolls back.
        `target` writes `summary` (default: a round against the AI)."""
        thread = threading.Thread(
            target=target or self._write_round, args=(summary,), name="save on quit", daemon=True
        )
        thread.start()
        thread.join(self._leave_deadline)

    def _save_round(self, summary: RoundSummary) -> None:
        self._write_round(summary)
        self._on_ui(self.show_notice)

    def _write_round(self, summary: RoundSummary) -> None:
        from tui_tictactoe.record.own_rounds import write_round

        assert self.player is not None
        write_round(self.record(), summary, self.identity.name, self.player)

    def theme_chosen(self) -> None:
        """The theme menu closed: keep the theme if it changed."""
        theme = self.app.theme
        if self.enabled and self.player is not None and theme != self._theme:
            self._theme = theme
            self._in_thread(lambda: self._save_settings({"theme": theme}), "save the theme")

    def _save_settings(self, values: dict[str, Any]) -> None:
        self.record().save_settings(self.player, **values)
        self._on_ui(self.show_notice)

    # -- telling the player ----------------------------------------------------------

    def show_notice(self) -> None:
        """What the record has to say (once): a damaged file moved aside, no record kept."""
        record = self._record
        notice = record.take_notice() if record is not None else None
        if notice:
            self.app.notify(notice, title="Record", severity="warning", timeout=10, markup=False)

    # -- threads ---------------------------------------------------------------------

    def _in_thread(self, work: Callable[[], None], name: str) -> None:
        self.app.run_worker(work, name=name, group="record", thread=True, exit_on_error=False)

    def _on_ui(self, callback: Callable[..., None], *args: Any) -> None:
        """Run `callback` on the UI thread, without waiting (`call_later` posts a message,
        which is thread-safe): a thread blocked on a closing app could hold up its exit.
        Dropped if the app has begun to quit by the time it runs: its screens are on their
        way out, and mounting on them raises MountError (found by the chaos test)."""

        def unless_quitting() -> None:
            if self.app.return_code is None:
                callback(*args)

        with suppress(RuntimeError):  # the app's loop has closed meanwhile
            self.app.call_later(unless_quitting)
