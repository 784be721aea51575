"""The report's summary table: per dataset the headline pipeline, boosting, the age baseline and the best HEPA variant.

One row per dataset of the event records with all labels: the mean test
h-AUROC of the headline line ``make_pipeline(HEPAPretrainer(),
HEPAEventPredictor(K=K))`` with the defaults of release 0.3.0
(``hepa-default-auto0-knots12``: the horizon predictor at 12 horizons)
and with those of release 0.1.0 (``hepa-default``), of ``gbm`` and of
``elapsed``, and the HEPA variant with the highest mean. The headline line
of 0.2.0 (``hepa-default-auto0``, every horizon) keeps its records in the
report's tables. The README holds the same lines between two
markers, and a test checks that they equal what this module renders from
the committed records.
"""

import argparse

import numpy as np

from .methods import METHODS, references, tuned_variants
from .registry import BENCHMARKS
from .report_cmapss import cmapss_records
from .report_events import event_records, event_rows, excluded_rows
from .report_former import current_records
from .results import read_results
from .stats import cells_by, markdown_table, scores_of

__all__ = [
    "CAPTION",
    "END",
    "HEADLINE",
    "START",
    "SUMMARY_METHODS",
    "best_variant",
    "finite_scores",
    "main",
    "merged_cells",
    "readme_block",
    "render_summary",
    "summary_section",
    "summary_table",
    "with_readme_block",
]

CAPTION = (
    "Summary: the headline line with the defaults of release 0.3.0 and with those of release 0.1.0, beside "
    "boosting, the elapsed-time baseline and the best HEPA variant (100% labels, mean h-AUROC over seeds, test units)"
)
# the headline line with the defaults of 0.3.0 (horizon_knots=12), then with those of release 0.1.0
HEADLINE = "hepa-default-auto0-knots12"
SUMMARY_METHODS = (HEADLINE, "hepa-default", "gbm", "elapsed")
HEADERS = {HEADLINE: f"headline line, 0.3.0 defaults (`{HEADLINE}`)", "hepa-default": "0.1.0 defaults (`hepa-default`)"}
MISSING = "–"
FULL = 1.0
# the README holds the summary between these two lines
START, END = "<!-- summary-table:start -->", "<!-- summary-table:end -->"


def finite_scores(cells, name, method, fraction=FULL):
    """Finite test h-AUROC of ``method`` in dataset ``name`` with label ``fraction``."""
    values = scores_of(cells.get((name, fraction, method), []), "h_auroc")
    return values[np.isfinite(values)]


def merged_cells(results, events):
    """``{(dataset, fraction, method): records}``: a method's C-MAPSS records where it has them, else its event
    records."""
    own, other = cells_by(results, "dataset"), cells_by(events, "dataset")
    return {**other, **{key: value for key, value in own.items() if value}}


def best_variant(cells, name, fraction=FULL):
    """The HEPA recipe (family ``"hepa"``, not retired) with the highest mean on 2+ seeds in the row, or None."""
    variants = {m: finite_scores(cells, name, m, fraction) for m in tuned_variants(METHODS) if not METHODS[m].retired}
    variants = {m: v.mean() for m, v in variants.items() if v.size >= 2}
    return max(variants, key=variants.get) if variants else None


def solved_rows(events):
    """``{(dataset, fraction)}`` that the event section leaves out of its win counts (the same call)."""
    cells, _, methods, _, rows = event_rows(events)
    return excluded_rows(cells, rows, methods)[1]


