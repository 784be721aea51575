"""``hepa-bench report``: every generated document from the manifest, or one report from the files named.

With no input option the command reads the manifest (:mod:`hepa_bench.report.manifest`:
``benchmarks/manifest.json`` in the current folder or the nearest folder above it, or
``--manifest FILE``) and writes every document it names from the records it names:
``docs/benchmarks.md`` and the README's summary table. Naming the inputs (``--results FILE
--events FILE ...``) writes that one report to ``--output``, as the command always did. With
``--check`` it writes nothing and fails naming each document that differs from what its
records give.
"""

import os
import tempfile

from .document import render_report
from .manifest import find_manifest, input_paths, read_manifest, render_document

__all__ = ["add_arguments", "check_inputs", "run", "write_report"]

# the options that name an input file: with none of them, the manifest names every input
INPUT_OPTIONS = ("results", "snapshots", "events", "simulated", "causes", "families", "nasa", "yardstick")
# the options of one report from the files named; the manifest gives each document's own
EPOCH_OPTIONS = ("pretrain_epochs", "finetune_epochs", "events_pretrain_epochs", "events_finetune_epochs")
EXPLICIT_OPTIONS = ("output", *EPOCH_OPTIONS)
# the explicit form's defaults, as the command always had them
DEFAULTS = {"results": "cmapss_results.jsonl", "output": "benchmarks.md"}
DEFAULTS.update(pretrain_epochs=50, finetune_epochs=30)


def check_inputs(args):
    """SystemExit naming each input option whose file does not exist, or an output that cannot be written."""
    named = [(option, getattr(args, option[2:], None)) for option in ("--results", "--events", "--snapshots")]
    named += [(option, getattr(args, option[2:], None)) for option in ("--simulated", "--causes", "--nasa")]
    named += [("--families", path) for path in getattr(args, "families", None) or ()]
    named += [("--yardstick", path) for path in getattr(args, "yardstick", None) or ()]
    for option, path in named:
        if path is not None and not os.path.isfile(path):
            why = "which is not a file; nothing was written"
            raise SystemExit(f"hepa-bench report: {option} names {path}, {why}.")
    output = getattr(args, "output", "-")
    if output != "-":  # the report is written beside its output: a folder there, and no folder in its place
        folder = os.path.dirname(os.path.abspath(output))
        if os.path.isdir(output):
            why = "which is a folder; name the markdown file to write"
        elif not os.path.isdir(folder):
            why = f"but {folder} is not a folder; name a file in an existing folder"
        else:
            return
        raise SystemExit(f"hepa-bench report: --output names {output}, {why}; nothing was written.")


def write_report(text, output, allow_shorter=False):
    """Write ``text`` to ``output`` in one step; SystemExit when it has fewer lines than the file it
    replaces."""
    if output == "-":
        print(text)
        return
    if os.path.isfile(output) and not allow_shorter:
        with open(output) as handle:
            before = sum(1 for _ in handle)
        after = len(text.splitlines())
        if after < before:
            raise SystemExit(
                f"hepa-bench report: the new report has {after} lines, {output} has {before}; it was "
                "left as it is. Check the inputs, or pass --allow-shorter to replace it."
            )
    replace_file(output, text)
    print(f"wrote {output}")


def replace_file(path, text):
    """``path`` replaced by ``text`` in one rename (a reader never sees half a file)."""
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".part") as handle:
        handle.write(text)
    os.replace(handle.name, path)


def holds(path, text):
    """Whether the file ``path`` holds ``text``, byte for byte."""
    return os.path.isfile(path) and open(path, "rb").read() == text.encode()


