"""Every command of the game in one table: its keys, and what each place says of it.

The game screen's and the app's bindings, the key bar, the menu (Ctrl+P), the help's
key list and `--help`'s list of keys are all made from `COMMANDS`, so a key cannot be
added, changed or renamed in one of them and forgotten in another; the README's key
table is held to it by `tests/ui/test_command_table.py`. One order for all: the key bar's.

Plain data (NamedTuples, varied with their _replace), no Textual at import: the command line
reads it for `--help` without paying for the UI (`bindings` imports Textual, when the UI's
classes are defined).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from textual.binding import BindingType

Where = Literal["game", "app", "textual"]
"""Whose bindings hold a command: the game screen's, the app's (they work on every
screen: the help, the dialogs), or Textual's own `App` (Ctrl+Q), which are not made here."""

BarWhen = Literal["always", "3x3", "big", "6x6"]
"""When the key bar shows a command: on every board, on 3x3 only (the digits name its
nine cells), on the bigger boards only (Enter plays there), or on 6x6 only (`w`: the
only board whose draw is proven by a pairing, the solved ones' overlay says it all)."""

BarRound = Literal["any", "in_play", "over"]
"""When in a round the key bar shows a command: always, while the round is in play (a
hint), or once it is over (its review). The key itself is bound throughout and says why
it does nothing out of its time."""


class Bind(NamedTuple):
    """One Textual binding: key names (comma-separated), its action, its words in the
    keys panel, and whether Textual's footer (on the help screen) shows it."""

    keys: str
    action: str
    description: str
    show: bool = True
    key_display: str | None = None


class Command(NamedTuple):
    """One thing a player can do, with everything each place says of it.

    `name` is the key bar's and the menu's label; `keys` the keys as the help, the
    README and `--help` write them (for a command of the menu only, its key there).
    A place that has nothing to say of a command leaves its field None.
    """

    name: str
    keys: str
    binds: tuple[Bind, ...] = ()
    """() for a command of the menu only."""
    on: Where = "game"
    help: str | None = None
    """Its line in the help's key list (and so in the README's); None: not listed there
    (a key of the menu only)."""
    brief: str = ""
    """Its words in `--help`, after its keys."""
    bar: str | None = None
    """Its keys as the key bar shows them; None: not in the bar."""
    bar_when: BarWhen = "always"
    bar_round: BarRound = "any"
    bar_yields_to: Command | None = None
    """A command that takes this one's place in the key bar wherever the bar shows it, so
    the bar keeps its length (two lines at 60 columns); its key still works, and the help
    still lists it."""
    clickable: bool = True
    """Does a click on its key bar entry press its (first) key? Not for keys that each
    do something else (the arrows, the digits)."""
    menu: str | None = None
    """What the menu says it does; None: not in the menu."""
    action: str | None = None
    """What the menu runs; None: its first binding's action."""
    needs_ai: bool = False
    """It teaches with the AI (hints, analysis, the AI's reasoning): between people the
    key bar leaves it out, and the key says why it does nothing."""
    state: str | None = None
    """The state it turns on and off, for the places that say which: the key bar
    (`bar_words`), the menu (`menu_when_on`)."""
    bar_words: tuple[str, str] | None = None
    """What the key bar says the key does with its state off, then on ("Show analysis",
    "Hide analysis"): what the key does, never the state ("Analysis off" read as an
    action). None: its name."""
    menu_when_on: str | None = None
    when: str | None = None
    """A state its screen must be in for the command to be offered: the key bar shows it
    and its keys act only then (a screen's `check_action` asks `offered`); None: always."""

    def offered(self, states: Mapping[str, bool]) -> bool:
        return self.when is None or states.get(self.when, False)

    def bar_on(self, side: int) -> bool:
        """Does the key bar show it on a board of `side` x `side` (its `bar_when`)?"""
        board = "3x3" if side == 3 else "big"
        return self.bar_when in ("always", board) or self.bar_when == f"{side}x{side}"

    @property
    def menu_action(self) -> str:
        return self.action if self.action is not None else self.binds[0].action

    @property
    def key_names(self) -> tuple[str, ...]:
        """Every Textual key name bound to it."""
        return tuple(key for bind in self.binds for key in bind.keys.split(","))

    @property
    def press(self) -> str | None:
        """The key a click on its key bar entry presses."""
        return self.key_names[0] if self.clickable and self.binds else None

    def bar_label(self, states: Mapping[str, bool]) -> str:
        if self.state is None or self.state not in states or self.bar_words is None:
            return self.name
        return self.bar_words[bool(states[self.state])]

    def menu_help(self, states: Mapping[str, bool]) -> str:
        assert self.menu is not None
        on = self.state is not None and states.get(self.state, False)
        return self.menu_when_on if on and self.menu_when_on is not None else self.menu


