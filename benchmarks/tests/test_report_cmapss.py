"""The C-MAPSS report: the marks of the tables, label efficiency, the ablations' own seeds, the default pipeline."""

from hepa_bench.report.cmapss import render

MACHINE = {
    "pooled_auroc": 0.9,
    "cell_s": 1.0,
    "machine": "x86_64, 2 CPU cores",
    "torch_threads": 2,
    "device": "cpu",
    "versions": {"torch": "2"},
    "command": "hepa-bench run --datasets FD001",
}


def runner_records(scores, fractions=(1.0, 0.1), seeds=(0, 1)):
    """Records as the runner writes them (``dataset``, ``n_label_blocks``); ``scores(method, seed, fraction)``."""
    return [
        {
            "dataset": "FD001",
            "seed": seed,
            "fraction": fraction,
            "method": method,
            "pretrain_epochs": 2,
            "finetune_epochs": 1,
            "h_auroc": score,
            "n_label_blocks": 60 if fraction == 1.0 else 1,
            "fit_s": 0.0,
            "predict_s": 0.0,
            "pretrain_s": 0.0,
            **MACHINE,
        }
        for method in scores
        for seed in seeds
        for fraction in fractions
        if (score := scores[method](seed, fraction)) is not None
    ]


def test_report_tables_from_runner_records():
    records = runner_records(
        {
            "hepa": lambda seed, fraction: 0.5 + fraction / 10,
            "gbm": lambda seed, fraction: 0.3 + fraction / 10 - 0.01 * seed,
        }
    )
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    # hepa scores 0.600 on both seeds: one run, so no paired test marks it against gbm
    assert "| FD001 | 0.600 ± 0.000 (2) | 0.395 ± 0.007 (2) | 0.918 ± 0.008 (5) | ≥ 0.93 |" in text
    assert "| 10% | 1 |" in text and "| 100% | 60 |" in text  # the labelled units
    assert "hepa-bench run --datasets FD001" in text
    assert f"- torch 2 ({len(records)} cells)" in text
    records[0]["versions"] = {"torch": "3"}  # one cell from another environment is counted apart
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    assert f"- torch 2 ({len(records) - 1} cells)\n- torch 3 (1 cell)\n" in text
    assert "No results" in render(records, pretrain_epochs=50, finetune_epochs=30)


def test_report_pairs_only_the_shared_seeds(hand_made_records, make_record):
    records = hand_made_records()
    # an unpaired hepa seed with a wild score changes hepa's mean, not the comparison
    records.append(make_record("FD001", 7, "hepa", 0.1))
    text = render(records)
    assert "| FD001 | 0.733 ± 0.323 (6) >gbm |" in text
    assert "| hepa vs gbm | FD001 | 100% | 5 | +0.020 | 0.00481 |" in text


def test_report_compares_ablations_on_their_own_seeds():
    def score(method):
        # seed 1 of hepa is far better than seed 0; the variant ran on seed 0 only
        return lambda seed, fraction: (
            None
            if method == "hepa-e2e" and seed == 1
            else 0.5 + fraction / 10 + (0.1 * seed if method == "hepa" else 0.0)
        )

    records = runner_records({m: score(m) for m in ("hepa", "hepa-e2e")})
    for r in records:
        r["valid_h_auroc"] = 0.7 + 0.1 * (r["method"] == "hepa-e2e")
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    ablations = text[text.index("## Ablations") : text.index("## All metrics")]
    assert "the seeds every variant ran (FD001: 0)" in ablations
    # hepa over seed 0 alone (0.600), not its mean over seeds 0 and 1 (0.650)
    assert "| FD001 | 0.600 (1) | 0.600 (1) |" in ablations
    assert "| FD001 | 0.700 (1) | 0.800 (1) |" in ablations  # validation units
    # a variant run with fewer labels gets columns in the label-efficiency table
    assert "| labels | label units | hepa | hepa-e2e | hepa retention | hepa-e2e retention |" in text


def test_report_judges_the_default_pipeline_against_the_best_tuned_variant():
    shift = {"hepa": 0.0, "hepa-random": 0.05, "hepa-default": -0.01, "gbm": 0.3}
    records = runner_records(
        {
            m: (
                lambda seed, fraction, m=m: (
                    0.5 + fraction / 10 + shift[m] + (0.04 * seed if m == "hepa-default" else 0.0)
                )
            )
            for m in shift
        }
    )
    section = (
        render(records, pretrain_epochs=2, finetune_epochs=1)
        .split("## The default pipeline against the tuned recipe")[1]
        .split("##")[0]
    )
    # 100%: hepa 0.600, hepa-random 0.650 (the best; gbm is no HEPA variant), hepa-default 0.610 ± 0.028
    assert "| FD001 | 100% | 0.610 ± 0.028 (2) | hepa-random (0.650) | -0.040 | no |" in section
    assert "| FD001 | 10% | 0.520 ± 0.028 (2) | hepa-random (0.560) | -0.040 | no |" in section
    no_default = [r for r in records if r["method"] != "hepa-default"]
    assert "## The default pipeline" not in render(no_default, pretrain_epochs=2, finetune_epochs=1)


def test_reference_points_are_shown_beside_the_methods_and_compared_with_none():
    records = runner_records(
        {
            "hepa": lambda seed, fraction: 0.5 + fraction / 10,
            "gbm": lambda seed, fraction: 0.3 + fraction / 10 - 0.01 * seed,
            "elapsed": lambda seed, fraction: 0.61 + 0.01 * seed,
            "position": lambda seed, fraction: 0.55,
        }
    )
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    # after the methods, unmarked, before the authors' figure
    assert "| subset | hepa | gbm | elapsed | position | authors' implementation | target |" in text
    assert "| FD001 | 0.600 ± 0.000 (2) | 0.395 ± 0.007 (2) | 0.615 ± 0.007 (2) | 0.550 ± 0.000 (2) |" in text
    comparisons = text.split("## Pairwise comparisons")[1].split("## Wall time")[0]
    assert "elapsed" not in comparisons and "position" not in comparisons
    assert "| labels | label units | hepa | gbm | elapsed | position | hepa retention | gbm retention |" in text


def test_report_guards_every_cmapss_row_with_the_reference_points():
    records = runner_records(
        {
            "hepa": lambda seed, fraction: 0.80 + 0.01 * seed,
            "elapsed": lambda seed, fraction: 0.60 + 0.01 * seed + 0.003 * (seed % 2),
            "position": lambda seed, fraction: 0.85 + 0.01 * seed if fraction < 1 else 0.5,
        },
        seeds=(0, 1, 2, 3, 4),
    )
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    guard = text[text.index("## Reference points") : text.index("## Label efficiency")]
    assert "no row is dropped" in guard
    # 100%: elapsed is the stronger reference and far below hepa; 10%: position leads hepa
    assert "| FD001 | 100% |" in guard and "ruled out |" in guard
    assert "| FD001 | 10% |" in guard and "**solved by position** |" in guard
    assert "+0.050 (position)" in guard
    assert (
        render([r for r in records if r["method"] == "hepa"], pretrain_epochs=2, finetune_epochs=1).count(
            "## Reference points"
        )
        == 0
    )