def add_arguments(parser):
    parser.add_argument(
        "--results",
        default=None,
        help="results of the C-MAPSS cells (default cmapss_results.jsonl once another input is named; "
        "with no input named, every document of the manifest is written)",
    )
    output = "markdown file to write ('-' for standard output; default benchmarks.md)"
    parser.add_argument("--output", default=None, help=output)
    shorter = "replace an output even with a report of fewer lines than it holds"
    parser.add_argument("--allow-shorter", action="store_true", help=shorter)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail naming each output that differs from what its records give",
    )
    parser.add_argument(
        "--manifest",
        default=None,
        metavar="FILE",
        help="the manifest of the generated documents, read when no input is named "
        "(default: benchmarks/manifest.json in the current folder or the nearest folder above it)",
    )
    epochs = "C-MAPSS records' {} epochs (default {})"
    parser.add_argument("--pretrain-epochs", type=int, default=None, help=epochs.format("pretraining", 50))
    parser.add_argument("--finetune-epochs", type=int, default=None, help=epochs.format("finetuning", 30))
    parser.add_argument(
        "--events",
        default=None,
        help="results of `hepa-bench run` on the event benchmarks to add as a section (optional)",
    )
    parser.add_argument(
        "--events-pretrain-epochs",
        type=int,
        default=None,
        help="event records' pretraining epochs (default: each dataset's own)",
    )
    parser.add_argument(
        "--events-finetune-epochs",
        type=int,
        default=None,
        help="event records' finetuning epochs (default: each dataset's own)",
    )
    parser.add_argument(
        "--snapshots", default=None, help="results of `hepa-bench snapshots` to add as a section (optional)"
    )
    simulated = "results of `hepa-bench run` on the simulated rows (sim-default, ...) to add as a section"
    parser.add_argument("--simulated", default=None, help=simulated + " (optional)")
    parser.add_argument(
        "--causes",
        default=None,
        help="results of `python -m hepa_bench.simulated.causes` to add as a section (optional)",
    )
    parser.add_argument(
        "--families",
        nargs="+",
        default=(),
        metavar="FILE",
        help="results of the method families (hepa-norm-*, hepa-level-*, ...) to add as a section (optional)",
    )
    nasa = "results of `hepa-bench run` on the rows on NASA's test engines (optional)"
    parser.add_argument("--nasa", default=None, help=nasa)
    parser.add_argument(
        "--yardstick",
        nargs="+",
        default=(),
        metavar="FILE",
        help="the yardstick's family file, then its results files, to add as the last section (optional)",
    )


def run(args):
    if any(getattr(args, name, None) for name in INPUT_OPTIONS):
        if getattr(args, "manifest", None):
            raise SystemExit(
                "hepa-bench report: --manifest names every input itself; name either the manifest or the "
                "inputs. Nothing was written."
            )
        run_files(args)
    else:
        run_manifest(args)


def run_files(args):
    """The report of the files named, written to ``--output`` (or with ``--check`` compared with it)."""
    for name, value in DEFAULTS.items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)
    check_inputs(args)
    text = render_report(
        args.results,
        snapshots=args.snapshots,
        events=args.events,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        events_pretrain_epochs=args.events_pretrain_epochs,
        events_finetune_epochs=args.events_finetune_epochs,
        simulated=args.simulated,
        causes=args.causes,
        families=args.families,
        yardstick=args.yardstick,
        nasa=args.nasa,
    )
    if getattr(args, "check", False):
        check_outputs({args.output: text})
    else:
        write_report(text, args.output, args.allow_shorter)


def run_manifest(args):
    """Every document of the manifest from its records: written, or with ``--check`` compared."""
    given = [name for name in EXPLICIT_OPTIONS if getattr(args, name, None) is not None]
    given = [f"--{name.replace('_', '-')}" for name in given]
    if given:
        raise SystemExit(
            f"hepa-bench report: {', '.join(given)} goes with the inputs named (--results FILE ...); the "
            "manifest gives each document's output and inputs. Nothing was written."
        )
    manifest = read_manifest(args.manifest or find_manifest())
    inputs = [path for document in manifest.documents for path in input_paths(document)]
    missing = [str(path) for path in inputs if not path.is_file()]
    if missing:
        raise SystemExit(
            f"hepa-bench report: the manifest {manifest.path} names {', '.join(missing)}, which is not a "
            "file; nothing was written."
        )
    rendered = {}
    for document in manifest.documents:
        rendered[document.output] = render_document(document, rendered)
    texts = {os.path.relpath(output): text for output, text in rendered.items()}
    if args.check:
        check_outputs(texts)
        return
    for document, (output, text) in zip(manifest.documents, texts.items(), strict=True):
        if holds(output, text):
            print(f"{output}: as its records give it")
        elif document.kind == "report":
            write_report(text, output, args.allow_shorter)
        else:  # a block of a file: the file's other lines are kept as they are
            replace_file(output, text)
            print(f"wrote {output}")


def check_outputs(texts):
    """SystemExit naming each output of ``texts`` (``{path: text}``) that does not hold its text."""
    stale = [output for output, text in texts.items() if not holds(output, text)]
    if stale:
        raise SystemExit(
            f"hepa-bench report --check: {', '.join(stale)} differ from what the records give; "
            "`hepa-bench report` rewrites them."
        )
    print(f"hepa-bench report --check: {', '.join(texts)} as the records give them")
