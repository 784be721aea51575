"""One event benchmark as a spec, and the loader, fetcher and docstrings that every spec shares.

A dataset module says only what sets its benchmark apart: how its files are
read into a long frame with a per-row ``label``, which rows are events, how
its units are split and scaled, and its description. The rest (onsets,
parts, scaling, windows, the Bunch, downloads, most of the docstrings) is
done once here and in :mod:`._event_loading`.
"""

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass

from .._docs import fill_doc
from ._event_loading import NORMAL, PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets
from ._home import fetch_files

__all__ = ["ChronologicalSplit", "EventDataset", "dataset_doc", "fetch_dataset", "load_dataset"]

_STATISTICS = {"zscore": "mean and standard deviation", "minmax": "minimum and range"}
# What every benchmark's DESCR says about windows and scaling, after its own text.
_WINDOWS_AND_SCALING = """
Windows end inside the requested part; their context may reach back into
earlier rows of the same unit, and their labels never look past the part's
last row. Scaling (``offset``, ``scale``, applied to ``X`` when
normalize=True): the "{part}" rows' per-channel {statistics}, a
constant channel getting scale 1.
"""


@dataclass(frozen=True)
class ChronologicalSplit:
    """Split each labelled unit in time into train, valid and test parts.

    The boundaries lie at ``percent`` of the unit's rows (cumulative, e.g.
    ``(60, 80)`` for 60/20/20); the valid and the test part each begin
    ``gap`` rows after their boundary, so those rows belong to no part.
    """

    percent: tuple
    gap: int

    def __call__(self, lengths):
        parts = {}
        for unit, n_rows in lengths.items():
            bounds = chronological_bounds(n_rows, self.percent, self.gap)
            parts[unit] = [(part, *bounds[part]) for part in PARTS]
        return parts


@dataclass(frozen=True)
class EventDataset:
    """What sets one event benchmark apart; :func:`load_dataset` does the rest.

    Attributes
    ----------
    name : str
        The loader is ``load_<name>`` and the fetcher ``fetch_<name>``.
    directory : str
        Sub-directory of the data home that holds the files.
    read : callable
        ``read(data_home)``: the long frame, one row per (unit, step),
        ordered unit by unit and in time within a unit, with the columns
        ``unit``, the channels and ``label`` (the per-row condition).
    features : tuple of str or callable
        The channels, or ``features(frame)`` where the files name them.
    split : callable
        ``split(lengths, **options)``: ``{unit: [(part, start, stop), ...]}``
        for the labelled units, ``lengths`` mapping them to their numbers of
        rows in frame order; ``options`` are the loader's own parameters
        beyond the shared ones.
    description : str
        The dataset's own ``DESCR`` text; each Bunch appends what all the
        benchmarks share (windows, scaling) and the parameters it used.
    step : str
        What one row is ("hour", "day", ...), for the docstrings.
    event : str
        What ``y`` counts the time to ("attack onset", ...), for the
        docstrings.
    normal : callable or None, default=None
        ``normal(unit)`` is True for units known, or taken, to hold no
        event: each forms the ``"normal"`` part whole, and their rows give
        the scaling statistics. None: there are none, and the training
        rows give the statistics.
    events : callable, default=unit_onsets
        ``events(frame)``: the ``event`` column, from the labels.
    scaling : {"zscore", "minmax"}, default="zscore"
        The per-channel statistics that scale ``X``.
    """

    name: str
    directory: str
    read: Callable
    features: tuple | Callable
    split: Callable
    description: str
    step: str
    event: str
    normal: Callable | None = None
    events: Callable = unit_onsets
    scaling: str = "zscore"

    @property
    def parts(self):
        """The parts a loader can return."""
        return PARTS if self.normal is None else (*PARTS, NORMAL)

    @property
    def scaling_part(self):
        """The part whose rows give the scaling statistics."""
        return "train" if self.normal is None else NORMAL

    def split_rows(self, frame, **options):
        """``(unit, split, start, stop)`` of every part, unit by unit in frame order."""
        lengths = {unit: int(n_rows) for unit, n_rows in frame.groupby("unit", sort=False).size().items()}
        normal = {unit for unit in lengths if self.normal is not None and self.normal(unit)}
        labelled = self.split({unit: n for unit, n in lengths.items() if unit not in normal}, **options)
        rows = []
        for unit, n_rows in lengths.items():
            parts = [(NORMAL, 0, n_rows)] if unit in normal else labelled[unit]
            rows += [(unit, *part) for part in parts]
        return rows

    def load(self, *, data_home=None, split=None, context_length, stride, min_history, normalize=True, **options):
        """The Bunch that the dataset's ``load_*`` function returns, read, split and cut as this spec says.

        With a spec changed by ``dataclasses.replace`` (another ``split``,
        say), the loader's windows under that change; ``options`` are the
        loader's own parameters beyond the shared ones.
        """
        return load_dataset(self, data_home, split, context_length, stride, min_history, normalize, **options)


def load_dataset(spec, data_home, split, context_length, stride, min_history, normalize, **options):
    """The Bunch of ``spec``'s loader: read, mark the events, split, scale and cut into windows."""
    frame = spec.read(data_home)
    features = spec.features(frame) if callable(spec.features) else spec.features
    frame["event"] = spec.events(frame)
    table = split_table(spec.split_rows(frame, **options))
    return load_events(
        frame,
        table,
        features,
        split=check_split(split, spec.parts),
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        normalize=normalize,
        scaling_part=spec.scaling_part,
        scaling_kind=spec.scaling,
        description=spec.description
        + _WINDOWS_AND_SCALING.format(statistics=_STATISTICS[spec.scaling], part=spec.scaling_part),
    )


def fetch_dataset(spec, files, loader, data_home, download_if_missing, load_params):
    """Download the missing ``files`` (``name -> (url, sha256)``) of ``spec``, then call ``loader``."""
    fetch_files(files, spec.directory, data_home=data_home, download_if_missing=download_if_missing)
    return loader(data_home=data_home, **load_params)


def dataset_doc(spec):
    """Decorator: fill the docstring of ``spec``'s loader or fetcher.

    :func:`~hepa_sklearn._docs.fill_doc` puts in the ``%(name)s`` fragments;
    their ``{field}`` names are then filled from ``spec`` and from the
    function's own defaults, so the text cannot drift from the code.
    """

    def decorate(func):
        fill_doc(func)
        parameters = inspect.signature(func).parameters.values()
        fields = {p.name: p.default for p in parameters if p.default is not p.empty}
        n_channels = "n_features" if callable(spec.features) else len(spec.features)
        fields.update(
            loader=f"load_{spec.name}",
            directory=spec.directory,
            step=spec.step,
            event=spec.event,
            n_channels=n_channels,
            statistics=_STATISTICS[spec.scaling],
            scaling_part=spec.scaling_part,
            split_choices="{" + ", ".join(f'"{part}"' for part in spec.parts) + "}",
        )
        func.__doc__ = re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m[1], m[0])), func.__doc__)
        return func

    return decorate
