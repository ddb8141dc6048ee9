"""The keys of the rooms' screens (the room, the lobby, a refusal): small tables of their
own, in the command table's terms.

A room has keys the game against the AI does not (`r` asks for a rematch, not a new
round; `q` leaves the room; `u` asks the other player to take a move back, `c` claims
the round of one who left) and lacks others (no new game, no AI info),
so it does not share `key_table.COMMANDS`, whose entries also write the game's help and
the README's key table. The moves (arrows, Enter, 1-9) are the game's own commands;
help (`?`), the menu (Ctrl+P) and `q` stay the app's (the app hands `q` and `y` to the
room screen: `TicTacToeApp.action_ask_quit`). The lobby's and a refusal's keys depend
on the screen's state (a text box has the focus, the lobby is there to go back to): each
command's `when` names the state, and one function makes the key bar (`screen_keys`) and
the screen's `check_action` (`acts`) from it, so that the bar shows what the keys do.
Textual only for the bindings, when a screen's class is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_tictactoe.ui.key_table import HELP, MOVE, PLAY, PLAY_DIGIT, QUIT, Bind, Command
from tui_tictactoe.ui.widgets.key_bar import KeyHint

if TYPE_CHECKING:
    from textual.binding import BindingType

REMATCH = Command(
    "Rematch",
    "r",
    binds=(Bind("r", "rematch", "Rematch"),),
    help="Once the round is over: ask for the next one (it starts when both players ask)",
    bar="r",
)
ROOM_ANALYSIS = Command(
    "Analysis",
    "a",
    binds=(Bind("a", "toggle_analysis", "Analysis"),),
    help="Spectators: every empty square's verdict (players get none)",
    bar="a",
    state="show_analysis",
    bar_words=("Show analysis", "Hide analysis"),
)
ROOM_HINT = Command(
    "Hint",
    "h",
    binds=(Bind("h", "hint", "Hint", show=False),),
    help="No hints against a person (the status line says so)",
)
ROOM_EXPLORE = Command(
    "Explore",
    "t",
    binds=(Bind("t", "explore", "Explore", show=False),),
    help="Spectators: step through the search of the position watched; players: once "
    "the round is over (no engine's help during play)",
)
ROOM_PUBLIC = Command(
    "Public",
    "p",
    binds=(Bind("p", "toggle_public", "Public"),),
    help="The player who opened the room: list it in the lobby, or make it private again",
    bar="p",
    state="room_public",
    bar_words=("Make public", "Make private"),
)
ROOM_WATCHING = Command(
    "Watching",
    "w",
    binds=(Bind("w", "toggle_watching", "Watching"),),
    help="Players: let spectators in with the code, or not (off sends them away)",
    bar="w",
    state="room_watching",
    bar_words=("Allow watchers", "Stop watchers"),
)
ROOM_DRAW = Command(
    "Draw?",
    "d",
    binds=(Bind("d", "offer_draw", "Offer a draw"),),
    help="Mid-round: offer the other player a draw (once a move; any move clears it)",
    bar="d",
    bar_round="in_play",  # once the round is over the bar offers its review (`v`) there
)
ROOM_REVIEW = Command(
    "Review",
    "v",
    binds=(Bind("v", "review", "Review"),),
    help="Once the round is over (players and spectators): every move's verdict before and "
    "after it, its blunders",
    bar="v",
    bar_round="over",
)
ROOM_TAKE_BACK = Command(
    "Undo?",
    "u",
    binds=(Bind("u", "offer_take_back", "Ask to take back your move"),),
    help="After your move: ask the other player to take it back (once a move; y undoes it)",
    bar="u",
)
ROOM_TAKE = Command(
    "Agree",
    "y",
    binds=(Bind("y", "answer_offer(True)", "Agree", show=False),),
    help="When the other player offers a draw or asks to take a move back: agree",
    bar="y",
)
ROOM_DECLINE = Command(
    "Decline",
    "n",
    binds=(Bind("n", "answer_offer(False)", "Decline", show=False),),
    help="Decline the draw offered or the take-back asked for (so does any other key)",
    bar="n",
)
ROOM_CLAIM = Command(
    "Claim",
    "c",
    binds=(Bind("c", "claim", "Claim the round"),),
    help="Your opponent left mid-round: claim the round after half the reconnect grace",
    bar="c",
)
ANSWERS = (ROOM_TAKE, ROOM_DECLINE)
WHEN = {ROOM_TAKE_BACK: "take_back", ROOM_TAKE: "offer_to_me", ROOM_DECLINE: "offer_to_me"}
WHEN[ROOM_CLAIM] = "claim"
"""Keys in the bar only in a state of the room (`room_choices.key_states`): y and n while
an offer waits for this player, u after their move, c once they may claim."""
LEAVE = QUIT._replace(name="Leave", help="Leave the room (mid-round it asks first)")

ROOM_COMMANDS: tuple[Command, ...] = (
    MOVE,
    PLAY,
    PLAY_DIGIT,
    REMATCH,
    ROOM_DRAW,
    ROOM_REVIEW,
    ROOM_TAKE_BACK,
    ROOM_TAKE,
    ROOM_DECLINE,
    ROOM_CLAIM,
    ROOM_PUBLIC,
    ROOM_WATCHING,
    ROOM_ANALYSIS,
    ROOM_HINT,
    ROOM_EXPLORE,
    HELP,
    LEAVE,
)
"""In the key bar's order. HELP and LEAVE are bound by the app; the rest here."""


