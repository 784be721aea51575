"""The "padded" batch layout of HEPA pretraining, with which the published C-MAPSS records were computed.

:class:`~hepa_sklearn.HEPAPretrainer` lays out a training batch "packed":
the tokens of all target intervals are packed without padding, and with
several cuts per window and a context pass that cuts can share
(``norm="global"`` or ``"none"``) the cuts of one window come in shuffled
blocks of 8 that share one causal pass. The padded layout, the library's
until version 0.1, draws every item of a batch independently (a plain
shuffle) and encodes the target intervals in padded groups of similar
length. Both optimise the same objective; they differ in floating-point
summation order, in the dropout draws and in which cuts share a batch, so
one seed gives other numbers in each. :class:`PaddedHEPAPretrainer`
computes exactly what the padded layout did, to rerun or extend the
published records (the hepa-packed method of the table runs the library's layout).
"""

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.nn import JEPA, pool_in_groups

__all__ = ["PaddedHEPAPretrainer", "PaddedJEPA"]


class PaddedJEPA(JEPA):
    """HEPA's JEPA module with the target intervals always encoded in padded groups of similar length."""

    def target_state(self, x, cut, dt, loc, scale):
        """As :meth:`JEPA.target_state`, through :func:`~hepa_sklearn.nn.pool_in_groups` whatever the tokens."""
        return pool_in_groups(self.target_path, self.future(x, cut, dt), dt, loc, scale, self.target_pooling)


class PaddedHEPAPretrainer(HEPAPretrainer):
    """:class:`~hepa_sklearn.HEPAPretrainer` in the padded batch layout of the published C-MAPSS records.

    The parameters, attributes and methods are the pretrainer's. Every
    (cut, Δt) item of a training batch is drawn independently, each with
    its own context pass, and the target intervals are encoded in padded
    groups (:class:`PaddedJEPA`).
    """

    module_class = PaddedJEPA

    def cut_block(self):
        """One: no cuts of a window are kept together in a batch."""
        return 1
