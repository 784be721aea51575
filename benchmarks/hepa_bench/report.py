"""``hepa-bench report``: the markdown report of the results files (C-MAPSS, snapshot study, event benchmarks).

The C-MAPSS tables are :mod:`hepa_bench.report_cmapss`, the event tables
:mod:`hepa_bench.report_events` and, for the rolling origin's seeds,
:mod:`hepa_bench.report_rolling`, the snapshot study
:func:`hepa_bench.snapshots.markdown`, the simulated fleets
:mod:`hepa_bench.report_simulated`; the paired tests and Holm's
correction they share are :mod:`hepa_bench.stats`.
"""

from .report_cmapss import render
from .report_events import render_events
from .report_rolling import render_rolling
from .report_simulated import render_simulated
from .report_summary import summary_section
from .results import read_results
from .snapshots_report import markdown

__all__ = ["render", "render_events", "render_report"]


def render_report(results, *, snapshots=None, events=None, pretrain_epochs=50, finetune_epochs=30,
                  events_pretrain_epochs=None, events_finetune_epochs=None, simulated=None):
    """The report's text from the results files: the C-MAPSS ``results``, then the optional sections."""
    text = render(read_results(results), pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs)
    if events:  # the summary table of both files, near the top
        text = summary_section(text, read_results(results), read_results(events), pretrain_epochs=pretrain_epochs,
                               finetune_epochs=finetune_epochs, events_pretrain_epochs=events_pretrain_epochs,
                               events_finetune_epochs=events_finetune_epochs)
    if snapshots:
        text = text.rstrip("\n") + "\n\n" + "\n".join(markdown(read_results(snapshots))) + "\n"
    if events:
        event_results = read_results(events)
        text = text.rstrip("\n") + "\n\n" + render_events(
            event_results, pretrain_epochs=events_pretrain_epochs, finetune_epochs=events_finetune_epochs)
        if events_pretrain_epochs is None and events_finetune_epochs is None:
            rolling = render_rolling(event_results)
            if rolling:
                text = text.rstrip("\n") + "\n\n" + "\n".join(rolling)
    simulated_lines = render_simulated(read_results(simulated)) if simulated else []
    if simulated_lines:
        text = text.rstrip("\n") + "\n\n" + "\n".join(simulated_lines)
    return text


def add_arguments(parser):
    parser.add_argument("--results", default="cmapss_results.jsonl")
    parser.add_argument("--output", default="benchmarks.md",
                        help="markdown file to write ('-' for standard output)")
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--events", default=None,
                        help="results of `hepa-bench run` on the event benchmarks to add as a section (optional)")
    parser.add_argument("--events-pretrain-epochs", type=int, default=None,
                        help="event records' pretraining epochs (default: each dataset's own)")
    parser.add_argument("--events-finetune-epochs", type=int, default=None,
                        help="event records' finetuning epochs (default: each dataset's own)")
    parser.add_argument("--snapshots", default=None,
                        help="results of `hepa-bench snapshots` to add as a section (optional)")
    parser.add_argument("--simulated", default=None,
                        help="results of `python -m hepa_bench.simulated` to add as a section (optional)")


def run(args):
    text = render_report(args.results, snapshots=args.snapshots, events=args.events,
                         pretrain_epochs=args.pretrain_epochs, finetune_epochs=args.finetune_epochs,
                         events_pretrain_epochs=args.events_pretrain_epochs,
                         events_finetune_epochs=args.events_finetune_epochs, simulated=args.simulated)
    if args.output == "-":
        print(text)
    else:
        with open(args.output, "w") as handle:
            handle.write(text)
        print(f"wrote {args.output}")