def _one(keys: str, action: str, description: str, *, show: bool = True) -> tuple[Bind, ...]:
    """A command's one binding (all keys of `keys` do the same)."""
    return (Bind(keys, action, description, show=show),)


MOVE = Command(
    "Move",
    "Arrow keys",
    binds=tuple(
        Bind(key, f"navigate({drow}, {dcol})", key.title(), show=False)
        for key, drow, dcol in (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))
    ),
    help="Move around the board and to the buttons under it",
    brief="move",
    bar="↑↓←→",
    clickable=False,
)
PLAY = Command(
    "Play",
    "Enter or Space",
    binds=_one("enter,space", "select", "Play", show=False),
    help="Play the square (or press the button) under the cursor",
    brief="play",
    bar="Enter",
    bar_when="big",
)
PLAY_DIGIT = Command(
    "Play",
    "1 to 9",
    binds=tuple(Bind(str(key), f"play({key})", f"Play {key}", show=False) for key in range(1, 10)),
    help="Play a square directly: 1 is top-left, 9 bottom-right, in reading order (3x3)",
    brief="play a square (3x3)",
    bar="1-9",
    bar_when="3x3",
    clickable=False,
)
RESET = Command(
    "Reset",
    "r",
    binds=_one("r", "new_round", "Reset"),
    help="Reset: a new round (the score is kept)",
    brief="reset (a new round)",
    bar="r",
    menu="A new round; the score is kept",
)
NEW_GAME = Command(
    "New game",
    "n",
    binds=_one("n", "new_game", "New game"),
    help="New game: your symbol, who starts, difficulty, alternating starts, board size, "
    "opponent (the AI or a person here)",
    brief="new game",
    bar="n",
    menu="Your symbol, who starts, difficulty",
)
TAKE_BACK = Command(
    "Take back",
    "u",
    binds=_one("u", "take_back", "Take back"),
    help="Take back your last move and the AI's reply (between people, the last move); "
    "the score counts rounds with take-backs",
    brief="take back",
    bar="u",
    menu="Undo your last move and the AI's reply",
)
HINT = Command(
    "Hint",
    "h",
    binds=_one("h", "hint", "Hint"),
    help="Hint: mark a best move for you (on 4x4 and up it takes a moment; play on meanwhile)",
    brief="hint",
    bar="h",
    menu="Mark a best move for you",
    needs_ai=True,
    bar_round="in_play",  # once the round is over the bar offers its review (`v`) there
)
ANALYSIS = Command(
    "Analysis",
    "a",
    binds=_one("a", "toggle('show_analysis')", "Analysis"),
    help="Analysis: show what each empty square leads to (the key bar says show or hide)",
    brief="analysis",
    bar="a",
    menu="Every move's verdict",
    state="show_analysis",
    bar_words=("Show analysis", "Hide analysis"),
    needs_ai=True,
)
PREDICT = Command(
    "Predict",
    "p",
    binds=_one("p", "predict", "Predict"),
    help="Predict: mark each empty square win, draw or loss for you (w, d, l or Space, or "
    "click), Enter grades it and explains each wrong mark, then the analysis shows",
    brief="predict",
    menu="Mark each move win, draw or loss, then grade it",
    needs_ai=True,
)
WHY = Command(
    "Why",
    "w",
    binds=_one("w", "why", "Why"),
    help="Why can't I win? (6x6) The AI's pairs as letters: every line you could still fill "
    "holds one; take one cell and I take the other",
    brief="why can't I win",
    menu="Why can't I win? The AI's pairs",
    bar="w",
    bar_when="6x6",
    bar_round="in_play",  # once the round is over it only says so (no position to prove)
    needs_ai=True,
)
AI_INFO = Command(
    "AI info",
    "i",
    binds=_one("i", "toggle('show_info')", "AI info"),
    help="AI info: how the AI chose its last move (a panel beside the board, from 80x20)",
    brief="AI info",
    bar="i",
    menu="How the AI chose its move",
    needs_ai=True,
)
EXPLORE = Command(
    "Explore",
    "t",
    binds=_one("t", "explore", "Explore"),
    help="Explore the search: plain minimax, alpha-beta and the engine's own, node by node "
    "(Right, Left, Home, End, m, Space; g guesses alpha and beta; Escape closes)",
    brief="explore the search",
    menu="Step through the AI's search of this position",
)
REVIEW = Command(
    "Review",
    "v",
    binds=_one("v", "review", "Review"),
    help="Review the round once it is over (and in a replay): each move's verdict before and "
    "after it, each blunder said with its line and the cell that held",
    brief="review a round",
    bar="v",
    bar_round="over",
    menu="Every move of the round judged, its blunders",
)
STATS = Command(
    "Stats",
    "s",
    binds=_one("s", "app.open_stats", "Stats"),
    help="Your record: wins, losses, draws and streaks per difficulty, the last 10 rounds; "
    "Enter replays one move by move (Left/Right or Space), with every move's verdict",
    brief="stats",
    bar="s",
    # On 6x6 against the AI, mid-round, `w` is the more useful key the bar has room for:
    # with both, its 60 columns would need a third line (and 6x6's compact layout a row).
    bar_yields_to=WHY,
    menu="Your record, last rounds and replays",
)
HELP = Command(
    "Help",
    "?",
    binds=(Bind("question_mark", "help", "Help", key_display="?"),),
    on="app",
    help="This help (Escape or ? to go back)",
    brief="help",
    bar="?",
    menu="Rules, keys and how the AI thinks",
)
MENU = Command(
    "Menu",
    "Ctrl+P",
    binds=_one("ctrl+p", "open_menu", "Menu", show=False),
    on="app",
    help="Menu: every command with its key, the colour theme, the keys panel",
    brief="menu",
    bar="^p",
)
THEME = Command(
    "Theme",
    "c",
    on="app",
    menu="Change the colour theme",
    # Textual's action: it opens the game's own theme menu (`TicTacToeApp.search_themes`).
    action="change_theme",
)
KEYS_PANEL = Command(
    "Keys",
    "k",
    on="app",
    menu="Show every key",
    action="toggle_keys_panel",
    state="keys_panel",
    menu_when_on="Hide the keys panel",
)
QUIT = Command(
    "Quit",
    "q",
    # `y` answers the quit question (`TicTacToeApp.check_action` lets it act only then).
    binds=(Bind("q", "ask_quit", "Quit"), Bind("y", "confirm_quit", "Quit", show=False)),
    on="app",
    help="Quit (mid-round it asks first, as Exit and the menu's Quit do)",
    brief="quit (asks mid-round)",
    bar="q",
    menu="Quit the game (mid-round it asks)",
)
QUIT_AT_ONCE = Command(
    "Quit at once",
    "Ctrl+Q",
    # Textual's `App` binds it; the game acts on it as it arrives (`TicTacToeApp.post_message`).
    binds=_one("ctrl+q", "quit", "Quit", show=False),
    on="textual",
    help="Quit at once",
    brief="quit at once",
)

