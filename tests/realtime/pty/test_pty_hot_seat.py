"""Hot seat (`--opponent human`) in a real terminal: the installed command in an 80x24 pty,
read through pyte. Two people take turns at one keyboard to a win; each key goes in one
write (as over SSH), and every wait polls the emulated screen, never sleeps."""

from __future__ import annotations

from pty_terminal import START_TIMEOUT, STEP_TIMEOUT, Terminal


def test_a_hot_seat_round_to_a_win_in_a_real_terminal() -> None:
    term = Terminal("--opponent", "human", "--no-record")
    try:
        term.wait_until(
            "the empty board and X to play",
            lambda: "X to play." in term.text and term.locate_board(),
            START_TIMEOUT,
        )
        assert "X vs O · two players" in term.text
        term.send("5")
        term.wait_for_text("X played 5. O to play.")
        term.send("1")
        term.wait_for_text("O played 1. X to play.")
        term.send("h")  # no hint between people: said, and nothing else changes
        term.wait_for_text("No hints in a game between people.")
        term.send("3", "7", "4", "2", "6")  # one burst: X 3 4 6, O 7 2; X takes the middle row
        term.wait_for_text("X wins! Press r for a new round.", STEP_TIMEOUT)
        term.wait_until("the score", lambda: "X 1" in term.text and "O 0" in term.text, 5)
        board = term.board()
        assert [board[(1, col)] for col in range(3)] == ["X", "X", "X"]
        assert [board[(0, col)] for col in range(3)] == ["O", "O", "X"]
        assert term.traceback() is None
        assert term.quit("q") == 0  # the round is over: q quits without asking
    finally:
        term.close()
