"""`serve-ssh --config FILE` and `serve-web --config FILE`: every option from a TOML file, the
command line over it, `--print-config` showing what is in force; a bad file is one line and
exit status 2, before anything starts. A real serve-ssh started from a file obeys it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pty_terminal import command
from test_serve_ssh import connect, open_game, play
from test_serve_ssh_hosts import listening_port, processes, serve_ssh

from tui_tictactoe.cli import build_parser
from tui_tictactoe.rooms.postgres.link import POOL_SIZE
from tui_tictactoe.servers.arguments import DATABASE_CONNECTIONS
from tui_tictactoe.servers.config import CONFIG_LIMIT

__all__ = ["processes"]  # the fixture, used below

SERVERS = ("serve-ssh", "serve-web")


def run(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), *words], capture_output=True, text=True, timeout=60, check=False
    )


def long_options(server: str) -> set[str]:
    """Every long option of a server command, from its parser."""
    names = {
        name[2:]
        for action in build_parser().servers[server]._actions
        for name in action.option_strings[:2]
        if name.startswith("--")
    }
    return names - {"help", "config", "print-config"}


def printed(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert result.returncode == 0, result.stderr
    settings = {}
    for line in result.stdout.splitlines():
        key, _, value = line.removeprefix("# ").partition(" = ")
        settings[key] = value if not line.startswith("#") else "unset"
    return settings


@pytest.mark.parametrize("server", SERVERS)
def test_print_config_names_every_option_and_reads_back_the_same(
    server: str, tmp_path: Path
) -> None:
    shown = run(server, "--print-config")
    assert set(printed(shown)) == long_options(server)  # a new option is covered by itself
    again = tmp_path / "again.toml"
    again.write_text(shown.stdout.replace("# ", "#"), encoding="utf-8")
    assert run(server, "--config", str(again), "--print-config").stdout == shown.stdout


def test_print_config_shows_the_database_connections_in_force() -> None:
    """--help says 4; --print-config said "(not set)" (issue 36), and the hub's pool is 4."""
    settings = printed(run("serve-ssh", "--print-config"))
    assert settings["database-connections"] == str(POOL_SIZE) == str(DATABASE_CONNECTIONS)
    assert f"(default {POOL_SIZE})" in " ".join(run("serve-ssh", "--help").stdout.split())


def test_the_file_sets_options_and_the_command_line_wins(tmp_path: Path) -> None:
    config = tmp_path / "ttt.toml"
    config.write_text(
        "max-sessions = 32\n"
        "max-per-address = 2\n"
        "no-rooms = true\n"
        "idle-timeout = 90\n"
        'proxy-protocol-from = ["10.0.0.0/8", "fd00::/8"]\n'
        'public-address = "[2001:db8::1]:22"\n'
        'database-url = "postgresql://ttt:s3cret@db.internal/world"\n',
        encoding="utf-8",
    )
    shown = run("serve-ssh", "--config", str(config), "--max-sessions", "40", "--print-config")
    settings = printed(shown)
    assert settings["max-sessions"] == "40"  # the command line over the file
    assert settings["max-per-address"] == "2"
    assert settings["no-rooms"] == "true"
    assert settings["idle-timeout"] == "90.0"
    assert settings["proxy-protocol-from"] == '["10.0.0.0/8", "fd00::/8"]'
    assert settings["public-address"] == '"[2001:db8::1]:22"'
    assert "s3cret" not in shown.stdout  # the password is not shown
    assert settings["database-url"] == '"postgresql://ttt:***@db.internal/world"'
    assert settings["port"] == "2222"  # a default


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("max-sesions = 3\n", "unknown setting 'max-sesions'"),
        ('port = "x"\n', "port: must be a whole number, not 'x'"),
        ("port = 70000\n", "port: must be from 0 to 65535, not 70000"),
        ("no-rooms = 1\n", "no-rooms: must be true or false"),
        ("max-sessions = true\n", "max-sessions: must be a value as on the command line"),
        ("[serve-ssh]\nport = 1\n", "unknown setting 'serve-ssh'"),
        ("port = \n", "not TOML: Invalid value (at line 1, column 8)"),
        ("port = 1\nport = 2\n", "not TOML"),
        ('proxy-protocol-from = ["10.0.0.1/8"]\n', "proxy-protocol-from: not a network"),
        ("\xff\n", "not UTF-8 text"),
        ("a = " + "[" * 2000 + "]" * 2000 + "\n", "nested too deep"),  # 3,002 lines of traceback
        ("a = " + "{b = " * 2000 + "1" + "}" * 2000 + "\n", "nested too deep"),
        ('host = "a\\u0000b"\n', "host: holds a NUL character"),  # was a ValueError at bind
        ('host-key = "k\\u0000"\n', "host-key: holds a NUL character"),
        ('proxy-protocol-from = [["10.0.0.0/8"]]\n', "must be a value as on the command line"),
        ("#" * (CONFIG_LIMIT + 1), f"larger than {CONFIG_LIMIT // 1024} KiB"),
    ],
    ids=lambda value: value[:20],
)
def test_a_bad_file_is_one_line_and_status_2(text: str, said: str, tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_bytes(text.encode("latin-1"))
    result = run("serve-ssh", "--config", str(config))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"tui-tictactoe serve-ssh: {config}: ")
    assert said in result.stderr


def test_a_missing_file_is_one_line_and_status_2(tmp_path: Path) -> None:
    result = run("serve-web", "--config", str(tmp_path / "none.toml"))
    assert result.returncode == 2
    assert re.fullmatch(
        r"tui-tictactoe serve-web: \S+none\.toml: cannot read it \(.*\)\n", result.stderr
    )


async def test_a_server_started_from_a_file_obeys_it(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    config = tmp_path / "ttt.toml"
    config.write_text("max-sessions = 1\nno-rooms = true\nport = 0\n", encoding="utf-8")
    server = serve_ssh(["--config", str(config)], tmp_path)
    processes.append(server)
    port, _ = await listening_port(server)
    first = await play(port)  # no-rooms: straight into a game against the AI
    assert "New room" not in first.text  # no lobby
    second = await open_game(await connect(port, local="127.0.0.2"))
    assert await second.wait_closed() == 1
    assert "the server is full (1 games at once)" in second.stderr.decode()
