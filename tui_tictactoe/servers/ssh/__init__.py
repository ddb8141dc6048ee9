"""`serve-ssh`: the game over SSH, a game process per session."""
