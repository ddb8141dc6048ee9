"""The command table (`ui/key_table.py`) is the one list of the game's keys.

The bindings, the key bar, the menu, the help's key list and `--help` are made from it
and show it as it is; the README's key table (written by hand) names the same keys.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from rich.markdown import Markdown
from support import SIZE, make_app, press, settle
from textual.widgets import OptionList, Static

from tui_tictactoe.cli import build_parser
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.key_table import (
    COMMANDS,
    QUIT,
    Command,
    bar_commands,
    bindings,
    listed,
    menu_commands,
)
from tui_tictactoe.ui.screens.game_screen import GameScreen
from tui_tictactoe.ui.screens.help_screen import HELP_PATH, KEY_LIST_MARK, help_text

README = Path(__file__).parents[2] / "README.md"

PILOT_KEYS = {"?": "question_mark"}
"""Pilot's name for a menu key that is not a letter."""


# -- the README's key table --------------------------------------------------------------


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table in `text`: its rows (header first, the `---` line dropped),
    each a list of cells stripped of spaces."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        line = line.strip()
        if line.startswith("|"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip("|"))]
            if not all(re.fullmatch(r":?-+:?", cell) for cell in cells):
                rows.append(cells)
        elif rows:
            tables.append(rows)
            rows = []
    return tables


def key_tokens(text: str) -> frozenset[str]:
    """The keys a table cell names, however it writes them: "Enter, Space", "Enter or
    Space", "`Enter` / `Space`"; "1 - 9", "1 to 9"; "arrow keys", "↑↓←→"; "Ctrl+P", "^p"."""
    text = re.sub(r"</?kbd>|[`*_]", "", text.lower())
    text = re.sub(r"arrow keys|arrows|[↑↓←→ ]{4,}", " arrows ", text)
    text = re.sub(r"\b1\s*(?:-|\u2013|to|\.\.)\s*9\b", " 1-9 ", text)
    text = re.sub(r"(?:ctrl|\^)\s*[-+]?\s*([a-z])\b", r" ctrl+\1 ", text)
    text = re.sub(r"question mark", "?", text)
    words = re.split(r",|/|\bor\b|\band\b|\s+", text)
    return frozenset(word for word in words if word and word not in ("key", "keys"))


def readme_key_rows() -> dict[frozenset[str], str]:
    """The README's key table, by the keys of each row: what the row says they do."""
    for table in markdown_tables(README.read_text(encoding="utf-8")):
        header, *rows = table
        if header and "key" in header[0].lower() and rows:
            return {key_tokens(row[0]): " ".join(row[1:]) for row in rows}
    raise AssertionError("README.md has no key table (a Markdown table headed 'Key')")


def test_the_readme_key_table_names_every_listed_command_and_no_other() -> None:
    readme = readme_key_rows()
    table = {key_tokens(command.keys): command for command in listed()}
    missing = [command.keys for keys, command in table.items() if keys not in readme]
    unknown = [sorted(keys) for keys in readme if keys not in table]
    assert not missing, f"keys in ui/key_table.py but not in the README's table: {missing}"
    assert not unknown, f"keys in the README's table but not in ui/key_table.py: {unknown}"
    for keys, command in table.items():  # and each row says which command it is
        assert command.name.lower() in readme[keys].lower(), (command.keys, readme[keys])


def test_the_readme_parser_reads_the_ways_a_key_is_written() -> None:
    table = "\n".join(
        [
            "Some text | with a bar.",
            "",
            "| Key | Does |",
            "|:---|---:|",
            "| `Enter` / `Space` | play |",
            "| **Ctrl+P** | a \\| b |",
            "",
        ]
    )
    assert markdown_tables(table) == [
        [["Key", "Does"], ["`Enter` / `Space`", "play"], ["**Ctrl+P**", "a \\| b"]]
    ]
    assert key_tokens("Enter, Space") == key_tokens("Enter or Space") == {"enter", "space"}
    assert key_tokens("1 - 9") == key_tokens("1 to 9") == {"1-9"}
    assert key_tokens("arrow keys") == key_tokens("↑↓←→") == {"arrows"}
    assert key_tokens("Ctrl+P") == key_tokens("^p") == key_tokens("ctrl-p") == {"ctrl+p"}
    assert key_tokens("?") == {"?"} and key_tokens("`q`") == {"q"}


