"""``python -m binocle`` runs the command line."""

import sys

from binocle.cli import main

sys.exit(main())
