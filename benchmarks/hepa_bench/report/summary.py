"""The report's summary table: per dataset the headline line beside the best baseline of each family, chosen on
validation units, the age baseline and the best HEPA variant, chosen likewise.

One row per dataset of the event records with all labels: the mean test
h-AUROC of the headline line ``make_pipeline(HEPAPretrainer(),
HEPAEventPredictor(K=K))`` with the defaults of release 0.3.0
(``hepa-default-auto0-knots12``), then for each baseline family of the
yardstick (:data:`~hepa_bench.yardstick.BASELINE_FAMILIES`: boosting,
MiniRocket, PatchTST, iTransformer, MAE) the variant with the highest mean
*validation* h-AUROC over seeds 0-4, and the best of those; ``elapsed``; and
the HEPA variant chosen on validation the same way. No column is chosen by
a test figure. The README holds the same lines between two markers, and a
test checks that they equal what this module renders from the committed
records; ``hepa-bench report`` rewrites them (the manifest names the README
as a document of kind ``"summary"``). The comparison with 20 seeds and 95 % intervals is the
yardstick's primary family (:mod:`hepa_bench.yardstick`).
"""

import argparse

import numpy as np

from ..methods.table import METHODS, references, tuned_variants
from ..registry import BENCHMARKS
from ..results import read_results
from ..stats import cells_by, markdown_table, scores_of
from ..yardstick import BASELINE_FAMILIES, choose, validation_means
from .cmapss import cmapss_records
from .events import event_records, event_rows, excluded_rows
from .former import current_records

__all__ = [
    "CAPTION",
    "END",
    "HEADLINE",
    "START",
    "SUMMARY_METHODS",
    "best_variant",
    "chosen_on_validation",
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
    "Summary: the headline line with the defaults of release 0.3.0 beside the best baseline of each family "
    "and the "
    "best HEPA variant, each chosen on validation units, and the elapsed-time baseline (100% labels, mean "
    "test "
    "h-AUROC over seeds)"
)
HEADLINE = "hepa-default-auto0-knots12"
SUMMARY_METHODS = (HEADLINE,)
HEADERS = {HEADLINE: f"headline line (`{HEADLINE}`)"}
FAMILIES = tuple(BASELINE_FAMILIES.items())
FAMILY_HEADERS = {
    "boosting": "boosting",
    "minirocket": "MiniRocket",
    "patchtst": "PatchTST",
    "itransformer": "iTransformer",
    "mae": "MAE",
}
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


def chosen_on_validation(cells, name, methods, fraction=FULL):
    """The method of ``methods`` with test records in the row whose seeds 0-4 have the highest mean validation
    h-AUROC (:func:`~hepa_bench.yardstick.choose`: 3+ seeds, the first among equals), or None."""
    tested = [m for m in methods if finite_scores(cells, name, m, fraction).size]
    records = [r for m in tested for r in cells.get((name, fraction, m), [])]
    return choose(validation_means(records, name, fraction, methods), methods)


def best_variant(cells, name, fraction=FULL):
    """The HEPA recipe (family ``"hepa"``, not retired) chosen on validation units in the row, or None."""
    variants = [m for m in tuned_variants(METHODS) if not METHODS[m].retired]
    return chosen_on_validation(cells, name, variants, fraction)


def solved_rows(events):
    """``{(dataset, fraction)}`` that the event section leaves out of its win counts (the same call)."""
    cells, _, methods, _, rows = event_rows(events)
    return excluded_rows(cells, rows, methods)[1]


def summary_table(results, events):
    """Markdown lines of the summary: caption, table and its key.

    ``results`` are C-MAPSS records (as read by
    :func:`~hepa_bench.report.cmapss.render`, filtered by
    :func:`cmapss_records`), ``events`` the event records (filtered by
    :func:`event_records`). A row for each dataset of ``events`` with
    records at 100% labels, in the registry's order. A cell is the mean over
    the seeds a method ran; the C-MAPSS records give a method's cell where
    they hold it, the event records otherwise. The best HEPA variant is the
    method of family ``"hepa"`` (untrained controls included, retired
    methods not, since they can no longer run) with the highest mean on 2+
    seeds. "Seeds" gives the fewest and most seeds of the row's cells. The
    position mark is the event section's leakage guard
    (:func:`~hepa_bench.report.events.excluded_rows`).
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

        def cell(method, named, name=name, counts=counts):
            values = finite_scores(cells, name, method) if method is not None else np.array([])
            counts.extend([values.size] if values.size else [])
            if not values.size:
                return MISSING
            return f"{values.mean():.3f} ({method})" if named else f"{values.mean():.3f}"

        row += [cell(m, named=False) for m in SUMMARY_METHODS]
        chosen = {family: chosen_on_validation(cells, name, methods) for family, methods in FAMILIES}
        best = chosen_on_validation(cells, name, [m for m in chosen.values() if m is not None])
        row.append(cell(best, named=True))
        row += [cell(chosen[family], named=len(BASELINE_FAMILIES[family]) > 1) for family in FAMILY_HEADERS]
        row.append(cell("elapsed", named=False))
        row.append(cell(best_variant(cells, name), named=True))
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
        "best baseline",
        *FAMILY_HEADERS.values(),
        "`elapsed`",
        "best HEPA variant",
        "seeds",
        "position not ruled out",
    ]
    return [
        f"{CAPTION}:",
        "",
        *markdown_table(header, rows),
        "",
        'A cell is the mean over the seeds its method ran ("seeds": the fewest and the most of the row); '
        "C-MAPSS "
        "cells come from the C-MAPSS records where the method ran there, otherwise from the event records. "
        "In each "
        f"baseline family (boosting: {', '.join(f'`{m}`' for m in BASELINE_FAMILIES['boosting'])}; "
        "MiniRocket: 252 "
        "or 9,996 features; PatchTST and iTransformer: with the global z-score, RevIN or "
        "per-operating-condition "
        "z-scores) the variant shown, named where the family has several, "
        "has the highest mean validation h-AUROC over seeds 0-4 (3 or more seeds) among the variants with "
        "test "
        "records in the row; the best baseline is the best "
        "of those on validation, and the best HEPA variant is chosen among the pretrained and untrained HEPA "
        "recipes the same way. No column is chosen by a test figure. "
        '"Position not ruled out": the leakage guard of the report\'s event benchmarks ("Reference '
        'points") finds '
        "no method significantly above the position-only score, which reads where a window sits and no "
        "sensor "
        'value; such a row counts for no method. "–": no records.',
    ]


def render_summary(
    results, events, *, pretrain_epochs=50, finetune_epochs=30, events_pretrain_epochs=None, events_finetune_epochs=None
):
    """The summary's lines from the unfiltered records of both results files (the README's block).

    The records of the former forms of baselines are left out, as in every
    table of the report (:func:`~hepa_bench.report.former.current_records`):
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
    """``python -m hepa_bench.report.summary``: write the summary of both results files between the README's
    markers."""
    parser = argparse.ArgumentParser(prog="python -m hepa_bench.report.summary", description=main.__doc__)
    parser.add_argument("--results", default="benchmarks/records/cmapss_results.jsonl")
    parser.add_argument("--events", default="benchmarks/records/event_results.jsonl")
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
