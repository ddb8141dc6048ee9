"""`serve-web`: the game in a browser, through textual-serve."""
