"""The rooms' screens: the lobby, the quick match's wait, a room, a refused entry, and
their keys and setting (a session started with a room hub)."""
