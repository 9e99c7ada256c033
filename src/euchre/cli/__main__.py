"""``python -m euchre.cli``: the same as the ``euchre`` command."""

import sys

from . import main

sys.exit(main())
