import sys

from ck_tile_nox.cli import main

sys.exit(main())
