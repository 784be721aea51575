"""The boosting baseline's out-of-fold splits: whole units where groups are given, else contiguous folds."""

import numpy as np
from sklearn.model_selection import GroupKFold, KFold

__all__ = ["SIGMA_FOLDS", "unit_folds"]

# The boosting baseline's sigma_, its search scores and its shrinkage of the
# cause classifier come from out-of-fold predictions over this many folds.
# On FD001 (60 training units, seed-0 split of cmapss_protocol)
# the training residuals have std 0.010 (200 boosting rounds fit the
# training windows closely), the out-of-fold ones 0.25 and those of the
# held-out units 0.29; with 0.010 the surface saturates to exactly 0 or 1 in
# most cells, and the resulting ties cut the held-out h-AUROC from 0.976 to
# 0.867.
SIGMA_FOLDS = 3


def unit_folds(n_rows, groups):
    """(train, test) index pairs: GroupKFold over ``groups`` when it has two groups or more, else contiguous KFold."""
    if groups is not None and np.unique(groups).size >= 2:
        n_splits = min(SIGMA_FOLDS, np.unique(groups).size)
        return list(GroupKFold(n_splits).split(np.zeros(n_rows), groups=groups))
    n_splits = min(SIGMA_FOLDS, n_rows)
    if n_splits < 2:
        return []
    return list(KFold(n_splits).split(np.zeros(n_rows)))