def summary_table(results, events):
    """Markdown lines of the summary: caption, table and its key.

    ``results`` are C-MAPSS records (as read by
    :func:`~hepa_bench.report_cmapss.render`, filtered by
    :func:`cmapss_records`), ``events`` the event records (filtered by
    :func:`event_records`). A row for each dataset of ``events`` with
    records at 100% labels, in the registry's order. A cell is the mean over
    the seeds a method ran; the C-MAPSS records give a method's cell where
    they hold it, the event records otherwise. The best HEPA variant is the
    method of family ``"hepa"`` (untrained controls included, retired
    methods not, since they can no longer run) with the highest mean on 2+
    seeds. "Seeds" gives the fewest and most seeds of the row's cells. The
    position mark is the event section's leakage guard
    (:func:`~hepa_bench.report_events.excluded_rows`).
    """
    cells = merged_cells(results, events)
    full = {r["dataset"] for r in events if float(r["fraction"]) == FULL}
    datasets = [name for name in BENCHMARKS if name in full]
    solved = solved_rows(events)
    # rows the guard tested: a reference point ran there
    guarded = {r["dataset"] for r in events if float(r["fraction"]) == FULL and r["method"] in references(METHODS)}
    rows = []
    for name in datasets:
        counts, row = [], [name]
        for m in SUMMARY_METHODS:
            values = finite_scores(cells, name, m)
            counts += [values.size] if values.size else []
            row.append(f"{values.mean():.3f}" if values.size else MISSING)
        best = best_variant(cells, name)
        if best is not None:
            values = finite_scores(cells, name, best)
            counts.append(values.size)
            row.append(f"{values.mean():.3f} ({best})")
        else:
            row.append(MISSING)
        row.append(
            MISSING
            if not counts
            else str(min(counts))
            if min(counts) == max(counts)
            else f"{min(counts)}–{max(counts)}"
        )
        row.append("yes" if (name, FULL) in solved else "no" if name in guarded else MISSING)
        rows.append(row)
    header = [
        "dataset",
        *(HEADERS.get(m, f"`{m}`") for m in SUMMARY_METHODS),
        "best HEPA variant",
        "seeds",
        "solved by position",
    ]
    return [
        f"{CAPTION}:",
        "",
        *markdown_table(header, rows),
        "",
        'A cell is the mean over the seeds its method ran ("seeds": the fewest and the most of the row); C-MAPSS '
        "cells come from the C-MAPSS records where the method ran there, otherwise from the event records. The "
        "best HEPA variant has the highest mean on 2+ seeds among the pretrained and untrained HEPA recipes. "
        '"Solved by position": the leakage guard of the report\'s event benchmarks ("Reference points") does not '
        'rule out that where a window sits gives the answer; such a row counts for no method. "–": no records.',
    ]


def render_summary(
    results, events, *, pretrain_epochs=50, finetune_epochs=30, events_pretrain_epochs=None, events_finetune_epochs=None
):
    """The summary's lines from the unfiltered records of both results files (the README's block).

    The records of the former forms of baselines are left out, as in every
    table of the report (:func:`~hepa_bench.report_former.current_records`):
    they would otherwise take part in the position guard.
    """
    return summary_table(
        cmapss_records(current_records(results), pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs),
        event_records(
            current_records(events), pretrain_epochs=events_pretrain_epochs, finetune_epochs=events_finetune_epochs
        ),
    )


def summary_section(text, results, events, **epochs):
    """``text`` (the report) with the summary as its first section, before its first ``##`` heading.

    ``results`` and ``events`` are the unfiltered records of both files;
    ``epochs`` as :func:`render_summary` takes them. Without event records
    the text is returned as it is.
    """
    if not event_records(
        events,
        pretrain_epochs=epochs.get("events_pretrain_epochs"),
        finetune_epochs=epochs.get("events_finetune_epochs"),
    ):
        return text
    section = "\n".join(["## Summary", "", *render_summary(results, events, **epochs), "", ""])
    head, heading, rest = text.partition("\n## ")
    if not heading:  # no section yet: the summary goes at the end
        return text.rstrip("\n") + "\n\n" + section
    return head + "\n" + section + heading.lstrip("\n") + rest


def readme_block(text):
    """The lines of ``text`` between the two markers, without them and the blank lines next to them."""
    lines = text.splitlines()
    if lines.count(START) != 1 or lines.count(END) != 1 or lines.index(START) > lines.index(END):
        raise ValueError(f"expected one {START} line, then one {END} line.")
    block = lines[lines.index(START) + 1 : lines.index(END)]
    while block and not block[0].strip():
        block.pop(0)
    while block and not block[-1].strip():
        block.pop()
    return block


def with_readme_block(text, lines):
    """``text`` with the lines between the two markers replaced by ``lines`` (a blank line on either side)."""
    readme_block(text)  # checks the markers
    head, rest = text.split(START + "\n", 1)
    _, tail = rest.split(END, 1)
    return head + START + "\n\n" + "\n".join(lines) + "\n\n" + END + tail


def main(argv=None):
    """``python -m hepa_bench.report_summary``: write the summary of both results files between the README's markers."""
    parser = argparse.ArgumentParser(prog="python -m hepa_bench.report_summary", description=main.__doc__)
    parser.add_argument("--results", default="benchmarks/cmapss_results.jsonl")
    parser.add_argument("--events", default="benchmarks/event_results.jsonl")
    parser.add_argument("--readme", default="README.md")
    args = parser.parse_args(argv)
    with open(args.readme) as handle:
        text = handle.read()
    text = with_readme_block(text, render_summary(read_results(args.results), read_results(args.events)))
    with open(args.readme, "w") as handle:
        handle.write(text)
    print(f"wrote the summary table of {args.readme}")


if __name__ == "__main__":
    main()
