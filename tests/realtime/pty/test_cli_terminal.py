"""The command line at the terminal's edge: the real installed command, real ptys and pipes.

Before the game starts, `tui-tictactoe` checks that it has a terminal it can
draw in: stdin, stdout and stderr all ttys, a TERM that is not `dumb` or empty,
and a UTF-8 output encoding. Otherwise it prints one line on stderr and exits 2
(instead of spinning at 100% CPU on `</dev/null`, or drawing escape codes or
`\\u2502` text). `analyse` piped into `head` stops quietly. Each test has a
deadline: a regression fails the test, it never hangs the suite.
"""

from __future__ import annotations

import os
import re
import selectors
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

DEADLINE = 10.0  # seconds: a refusal takes ~0.1 s; the game's first frame well under this
ROWS, COLS = 24, 80
BOX = re.compile("[│┃║╭┌┏╔─━]".encode())  # any border character, as UTF-8 bytes
NEEDS_TERMINAL = "tui-tictactoe: the game needs a terminal: "
OVER_SSH = " (over SSH use ssh -t)"

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX terminals and shells")


def command() -> list[str]:
    """The installed console script, else the module through this interpreter."""
    beside = os.path.join(os.path.dirname(sys.executable), "tui-tictactoe")
    found = beside if os.path.exists(beside) else shutil.which("tui-tictactoe")
    return [found] if found else [sys.executable, "-m", "tui_tictactoe"]


def shell_words() -> str:
    """`command()` quoted for /bin/sh."""
    return " ".join("'" + word.replace("'", "'\\''") + "'" for word in command())


