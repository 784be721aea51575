"""HEPAEventPredictor: predictor finetuning (pred-FT) on frozen embeddings.

Everything the event predictor does is here: ``fit`` (the four steps of
:class:`~hepa_sklearn._torch_estimator.TorchEstimator`: validate the
parameters, prepare the embeddings and the surface targets, build the event
model, train it), ``predict_proba`` and ``predict``, and each cause's share
of an event behind ``predict_cumulative_incidence``. What it shares with the
other surface nets (targets, loss, inference chunks) is called from
:mod:`hepa_sklearn._surface_estimator`.
"""

import functools

import numpy as np
from scipy.special import softmax

from ._docs import fill_doc
from ._incidence import IncidenceMixin
from ._start_weights import init_from_pretrainer
from ._surface_estimator import (
    SURFACE_CONSTRAINTS,
    surface_inference_chunk,
    surface_net,
    surface_of_logits,
    surface_training_targets,
)
from ._torch_estimator import FitPlan, TorchEstimator
from ._validation import POSITIVE_INT, Count, StrOptions, check_embeddings, check_groups
from .nn.predictor import EventModel
from .surface import expected_time_to_event
from .survival import SurvivalMixin

__all__ = ["EVENT_HEADS", "HEPAEventPredictor"]

# the event heads of HEPAEventPredictor and HEPAFinetuner: the horizon predictor and hazard head, or a linear probe
EVENT_HEADS = ("mlp", "linear")


