"""What a serve-web tab's address asks of the rooms (`servers.web.rooms`): read as the same
play options serve-ssh reads, hostile values refused in one line; the seat a game says it
holds, checked before a tab hears of it; the line of secrets a room's game reads first."""

from __future__ import annotations

import json

import pytest
from hostile import HOSTILE

from tui_tictactoe.rooms.request import ROOM_URL_ENV, SEAT_META, RoomAddress, room_address
from tui_tictactoe.servers.web.guard import Refusal
from tui_tictactoe.servers.web.rooms import (
    AI_GAME,
    CLOSE_BAD_ADDRESS,
    GameStart,
    game_start,
    seat_message,
    seat_token,
    secrets_line,
)


@pytest.mark.parametrize(
    ("query", "args", "kind"),
    [
        ({}, ("play",), "ai"),
        ({"width": "80", "height": "24"}, ("play",), "ai"),
        ({"lobby": ""}, ("play",), "lobby"),
        ({"room": "new"}, ("play", "--room", "new"), "room_player"),
        (
            {"room": "new", "board": "4", "public": "1"},
            ("play", "--board", "4", "--room", "new", "--public"),
            "room_player",
        ),
        ({"join": "abcd"}, ("play", "--join", "ABCD"), "room_player"),
        ({"watch": "ABCD"}, ("play", "--watch", "ABCD"), "spectator"),
        ({"match": ""}, ("play", "--match"), "match"),
        ({"match": "1", "board": "5"}, ("play", "--board", "5", "--match"), "match"),
    ],
)
def test_the_pages_parameters_are_the_play_options_of_serve_ssh(
    query: dict[str, str], args: tuple[str, ...], kind: str
) -> None:
    start = game_start(query, rooms=True)
    assert isinstance(start, GameStart)
    assert sorted(start.args) == sorted(args) and start.args[0] == "play"
    assert start.kind == kind and start.rooms == (args != ("play",) or "lobby" in query)
    assert not start.token_follows


def test_a_seat_token_follows_only_a_join() -> None:
    assert game_start({"join": "ABCD", "seat": "1"}, rooms=True) == GameStart(
        ("play", "--join", "ABCD"), True, True, "room_player"
    )
    start = game_start({"watch": "ABCD", "seat": "1"}, rooms=True)
    assert isinstance(start, GameStart) and not start.token_follows
    assert "--seat" not in str(game_start({"join": "ABCD", "seat": "x" * 20}, rooms=True))


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ({"join": "no!"}, "code"),
        ({"join": "ABCD", "watch": "ABCD"}, "not allowed with"),
        ({"room": "old"}, "invalid choice"),
        ({"room": "new", "first": "ai", "join": "ABCD"}, "not allowed with"),
        ({"match": "", "board": "9"}, "invalid choice"),
        ({"room": "new; rm -rf /"}, "invalid choice"),
        ({"join": "A" * 10_000}, "code"),
    ],
)
def test_a_bad_parameter_is_refused_in_one_line(query: dict[str, str], said: str) -> None:
    refusal = game_start(query, rooms=True)
    assert isinstance(refusal, Refusal), refusal
    assert refusal.code == CLOSE_BAD_ADDRESS and refusal.status == 400
    assert said in refusal.reason.lower() and "\n" not in refusal.reason
    assert len(refusal.reason) <= 120 and "--" not in refusal.reason


@pytest.mark.parametrize(("name", "_shown"), HOSTILE)
def test_hostile_values_never_reach_a_command_line(name: str, _shown: str | None) -> None:
    for key in ("join", "watch", "room", "board"):
        start = game_start({key: name}, rooms=True)
        if isinstance(start, GameStart):  # a value argparse took: checked, canonical
            assert all(arg.isprintable() and len(arg) <= 40 for arg in start.args)


def test_rooms_asked_of_a_server_without_them_are_refused() -> None:
    assert game_start({}, rooms=False) is AI_GAME
    refusal = game_start({"lobby": ""}, rooms=False)
    assert isinstance(refusal, Refusal) and "no rooms" in refusal.reason


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ('["seat", "abcDEF0123456789"]', "abcDEF0123456789"),
        ('["seat", ""]', ""),
        ('["seat", "a b"]', ""),
        ('["seat", "' + "a" * 33 + '"]', ""),
        ('["stdin", "x"]', ""),
        ('["seat"]', ""),
        ("not json", ""),
        ('["seat", "' + "a" * 100_000 + '"]', ""),
        (b'["seat", "abc"]', ""),
    ],
)
def test_the_pages_seat_token_is_checked(text: object, token: str) -> None:
    assert seat_token(text) == token


def test_the_line_of_secrets_holds_no_space_nor_newline_of_its_own() -> None:
    assert secrets_line("203.0.113.7", "abc") == b"203.0.113.7 abc\n"
    assert secrets_line("2001:db8::/64", "") == b"2001:db8::/64 \n"
    assert secrets_line("a b\nc", "x y") == b"abc \n"
    assert secrets_line("", "abc") == b"? abc\n"


@pytest.mark.parametrize(
    ("meta", "told"),
    [
        (
            {"type": SEAT_META, "code": "ABCD", "token": "t0k3n"},
            ["seat", {"code": "ABCD", "token": "t0k3n"}],
        ),
        ({"type": SEAT_META, "code": "", "token": ""}, ["seat", {"code": "", "token": ""}]),
        ({"type": SEAT_META, "code": "AB CD", "token": "t"}, None),
        ({"type": SEAT_META, "code": "ABCD", "token": "<script>"}, None),
        ({"type": SEAT_META, "code": 7, "token": "t"}, None),
        ({"type": SEAT_META, "code": "ABCD"}, None),
        ({"type": "open_url", "url": "http://x"}, None),
    ],
)
def test_a_games_seat_message_is_checked_before_the_tab_hears_it(
    meta: dict[str, object], told: object
) -> None:
    said = seat_message(meta)
    assert (json.loads(said) if said is not None else None) == told


def test_a_room_names_the_page_for_a_friend_under_serve_web() -> None:
    address = room_address({ROOM_URL_ENV: "https://ttt.example.org/"})
    assert address == RoomAddress(url="https://ttt.example.org")
    assert address.command("--join ABCD") == "https://ttt.example.org/?join=ABCD"
    assert address.command("--watch ABCD") == "https://ttt.example.org/?watch=ABCD"
    for bad in ("javascript:alert(1)", "http://x/<b>", "ftp://x", "http://" + "x" * 300):
        assert room_address({ROOM_URL_ENV: bad}).url == "", bad
    ssh = room_address({"TUI_TICTACTOE_ROOM_ADDRESS": "example.org 2222"})
    assert ssh.command("--join ABCD") == "ssh -t -p 2222 example.org -- --join ABCD"