def good_env(**changes: str | None) -> dict[str, str]:
    """A terminal the game accepts (xterm, UTF-8), then `changes` (None removes a variable)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8", CI="true")
    for name in ("PYTHONIOENCODING", "COLORTERM", "NO_COLOR", "PYTHONWARNINGS", "LOCPATH"):
        env.pop(name, None)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def in_pty(argv: list[str], env: dict[str, str]) -> tuple[int | None, bytes]:
    """Run `argv` in an 80x24 pty until it exits; its exit status and everything it wrote."""
    child: pexpect.spawn[bytes] = pexpect.spawn(argv[0], argv[1:], env=env, dimensions=(ROWS, COLS))
    child.delaybeforesend = None
    try:
        child.expect(pexpect.EOF, timeout=DEADLINE)
    except pexpect.TIMEOUT:
        output = child.before or b""
        child.terminate(force=True)
        pytest.fail(f"still running after {DEADLINE} s; it wrote {output[:500]!r}")
    output = child.before or b""
    child.close()
    return child.exitstatus, output


def in_pty_shell(script: str, env: dict[str, str]) -> tuple[int | None, bytes]:
    """`script` run by /bin/sh in a pty; `$TTT` is the command."""
    return in_pty(["/bin/sh", "-c", script.replace("$TTT", shell_words())], env)


def assert_refused(status: int | None, output: bytes, *needles: str) -> str:
    """Exit 2, exactly one line, no escape codes: the line."""
    text = output.decode("utf-8", "replace").replace("\r\n", "\n")
    assert status == 2, text
    assert b"\x1b" not in output, output[:300]
    assert text.endswith("\n") and text.count("\n") == 1, text
    for needle in needles:
        assert needle in text, text
    return text.rstrip("\n")


# -- A. no terminal ---------------------------------------------------------------


@pytest.mark.parametrize("args", [[], ["play"], ["--difficulty", "easy", "play", "--seed", "3"]])
def test_no_terminal_at_all_exits_2_at_once(args: list[str]) -> None:
    # What `ssh host tui-tictactoe` (no -t) and a cron job look like: pipes and /dev/null.
    started = time.monotonic()
    result = subprocess.run(
        [*command(), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=good_env(),
        timeout=DEADLINE,
        check=False,
    )
    assert time.monotonic() - started < DEADLINE
    assert result.returncode == 2
    assert result.stdout == b""
    assert (
        result.stderr
        == (
            f"{NEEDS_TERMINAL}standard input, standard output and standard error are not terminals"
            f"{OVER_SSH}\n"
        ).encode()
    )


def test_stdin_from_dev_null_in_a_terminal() -> None:
    status, output = in_pty_shell("exec $TTT </dev/null", good_env())
    line = assert_refused(status, output)
    assert line == f"{NEEDS_TERMINAL}standard input is not a terminal{OVER_SSH}"


def test_stdin_from_a_pipe_that_ends() -> None:
    # `ssh host tui-tictactoe` without -t feeds stdin from the connection.
    status, output = in_pty_shell("printf 'q\\n' | $TTT; echo \"rc=$?\"", good_env())
    text = output.decode().replace("\r\n", "\n")
    assert text == f"{NEEDS_TERMINAL}standard input is not a terminal{OVER_SSH}\nrc=2\n"
    assert status == 0


def test_stdout_to_a_pipe() -> None:
    status, output = in_pty_shell('{ $TTT; echo "rc=$?" >&2; } | cat', good_env())
    text = output.decode().replace("\r\n", "\n")
    assert text == f"{NEEDS_TERMINAL}standard output is not a terminal{OVER_SSH}\nrc=2\n"
    assert status == 0


def test_stdout_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    status, output = in_pty_shell(f"exec $TTT >'{out}'", good_env())
    line = assert_refused(status, output)
    assert line == f"{NEEDS_TERMINAL}standard output is not a terminal{OVER_SSH}"
    assert out.read_bytes() == b""


def test_stderr_to_dev_null_draws_nothing() -> None:
    # Textual draws on stderr: without it the game would run on a blank screen.
    status, output = in_pty_shell('$TTT 2>/dev/null; echo "rc=$?"', good_env())
    assert output.replace(b"\r\n", b"\n") == b"rc=2\n"
    assert status == 0


def test_refusing_imports_no_textual() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tui_tictactoe"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=good_env(),
        timeout=DEADLINE,
        check=False,
    )
    assert result.returncode == 2
    imported = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()]
    assert "tui_tictactoe.cli" in imported  # the listing is really there
    assert not [name for name in imported if name.split(".")[0] in ("textual", "rich")]
    assert result.stderr.splitlines()[-1].startswith(NEEDS_TERMINAL)


def test_help_version_and_analyse_need_no_terminal() -> None:
    for args in (["--help"], ["--version"], ["analyse", "X.O/.X./..O"]):
        result = subprocess.run(
            [*command(), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=good_env(TERM=None, PYTHONIOENCODING="ascii"),
            timeout=DEADLINE,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""


def test_textual_serve_pipes_are_not_refused() -> None:
    # textual-serve runs the app with stdin/stdout/stderr pipes and TEXTUAL_DRIVER set
    # to Textual's web driver, which starts by writing this line on stdout.
    env = good_env(TERM=None, TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver")
    child = subprocess.Popen(
        command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        assert child.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(child.stdout, selectors.EVENT_READ)
            assert selector.select(timeout=30), "no output from the app within 30 s"
        assert child.stdout.readline() == b"__GANGLION__\n"
    finally:
        child.kill()
        child.communicate(timeout=DEADLINE)


# -- B. unusual terminals -----------------------------------------------------------


@pytest.mark.parametrize(
    ("term", "needle"),
    [("dumb", "TERM is 'dumb'"), ("", "TERM is ''"), (None, "TERM is not set")],
)
def test_dumb_or_missing_term_is_refused_in_a_pty(term: str | None, needle: str) -> None:
    status, output = in_pty(command(), good_env(TERM=term))
    line = assert_refused(status, output, needle, "TERM=xterm-256color", "tui-tictactoe --plain")
    assert line.startswith("tui-tictactoe: the game needs a full-screen terminal, but ")


@pytest.fixture(scope="module")
def latin1_locale(tmp_path_factory: pytest.TempPathFactory) -> str:
    """LOCPATH of a freshly compiled en_US.ISO-8859-1 locale (a real non-UTF-8 locale)."""
    localedef = shutil.which("localedef")
    if localedef is None:
        pytest.skip("localedef is not installed")
    where = tmp_path_factory.mktemp("locales")
    made = subprocess.run(
        [localedef, "-i", "en_US", "-f", "ISO-8859-1", str(where / "en_US.ISO-8859-1")],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if not (where / "en_US.ISO-8859-1").exists():
        pytest.skip(f"cannot compile an ISO-8859-1 locale: {made.stderr[-200:]!r}")
    return str(where)


@pytest.mark.parametrize(
    ("changes", "encoding", "hint"),
    [
        ({"PYTHONIOENCODING": "ascii"}, "ascii", "PYTHONIOENCODING is 'ascii': unset it"),
        ({"PYTHONIOENCODING": "latin-1"}, "iso8859-1", "PYTHONIOENCODING is 'latin-1'"),
        (
            {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
            "ascii",
            "PYTHONIOENCODING is 'ascii'",
        ),
        ({"LANG": "en_US.ISO-8859-1", "LC_ALL": None}, "iso8859-1", "LANG=C.UTF-8"),
    ],
    ids=["pythonioencoding-ascii", "pythonioencoding-latin1", "c-locale-ascii", "latin1-locale"],
)
def test_an_output_encoding_other_than_utf8_is_refused_in_a_pty(
    request: pytest.FixtureRequest, changes: dict[str, str | None], encoding: str, hint: str
) -> None:
    env = good_env(**changes)
    if env.get("LANG") == "en_US.ISO-8859-1":
        env["LOCPATH"] = request.getfixturevalue("latin1_locale")
    status, output = in_pty(command(), env)
    line = assert_refused(status, output, hint)
    assert line.startswith(
        f"tui-tictactoe: the game needs a UTF-8 terminal, but the output encoding is {encoding} "
    )
    assert b"\\u25" not in output


def test_the_c_locale_still_plays_with_real_borders() -> None:
    # LANG=C/LC_ALL=C alone is not refused: Python runs in UTF-8 mode there (PEP 540),
    # so Textual's borders go out as UTF-8, not as `\u2502` text.
    env = good_env(LANG="C", LC_ALL="C")
    child: pexpect.spawn[bytes] = pexpect.spawn(
        command()[0], command()[1:], env=env, dimensions=(ROWS, COLS)
    )
    child.delaybeforesend = None
    try:
        child.expect(BOX, timeout=30)
        assert isinstance(child.before, bytes) and isinstance(child.after, bytes)
        seen = child.before + child.after
        assert b"\\u25" not in seen
        child.send("\x11")  # ctrl+q; how the game quits is not this test's business
        child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=DEADLINE)
    finally:
        child.terminate(force=True)


# -- D. a closed pipe ---------------------------------------------------------------


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for PIPESTATUS")
def test_analyse_into_a_closed_pipe_stops_quietly() -> None:
    # `| true` closes the pipe before anything is written (the error every time
    # without the fix); `| head` closes it after the first read (timing-dependent).
    script = r"""
    for i in 1 2 3 4 5 6 7; do
        $TTT analyse X.O/.X./..O | true; echo "status ${PIPESTATUS[0]}"
        $TTT analyse X.O/.X./..O | head -1; echo "status ${PIPESTATUS[0]}"
        $TTT analyse X.O/.X./..O --json | head -c 10; echo; echo "status ${PIPESTATUS[0]}"
    done
    $TTT --help | true; echo "status ${PIPESTATUS[0]}"
    """.replace("$TTT", shell_words())
    result = subprocess.run(
        ["bash", "-c", script],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=good_env(),
        timeout=60,
        check=False,
    )
    assert result.stderr == ""  # no traceback, no "Exception ignored ... BrokenPipeError"
    lines = result.stdout.splitlines()
    statuses = [line.split()[1] for line in lines if line.startswith("status ")]
    assert len(statuses) == 22
    assert set(statuses) <= {"0", "141"}, statuses  # 141: 128 + SIGPIPE, as shells report
    assert statuses[0] == "141"  # `| true`: the pipe was closed before the write
    assert lines.count("X . O") == 7
    assert lines.count('{"board": ') == 7
