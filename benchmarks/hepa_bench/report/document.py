"""The markdown report of the results files (C-MAPSS, snapshot study, event benchmarks): ``docs/benchmarks.md``.

The C-MAPSS tables are :mod:`hepa_bench.report.cmapss`, the event tables
:mod:`hepa_bench.report.events` and, for the rolling origin's seeds,
:mod:`hepa_bench.report.rolling`, the snapshot study
:func:`hepa_bench.snapshots.markdown`, the simulated fleets
:mod:`hepa_bench.report.simulated` (their causes :mod:`hepa_bench.report.causes`), the former forms of
baselines :mod:`hepa_bench.report.former`; the paired tests and Holm's
correction they share are :mod:`hepa_bench.stats`. The command that writes it is
:mod:`hepa_bench.report.cli`.
"""

import json
import warnings

from ..results import CELL_FIELDS, read_results
from ..yardstick import read_family, render_family
from .causes import render_causes
from .cmapss import render
from .events import render_events
from .families import render_families
from .former import current_records, former_section
from .nasa import render_nasa
from .rolling import render_rolling
from .simulated import render_simulated
from .snapshots import markdown
from .summary import summary_section

__all__ = ["render", "render_events", "render_report"]


def render_report(
    results,
    *,
    snapshots=None,
    events=None,
    pretrain_epochs=50,
    finetune_epochs=30,
    events_pretrain_epochs=None,
    events_finetune_epochs=None,
    simulated=None,
    causes=None,
    families=(),
    yardstick=(),
    nasa=None,
):
    """The report's text from the results files: the C-MAPSS ``results``, then the optional sections.

    ``yardstick`` is the primary family's file followed by its results files
    (:mod:`hepa_bench.yardstick`); its section comes last, after that of ``nasa``, the records
    of the rows on NASA's test engines (:mod:`hepa_bench.report.nasa`).

    ``families`` are results files of the method families (:mod:`hepa_bench.report.families`), read in
    order; their section comes last and is left out when they hold no record of a family. A family whose
    reference is a C-MAPSS benchmark entry reads that entry's cells from ``results``.
    """
    cmapss_all = report_records(results, "results")
    cmapss = current_records(cmapss_all)  # the former forms of baselines have a section of their own
    text = render(cmapss, pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs)
    if events:  # the summary table of both files, near the top
        text = summary_section(
            text,
            cmapss,
            current_records(report_records(events, "events")),
            pretrain_epochs=pretrain_epochs,
            finetune_epochs=finetune_epochs,
            events_pretrain_epochs=events_pretrain_epochs,
            events_finetune_epochs=events_finetune_epochs,
        )
    if snapshots:
        text = text.rstrip("\n") + "\n\n" + "\n".join(markdown(report_records(snapshots, "snapshots"))) + "\n"
    if events:
        event_all = report_records(events, "events")
        event_results = current_records(event_all)
        text = (
            text.rstrip("\n")
            + "\n\n"
            + render_events(
                event_results, pretrain_epochs=events_pretrain_epochs, finetune_epochs=events_finetune_epochs
            )
        )
        if events_pretrain_epochs is None and events_finetune_epochs is None:
            rolling = render_rolling(event_results)
            if rolling:
                text = text.rstrip("\n") + "\n\n" + "\n".join(rolling)
    former = former_section(cmapss_all, title="C-MAPSS: boosting with release 0.2.0's targets and now")
    if events:
        former += [""] * bool(former) + former_section(
            event_all, title="Event benchmarks: boosting with release 0.2.0's targets and now"
        )
    if former:
        text = text.rstrip("\n") + "\n\n" + "\n".join(former) + "\n"
    simulated_lines = render_simulated(report_records(simulated, "simulated")) if simulated else []
    if simulated_lines:
        text = text.rstrip("\n") + "\n\n" + "\n".join(simulated_lines)
    # the optional sections' records: one without the fields of its cell is skipped with a warning naming it
    cause_lines = render_causes(read_results(causes, CELL_FIELDS, damaged="warn")) if causes else []
    if cause_lines:
        text = text.rstrip("\n") + "\n\n" + "\n".join(cause_lines)
    family_files = [read_results(path, CELL_FIELDS, damaged="warn") for path in families]
    family_lines = render_families(family_files, results=cmapss) if families else []
    if family_lines:
        text = text.rstrip("\n") + "\n\n" + "\n".join(family_lines) + "\n"
    nasa_lines = render_nasa(read_results(nasa, CELL_FIELDS, damaged="warn")) if nasa else []
    if nasa_lines:
        text = text.rstrip("\n") + "\n\n" + "\n".join(nasa_lines) + "\n"
    if yardstick:
        family, *files = yardstick
        records = [r for path in files for r in read_results(path, CELL_FIELDS, damaged="warn")]
        lines = render_family(read_family(family), records)
        text = text.rstrip("\n") + "\n\n## The yardstick's primary family\n\n" + "\n".join(lines) + "\n"
    return text


# the fields each kind of results file must give a record for the report to read it, and their types
RECORD_FIELDS = {
    "results": {
        "method": str,
        "seed": int,
        "fraction": (int, float),
        "pretrain_epochs": int,
        "finetune_epochs": int,
        "versions": dict,
    },
    "events": {
        "dataset": str,
        "method": str,
        "seed": int,
        "fraction": (int, float),
        "pretrain_epochs": int,
        "finetune_epochs": int,
    },
    "snapshots": {"subset": str, "method": str, "seed": int, "epoch": int},
    "simulated": {"dataset": str, "method": str, "seed": int, "fraction": (int, float)},
}


def _shape_problem(record, kind):
    """Why ``record`` cannot be read as a record of ``kind``, or None."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not an object"
    fields = dict(RECORD_FIELDS[kind])
    if kind == "results":  # records of the former C-MAPSS sweep name their dataset ``subset``
        fields["subset" if "subset" in record else "dataset"] = str
    missing = [name for name in fields if name not in record]
    if missing:
        return f"no field {missing}"
    wrong = [
        name for name, types in fields.items() if not isinstance(record[name], types) or isinstance(record[name], bool)
    ]
    return f"fields {wrong} of another type" if wrong else None


def report_records(path, kind):
    """The records of the results file ``path`` that have the shape of ``kind``; a warning names each line skipped.

    A torn last line (a sweep killed while appending) is skipped silently,
    as :func:`~hepa_bench.results.read_results` does.
    """
    records = []
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            if number < len(lines):  # a whole line that is not JSON; the torn last one is expected
                warnings.warn(f"{path}, line {number}: skipped, not a JSON record.", stacklevel=2)
            continue
        problem = _shape_problem(record, kind)
        if problem:
            warnings.warn(f"{path}, line {number}: skipped, {problem} (not a {kind} record).", stacklevel=2)
        else:
            records.append(record)
    return records