@fill_doc
class HEPAEventPredictor(IncidenceMixin, SurvivalMixin, TorchEstimator):
    """Event probability surface p(t, Δt), Δt = 1..K, from frozen window embeddings.

    The horizon predictor maps ``[h_t ; Δt]`` to a representation, the hazard
    head turns it into a conditional hazard λ_Δt, and the surface is
    ``p(t, Δt) = 1 - Π_{j<=Δt} (1 - λ_j)``, non-decreasing in Δt by
    construction. Training minimises positive-weighted BCE on ``p`` over the
    known cells of the label surface (censored cells are ignored).

    For scikit-survival's tools, ``predict_survival_function``,
    ``predict_cumulative_hazard_function`` and the risk score
    ``predict_risk`` (higher for an earlier event; ``predict`` stays the
    expected time) read the same surface, and ``score`` is its h-AUROC,
    see :class:`~hepa_sklearn.survival.SurvivalMixin`.

    Several failure types (competing risks): with a ``y`` whose ``cause``
    field numbers the type of each event (see
    :func:`~hepa_sklearn.surface.make_survival_y`), a cause head beside the hazard
    head gives each cause's share ``π_c(Δt)`` of an event at each horizon
    (a softmax over the causes), trained by the cross-entropy of the
    observed cause at the event step, and
    :meth:`predict_cumulative_incidence` returns
    ``F_c(Δt) = Σ_{j<=Δt} S(j-1) λ_j π_c(j)``: non-decreasing in Δt and
    summing over the causes to ``predict_proba``, which stays the
    any-event surface. A ``y`` of one cause is fitted exactly as one
    without a cause field.

    Parameters
    ----------
    K : int, default=150
        Number of unit-step horizons.
    hidden : int, default=256
        Hidden width of the predictor MLP.
    head : {"mlp", "linear"}, default="mlp"
        ``"mlp"``: the horizon-conditioned predictor and hazard head (pred-FT,
        the paper's default). ``"linear"``: a linear probe, one linear map
        from the embedding to the K hazard logits.
    horizon_knots : int or None, default=12
        With ``head="mlp"``: run the predictor and hazard head at this many
        horizons spread evenly over ``1..K`` (both ends included) and
        interpolate the hazard logits of the horizons between them
        linearly. The head's cost falls by about ``K / horizon_knots``
        (at K=150 its fit takes a tenth of the CPU time). ``None`` runs
        them at every horizon, as the paper and releases before 0.3.0 do.
        Ignored by ``head="linear"``.
    %(surface_loss_parameters)s
    init_from : HEPAPretrainer, FrozenEstimator, str, path-like or None, default=None
        Start from a fitted pretrainer's weights: the pretrainer, one in a
        ``sklearn.frozen.FrozenEstimator`` (which ``sklearn.clone`` leaves
        fitted, as grid searches need), or the path of one written by
        :func:`hepa_sklearn.persistence.save`. The event predictor starts
        from its horizon predictor, which needs ``head="mlp"``, an
        embedding of the pretrainer's ``d_model`` columns alone
        (``window_level=False`` there) and ``hidden`` equal to that
        ``d_model``; Δt then enters on the pretrainer's scale (its ``K``).
        Not stored by :func:`~hepa_sklearn.persistence.save` (the fitted
        weights hold it).
    n_causes : int, default=None
        Causes to learn, for a ``y`` with a ``cause`` field: None learns
        causes ``1..`` the largest in ``y``; an int also covers causes that
        never occur in the training labels (each named in a warning).
    %(training_parameters)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net (autocast settings in ``net_.autocast_dtype``).
    history_ : skorch.History
    horizons_ : ndarray of shape (K,)
        The horizons 1..K of the surface columns.
    horizon_scale_ : float
        Δt is divided by this before entering the predictor: K, or the
        pretrainer's ``K`` with ``init_from``.
    pos_weight_ : float
        The positive weight used.
    n_causes_ : int
        Causes learned: ``n_causes``, or the largest cause in ``y`` (1 for
        a ``y`` without a cause field).
    n_epochs_ : int
        Epochs that completed (fewer than ``max_epochs`` after early
        stopping).
    n_features_in_ : int
        Width of the embeddings seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAEventPredictor
    >>> from hepa_sklearn.surface import make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> E = rng.normal(size=(64, 8)).astype("float32")
    >>> y = make_survival_y(np.ones(64, bool), rng.integers(1, 20, 64))
    >>> model = HEPAEventPredictor(K=10, hidden=16, max_epochs=2, random_state=0).fit(E, y)
    >>> P = model.predict_proba(E)
    >>> P.shape, bool((np.diff(P, axis=1) >= 0).all())
    ((64, 10), True)

    Two causes:

    >>> y2 = make_survival_y(y["event"], y["time"], cause=1 + (E[:, 0] > 0))
    >>> F = HEPAEventPredictor(K=10, hidden=16, max_epochs=2, random_state=0).fit(E, y2).predict_cumulative_incidence(E)
    >>> F.shape
    (64, 2, 10)
    """

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        **SURFACE_CONSTRAINTS,
        "head": [StrOptions(set(EVENT_HEADS))],
        "init_from": "no_validation",  # checked in fit (init_from_pretrainer), where the source is read
        "n_causes": [None, POSITIVE_INT],
        "horizon_knots": [None, Count(2)],
    }

    def __init__(
        self,
        *,
        # the surface model and its loss (paper §3.2)
        K=150,
        hidden=256,
        head="mlp",
        horizon_knots=12,
        loss="bce",
        pos_weight="auto",
        init_from=None,
        n_causes=None,
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=50,
        batch_size=64,
        lr=1e-3,
        weight_decay=1e-2,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=10,
        device="auto",
        precision="auto",
        random_state=None,
        verbose=0,
        callbacks=None,
    ):
        self.K = K
        self.hidden = hidden
        self.head = head
        self.horizon_knots = horizon_knots
        self.loss = loss
        self.pos_weight = pos_weight
        self.init_from = init_from
        self.n_causes = n_causes
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.lr = lr
        self.weight_decay = weight_decay
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.device = device
        self.precision = precision
        self.random_state = random_state
        self.verbose = verbose
        self.callbacks = callbacks

    _fitted_attributes = ("n_features_in_", "pos_weight_", "n_causes_", "horizons_", "horizon_scale_")
    _transient_parameters = ("init_from", "callbacks")
    _check_input = check_embeddings

    # -- fit and predict ------------------------------------------------------------------------

    @fill_doc
    def fit(self, E, y, groups=None):
        """Train on embeddings ``E`` and survival labels ``y``.

        The parameters are validated, the embeddings checked and the label
        surface of ``y`` packed with its known mask (and each event's cause),
        the event model built (from the pretrainer's predictor with
        ``init_from``) and trained on the surface loss.

        Parameters
        ----------
        E : array-like of shape (n_samples, n_features)
            Finite embeddings, one row per sample.
        y : structured ndarray with fields ``event`` and ``time``
            Time from each sample to its event, or to censoring; an optional
            ``cause`` field numbers the type of each event.
        %(fit_groups)s

        Returns
        -------
        self : object
            The fitted estimator.

        %(fit_interruption)s
        """
        return super().fit(E, y, groups)

    def predict_proba(self, X):
        """Event probability surface, shape (n_samples, K): ``P[i, k-1]`` = P(event within k steps)."""
        return surface_of_logits(self._infer(self._validated_input(X), "predict_proba"))

    def predict(self, X):
        """Expected time to event truncated at K, ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``."""
        return expected_time_to_event(self.predict_proba(X))

    # -- the steps of fit: the embeddings and targets prepared, the net built --------------------

    def _prepare_fit(self, E, y, groups):
        """Check ``E``, ``groups`` and ``y``: the fitted attributes, and the packed targets with causes."""
        E = check_embeddings(self, E, reset=True)
        groups = check_groups(groups, E.shape[0])
        packed, from_targets = surface_training_targets(self, y, E.shape[0], learns_causes=True)
        source = self._initial_predictor(E.shape[1])
        fitted = {
            "n_features_in_": E.shape[1],
            **from_targets,
            "horizons_": np.arange(1, self.K + 1),
            "horizon_scale_": source.horizon_scale if source is not None else float(self.K),
        }
        start = None if source is None else functools.partial(self._start_from_predictor, source=source)
        return FitPlan(fitted, E, packed, groups, start)

    def _initial_predictor(self, d_model):
        """The predictor of the pretrainer ``init_from`` names, checked for compatible shapes, or None."""
        if self.init_from is None:
            return None
        pretrainer = init_from_pretrainer(self.init_from)
        if self.head != "mlp":
            raise ValueError(f"init_from needs head='mlp' (the pretrained predictor), got head={self.head!r}.")
        if pretrainer.level_loc_ is not None:
            raise ValueError(
                "init_from needs an embedding of the pretrainer's d_model columns, which its predictor reads; a "
                "pretrainer that appends the window level to it (window_level, on by default) gives another. "
                "Pretrain with window_level=False to start from its predictor."
            )
        source = pretrainer.predictor_
        if source.d_model != d_model or source.input.out_features != self.hidden:
            raise ValueError(
                f"init_from's predictor has d_model={source.d_model} and hidden="
                f"{source.input.out_features}; this estimator needs d_model={d_model} "
                f"(embedding width) and hidden={self.hidden}."
            )
        return source

    @staticmethod
    def _start_from_predictor(net, source):
        """Load the pretrainer's predictor ``source`` into the initialised ``net`` (``init_from``)."""
        net.module_.predictor.load_state_dict(source.state_dict())

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for embeddings of width ``fitted["n_features_in_"]``."""
        return surface_net(
            self,
            EventModel,
            fitted,
            device,
            d_model=fitted["n_features_in_"],
            horizon_scale=fitted["horizon_scale_"],
            hidden=self.hidden,
            K=self.K,
            head=self.head,
            n_causes=fitted.get("n_causes_", 1),
            horizon_knots=self.horizon_knots if self.head == "mlp" else None,
        )

    @property
    def _inference_chunk(self):
        return surface_inference_chunk(self)

    # -- the causes --------------------------------------------------------------------------------

    def _incidence_parts(self, E):
        """The any-event surface and, with several causes, each cause's share at each horizon (softmax of logits)."""
        logits = self._infer(self._validated_input(E), "predict_cumulative_incidence")
        if logits.ndim == 2:
            return surface_of_logits(logits), None
        return surface_of_logits(logits), softmax(logits[:, 1:].astype(np.float64), axis=1)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
