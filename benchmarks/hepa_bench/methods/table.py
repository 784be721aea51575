"""The one table of benchmark methods: each name written once, each a set of callables that build and fit its
estimators.

A method either embeds windows with a frozen ``encoder`` and fits a
``head`` on the embeddings, or fits a ``surface`` model on the windows
(which may start from the method's encoder, as end-to-end finetuning
does). The runner (:mod:`hepa_bench.runner`) calls them with the
dataset's registry entry, so one entry serves every dataset, C-MAPSS
included. To add a baseline: its estimator in ``hepa_sklearn.baselines``,
one entry here, one test. The callables that fit a surface model on raw
windows are in :mod:`hepa_bench.methods.surfaces`.
"""

from .baselines import BOOSTING_AND_REFERENCE_METHODS, NEURAL_BASELINE_METHODS
from .beside import BESIDE_METHODS
from .corpus import CORPUS_METHODS
from .defaults import DEFAULT_METHODS
from .designs import DESIGN_METHODS
from .hepa import HEPA_METHODS
from .normalisation import NORMALISATION_METHODS
from .parts import (
    Method,
    event_head,
    matched_head,
    minirocket_features,
    pretrained_hepa,
    pretrained_mae,
    supervised_encoder,
    untrained_hepa,
)
from .surfaces import elapsed_time, end_to_end, gradient_boosting, position_only

__all__ = [
    "METHODS",
    "Method",
    "PAPER_ABLATIONS",
    "baselines",
    "elapsed_time",
    "end_to_end",
    "event_head",
    "gradient_boosting",
    "headline_variants",
    "matched_head",
    "minirocket_features",
    "position_only",
    "pretrained_hepa",
    "pretrained_mae",
    "references",
    "supervised_encoder",
    "tuned_variants",
    "untrained_hepa",
]

# One table, in the order of the report's columns: HEPA's recipes, the neural baselines, the plain pipeline's
# defaults and candidates (the corpus designs, the default pipeline taken apart, the designs beside the embedding),
# boosting and the references.
METHODS = {
    **HEPA_METHODS,
    **NEURAL_BASELINE_METHODS,
    **DEFAULT_METHODS,
    **CORPUS_METHODS,
    **NORMALISATION_METHODS,
    **BESIDE_METHODS,
    **DESIGN_METHODS,
    **BOOSTING_AND_REFERENCE_METHODS,
}

#: the paper's ablations (§4.4), compared with ``hepa`` on FD001 and FD003
PAPER_ABLATIONS = tuple(name for name, method in METHODS.items() if method.ablation)


def _of(methods, keep):
    return [m for m in methods if m in METHODS and keep(METHODS[m])]


def tuned_variants(methods):
    """The HEPA recipes among ``methods`` a user would tune, against which the plain default pipeline is judged."""
    return _of(methods, lambda method: method.family == "hepa")


def headline_variants(methods):
    """HEPA's recipes and the default pipeline among ``methods``, without the untrained controls: the win counts'
    rows."""
    return _of(methods, lambda method: method.family in ("hepa", "default") and not method.control)


def baselines(methods):
    """The baselines among ``methods``: the win counts' columns."""
    return _of(methods, lambda method: method.family == "baseline")


def references(methods):
    """The reference points among ``methods``: shown beside each row, compared only with its best method."""
    return _of(methods, lambda method: method.family == "reference")
