"""Snapshot tests: what the player sees, at fixed sizes, with seeded AIs.

Plain `def` tests: `snap_compare` runs the app itself. Update with
`pytest tests/snapshots/test_snapshots.py --snapshot-update` and look at every SVG
before committing it.
"""

from __future__ import annotations

from support import SIZE, SMALL, play

from tui_tictactoe.ui.screens.game_screen import MIN_SIZE, PANEL_ROOM

MINIMUM = (MIN_SIZE.width, MIN_SIZE.height)


def test_start(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play())


def test_start_60x20(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=play())


def test_mid_game(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("1", "9"))


def test_mid_game_60x20_playing_o(snap_compare, make_app) -> None:
    app = make_app(symbol="O", first="ai")
    assert snap_compare(app, terminal_size=SMALL, run_before=play("1"))


def test_win_highlights_the_line(snap_compare, make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    assert snap_compare(app, terminal_size=SIZE, run_before=play("1", "2", "3"))


def test_loss_60x20(snap_compare, make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0), (0, 1), (0, 2)))
    assert snap_compare(app, terminal_size=SMALL, run_before=play("9", "8", "4"))


def test_draw(snap_compare, make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0), (2, 1), (1, 2), (2, 0)))
    assert snap_compare(app, terminal_size=SIZE, run_before=play("5", "2", "4", "9", "3"))


def test_refused_move(snap_compare, make_app, scripted) -> None:
    app = make_app(strategy=scripted((0, 0)))
    assert snap_compare(app, terminal_size=SIZE, run_before=play("5", "1"))


def test_ai_error(snap_compare, make_app, failing) -> None:
    app = make_app(strategy=failing())
    assert snap_compare(app, terminal_size=SIZE, run_before=play("5"))


def test_help_screen(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("question_mark"))


def test_new_game_dialog(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("n"))


def test_new_game_dialog_60x20(snap_compare, make_app) -> None:
    app = make_app(symbol="O", difficulty="medium", alternate=True)
    assert snap_compare(app, terminal_size=SMALL, run_before=play("n"))


def test_minimum_size_with_the_quit_question(snap_compare, make_app, scripted) -> None:
    """60x18: the whole score line (an abandoned round, a take-back), the key bar in two
    lines ending in "q Quit", and the quit question in the status line."""
    app = make_app(strategy=scripted((0, 0), (2, 2), (0, 1), (0, 2)))
    keys = ("5", "r", "9", "5", "u", "5", "q")
    assert snap_compare(app, terminal_size=MINIMUM, run_before=play(*keys))


def test_too_small(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(40, 12), run_before=play())


# -- teaching aids -------------------------------------------------------------


def test_analysis_on_the_empty_board(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=play("a"))


def test_analysis_with_a_win_a_draw_and_losses(snap_compare, make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (1, 1)))
    assert snap_compare(app, terminal_size=SIZE, run_before=play("1", "2", "a"))


def test_analysis_playing_o_60x20(snap_compare, make_app) -> None:
    app = make_app(symbol="O", first="ai", seed=5)
    assert snap_compare(app, terminal_size=SMALL, run_before=play("a", "2"))


def test_hint(snap_compare, make_app, scripted) -> None:
    app = make_app(strategy=scripted((1, 0), (2, 2)))
    assert snap_compare(app, terminal_size=SIZE, run_before=play("1", "5", "h"))


def test_info_panel(snap_compare, make_app, steady) -> None:
    app = make_app(strategy=steady())
    assert snap_compare(app, terminal_size=SIZE, run_before=play("i", "5"))


def test_info_panel_and_analysis_80x20(snap_compare, make_app, steady) -> None:
    """The smallest terminal that shows the info panel (PANEL_ROOM); below it `i` says
    it waits for room (test_fit.py)."""
    app = make_app(strategy=steady())
    room = (PANEL_ROOM.width, PANEL_ROOM.height)
    assert snap_compare(app, terminal_size=room, run_before=play("i", "a", "1", "h"))


def test_hot_seat_mid_game(snap_compare, make_app) -> None:
    """Two people at one keyboard: the status names the last move and whose turn it is, the
    score counts X's and O's wins, the key bar has no teaching keys."""
    app = make_app(opponent="human")
    assert snap_compare(app, terminal_size=SIZE, run_before=play("5", "1", "9", "h"))


def test_hot_seat_win_60x20(snap_compare, make_app) -> None:
    app = make_app(opponent="human")
    assert snap_compare(app, terminal_size=SMALL, run_before=play("1", "4", "2", "5", "3"))
