"""`python -m tui_tictactoe` runs the same command line as `tui-tictactoe`."""

import sys

from .cli import main

sys.exit(main())
