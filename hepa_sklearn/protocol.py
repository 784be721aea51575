"""Deprecated: the paper's reference C-MAPSS protocol is :mod:`hepa_sklearn.cmapss_protocol`.

Every name of that module is still read from here, with a ``FutureWarning``
naming its new module; ``hepa_sklearn.protocol`` was deprecated in 0.3.0 and
is removed in 0.5.0.
"""

import warnings

from . import cmapss_protocol

__all__ = list(cmapss_protocol.__all__)


def __getattr__(name):
    """``name`` of :mod:`hepa_sklearn.cmapss_protocol`, with a ``FutureWarning`` naming that module."""
    if name.startswith("__") or not hasattr(cmapss_protocol, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"hepa_sklearn.protocol is deprecated in 0.3.0 and will be removed in 0.5.0: import {name} from "
        f"hepa_sklearn.cmapss_protocol (from hepa_sklearn.cmapss_protocol import {name}).",
        FutureWarning,
        stacklevel=2,
    )
    return getattr(cmapss_protocol, name)


def __dir__():
    return sorted(__all__)
