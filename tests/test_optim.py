"""The nets' optimiser: torch's AdamW update to the bit, without importing torch's compiler."""

import subprocess
import sys
import textwrap

import pytest
import torch

from hepa_sklearn.training._optim import AdamW, compiler_free


def trained(optimizer_class, **params):
    """A small MLP after five AdamW steps with a closure (as skorch steps), its parameters and the state."""
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.GELU(), torch.nn.Linear(16, 3))
    optimizer = optimizer_class(module.parameters(), lr=0.01, weight_decay=0.1, **params)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=5)
    X, y = torch.randn(32, 6), torch.randn(32, 3)
    for _ in range(5):

        def closure():
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(module(X), y)
            loss.backward()
            return loss

        optimizer.step(closure)
        scheduler.step()
    return [p.detach().clone() for p in module.parameters()], optimizer.state_dict()


def test_this_torch_has_the_wrappers_the_optimiser_steps_past():
    assert compiler_free()


@pytest.mark.parametrize("params", [{}, {"fused": True}, {"foreach": False}, {"amsgrad": True}])
def test_the_update_is_torchs_adamw_to_the_bit(params):
    ours, our_state = trained(AdamW, **params)
    theirs, their_state = trained(torch.optim.AdamW, **params)
    for a, b in zip(ours, theirs, strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    for key, state in their_state["state"].items():
        for name, value in state.items():
            torch.testing.assert_close(our_state["state"][key][name], value, rtol=0, atol=0)


def test_a_differentiable_optimiser_is_torchs_own():
    """torch steps a differentiable optimiser with gradients on, so an in-place update of a leaf is refused."""
    for optimizer_class in (AdamW, torch.optim.AdamW):
        module = torch.nn.Linear(2, 1)
        optimizer = optimizer_class(module.parameters(), lr=0.1, differentiable=True)
        module(torch.ones(1, 2)).sum().backward()
        with pytest.raises(RuntimeError, match="in-place operation"):
            optimizer.step()


FIT = """
import sys
import numpy as np
from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
rng = np.random.default_rng(0)
X = rng.normal(size=(40, 2, 64)).astype(np.float32)
y = np.rec.fromarrays([rng.random(40) < 0.5, rng.integers(1, 30, 40).astype(float)], names="event,time")
E = HEPAPretrainer(d_model=16, n_heads=2, n_layers=1, max_epochs=1, random_state=0).fit_transform(X)
HEPAEventPredictor(K=10, hidden=16, max_epochs=2, random_state=0).fit(E, y)
print("torch._dynamo" in sys.modules)
"""


def test_pretraining_and_the_event_head_train_without_importing_the_compiler():
    """The import costs about 1.4 CPU s and 68 MB per process; a fresh process shows whether a fit pays it."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(FIT)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr
