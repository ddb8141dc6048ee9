"""The plain game's loop: a prompt, a line, what it did; the AI answers inline.

Against the AI or hot seat, on the controller the full-screen game uses, through the same
request and reply API (`ai_request`, `hint_request`, `analysis_request`, `apply`): the
jobs are computed here, in line, since nothing else needs the terminal meanwhile (a 4x4 or
5x5 reply takes up to about a second). Rounds are saved as they end, by the record's own
`save_ended`; the end of input, or Ctrl+C, leaves a round in play as abandoned, as quitting
the full-screen game does.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
from contextlib import suppress
from typing import TYPE_CHECKING, BinaryIO, TextIO

from tui_tictactoe.commands.plain.lines import LINE_LIMIT, TOO_LONG, LineReader, TooLong
from tui_tictactoe.commands.plain.text import (
    QUIT_PROMPT,
    QUIT_YES,
    REVIEW_LATER,
    analysis_line,
    ascii_text,
    board_rows,
    help_lines,
    prompt,
    review_lines,
    reviewing_line,
    score_line,
)
from tui_tictactoe.commands.play_arguments import echo
from tui_tictactoe.controller import GameController, GameOptions
from tui_tictactoe.controller.game_options import SETTINGS
from tui_tictactoe.controller.rounds import RoundSummary
from tui_tictactoe.controller.status import (
    PEOPLE_REFUSE,
    PLAYING_ON,
    QUIT_QUESTION,
    game_title,
    hint_status,
    move_refused,
    refused,
    take_back_status,
    turn_status,
)
from tui_tictactoe.engine.board import IllegalMove
from tui_tictactoe.identity import Identity, current_identity

if TYPE_CHECKING:
    from tui_tictactoe.engine.strategies import MoveStrategy

END_OF_INPUT = "End of input: quitting; the round in play counts as abandoned."

TOO_LONG_TEXT = f"That line is too long (at most {LINE_LIMIT} bytes): nothing done."


class HungUp(Exception):
    """SIGHUP: the terminal has gone, so has the player."""


def hung_up(_signal: int, _frame: object) -> None:
    raise HungUp


class PlainGame:
    """One plain game: reads `lines`, writes to `out`, saves rounds in `record`."""

    def __init__(
        self, game: GameController, lines: LineReader, out: TextIO, keep: Keeper | None = None
    ) -> None:
        self.game = game
        self.lines = lines
        self.out = out
        self.keep = keep
        self.asked_quit = False  # the quit question is open: y or q answers yes
        if keep is not None:
            game.on_round_end = keep.round_ended

    def say(self, *lines: str) -> None:
        """Print `lines`; an output that has gone (a closed pipe, a hung-up terminal) is
        not an error: the game goes on to the end of its input, which comes next."""
        with suppress(OSError, ValueError):
            for line in lines:
                self.out.write(ascii_text(line) + "\n")
            self.out.flush()

    def read(self) -> str | TooLong | None:
        try:
            return self.lines.read()
        except (OSError, ValueError):  # the terminal hung up, stdin closed: the end
            return None

    def run(self) -> int:
        """Play until `q`, the end of input or Ctrl+C; the exit status."""
        game = self.game
        cells = game.board.geometry.cells
        self.say(
            f"tui-tictactoe, plain: {game_title(game, False)}, {game.board.geometry.size}x"
            f"{game.board.geometry.size}. Cells are numbered 1-{cells} in reading order. "
            "Type ? for help."
        )
        try:
            self.ai_turn()
            self.show()
            while True:
                self.say(QUIT_PROMPT if self.asked_quit else prompt(game))
                line = self.read()
                if line is None:  # the end of input: the player has gone
                    if game.in_progress:
                        self.say(END_OF_INPUT)
                    self.leave()
                    return 0
                if line == TOO_LONG:
                    self.say(TOO_LONG_TEXT)
                elif self.command(line):
                    return 0
        except KeyboardInterrupt:
            self.leave()
            return 130
        except HungUp:  # the terminal went away (over SSH: the client did)
            self.leave()
            return 129

    def leave(self) -> None:
        """A round in play counts as abandoned (quitting must not dodge a loss)."""
        self.game.leave()
        self.notice()

    def show(self) -> None:
        """The board, then the state of play in the status line's words."""
        self.say(*board_rows(self.game), turn_status(self.game).text)
        if self.game.game_over:
            self.say(score_line(self.game))

    def notice(self) -> None:
        if self.keep is not None and (text := self.keep.notice()):
            self.say(f"Record: {text}")

    # -- commands -----------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Do what `line` says; True to quit."""
        word = line.lower()
        if self.asked_quit:  # the line answers the question, and does nothing else
            self.asked_quit = False
            if word in QUIT_YES:
                self.leave()
                return True
            self.say(PLAYING_ON.text)
            return False
        if word in ("q", "quit"):
            return self.quit()
        if word.isascii() and word.isdigit() and len(word) <= 3:
            self.play(int(word))
        elif word in ACTIONS:
            ACTIONS[word](self)
        elif word:
            cells = self.game.board.geometry.cells
            self.say(f"Not a command: {echo(line)}. Type a cell number (1-{cells}), or ? for help.")
        return False

    def quit(self) -> bool:
        if self.game.in_progress:
            self.asked_quit = True
            self.say(QUIT_QUESTION.text)
            return False
        return True

    def play(self, key: int) -> None:
        game = self.game
        try:
            row, col = game.board.geometry.cell_of_key(key)
        except ValueError:
            self.say(
                refused(f"No cell {key}: the cells are 1 to {game.board.geometry.cells}.").text
            )
            return
        try:
            game.play_human_move(row, col)
        except IllegalMove as refusal:
            self.say(move_refused(refusal).text)
            return
        if game.ai_request() is not None:
            self.say(f"You played {key}.")
            self.ai_turn()
        self.show()
        self.notice()

    def ai_turn(self) -> None:
        """The AI's move, if it is its turn: asked and applied as the app does, inline."""
        request = self.game.ai_request()
        if request is None:
            return
        if request.board.geometry.cells > 9:
            self.say("AI is thinking...")
        self.game.apply(request.compute())

    def hint(self) -> None:
        game = self.game
        request = game.teacher.hint_request()
        if request is not None:
            game.apply(request.compute())
        self.say(hint_status(game, game.teacher.hinted).text)

    def analysis(self) -> None:
        game = self.game
        if game.between_people:
            self.say(PEOPLE_REFUSE["show_analysis"])
            return
        if not game.is_human_turn:
            self.say("No analysis: the round is over." if game.game_over else "No analysis now.")
            return
        if game.teacher.analysis_ready:
            found = game.teacher.analysis()
        else:
            request = game.teacher.analysis_request()
            if request is not None:
                self.say(f"Analysing {len(request.board.legal_moves())} cells...")
                for score in request.compute():
                    game.apply(score)
            progress = game.teacher.analysis_found
            assert progress is not None
            found = progress.analysis
        self.say(analysis_line(found, game.board.geometry))

    def review(self) -> None:
        """`v` once the round is over: the review as `tui-tictactoe review` prints it (its
        own formatter, `text.review_lines`); mid-round it says when, as the full-screen
        game does."""
        game = self.game
        if not game.game_over or not game.board.moves:
            self.say(REVIEW_LATER)
            return
        geometry = game.board.geometry
        keys = [geometry.key(*cell) for cell in game.board.moves]
        if said := reviewing_line(geometry, len(keys)):
            self.say(said)
        self.say(*review_lines(geometry, game.opener, keys, "This round"))

    def undo(self) -> None:
        result = self.game.take_back()
        self.say(take_back_status(self.game, result).text)
        if not result.refused:
            self.show()

    def new_round(self) -> None:
        self.game.new_round()
        self.say(f"Round {self.game.round}.")
        self.ai_turn()
        self.show()
        self.notice()

    def board(self) -> None:
        self.show()

    def score(self) -> None:
        self.say(score_line(self.game))

    def help(self) -> None:
        self.say(*help_lines(self.game.board.geometry.cells))


