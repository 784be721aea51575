"""The JEPA objective of a fitted HEPAPretrainer on held-out windows: label-free scoring of encoders."""

import torch

from .training._runtime import as_fp32, seeded_torch
from .training._sampling import CutSampler, WindowDataset

__all__ = ["HeldOutLossMixin"]


class HeldOutLossMixin:
    """``pretraining_loss`` and ``score`` of :class:`~hepa_sklearn.HEPAPretrainer`: its objective at fixed draws."""

    def pretraining_loss(self, X, *, cuts_per_window=None, seed=0):
        """The JEPA objective on windows ``X`` at fixed draws, no labels needed: held-out ε.

        Every window gets ``cuts_per_window`` (default: the fitted value)
        (cut, Δt) pairs, each drawn from ``(seed, item)`` alone, and SIGReg's
        random directions come from ``seed`` too, so two encoders are scored
        on the same pairs and the value is reproducible. Batches of ``batch_size`` in
        input order, the module in eval mode (no dropout).

        Returns
        -------
        loss : dict
            ``"loss"`` (the training objective), ``"l1"`` and the
            regulariser's term, each averaged over batches weighted by
            their usable pairs; ``"n_pairs"``, the usable pairs.
        """
        X = self._validated_input(X)
        repeats = self.cuts_per_window if cuts_per_window is None else cuts_per_window
        if not isinstance(repeats, int) or isinstance(repeats, bool) or repeats < 1:
            raise ValueError(f"cuts_per_window must be an int >= 1, got {repeats!r}.")
        net, criterion = self.net_, self.net_.criterion_
        sampler = CutSampler(self.patch_size, self.max_horizon, seed, fixed=True)
        dataset = WindowDataset(X, repeats)
        device = next(net.module_.parameters()).device
        net.module_.eval()
        sums, total = {}, 0.0
        with torch.no_grad(), seeded_torch(seed, device):  # SIGReg draws its directions from torch
            for start in range(0, len(dataset), self.batch_size):
                inputs, _ = sampler([dataset[i] for i in range(start, min(start + self.batch_size, len(dataset)))])
                inputs = {name: value.to(device) for name, value in inputs.items()}
                output = as_fp32(net.module_(**inputs))
                n = float((output[2] > 0).sum())
                if n < 2:
                    continue
                terms = {"loss": float(criterion(output)), **criterion.last_terms}
                terms.pop("spread", None)
                for name, value in terms.items():
                    sums[name] = sums.get(name, 0.0) + n * value
                total += n
        if not total:
            raise ValueError("no window of X holds two usable (cut, horizon) pairs; nothing to score.")
        return {**{name: value / total for name, value in sums.items()}, "n_pairs": int(total)}

    def score(self, X, y=None):
        """Minus the held-out JEPA loss of :meth:`pretraining_loss`: higher is better; ``y`` is ignored.

        Lets label-free model selection (``GridSearchCV`` on the pretrainer
        alone) compare encoders on held-out windows.
        """
        return -self.pretraining_loss(X)["loss"]
