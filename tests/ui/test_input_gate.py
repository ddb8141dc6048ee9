"""The input gate's rules (`ui/input_gate.py`) and the server's byte budget
(`servers/input_budget.py`), on a clock of the test's own.

The events are what Textual's own parser (`XTermParser`, the one the Linux and web
drivers feed) makes of the bytes a terminal sends; the app's wiring is checked on a
real driver class. Timing targets are the benchmark's (`benchmarks/bench_flood.py`).
"""

from __future__ import annotations

import gc

from textual import events
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size

from tui_tictactoe.servers.input_budget import InputBudget
from tui_tictactoe.ui.app import TicTacToeApp
from tui_tictactoe.ui.input_gate import InputGate, Kind, gated, kind_of

ARROW = "\x1b[C"
MOVE = "\x1b[<35;10;5M"  # an SGR mouse move (no button) at column 10, row 5
CTRL_Q = "\x11"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def parsed(data: str) -> list[events.Event]:
    """What the drivers' parser makes of `data` (and of the quiet after it)."""
    parser = XTermParser()
    return [*parser.feed(data), *parser.tick()]  # type: ignore[list-item]


def fed(gate: InputGate, data: str, held: list[events.Event]) -> int:
    """Ask the gate about every event parsed from `data`, as the driver's thread does;
    the admitted ones are kept in `held` (as a queue holds them). How many passed."""
    passed = 0
    for event in parsed(data):
        if gate.admit(kind_of(event), event):
            held.append(event)
            passed += 1
    return passed


def test_the_parser_makes_the_kinds_the_gate_tells_apart() -> None:
    kinds = [kind_of(event) for event in parsed(ARROW + MOVE + CTRL_Q + "\x1b[<0;3;4M")]
    assert kinds == [Kind.INPUT, Kind.MOVE, Kind.ALWAYS, Kind.INPUT]
    assert kind_of(events.Resize(Size(80, 24), Size(80, 24))) is Kind.ALWAYS


def test_a_burst_passes_then_the_rate_holds() -> None:
    clock, held = Clock(), list[events.Event]()
    gate = InputGate(rate=60, burst=200, backlog=10_000, clock=clock)
    assert fed(gate, ARROW * 500, held) == 200  # the burst, then nothing more at once
    assert gate.dropped == 300
    clock.now += 1.0
    assert fed(gate, ARROW * 500, held) == 60  # a second later: a second's worth
    clock.now += 10.0
    assert fed(gate, ARROW * 100, held) == 100  # refilled, never above the burst


def test_a_backlog_of_unhandled_events_stops_input_until_they_are_freed() -> None:
    clock, held = Clock(), list[events.Event]()
    gate = InputGate(rate=1e9, burst=10**9, backlog=256, clock=clock)
    assert fed(gate, ARROW * 1000, held) == 256
    assert gate.waiting == 256
    clock.now += 60.0
    assert fed(gate, ARROW, held) == 0  # time alone does not help: the app is behind
    del held[:128]  # the app handled (freed) half of them
    gc.collect()
    assert gate.waiting == 128
    assert fed(gate, ARROW * 1000, held) == 128


def test_ctrl_q_and_resizes_always_pass() -> None:
    clock, held = Clock(), list[events.Event]()
    gate = InputGate(rate=60, burst=10, backlog=10, clock=clock)
    fed(gate, ARROW * 100, held)
    assert fed(gate, ARROW, held) == 0
    assert fed(gate, CTRL_Q, held) == 1
    assert gate.admit(kind_of(events.Resize(Size(9, 9), Size(9, 9))))


def test_mouse_moves_are_dropped_first() -> None:
    clock, held = Clock(), list[events.Event]()
    gate = InputGate(rate=60, burst=200, backlog=256, clock=clock)
    assert fed(gate, ARROW * 100, held) == 100  # half the burst is spent
    assert fed(gate, MOVE, held) == 0  # a move now waits for a quieter moment
    assert fed(gate, ARROW, held) == 1  # a key still passes
    held.clear()
    gc.collect()
    clock.now += 10.0
    assert fed(gate, MOVE * 150, held) == 100  # moves stop at half the burst
    assert fed(gate, ARROW * 150, held) == 100  # the rest is the keys'


def test_the_app_gates_the_driver_textual_picks() -> None:
    app = TicTacToeApp(record=False)
    assert issubclass(app.driver_class, LinuxDriver)
    assert app.driver_class.input_gate is app.input_gate  # type: ignore[attr-defined]
    assert gated(WebDriver, app.input_gate).__name__ == "GatedWebDriver"


def test_the_byte_budget_drops_whole_writes_but_keeps_ctrl_q() -> None:
    clock = Clock()
    budget = InputBudget(rate=4096, burst=65536, clock=clock)
    chunk = ARROW.encode() * 1000  # 3,000 bytes
    passed = sum(len(budget.take(chunk)) for _ in range(30))
    assert passed == 21 * 3000  # whole writes while the burst lasts
    assert budget.take(chunk + b"\x11") == b"\x11"
    assert budget.take(b"\x1b[113;5u" + chunk) == b"\x1b[113;5u"
    line = budget.report()
    assert line is not None and "bytes a second" in line
    clock.now += 10
    budget.take(chunk * 30)
    assert budget.report() is None  # once a minute
    clock.now += 60
    assert budget.report() is not None
    assert budget.report(final=True) is None  # nothing new
    budget.take(chunk * 30)
    assert budget.report(final=True) is not None


async def test_events_the_app_has_handled_are_freed_so_the_backlog_empties() -> None:
    """The backlog counts an event until it is freed: a Textual that kept handled
    events alive would, after BACKLOG of them, shut all input out. Keys that open and
    close screens, play, and start rounds, through the real app (posted as the driver
    posts them)."""
    app = TicTacToeApp(record=False)
    keys = ["right", "down", "a", "a", "i", "i", "question_mark", "question_mark", "5", "r"]
    keys += ["s", "escape", "ctrl+p", "escape", "h", "left", "up"]
    async with app.run_test() as pilot:
        await pilot.pause()
        gate = app.input_gate
        gate.tokens = gate.burst = 10**6
        for _ in range(5):
            for key in keys:
                event = events.Key(key, None)
                assert gate.admit(kind_of(event), event)
                app.post_message(event)
            del event
            await pilot.pause(0.2)
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
        assert gate.admitted == 5 * len(keys)
        assert gate.waiting <= 1  # at most one in hand (none once idle, in every trial)
