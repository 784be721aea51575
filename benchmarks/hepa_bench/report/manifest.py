"""The manifest of the generated documents: each one's output and the records it is built from.

``benchmarks/manifest.json`` names every document that ``hepa-bench report`` writes from the
committed records, so that the command with no argument regenerates them all, byte for byte::

    {
      "root": "..",
      "documents": [
        {"output": "docs/benchmarks.md", "kind": "report",
         "inputs": {"results": "benchmarks/records/cmapss_results.jsonl", "events": "...", ...}},
        {"output": "README.md", "kind": "summary",
         "inputs": {"results": "benchmarks/records/cmapss_results.jsonl", "events": "..."}}
      ],
      "figures": [{"output": "docs/snapshots.png", "inputs": ["..."], "command": "hepa-bench snapshots ..."}]
    }

``root`` is the folder the paths are relative to, itself relative to the manifest's folder (the
repository root). A document of kind ``"report"`` is the whole file that
:func:`~hepa_bench.report.document.render_report` writes, its ``inputs`` named as the command's
options (``results``, ``snapshots``, ``events``, ``simulated``, ``causes``, ``families``, ``nasa``,
``yardstick``; the epochs options too). A document of kind ``"summary"`` is the summary table
between the markers of a file that holds them (:mod:`hepa_bench.report.summary`), from its
``results`` and ``events``. A document of kind ``"findings"`` is a file whose blocks between
``<!-- generated:NAME:start -->`` markers :mod:`hepa_bench.report.findings` renders from the sources
it names (no ``inputs``), reading the documents rendered before it in the manifest as they will be
written. ``figures`` are listed for the map of what is built from what: each is
drawn by its ``command``, not by ``hepa-bench report``.
"""

import json
from pathlib import Path
from typing import NamedTuple

from ..results import read_results
from .document import render_report
from .findings import SOURCES as FINDINGS_SOURCES
from .findings import Sources, regenerated
from .summary import render_summary, with_readme_block

__all__ = [
    "MANIFEST",
    "Document",
    "Manifest",
    "find_manifest",
    "input_paths",
    "read_manifest",
    "render_document",
    "render_manifest",
]

# where ``hepa-bench report`` looks for it, from the current folder up
MANIFEST = Path("benchmarks") / "manifest.json"
FILES = ("results", "snapshots", "events", "simulated", "causes", "nasa")  # one path each
FILE_LISTS = ("families", "yardstick")  # a list of paths each
EPOCHS = ("pretrain_epochs", "finetune_epochs", "events_pretrain_epochs", "events_finetune_epochs")
INPUTS = {"report": (*FILES, *FILE_LISTS, *EPOCHS), "summary": ("results", "events"), "findings": ()}
REQUIRED = {"report": ("results",), "summary": ("results", "events"), "findings": ()}


class Document(NamedTuple):
    """One generated document: its ``output`` path, its ``kind``, its ``inputs`` (paths resolved) and the
    ``root`` they are relative to."""

    output: Path
    kind: str
    inputs: dict
    root: Path


class Manifest(NamedTuple):
    """A read manifest: its ``path``, the ``root`` its paths are relative to, its documents and figures."""

    path: Path
    root: Path
    documents: list
    figures: list


def find_manifest(start=None):
    """``benchmarks/manifest.json`` in ``start`` (default: the current folder) or the nearest folder above
    it."""
    folder = Path(start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / MANIFEST).is_file():
            return candidate / MANIFEST
    raise SystemExit(
        f"hepa-bench report: no input given and no {MANIFEST} in {folder} or a folder above it; "
        "name the manifest (--manifest FILE) or the inputs (--results FILE ...)."
    )


def _problem(path, why):
    return SystemExit(f"hepa-bench report: the manifest {path} {why}; nothing was written.")


def _document(entry, number, path, root):
    """The :class:`Document` of the manifest's ``number``-th entry, its paths resolved against ``root``."""
    where = f"document {number}"
    if not isinstance(entry, dict) or not isinstance(entry.get("output"), str):
        raise _problem(path, f"names no output in its {where}")
    kind = entry.get("kind")
    if kind not in INPUTS:
        why = f"the kind {kind!r}, not one of {sorted(INPUTS)}"
        raise _problem(path, f"gives {where} ({entry['output']}) {why}")
    inputs = entry.get("inputs")
    if not isinstance(inputs, dict):
        raise _problem(path, f"gives {where} ({entry['output']}) no object of inputs")
    unknown = sorted(set(inputs) - set(INPUTS[kind]))
    missing = [name for name in REQUIRED[kind] if name not in inputs]
    if unknown or missing:
        why = f"unknown inputs {unknown}" if unknown else f"no input {missing}"
        raise _problem(path, f"gives {where} ({entry['output']}), of kind {kind!r}, {why}")
    resolved = {}
    for name, value in inputs.items():
        if name in EPOCHS:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif name in FILE_LISTS:
            ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
        else:
            ok = isinstance(value, str)
        if not ok:
            raise _problem(path, f"gives {where} ({entry['output']}) an input {name!r} of another type")
        if name in FILE_LISTS:
            resolved[name] = [root / item for item in value]
        else:
            resolved[name] = value if name in EPOCHS else root / value
    return Document(root / entry["output"], kind, resolved, root)


def read_manifest(path):
    """The :class:`Manifest` of the JSON file ``path``; SystemExit naming what is wrong with it."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise _problem(path, "does not exist") from None
    except json.JSONDecodeError as error:
        raise _problem(path, f"is not valid JSON ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("documents"), list) or not data["documents"]:
        raise _problem(path, "holds no list of documents")
    root = (path.parent / data.get("root", ".")).resolve()
    entries = enumerate(data["documents"], start=1)
    documents = [_document(entry, number, path, root) for number, entry in entries]
    outputs = [document.output for document in documents]
    if len(set(outputs)) < len(outputs):
        raise _problem(path, "names one output twice")
    return Manifest(path, root, documents, list(data.get("figures", [])))


def input_paths(document):
    """The files ``document`` is built from (for a summary, the file whose block it replaces too)."""
    if document.kind == "findings":  # the sources its generator names, and the file whose blocks it replaces
        return [document.root / path for path in FINDINGS_SOURCES.values()] + [document.output]
    paths = [path for name, value in document.inputs.items() if name not in EPOCHS for path in _listed(value)]
    return paths + [document.output] * (document.kind == "summary")


def _listed(value):
    return value if isinstance(value, list) else [value]


def render_document(document, rendered=None):
    """The whole text that ``document`` should hold, from its inputs; ``rendered`` (``{path: text}``) holds
    the documents rendered before it, which a findings document reads in place of their files."""
    inputs = dict(document.inputs)
    if document.kind == "findings":
        texts = {Path(path).resolve(): text for path, text in (rendered or {}).items()}
        return regenerated(document.output.read_text(encoding="utf-8"), Sources(document.root, texts))
    if document.kind == "summary":
        lines = render_summary(read_results(inputs["results"]), read_results(inputs["events"]))
        return with_readme_block(document.output.read_text(), lines)
    return render_report(inputs.pop("results"), **inputs)


def render_manifest(manifest):
    """``{output path: text}`` of every document of ``manifest`` (a :class:`Manifest`), in its order."""
    texts = {}
    for document in manifest.documents:
        texts[document.output] = render_document(document, texts)
    return texts
