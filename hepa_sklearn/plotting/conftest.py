"""Skip the doctests of the displays when matplotlib, an optional dependency, is not installed."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("matplotlib") else ["*.py"]
