"""Round 2 of the default selection: its screen and decision, by the rule of ``benchmarks/default_selection.md``.

For seeds 0 and 1 at 100% and 10% labels, one row per benchmark row with
the mean validation h-AUROC of ``hepa-default`` (0.1.0), ``hepa-default-auto0``
(0.2.0) and the candidate ``hepa-default-trend0``; then the candidate's
largest shortfall against each default, its mean over the rows against
0.2.0's, and what the rule decides. Reads the same records as
``default_screen.py``.

Usage: python benchmarks/experiments/default_round2.py
"""

import numpy as np
from default_screen import screen

OLD, CURRENT, CANDIDATE = "hepa-default", "hepa-default-auto0", "hepa-default-trend0"
SEEDS = (0, 1)
MARGIN = 0.02


def main():
    rows = [
        (dataset, fraction, row)
        for fraction in (1.0, 0.1)
        for dataset, row in screen(list(SEEDS), fraction, [OLD, CURRENT, CANDIDATE]).items()
    ]
    rows = [(dataset, fraction, row) for dataset, fraction, row in rows if all(m in row for m in (OLD, CURRENT))]
    print(f"| row | labels | `{OLD}` | `{CURRENT}` | `{CANDIDATE}` |")
    print("|---|---|---|---|---|")
    for dataset, fraction, row in rows:
        print(
            f"| {dataset} | {fraction:.0%} | "
            + " | ".join(f"{row[m]:.3f}" if m in row else "–" for m in (OLD, CURRENT, CANDIDATE))
            + " |"
        )
    screened = [row for _, _, row in rows if CANDIDATE in row]
    print(
        f"\n{CANDIDATE} screened on {len(screened)} of {len(rows)} rows (seeds {SEEDS[0]} and {SEEDS[1]}, validation)"
    )
    if not screened:
        return
    short = {m: max(row[m] - row[CANDIDATE] for row in screened) for m in (OLD, CURRENT)}
    means = {m: float(np.mean([row[m] for row in screened])) for m in (CURRENT, CANDIDATE)}
    for m in (OLD, CURRENT):
        print(f"largest shortfall against {m}: {short[m]:+.3f}")
    print(f"mean over the rows: {CURRENT} {means[CURRENT]:.4f}, {CANDIDATE} {means[CANDIDATE]:.4f}")
    eligible = all(value <= MARGIN for value in short.values())
    if len(screened) < len(rows):
        print("decision: not yet (rows missing)")
    else:
        adopted = eligible and means[CANDIDATE] > means[CURRENT]
        print(
            f"decision: {CANDIDATE} is {'' if eligible else 'not '}eligible; "
            f"{'it becomes the default' if adopted else 'the 0.2.0 defaults stay'}"
        )


if __name__ == "__main__":
    main()
