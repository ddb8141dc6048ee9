"""`python -m tui_tictactoe` runs the same command line as `tui-tictactoe`."""

import sys

from tui_tictactoe.cli import main

sys.exit(main())
