"""The quick match's pairing rule (`rooms.matching.pairs`), a pure function: checked
exhaustively over small queues and by hypothesis over larger ones."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_tictactoe.rooms.matching import Waiter, may_pair, pairs, seats, window


def check(waiting: list[Waiter], now: float) -> None:
    """What every answer of the rule must be."""
    made = pairs(waiting, now)
    placed = [w.place for pair in made for w in pair]
    assert len(placed) == len(set(placed)), "a place paired twice"
    for x, o in made:
        assert may_pair(x, o, now)
        assert x.size == o.size
        assert x.rating <= o.rating, "the lower rating plays X"
    left = [w for w in waiting if w.place not in placed]
    for a, b in itertools.combinations(left, 2):
        assert not may_pair(a, b, now), f"{a} and {b} could have paired"
    oldest = min(waiting, key=lambda w: (w.since, w.place), default=None)
    if oldest is not None and oldest.place in placed:
        partner = next(p for pair in made for p in pair if oldest in pair and p != oldest)
        others = [w for w in waiting if may_pair(oldest, w, now)]
        nearest = min(abs(w.rating - oldest.rating) for w in others)
        assert abs(partner.rating - oldest.rating) == nearest, "the oldest takes the nearest"


def test_the_window_widens_by_50_every_5_seconds() -> None:
    assert [window(t) for t in (0, 4.9, 5, 9.99, 10, 60)] == [100, 100, 150, 150, 200, 700]
    assert window(-3) == 100  # a clock that went back widens nothing


def test_near_ratings_pair_first_and_far_ones_wait_for_the_window() -> None:
    a, b, c = Waiter("a", 3, 1200, 0), Waiter("b", 3, 1500, 1), Waiter("c", 3, 1260, 2)
    assert pairs([a, b, c], 2) == [(a, c)]
    assert pairs([a, b], 2) == []  # 300 apart: not at once
    assert pairs([a, b], 30) == [(a, b)]  # the window of the longer wait: 100 + 6 * 50


def test_boards_never_mix_and_x_is_the_lower_rating() -> None:
    a, b = Waiter("a", 3, 1300, 0), Waiter("b", 4, 1300, 0)
    assert pairs([a, b], 0) == []
    c = Waiter("c", 4, 1250, 1)
    assert pairs([a, b, c], 1) == [(c, b)]
    assert seats(b, c) == (c, b)


def test_every_small_queue_exhaustively() -> None:
    """Every queue of up to 4 places over 2 boards, 3 ratings, 2 join times, 3 moments."""
    kinds = list(itertools.product((3, 4), (1200, 1290, 1400), (0.0, 4.0)))
    for n in range(5):
        for chosen in itertools.product(kinds, repeat=n):
            waiting = [Waiter(f"p{i}", *kind) for i, kind in enumerate(chosen)]
            for now in (4.0, 9.0, 20.0):
                check(waiting, now)


def test_one_address_never_pairs_with_itself() -> None:
    """Two sessions (or keys) of one address wait apart; "" (no address known) is nobody's."""
    a, b = Waiter("a", 3, 1200, 0, "10.6.6.6"), Waiter("b", 3, 1200, 1, "10.6.6.6")
    assert pairs([a, b], 60) == []
    c = Waiter("c", 3, 1200, 2, "10.0.0.3")
    assert pairs([a, b, c], 2) == [(a, c)]
    assert may_pair(Waiter("d", 3, 1200, 0), Waiter("e", 3, 1200, 0), 0)


waiters = st.lists(
    st.tuples(
        st.sampled_from((3, 4, 5)),
        st.integers(800, 1800),
        st.floats(0, 100, allow_nan=False),
        st.sampled_from(("", "10.0.0.1", "10.0.0.2", "2001:db8::/64")),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(waiters, st.floats(0, 200, allow_nan=False))
def test_any_queue_by_hypothesis(rows: list[tuple[int, int, float, str]], later: float) -> None:
    waiting = [Waiter(f"p{i}", *row) for i, row in enumerate(rows)]
    for x, o in pairs(waiting, 1000.0):
        assert not x.address or x.address != o.address, "one address paired with itself"
    check(waiting, max((w.since for w in waiting), default=0.0) + later)