COMMANDS: tuple[Command, ...] = (
    MOVE,
    PLAY,
    PLAY_DIGIT,
    RESET,
    NEW_GAME,
    TAKE_BACK,
    HINT,
    REVIEW,  # in the hint's place in the key bar once the round is over
    ANALYSIS,
    PREDICT,
    WHY,
    AI_INFO,
    EXPLORE,
    STATS,
    HELP,
    MENU,
    THEME,
    KEYS_PANEL,
    QUIT,
    QUIT_AT_ONCE,
)


PAIR_LETTERS = "ABCDEFGHIJKLMNPQRSTUVWYZ"
"""The letters `w` draws a pairing with (no O or X: the marks); 6x6 holds at most 18 pairs."""


def bindings(on: Literal["game", "app"]) -> list[BindingType]:
    """The `BINDINGS` of the game screen or the app (Textual's own are Textual's).

    All priority: priority bindings run as the app reads each key, in order, while
    other keys are queued for the screen. Mixing the two would reorder a burst
    (`5 ?` would open the help before playing 5).
    """
    from textual.binding import Binding

    return [
        Binding(
            bind.keys,
            bind.action,
            bind.description,
            show=bind.show,
            key_display=bind.key_display,
            priority=True,
        )
        for command in COMMANDS
        if command.on == on
        for bind in command.binds
    ]


def bar_commands(side: int, over: bool = False, people: bool = False) -> tuple[Command, ...]:
    """The key bar's commands on a `side` x `side` board (1-9 on 3x3, Enter elsewhere, `w`
    on 6x6); `over`: the round is over (its review, not a hint); `people`: a game between
    people, without the keys that teach with the AI. A command gives its place to the
    one it yields to where that one is shown (`bar_yields_to`)."""
    not_now = "in_play" if over else "over"
    shown = [
        c
        for c in COMMANDS
        if c.bar is not None
        and c.bar_on(side)
        and c.bar_round != not_now
        and not (people and c.needs_ai)
    ]
    return tuple(c for c in shown if c.bar_yields_to is None or c.bar_yields_to not in shown)


def menu_commands(over_game: bool) -> tuple[Command, ...]:
    """The menu's commands: the game's own only when it was opened over the game."""
    return tuple(c for c in COMMANDS if c.menu is not None and (over_game or c.on == "app"))


def listed() -> tuple[Command, ...]:
    """The commands of the help's key list, the README's and `--help`'s."""
    return tuple(c for c in COMMANDS if c.help is not None)


def key_list_markdown() -> str:
    """The help's key list: a Markdown table."""
    rows = [f"| {c.keys} | {c.help} |" for c in listed()]
    return "\n".join(["| Key | What it does |", "| --- | --- |", *rows])


def key_summary() -> str:
    """The keys in one line, for `--help`."""
    return ", ".join(f"{c.keys} {c.brief}" for c in listed())
