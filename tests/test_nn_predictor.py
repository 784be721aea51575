import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn.nn import EventModel, HazardHead, HorizonPredictor, event_surface, log_survival


def test_predictor_matches_mlp_on_concatenated_input():
    torch.manual_seed(0)
    predictor = HorizonPredictor(8, hidden=16, horizon_scale=10.0)
    h = torch.randn(5, 8)
    dt = torch.tensor([1.0, 2.0, 3.0, 7.0, 10.0])
    concatenated = torch.cat([h, (dt / 10.0)[:, None]], dim=1)
    reference = predictor.body(predictor.input(concatenated))
    assert torch.allclose(predictor(h, dt), reference, atol=1e-6)


def test_grid_equals_one_horizon_at_a_time():
    torch.manual_seed(0)
    predictor = HorizonPredictor(8, hidden=16, horizon_scale=5.0)
    h = torch.randn(3, 8)
    horizons = torch.arange(1, 6, dtype=torch.float32)
    grid = predictor.grid(h, horizons)
    assert grid.shape == (3, 5, 8)
    for k, horizon in enumerate(horizons):
        assert torch.allclose(grid[:, k], predictor(h, horizon.repeat(3)), atol=1e-6)


def test_parameter_counts_match_the_paper():
    assert sum(p.numel() for p in HorizonPredictor(256, 256).parameters()) == 197_632
    assert sum(p.numel() for p in HazardHead(256).parameters()) == 769


def test_event_surface_hand_computed():
    hazards = torch.tensor([[0.5, 0.5, 0.2]])
    logits = torch.log(hazards / (1 - hazards))
    expected = torch.tensor([[0.5, 0.75, 0.8]])  # 1 - 0.5, 1 - 0.25, 1 - 0.25 * 0.8
    assert torch.allclose(event_surface(logits), expected, atol=1e-6)
    assert torch.allclose(log_survival(logits), torch.log(1 - expected), atol=1e-6)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-30, 30), min_size=1, max_size=40))
def test_event_surface_is_monotone_and_in_unit_interval(logits):
    surface = event_surface(torch.tensor([logits], dtype=torch.float32))[0].numpy()
    assert np.all(np.isfinite(surface))
    assert np.all((surface >= 0) & (surface <= 1))
    assert np.all(np.diff(surface) >= 0)


def test_event_model_output_shape_and_horizons():
    model = EventModel(d_model=8, hidden=16, K=7, horizon_scale=7.0)
    logits = model(torch.randn(4, 8))
    assert logits.shape == (4, 7)
    assert model.horizons.tolist() == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(RuntimeError):
        model(torch.randn(4, 9))
