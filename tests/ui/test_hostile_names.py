"""Names a client chose are text: never markup, never escapes, wherever they are shown.

A serve-ssh player's name is whatever its SSH client logged in with. Each hostile
name below goes through every place a name is shown (the title bar, the stats
screen, the leaderboard, a replay, `tui-tictactoe stats`), as the player's own name
(the environment serve-ssh sets) and as two other players' in the record; the screen
must show the cleaned name literally, nothing in it may act (no link, no click
action), and the fingerprint that tells two players of one name apart stays in view.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import SIZE, SMALL, press
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from tui_tictactoe import cli
from tui_tictactoe.commands.stats import format_stats
from tui_tictactoe.identity import NAME_LIMIT, NO_NAME, current_identity, displayable
from tui_tictactoe.record import FinishedRound, LeaderEntry, Record, empty_stats
from tui_tictactoe.servers.games.command import printable
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.leaderboard_screen import LeaderboardScreen
from tui_tictactoe.ui.screens.replay_screen import ReplayScreen
from tui_tictactoe.ui.screens.stats_screen import StatsScreen
from tui_tictactoe.ui.widgets import TitleBar

ME = "SHA256:AAAAAAAAmine"  # the player who opens the screens
OTHER = "SHA256:BBBBBBBBtheirs"  # another player of the same name

HOSTILE: list[tuple[str, str | None]] = [
    # (the name the client chose, what the screen shows; None: nothing to show)
    ("[/]", "[/]"),
    ("[bold red]x", "[bold red]x"),
    ("[@click=app.quit]x[/]", "[@click=app.quit]x[/]"),
    ("[link=https://example.com]x[/]", "[link=https://example.com]x[/]"),
    ("[conceal]x", "[conceal]x"),
    ("[on red]", "[on red]"),
    ("[b]", "[b]"),
    ("\\[b]", "\\[b]"),
    ("[reverse]x[/reverse]", "[reverse]x[/reverse]"),
    ("$text-error $var", "$text-error $var"),
    ("[$accent]x", "[$accent]x"),
    (":smile: :thumbs_up:", ":smile: :thumbs_up:"),
    ("\x1b[31mred\x1b[0m", "red"),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
    ("\x1b]0;title\x07name", "name"),
    ("\x9b2Jc1\x9d0;t\x9c", "c1"),
    ("\u202eevil\u202c", "evil"),
    ("\u2066iso\u2069 \u200e\u200f\u061c", "iso"),
    ("z\u200dw\u200bj\u2060x\ufeff", "zwjx"),
    ("x" * 10_000, "x" * (NAME_LIMIT - 1) + "…"),
    ("日本" * 20, "日本" * 7 + "日…"),  # 31 columns and the ellipsis
    ("a\udcffb", "ab"),  # a byte that was not UTF-8 (os.environ's surrogate escape)
    ("nul\x00byte", "nulbyte"),
    ("", None),
    ("\x01\x07\x08\t\n\r\x1b\x7f\x85", None),
]
IDS = [ascii(name)[1:-1][:20] for name, _ in HOSTILE]

UNSHOWABLE = {
    *map(chr, range(0x20)),
    "\x7f",
    *map(chr, range(0x80, 0xA0)),
    *"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
    *"\u200b\u200c\u200d\u2060\ufeff",
}
PIECES = ["\x1b[", "\x1b]8;;", "\x1b\\", "\x9b", "\x07", "日", "e\u0301", "…", " ", "\ufe0f", "[/]"]
NAMES = st.lists(
    st.one_of(
        st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()),
        st.sampled_from(sorted(UNSHOWABLE) + PIECES),
    ),
    max_size=80,
).map("".join)


def as_text(strips: Iterable[Strip]) -> str:
    return "\n".join(strip.text for strip in strips)


def drawn(widget: Widget) -> list[Strip]:
    """The lines the widget draws, as the terminal gets them."""
    return widget.render_lines(Region(0, 0, *widget.outer_size))


def assert_inert(widget: Widget) -> None:
    """No link and no click action anywhere in what the widget draws."""
    for strip in drawn(widget):
        for segment in strip:
            style = segment.style
            if style is None:
                continue
            assert not style.link, f"a link in {strip.text!r}"
            assert not any(key.startswith("@") for key in style.meta), (
                f"an action in {strip.text!r}"
            )


def keep_round(player: str, name: str) -> None:
    """A draw on hard for `player` under `name` (as a server would have stored it)."""
    with Record.open() as record:
        assert record.save_round(
            player,
            FinishedRound(
                difficulty="hard",
                symbol="X",
                first="human",
                moves=(5, 1, 9, 3, 2, 8, 4, 6, 7),
                result="draw",
                display_name=name,
            ),
        )


def storable(name: str) -> bool:
    """SQLite takes UTF-8 text: a lone surrogate cannot be stored (nor reach the record:
    the game cleans its name first)."""
    try:
        name.encode()
    except UnicodeEncodeError:
        return False
    return True


def hosted_as(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The environment serve-ssh sets for a player with a key (a name with a NUL byte
    cannot be in an environment: that one is the player's name in the record only)."""
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER", ME)
    monkeypatch.setenv("TUI_TICTACTOE_PLAYER_NAME", name.replace("\x00", ""))


def short(player: str) -> str:
    return f"{player[:15]}…"


# -- the one cleaning function ---------------------------------------------------------


