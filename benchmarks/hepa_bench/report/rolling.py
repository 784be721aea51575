"""The event tables under the rolling origin: seeds that vary the data as well as the initialisation.

``hepa-bench run --split rolling`` re-splits each dataset whose split is a
fixed cut in time (:class:`~hepa_bench.data.RollingOrigin`): seed ``s`` keeps
the first ``100 - 5 s`` percent of the rows, seed 0 being the fixed split.
This section tables the methods that ran so, seed 0 read from the fixed
split's records; its paired tests and Holm's correction form a family of
their own, apart from the main event table.
"""

from ..registry import BENCHMARKS
from ..stats import ALPHA, beaten_by, compare, family_note, markdown_table, marked, mean_std, scores_of
from .events import event_records, event_rows, excluded_rows, win_tie_loss_table

__all__ = ["ROLLING_METHODS", "ROLLING_SEEDS", "missing_cells", "render_rolling", "rolling_records"]

ROLLING_SEEDS = range(1, 5)  # the seeds a row of the rolling origin is complete with (0 is the fixed split's)
# the methods due on every row: HEPA pretrained and untrained, the headline line, boosting, the reference points
# and the neural baselines
ROLLING_METHODS = (
    "hepa",
    "hepa-random",
    "hepa-default-auto0",
    "gbm",
    "gbm-select",
    "elapsed",
    "position",
    "itransformer",
    "patchtst",
    "mae",
)


def rolling_records(records):
    """The records of the rolling origin: its seeds 1+, and seed 0 (the fixed split) of the methods that ran them.

    Only datasets with a rolling origin and their own epochs count.
    """
    records = [r for r in event_records(records, keep_rolling=True) if BENCHMARKS[r["dataset"]].origin_step is not None]
    rolled = {(r["dataset"], r["method"]) for r in records if r.get("split") == "rolling"}
    return [
        r for r in records if r.get("split") == "rolling" or (r["seed"] == 0 and (r["dataset"], r["method"]) in rolled)
    ]


def missing_cells(cells, rows, methods, seeds=ROLLING_SEEDS):
    """``{method: [(dataset, fraction, missing seeds), ...]}`` for each of ``methods`` short of ``seeds`` in a row.

    ``methods`` are those the section should hold; one that has no cell in
    any row maps to None.
    """
    missing = {}
    for m in methods:
        if not any(cells.get((name, fraction, m)) for name, fraction, _ in rows):
            missing[m] = None
            continue
        for name, fraction, _ in rows:
            have = {r["seed"] for r in cells.get((name, fraction, m), [])}
            lacking = [s for s in seeds if s not in have]
            if lacking:
                missing.setdefault(m, []).append((name, fraction, lacking))
    return missing


def _missing_lines(missing):
    """One line per method of :func:`missing_cells`, or one saying that every row is complete."""
    if not missing:
        return ["Every method of this table has every seed of every row."]

    def row_text(name, fraction, lacking):
        return f"{name} {fraction * 100:g}% seed{'s' if len(lacking) > 1 else ''} " + ", ".join(map(str, lacking))

    due = ", ".join(f"`{m}`" for m in ROLLING_METHODS)
    seeds = f"seeds {ROLLING_SEEDS[0]} to {ROLLING_SEEDS[-1]}"
    return [f"Cells not yet run ({due} are due on every row with {seeds}; seeds missing per row):", ""] + [
        f"- `{m}`: " + ("no cell yet" if rows is None else "; ".join(row_text(*row) for row in rows))
        for m, rows in missing.items()
    ]


def render_rolling(records):
    """Markdown lines of the rolling-origin section; none when no record ran with ``--split rolling``."""
    records = rolling_records(records)
    if not records:
        return []
    cells, _, methods, shown_references, rows = event_rows(records)
    comparisons = compare(cells, rows)
    beaten = beaten_by(comparisons)
    table = []
    for name, fraction, _ in rows:
        row = [name, f"{fraction * 100:g}%"]
        row += [
            marked(
                mean_std(scores_of(cells.get((name, fraction, m), []), "h_auroc")), beaten[(name, fraction, m)], methods
            )
            for m in methods
        ]
        row += [mean_std(scores_of(cells.get((name, fraction, m), []), "h_auroc")) for m in shown_references]
        table.append(row)
    guard, solved, _ = excluded_rows(cells, rows, methods)
    due = list(dict.fromkeys([*methods, *shown_references, *ROLLING_METHODS]))  # those that ran first
    return [
        "### Seeds that vary the data: the rolling origin",
        "",
        "On the datasets split at fixed times, the seeds of the table above change only initialisation, "
        "sampling and label blocks. Here seed s also changes the data: it keeps the first 100 − 5 s percent of "
        "each labelled unit's rows and splits them as the dataset's own split does (proportions and gaps), "
        "so each seed trains, validates and tests on an earlier stretch, the test part always last "
        "(`hepa-bench run --split rolling`; seed 0 is the fixed split, read from its records). BATADAL has no "
        "rolling origin: its labelled year holds five attack onsets, and removing its last 5 % already leaves "
        "the validation part without one. Marks, means and the Holm correction as above, over this table's "
        "own comparisons.",
        "",
        *markdown_table(["dataset", "labels"] + methods + shown_references, table),
        "",
        family_note(comparisons),
        "",
        *guard,
        "",
        "Wins/ties/losses of each HEPA variant over the rows above (a win or a loss is a Holm-adjusted "
        f"paired-t p < {ALPHA})"
        + (
            ", rows where position is not ruled out ("
            + ", ".join(f"{n} {f * 100:g}%" for n, f in sorted(solved))
            + ") left out"
            if solved
            else ""
        )
        + ":",
        "",
        *win_tie_loss_table([c for c in comparisons if (c.subset, c.fraction) not in solved], methods),
        "",
        *_missing_lines(missing_cells(cells, rows, due)),
        "",
    ]
