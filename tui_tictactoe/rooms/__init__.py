"""Rooms: two people (and spectators) on one board, over `serve-ssh`.

A room's one source of truth is a hub (`hub.RoomHub`): its board, seats, turn and
generation. Sessions (each its own game process) talk to it and show what it says;
nothing a session shows is decided by the session alone. Above the controller (a room
game is played by its seats and turns), below the UI; no Textual, no network library.
"""
