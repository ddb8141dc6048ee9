"""The game screen and the screens pushed over it (help, new-game options)."""
