"""Hosting the game for others: `serve-ssh` (one game process per SSH session) and `serve-web`.

The servers sit beside the command line: they start the game as its own process,
never import the UI, and are imported only when a `serve-*` command runs.
"""
