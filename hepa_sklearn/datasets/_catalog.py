"""The paper's defaults of each event benchmark read from a data home, looked up by the loader's name."""

from collections.abc import Callable
from dataclasses import dataclass

from . import _batadal, _beijing, _chbmit, _ettm1, _gecco, _mba, _psm, _smap, _tep, _vix, _weather
from ._event_dataset import EventDataset

__all__ = ["EventDatasetDefaults", "get_event_dataset"]


@dataclass(frozen=True)
class EventDatasetDefaults:
    """The paper's defaults of one event benchmark, and what describes its data.

    Returned by :func:`get_event_dataset`. The loader's own defaults are
    ``context_length``, ``stride`` and ``min_history``; ``K`` is the number of
    horizons the paper predicts on the dataset (§3.3: 150 for TEP, 200 for
    the others).

    Attributes
    ----------
    name : str
        The loader is ``load_<name>`` (``"smap"``, ``"ettm1"``, ...).
    loader : callable
        The dataset's ``load_*`` function.
    K : int
        Horizons ``1..K`` of the surface.
    context_length : int
        Steps per window.
    stride : int
        Steps between consecutive windows.
    min_history : int
        Least steps of a window's own unit before its end.
    directory : str
        Sub-directory of the data home that holds the files.
    spec : EventDataset
        How the files are read, labelled and split; :meth:`EventDataset.load`
        loads it with another split (``dataclasses.replace(spec, split=...)``).
    """

    name: str
    loader: Callable
    K: int
    context_length: int
    stride: int
    min_history: int
    directory: str
    spec: EventDataset


def _defaults(module, loader):
    return EventDatasetDefaults(
        name=module.SPEC.name,
        loader=loader,
        K=module.K,
        context_length=module.CONTEXT_LENGTH,
        stride=module.STRIDE,
        min_history=module.MIN_HISTORY,
        directory=module.DIRECTORY,
        spec=module.SPEC,
    )


_DATASETS = {
    item.name: item
    for item in (
        _defaults(_batadal, _batadal.load_batadal),
        _defaults(_beijing, _beijing.load_beijing),
        _defaults(_chbmit, _chbmit.load_chbmit),
        _defaults(_ettm1, _ettm1.load_ettm1),
        _defaults(_gecco, _gecco.load_gecco),
        _defaults(_mba, _mba.load_mba),
        _defaults(_psm, _psm.load_psm),
        _defaults(_smap, _smap.load_smap),
        _defaults(_tep, _tep.load_tep),
        _defaults(_vix, _vix.load_vix),
        _defaults(_weather, _weather.load_weather),
    )
}


def get_event_dataset(name):
    """The paper's defaults of the event benchmark whose loader is ``load_<name>``.

    Parameters
    ----------
    name : str
        The loader's name without ``load_``: ``"batadal"``, ``"beijing"``,
        ``"chbmit"``, ``"ettm1"``, ``"gecco"``, ``"mba"``, ``"psm"``,
        ``"smap"``, ``"tep"``, ``"vix"`` or ``"weather"``.

    Returns
    -------
    defaults : EventDatasetDefaults
        Its loader, ``K``, window length, stride, least history, data-home
        folder and spec.

    Examples
    --------
    >>> from hepa_sklearn.datasets import get_event_dataset
    >>> vix = get_event_dataset("vix")
    >>> vix.K, vix.context_length, vix.stride, vix.directory
    (200, 512, 1, 'VIX')
    """
    if name not in _DATASETS:
        raise ValueError(f"unknown event dataset {name!r}; choose from {sorted(_DATASETS)}.")
    return _DATASETS[name]
