"""What the status line says, as pure functions of the game: testable without a UI.

The status line has two lines. The first always holds the state of play (`turn_status`):
whose turn, the AI's last move (between people, the last move), the result once the round
is over. The second holds a
passing note (a refused key, a hint, what a key switched): it never takes the state's
place, and it goes when the position changes. Each fits one line of the narrowest board
column (`NOTE_WIDTH`); the big board's analysis counts its cells in the title instead
(`game_title`), apart from both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

from tui_tictactoe.controller.game import GameController
from tui_tictactoe.controller.rounds import TakeBack
from tui_tictactoe.controller.teaching import AnalysisFound
from tui_tictactoe.engine.board import Cell, IllegalMove
from tui_tictactoe.engine.geometry import is_bounded

if TYPE_CHECKING:
    from tui_tictactoe.engine.proof import Proof

Tone = Literal["turn", "thinking", "win", "loss", "draw", "refused", "hint", "error", "question"]
TONES: tuple[Tone, ...] = (
    "turn",
    "thinking",
    "win",
    "loss",
    "draw",
    "refused",
    "hint",
    "error",
    "question",
)


NOTE_WIDTH = 57
"""The narrowest the status line gets (the board's column at the minimum size): every
state but an AI failure's, and every note, fits one line of it."""


class Status(NamedTuple):
    """One message for the player and its tone (the UI colours it by tone)."""

    text: str
    tone: Tone


def turn_status(game: GameController) -> Status:
    """Where the round stands: its result, the AI's failure, or whose turn it is."""
    result = game.result
    if result is not None:
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner is None:
            tone: Tone = "draw"
        elif outcome.winner == game.human_symbol or game.between_people:
            tone = "win"
        else:
            tone = "loss"
        return Status(f"{result} Press r for a new round.", tone)
    if game.ai_error is not None:
        # What to do first: under a note this line is cut to one, and only the reason goes.
        return Status(f"The AI failed: press r for a new round. ({game.ai_error})", "error")
    if game.between_people:
        return people_turn_status(game)
    if game.is_ai_turn:
        return Status("AI is thinking…", "thinking")
    your_turn = f"Your turn: you play {game.human_symbol}."
    moves = game.board.moves
    if moves and moves[-1] == game.last_ai_move:
        return Status(f"AI played {game.board.geometry.key(*moves[-1])}. {your_turn}", "turn")
    return Status(your_turn, "turn")


def people_turn_status(game: GameController) -> Status:
    """Between people (hot seat): whose turn it is, after the last move if there is one."""
    to_play = f"{game.current_player.symbol} to play."
    moves = game.board.moves
    if not moves:
        return Status(to_play, "turn")
    row, col = moves[-1]
    mark, key = game.board.game_board[row][col], game.board.geometry.key(row, col)
    return Status(f"{mark} played {key}. {to_play}", "turn")


PEOPLE_REFUSE = {
    "hint": "No hints in a game between people.",
    "show_analysis": "No analysis in a game between people.",
    "show_info": "No AI info: there is no AI in a game between people.",
}
"""Why a teaching key does nothing between people: the aids are for playing the AI."""


def refused(reason: str) -> Status:
    """A move or request that changed nothing, and why (a note)."""
    return Status(reason, "refused")


def move_refused(refusal: IllegalMove) -> Status:
    """A move not played, as a note. After the round or an AI failure the state above it
    says so already, and what to do: the note only says that nothing was played."""
    if refusal.refusal == "over":
        return refused("No move: the round is over.")
    if refusal.refusal == "ai-failed":
        return refused("No move: the AI failed.")
    return refused(str(refusal))


WHY_PAIRS = "Every line you can fill holds a pair: I take its partner."
"""What `w` says over the AI's pairs drawn as letters (the help says it in full: "Every line
you could still fill holds one of these pairs: take one cell and I take the other.")."""

WHY_UNPROVEN = "Nothing proven here: no pairing, no line of fours found."


def why_status(game: GameController, proof: Proof | None) -> Status:
    """`w` ("why can't I win?"): the pairs (drawn on the board), the human's own winning
    line of fours, or that nothing is proven; a note off the human's turn and on the
    solved boards, whose overlay says it all."""
    geometry = game.board.geometry
    if proof is None:
        if not is_bounded(geometry):
            return refused("Why: on this board the analysis (a) says it all.")
        if not game.is_human_turn or game.between_people:
            return refused("No why now: it is not your turn against the AI.")
        return refused(WHY_UNPROVEN)
    if proof.kind == "pairing":
        return Status(WHY_PAIRS, "hint")
    line = ", ".join(str(cell + 1) for cell in proof.line)
    return Status(f"You win by force (fours): {line}."[:NOTE_WIDTH], "hint")


def hint_status(game: GameController, hint: Cell | None) -> Status:
    """The hint for the human, or why there is none now (a note)."""
    if hint is not None:
        geometry = game.board.geometry
        if is_bounded(geometry):  # 6x6: the hint keeps a pairing at best, never proven best
            return Status(f"Hint: cell {geometry.key(*hint)}; no move is proven better.", "hint")
        return Status(f"Hint: cell {geometry.key(*hint)} is a best move.", "hint")
    if game.game_over:
        return refused("No hint: the round is over.")
    if game.between_people:
        return refused(PEOPLE_REFUSE["hint"])
    if game.ai_error is not None:
        return refused("No hint: the AI failed.")
    return refused("No hint now: it is the AI's turn.")


FINDING_HINT = Status("Finding a hint… (the game goes on; a move or r stops it)", "hint")
"""Said while a big board's hint is searched for, in a thread."""


def digits_refused(size: int) -> Status:
    """A digit on a board bigger than 3x3, where nine keys cannot name its cells."""
    return refused(f"On {size}x{size} use the arrows and Enter: digits play 3x3 only.")


def game_title(game: GameController, analysis: bool, found: AnalysisFound | None = None) -> str:
    """The title bar's subtitle: who plays what, the level, and whether analysis is on.

    On the big boards, where the analysis is found cell by cell in a thread, it also says
    how far that has got (`found`): here, not in the status line, whose state it would hide.
    """
    if game.between_people:
        title = "X vs O · two players"
    else:
        title = f"you {game.human_symbol} vs AI {game.ai_symbol} · {game.difficulty}"
    if game.player_name:  # hosted: the server says who is playing
        title = f"{game.player_name} · {title}"
    if not analysis:
        return title
    return f"{title} · {analysis_progress(found)}"


def analysis_progress(found: AnalysisFound | None) -> str:
    """How far the overlay has got, for a title: its cells found of all (big boards)."""
    if found is None:
        return "analysis on"
    if found.done:
        return "analysis done"
    return f"analysing {found.found}/{found.total}…"


def analysis_status(game: GameController, analysis: bool) -> Status | None:
    """What to say when the overlay is switched; None when the board shows it at once."""
    if game.is_human_turn:
        return None
    if not analysis:
        return Status("Analysis off.", "hint")
    if game.game_over:
        return Status("Analysis on: it shows in the next round (press r).", "hint")
    return Status("Analysis on: it shows on your turn.", "hint")


def take_back_status(game: GameController, result: TakeBack) -> Status:
    """What a take-back undid, or why it undid nothing (a note: the state says whose turn)."""
    if result.refused == "over":
        return refused("Nothing to take back: the round is over.")
    if result.refused is not None and game.between_people:
        return refused("Nothing to take back: no move yet this round.")
    if result.refused is not None:
        return refused("Nothing to take back: you have not moved this round.")
    key = game.board.geometry.key
    mine, *reply = reversed(result.undone)
    if game.between_people:  # one move, and its seat is to play again
        return Status(f"Took back {game.current_player.symbol}'s {key(*mine)}.", "turn")
    what = f"your {key(*mine)}" + (f" and the AI's {key(*reply[0])}" if reply else "")
    return Status(f"Took back {what}.", "turn")


def info_status(on: bool, width: int, height: int) -> Status:
    """`i` where the AI info panel has no room: said, as the panel cannot show it."""
    if not on:
        return Status("AI info off.", "hint")
    return refused(f"AI info needs {width}x{height}: it shows once there is room.")


def board_fit_status(board: str, fitted: str, width: int, height: int) -> Status:
    """The remembered board does not fit this terminal: the game opened on `fitted`."""
    return Status(
        f"{board}x{board} needs {width}x{height}: playing {fitted}x{fitted} (n: change).", "hint"
    )


PLAYING_ON = Status("Playing on.", "hint")
"""A key (or a line) other than yes to the quit or leave question: it answers no, and
does nothing else (a digit plays nothing, `n` opens no dialog)."""

QUIT_QUESTION = Status("Quit and abandon this round? q or y: yes; other keys: no.", "question")
"""Asked once when `q`, Exit or the menu's Quit comes mid-round: a stray `q` must not end
a game in play (`q` again or Exit answers yes too; the round counts as abandoned). A note:
the state of play stays above it; open while the note shows it (its tone is its own)."""
