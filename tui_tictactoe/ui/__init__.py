"""The Textual user interface: `app.TicTacToeApp` and the screens and widgets it is made of.

Nothing is imported here: the command line reads the command table (`commands`)
for `--help` without importing Textual.
"""