def room_bindings() -> list[BindingType]:
    """The room screen's `BINDINGS`: priority, like the game's, so a burst keeps its order."""
    return screen_bindings(ROOM_COMMANDS, priority=True)


def screen_bindings(commands: tuple[Command, ...], priority: bool = False) -> list[BindingType]:
    """A screen's own `BINDINGS` from its table (the app's and Textual's are theirs)."""
    from textual.binding import Binding

    return [
        Binding(bind.keys, bind.action, bind.description, show=bind.show, priority=priority)
        for command in commands
        if command.on == "game"
        for bind in command.binds
    ]


def screen_keys(commands: tuple[Command, ...], states: dict[str, bool]) -> tuple[KeyHint, ...]:
    """The key bar of a screen in `states`: the commands offered there, in table order."""
    return tuple(
        KeyHint(command.bar, command.name, command.press)
        for command in commands
        if command.bar is not None and command.offered(states)
    )


def acts(commands: tuple[Command, ...], action: str, states: dict[str, bool]) -> bool:
    """Does `action` act in `states`? Only if the key bar offers its command there."""
    return all(
        command.offered(states)
        for command in commands
        for bind in command.binds
        if bind.action == action
    )


# -- the lobby: its lists take the arrows and Enter, the code box takes letters ----------

_CHOOSE = Command(
    "Choose", "Enter", binds=(Bind("enter", "select", "Choose"),), on="textual", bar="Enter"
)
LOBBY_COMMANDS: tuple[Command, ...] = (
    Command("Move", "↑↓", on="textual", bar="↑↓", when="on_list"),
    _CHOOSE._replace(when="on_list"),
    _CHOOSE._replace(name="Join", when="typing"),
    Command(
        "Next box", "Tab", binds=(Bind("tab", "focus_next", "Next box"),), on="textual", bar="Tab"
    ),
    Command(
        "Menu",
        "Escape",
        binds=(Bind("escape", "focus_menu", "Back to the menu", show=False),),
        bar="Esc",
        when="off_menu",
    ),
    HELP,
    QUIT._replace(when="keys"),  # in the code box `q` is a letter (`TicTacToeApp.check_action`)
)


def lobby_states(focus: str) -> dict[str, bool]:
    """The lobby's states from what has the focus: "menu", "rooms" or "code"."""
    typing = focus == "code"
    return {
        "on_list": not typing,
        "typing": typing,
        "keys": not typing,
        "off_menu": focus != "menu",
    }


# -- the quick match's queue: the AI meanwhile, Esc out --------------------------------

MATCH_COMMANDS: tuple[Command, ...] = (
    Command(
        "Play the AI meanwhile",
        "a",
        binds=(Bind("a", "play_ai", "Play the AI meanwhile"),),
        bar="a",
        when="waiting",
    ),
    Command(
        "Play them",
        "Enter",
        binds=(Bind("enter", "enter_match", "Play the player found"),),
        bar="Enter",
        when="deciding",
    ),
    Command(
        "Leave the queue",
        "Escape",
        binds=(Bind("escape", "escape", "Leave the queue, or decline the player found"),),
        bar="Esc",
        when="not_deciding",
    ),
    Command("Decline", "Escape", bar="Esc", when="deciding"),  # Esc's other meaning
    HELP,
    QUIT,
)
"""The waiting screen's keys: `a` while a place is held; once a player is found during a
game against the AI, Enter plays them and Esc declines (`MatchScreen.action_escape`)."""


# -- a refusal: what next ---------------------------------------------------------------

REFUSED_COMMANDS: tuple[Command, ...] = (
    Command("Move", "↑↓", on="textual", bar="↑↓"),
    _CHOOSE,
    Command("Watch", "w", binds=(Bind("w", "watch", "Watch"),), bar="w", when="watch"),
    Command("Lobby", "l", binds=(Bind("l", "lobby", "Lobby"),), bar="l", when="lobby"),
    HELP,
    QUIT,
)
"""The screen a refused entry lands on: watch the room instead, back to the lobby, quit."""


PLAYERS_ONLY = (MOVE, PLAY, PLAY_DIGIT, REMATCH, ROOM_DRAW, *WHEN, ROOM_WATCHING)


def room_keys(
    side: int,
    analysis: bool | None,
    player: bool = True,
    choices: dict[str, bool] | None = None,
    over: bool = False,
) -> tuple[KeyHint, ...]:
    """The key bar on a `side` x `side` board (1-9 on 3x3); `analysis` None where the overlay is not offered
    (players, big boards: the entry goes), else whether it is on; a spectator's bar
    has no keys that play. `choices`: the room's `room_public` and `room_watching`,
    `opener` (this player opened the room: only they get `p`) and the states of `WHEN`;
    None before the first view (none). `over`: the round is over, where `v` reviews it
    in the place of `d` (a draw offer)."""
    states = {"show_analysis": bool(analysis), **(choices or {})}
    hints = []
    for command in ROOM_COMMANDS:
        if command.bar is None or not command.bar_on(side):
            continue
        if command.bar_round == ("in_play" if over else "over"):
            continue
        if not player and command in PLAYERS_ONLY:
            continue
        if command is ROOM_ANALYSIS and analysis is None:
            continue
        if command.state in ("room_public", "room_watching") and choices is None:
            continue
        if command is ROOM_PUBLIC and not states.get("opener"):
            continue
        if command in WHEN and not states.get(WHEN[command]):
            continue
        label = command.bar_label(states)
        hints.append(KeyHint(command.bar, label, command.press))
    return tuple(hints)