# -- the table itself -----------------------------------------------------------------


def test_each_key_does_one_thing_and_each_menu_key_is_one_character() -> None:
    keys = [key for command in COMMANDS for key in command.key_names]
    assert len(keys) == len(set(keys))
    menu = [command.keys for command in menu_commands(over_game=True)]
    assert len(menu) == len(set(menu)) and all(len(key) == 1 for key in menu)
    for command in listed():
        assert command.brief, command.name


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.keys)
def test_every_action_of_the_table_exists(command: Command) -> None:
    actions = [bind.action for bind in command.binds]
    if command.menu is not None:
        actions.append(command.menu_action)
    for action in actions:
        target = TicTacToeApp if command.on != "game" or action.startswith("app.") else GameScreen
        name = action.removeprefix("app.").split("(")[0]
        assert callable(getattr(target, f"action_{name}", None)), action


# -- made from the table: bindings, key bar, menu, help, --help -------------------------


def test_the_screen_and_the_app_bind_what_the_table_says() -> None:
    made = {"game": GameScreen.BINDINGS, "app": TicTacToeApp.BINDINGS}
    assert made == {"game": bindings("game"), "app": bindings("app")}
    assert {command.on for command in COMMANDS} == {"game", "app", "textual"}


async def test_every_key_of_the_table_is_bound_to_its_action_on_the_game() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5", "q")  # mid-round: `q` asks, and `y` answers
        assert app.quit_asked
        active = app.game.active_bindings
        table = {key: b.action for c in COMMANDS for b in c.binds for key in b.keys.split(",")}
        for key, action in table.items():
            assert key in active and active[key].binding.action == action, key
            assert active[key].enabled, key
        # ... and the game's own priority keys are all in the table.
        priority = {key for key, each in active.items() if each.binding.priority}
        assert priority == set(table)


async def test_the_key_bar_shows_the_table_on_3x3_and_on_4x4() -> None:
    for board, digits in (("3", True), ("4", False)):
        app = make_app(record=False, board=board)
        async with app.run_test(size=(160, 24)) as pilot:
            await settle(pilot)
            for analysis in (False, True):
                hints = app.game.key_bar.hints
                commands = bar_commands(int(board))
                states = {"show_analysis": analysis}
                assert [(h.keys, h.label, h.press) for h in hints] == [
                    (c.bar, c.bar_label(states), c.press) for c in commands
                ]
                (line,) = app.game.key_bar.lines(160)
                assert line == "  ".join(f"{c.bar} {c.bar_label(states)}" for c in commands)
                await press(pilot, "a")
        shown = "1-9 Play" if digits else "Enter Play"
        assert shown in line and ("Enter Play" if digits else "1-9 Play") not in line


def menu_lines(app: TicTacToeApp) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_menu_lists_the_tables_commands_over_the_game_and_over_the_help() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        for over_game in (True, False):
            if not over_game:  # the same over the help, with the app's commands only
                await pilot.press("question_mark")
                assert type(app.screen).__name__ == "HelpScreen"
            await pilot.press("ctrl+p")
            await pilot.pause()
            lines = menu_lines(app)
            commands = menu_commands(over_game)
            assert len(lines) == len(commands)
            for line, command in zip(lines, commands, strict=True):
                assert line.split()[:1] == [command.keys], line
                assert f"{command.name} " in line and line.endswith(command.menu_help({}))
            await pilot.press("escape")


def _screen(name: str) -> Callable[[TicTacToeApp], bool]:
    return lambda app: type(app.screen).__name__ == name