ACTIONS = {
    "h": PlainGame.hint,
    "a": PlainGame.analysis,
    "u": PlainGame.undo,
    "r": PlainGame.new_round,
    "v": PlainGame.review,
    "b": PlainGame.board,
    "s": PlainGame.score,
    "?": PlainGame.help,
    "help": PlainGame.help,
}
"""The one-letter commands (digits play, `q` quits: `PlainGame.command`)."""


class Keeper:
    """The record as the plain game uses it: opened at the start, each round saved as it
    ends (inline: a save takes about a millisecond), its notices said once."""

    def __init__(self, enabled: bool, identity: Identity) -> None:
        from tui_tictactoe.record import Record

        self.record = Record.open() if enabled else Record.disabled()
        self.identity = identity

    def settings(self) -> dict[str, object]:
        """The player's saved settings (none for a guest)."""
        if self.identity.player is None:
            return {}
        return self.record.settings(self.identity.player)

    def round_ended(self, summary: RoundSummary) -> None:
        from tui_tictactoe.record.own_rounds import save_ended

        save_ended(self.record, summary, self.identity.name, self.identity.player)

    def notice(self) -> str | None:
        return self.record.take_notice()


def run_plain(
    args: argparse.Namespace,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    strategy: MoveStrategy | None = None,
) -> int:
    """`--plain`: the options as the full-screen game reads them (flags over saved
    settings over the defaults), then the loop on standard input and output."""
    out = stdout if stdout is not None else sys.stdout
    if stdout is None and hasattr(out, "reconfigure"):
        out.reconfigure(errors="replace")  # a name the output's encoding cannot show
    keep = Keeper(args.record, current_identity())
    given = {name: getattr(args, name) for name in SETTINGS if getattr(args, name) is not None}
    options = GameOptions().with_settings(keep.settings(), given)
    game = GameController(options, random.Random(args.seed), strategy)
    if keep.identity.hosted:
        game.player_name = keep.identity.name
    reader = LineReader(stdin if stdin is not None else sys.stdin.buffer)
    if stdin is None:  # a hang-up leaves the round as abandoned, as quitting does
        signal.signal(signal.SIGHUP, hung_up)
    plain = PlainGame(game, reader, out, keep)
    if keep.identity.notice:
        plain.say(f"Name: {keep.identity.notice}")
    plain.notice()
    return plain.run()
