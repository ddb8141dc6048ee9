"""What each command does, apart from the parser that picks it (`cli`).

Below the servers: `serve-ssh` reads a client's options with `play_arguments` and runs a
game with `play`, without importing the command line's entry point.
"""
