"""``python -m hepa_bench``: the ``hepa-bench`` command."""

import sys

from .cli import main

sys.exit(main())
