"""``predict_cumulative_incidence`` and its step functions, shared by the estimators that learn one incidence per
cause."""

from ._docs import fill_doc
from .causes import cumulative_incidence
from .survival import _check_return_array, _step_functions

__all__ = ["IncidenceMixin"]


class IncidenceMixin:
    """The cumulative incidence of each cause, for an estimator with ``_incidence_parts(X) -> (proba, shares)``.

    ``proba`` is the any-event surface (n, K) that ``predict_proba``
    returns and ``shares`` each cause's share of an event, (n, n_causes, K)
    or, constant over the horizons, (n, n_causes); None for a model of one
    cause. The incidences follow by
    :func:`hepa_sklearn.causes.cumulative_incidence`.
    """

    def predict_cumulative_incidence(self, X):
        """Cumulative incidence of each cause, shape (n_samples, n_causes, K).

        ``F[i, c-1, k-1]`` = P(an event of cause ``c`` within ``k`` steps
        of sample ``i``). Each is non-decreasing in ``k``, and they sum
        over the causes to ``predict_proba(X)`` (to rounding, about 1e-15).
        A model fitted on ``y`` without a cause field, or with one cause,
        has ``n_causes = 1`` and returns ``predict_proba(X)[:, None, :]``.

        Parameters
        ----------
        X : array-like
            The input of ``predict_proba``.

        Returns
        -------
        incidence : ndarray of shape (n_samples, n_causes, K), float64
        """
        proba, shares = self._incidence_parts(X)
        return proba[:, None, :] if shares is None else cumulative_incidence(proba, shares)

    @fill_doc
    def predict_cumulative_incidence_function(self, X, return_array=False):
        """Cumulative incidence of each cause on ``[0, K]`` as step functions, as scikit-survival reports them.

        Parameters
        ----------
        %(step_function_parameters)s

        Returns
        -------
        incidence : ndarray of shape (n_samples, n_causes) of step functions, or of shape (n_samples, n_causes, K)
            Step functions with ``x = [0, 1, ..., K]`` and
            ``y = [0, F(1), ..., F(K)]`` (``sksurv.functions.StepFunction``
            when scikit-survival is installed); with ``return_array=True``
            :meth:`predict_cumulative_incidence`. scikit-survival's
            Aalen-Johansen estimator,
            ``sksurv.nonparametric.cumulative_incidence_competing_risks(y["cause"], y["time"])``,
            reads the same labels and gives the population's incidences.
        """
        _check_return_array(return_array)
        incidence = self.predict_cumulative_incidence(X)
        if return_array:
            return incidence
        n_samples, n_causes, K = incidence.shape
        return _step_functions(incidence.reshape(-1, K), 0.0).reshape(n_samples, n_causes)