@pytest.mark.parametrize(("name", "shown"), HOSTILE, ids=IDS)
def test_a_hostile_name_is_cleaned_to_what_the_screen_shows(name: str, shown: str | None) -> None:
    assert displayable(name) == (NO_NAME if shown is None else shown)
    assert printable(name) == (shown or "")  # the server's log and the game's environment


@settings(max_examples=400, deadline=None)
@given(NAMES, st.integers(min_value=1, max_value=64))
def test_a_cleaned_name_has_nothing_unshowable_is_capped_and_idempotent(
    text: str, limit: int
) -> None:
    shown = displayable(text, limit)
    assert shown
    assert not UNSHOWABLE & set(shown)
    assert all(char.isprintable() for char in shown)
    assert all(unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn") for char in shown)
    assert len(shown) <= limit
    columns = sum(
        2
        if unicodedata.east_asian_width(char) in "WF"
        else 0
        if unicodedata.category(char) in ("Mn", "Me")
        else 1
        for char in shown
    )
    assert columns <= limit
    assert displayable(shown, limit) == shown


# -- every place a name is shown -----------------------------------------------------------


@pytest.mark.parametrize(("name", "shown"), HOSTILE, ids=IDS)
async def test_a_hostile_name_shows_literally_everywhere(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, name: str, shown: str | None
) -> None:
    stored = name if storable(name) else displayable(name)
    keep_round(ME, stored)
    keep_round(OTHER, stored)
    hosted_as(monkeypatch, name)
    own = shown if shown is not None else ME  # no name: the player is shown by its key
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        title = app.game.query_one(TitleBar)
        assert f"{own} · you X" in as_text(drawn(title))
        assert_inert(title)

        await press(pilot, "s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        title = stats.query_one(TitleBar)
        assert f"{own}'s record" in as_text(drawn(title))
        assert_inert(title)
        for table in stats.query("DataTable"):
            assert_inert(table)

        await press(pilot, "enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        for widget in (replay.query_one(TitleBar), *replay.grid.cells, replay.move_line):
            assert_inert(widget)
        await press(pilot, "escape", "l")

        board = app.screen
        assert isinstance(board, LeaderboardScreen)
        hard = board.query_one("#hard-streaks")
        lines = as_text(drawn(hard))
        for player in (ME, OTHER):  # two players of one name stay apart
            label = short(player) if shown is None else f"{shown} ({short(player)})"
            assert label in lines, lines
        assert_inert(hard)
        await press(pilot, "escape", "escape")
        assert isinstance(app.screen, GameScreen)
        assert app.is_running


@pytest.mark.parametrize("name", ["W" * 100, "日" * 100, "\U0001f600" * 100])
async def test_the_fingerprint_stays_in_view_at_the_narrowest_size_whatever_the_name(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A name is capped in columns too: 32 wide characters would push it out of view."""
    keep_round(ME, name)
    keep_round(OTHER, name)
    hosted_as(monkeypatch, name)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "s", "l")
        lines = as_text(drawn(app.screen.query_one("#hard-streaks")))
        assert f"… ({short(ME)})" in lines and f"… ({short(OTHER)})" in lines, lines


async def test_the_title_bar_keeps_a_wide_name_and_what_is_played_whole(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The title is dropped for the subtitle by columns, not characters."""
    hosted_as(monkeypatch, "日" * 40)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        sub_title = app.game.sub_title
        assert sub_title.startswith("日" * 15 + "… · you X")
        assert sub_title in as_text(drawn(app.game.query_one(TitleBar)))


async def test_clicking_a_name_that_looks_like_a_click_action_does_nothing(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "[@click=app.quit]x[/]"
    keep_round(ME, name)
    hosted_as(monkeypatch, name)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await click_through(pilot, app.game.query_one(TitleBar), name)
        await press(pilot, "s", "l")
        hard = app.screen.query_one("#hard-streaks")
        # From the row's start to its fingerprint: a name drawn as markup would be "x" there.
        await click_through(pilot, hard, "", until=short(ME))
        assert app.is_running and isinstance(app.screen, LeaderboardScreen)
        await press(pilot, "escape", "escape")
        assert app.is_running and isinstance(app.screen, GameScreen)


async def click_through(pilot: Any, widget: Widget, text: str, until: str = "") -> None:
    """Click every cell of `text` where `widget` draws it (or of its line up to `until`)."""
    lines = [strip.text for strip in drawn(widget)]
    y = next(y for y, line in enumerate(lines) if (until or text) in line)
    start = lines[y].index(text) if text else 0
    end = lines[y].index(until) if until else start + len(text)
    for x in range(start, end):
        await pilot.click(widget, offset=(x, y))
        assert pilot.app.is_running


# -- on the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "shown"), HOSTILE, ids=IDS)
def test_stats_prints_a_hostile_name_as_plain_text(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    shown: str | None,
) -> None:
    hosted_as(monkeypatch, name)
    keep_round(ME, current_identity().name)
    assert cli.main(["stats"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{shown if shown is not None else ME}: 1 round"
    assert not UNSHOWABLE & (set(out) - {"\n"})


@pytest.mark.parametrize(("name", "shown"), HOSTILE, ids=IDS)
def test_the_record_shows_a_stored_hostile_name_cleaned(name: str, shown: str | None) -> None:
    """Names stored before they were cleaned (or by another program) are cleaned when shown."""
    stats = empty_stats(ME)._replace(display_name=name)
    assert format_stats(stats).splitlines()[0] == f"{shown or ME}: 0 rounds"
    entry = LeaderEntry(OTHER, name, 3)
    assert entry.label == (short(OTHER) if shown is None else f"{shown} ({short(OTHER)})")