MENU_RESULTS: dict[str, Callable[[TicTacToeApp], bool]] = {
    "Reset": lambda app: app.controller.round == 2,
    "New game": _screen("NewGameScreen"),
    "Take back": lambda app: app.controller.board.to_string() == ".........",
    "Hint": lambda app: app.controller.teacher.hinted is not None,
    # Mid-round: it says when (the review itself: tests/ui/test_review_screen.py).
    "Review": lambda app: "once it is over" in str(app.game.status.note),
    "Analysis": lambda app: app.game.show_analysis,
    "Predict": _screen("PredictScreen"),
    # 3x3: the overlay says it all; `w` says so (its pairs are 6x6's: tests/ui/test_why.py).
    "Why": lambda app: "analysis (a) says it all" in str(app.game.status.note),
    "AI info": lambda app: app.game.show_info,
    "Explore": _screen("ExplorerScreen"),
    "Stats": _screen("StatsScreen"),
    "Help": _screen("HelpScreen"),
    "Theme": _screen("ThemeMenu"),
    "Keys": lambda app: bool(app.screen.query("HelpPanel")),
    "Quit": lambda app: app.quit_asked,  # mid-round: it asks first
}
"""What each menu command visibly does, after the move 5 and the AI's reply."""


def test_every_menu_command_has_a_check() -> None:
    assert [command.name for command in menu_commands(over_game=True)] == list(MENU_RESULTS)


@pytest.mark.parametrize("command", menu_commands(over_game=True), ids=lambda c: c.name)
async def test_each_menu_command_runs_by_its_key(command: Command) -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "5")
        await pilot.press("ctrl+p")
        await pilot.press(PILOT_KEYS.get(command.keys, command.keys))
        await settle(pilot)
        assert MENU_RESULTS[command.name](app), command.name


async def test_a_game_command_from_the_menu_like_its_key_waits_for_room() -> None:
    """The menu runs a command's action as its key does (`App.run_action`, so through
    `check_action`): while the game is hidden for want of room, neither changes it unseen."""
    app = make_app(record=False)
    async with app.run_test(size=(40, 12)) as pilot:
        await press(pilot, "5")
        assert app.game.has_class("-too-small") and app.controller.round == 1
        await pilot.press("ctrl+p", "r")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen" and app.controller.round == 1
        await pilot.resize_terminal(*SIZE)
        await pilot.press("ctrl+p", "r")
        await settle(pilot)
        assert app.controller.round == 2


async def test_the_menus_keys_entry_says_whether_the_keys_are_shown() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        for shown in (False, True, False):
            await pilot.press("ctrl+p")
            await pilot.pause()
            keys = next(line for line in menu_lines(app) if line.split()[:2] == ["k", "Keys"])
            assert keys.endswith("Hide the keys panel" if shown else "Show every key")
            await pilot.press("k")
            await pilot.pause()
            assert bool(app.screen.query("HelpPanel")) is not shown


def test_help_md_holds_the_mark_and_no_key_list_of_its_own() -> None:
    source = HELP_PATH.read_text(encoding="utf-8")
    assert source.count(KEY_LIST_MARK) == 1
    assert not [line for line in source.splitlines() if line.startswith("|")]


async def test_the_help_screen_lists_every_key_of_the_table() -> None:
    app = make_app(record=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        (markdown,) = [
            static.content for static in app.screen.query("#help Static").results(Static)
        ]
        assert isinstance(markdown, Markdown)
        assert markdown.markup == help_text()
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(markdown)
        shown = [" ".join(line.split()) for line in console.export_text().splitlines()]
        rows = [f"{command.keys} {command.help}" for command in listed()]
        assert [line for line in shown if line in rows] == rows  # all, in the table's order


def test_the_command_lines_help_lists_the_keys_of_the_table() -> None:
    epilog = " ".join(build_parser().format_help().split())
    for command in listed():
        assert f"{command.keys} {command.brief}" in epilog


def test_the_command_lines_help_reads_the_table_without_importing_textual() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tui_tictactoe", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert f"{QUIT.keys} {QUIT.brief}" in " ".join(result.stdout.split())
    imported = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()]
    assert "tui_tictactoe.ui.key_table" in imported
    assert not [name for name in imported if name.split(".")[0] in ("textual", "rich")]


def test_the_browser_s_help_names_no_flags_and_a_quit_beside_ctrl_q() -> None:
    """serve-web's visitor has no command line, and a browser may keep Ctrl+Q (issue 40)."""
    text = help_text(browser=True)
    assert re.search(r"`--\w", text) is None, re.findall(r"`--[^`]*`", text)
    [row] = [line for line in text.splitlines() if line.startswith("| Ctrl+Q |")]
    assert "**q**" in row and "browser" in row
    assert "`--board 4`" in help_text()  # the terminal's help keeps them
