"""``python -m tabletop_widgets``: the ``tabletop-widgets`` command (see :mod:`tabletop_widgets.cli`)."""

import sys

from .cli import main

sys.exit(main())
