"""Loss per epoch of a training run, with the epochs flagged as representation collapse."""

from collections.abc import Mapping

import numpy as np
from sklearn.exceptions import NotFittedError

from ._common import TitledDisplay


def _column(records, key):
    """``record[key]`` of every epoch as floats, NaN where the epoch has none."""
    values = [np.nan if record.get(key) is None else record[key] for record in records]
    return np.array(values, dtype=float)


class TrainingHistoryDisplay(TitledDisplay):
    """Training and validation loss per epoch, collapsed epochs marked in red.

    Reads the per-epoch records of a skorch ``History`` (the ``history_`` of
    :class:`~hepa_sklearn.HEPAPretrainer` and
    :class:`~hepa_sklearn.HEPAEventPredictor`) or any list of dicts with the
    same keys: ``train_loss`` (required), ``valid_loss`` (drawn when
    present), ``collapse`` (True where the pretrainer's prediction spread
    fell below its collapse threshold) and ``epoch`` (1-based position when
    absent).

    Build it with :meth:`from_estimator` or :meth:`from_history`; the
    constructor only stores its arguments.

    Parameters
    ----------
    epochs : ndarray of shape (n_epochs,)
        Epoch numbers.
    train_loss : ndarray of shape (n_epochs,)
    valid_loss : ndarray of shape (n_epochs,) or None, default=None
        NaN for epochs without a validation loss; None when no epoch has one.
    collapse : ndarray of bool, shape (n_epochs,), default=None
        Epochs flagged as collapsed; None means none is.
    name : str, default=None
        Title of the axes; None leaves it empty.

    Attributes
    ----------
    train_line_ : matplotlib Line2D
    valid_line_ : matplotlib Line2D or None
        None without a validation loss.
    collapse_markers_ : matplotlib Line2D or None
        Red crosses on the training loss of the collapsed epochs; None when
        no epoch collapsed.
    collapse_spans_ : list of matplotlib patches
        A red band over each collapsed epoch.
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    See Also
    --------
    hepa_sklearn.HEPAPretrainer : Its ``history_`` records ``collapse``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from hepa_sklearn.plotting import TrainingHistoryDisplay
    >>> history = [{"train_loss": 1.0, "collapse": False}, {"train_loss": 0.6, "collapse": True},
    ...            {"train_loss": 0.5, "collapse": False}]
    >>> display = TrainingHistoryDisplay.from_history(history)
    >>> display.collapse_markers_.get_xydata().tolist()
    [[2.0, 0.6]]
    """

    def __init__(self, *, epochs, train_loss, valid_loss=None, collapse=None, name=None):
        self.epochs = epochs
        self.train_loss = train_loss
        self.valid_loss = valid_loss
        self.collapse = collapse
        self.name = name

    _legend = {"fontsize": "small"}

    def _draw(self, ax):
        """The loss curves and the marks of the collapsed epochs."""
        from matplotlib.ticker import MaxNLocator

        epochs = np.asarray(self.epochs)
        train_loss = np.asarray(self.train_loss, dtype=float)
        (self.train_line_,) = ax.plot(epochs, train_loss, marker=".", label="train loss")
        self.valid_line_ = None
        if self.valid_loss is not None:
            (self.valid_line_,) = ax.plot(epochs, self.valid_loss, marker=".", label="valid loss")
        collapsed = np.zeros(epochs.shape, bool)
        if self.collapse is not None:
            collapsed = np.asarray(self.collapse, bool)
        self.collapse_spans_ = [
            ax.axvspan(epoch - 0.5, epoch + 0.5, color="tab:red", alpha=0.15, linewidth=0)
            for epoch in epochs[collapsed]
        ]
        self.collapse_markers_ = None
        if collapsed.any():
            (self.collapse_markers_,) = ax.plot(
                epochs[collapsed],
                train_loss[collapsed],
                linestyle="none",
                marker="x",
                markersize=8,
                color="tab:red",
                label="collapse",
            )
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("epoch")
        ax.set_ylabel("loss")

    @classmethod
    def from_history(cls, history, *, name=None, ax=None):
        """Draw a history given as a list of per-epoch dicts (or a skorch ``History``).

        Parameters
        ----------
        history : sequence of dict
            One dict per epoch with ``train_loss`` and optionally
            ``valid_loss``, ``collapse`` and ``epoch``.
        name : str, default=None
            Title of the axes.
        ax : matplotlib Axes, default=None
            As in :meth:`plot`.

        Returns
        -------
        display : TrainingHistoryDisplay
        """
        if isinstance(history, (str, bytes, Mapping)) or not hasattr(history, "__iter__"):
            raise TypeError(f"history must be a list of per-epoch dicts, got {type(history).__name__}.")
        records = list(history)
        if not records:
            raise ValueError("history is empty: there is no epoch to draw.")
        for position, record in enumerate(records, start=1):
            if not isinstance(record, Mapping):
                raise TypeError(f"history must hold one dict per epoch; entry {position} is a {type(record).__name__}.")
            if record.get("train_loss") is None:
                raise ValueError(f"epoch {position} of history has no 'train_loss'.")
        has_valid = any(record.get("valid_loss") is not None for record in records)
        display = cls(
            epochs=np.array([record.get("epoch", n) for n, record in enumerate(records, start=1)]),
            train_loss=_column(records, "train_loss"),
            valid_loss=_column(records, "valid_loss") if has_valid else None,
            collapse=np.array([bool(record.get("collapse", False)) for record in records]),
            name=name,
        )
        return display.plot(ax=ax)

    @classmethod
    def from_estimator(cls, estimator, *, name=None, ax=None):
        """Draw the ``history_`` of a fitted estimator.

        Parameters
        ----------
        estimator : fitted estimator with ``history_``
            Such as :class:`~hepa_sklearn.HEPAPretrainer` or
            :class:`~hepa_sklearn.HEPAEventPredictor`; for a pipeline, pass
            the step, e.g. ``pipe[0]``.
        name : str, default=None
            Title of the axes; None means the estimator's class name.
        ax : matplotlib Axes, default=None
            As in :meth:`plot`.

        Returns
        -------
        display : TrainingHistoryDisplay
        """
        try:
            history = estimator.history_
        except NotFittedError:
            # also an AttributeError, but its own message (fit first) is the one to give
            raise
        except AttributeError as exc:
            raise TypeError(
                f"{type(estimator).__name__} has no history_; pass a fitted torch-backed "
                "estimator such as HEPAPretrainer or HEPAEventPredictor (for a pipeline, "
                "its step, e.g. pipe[0])."
            ) from exc
        name = type(estimator).__name__ if name is None else name
        return cls.from_history(history, name=name, ax=ax)
