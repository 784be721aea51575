"""The tables of ``docs/findings.md`` and the figure lists its sentences quote, generated from the records.

Each block of the document between ``<!-- generated:NAME:start -->`` and
``<!-- generated:NAME:end -->`` is what ``BLOCKS[NAME]`` renders from its sources: cells of the
generated report ``docs/benchmarks.md`` (which regenerates byte for byte from the result records),
result records, and the printed outputs of the experiments, each named in ``SOURCES``. A table's
markers stand on lines of their own, a blank line between them and the table; a list of figures
quoted inside a sentence (``FD001 0.976, FD002 0.978 ... and VIX 0.750``) stands on one line
between its markers. A block holds no figure of its own making: every number in it is a cell or a
record as printed, or a mean, difference or ratio of them written the way the document writes
figures (a decimal the source printed with more places rounded half up, a negative sign as ``−``
where the document's table writes it so).

``python -m hepa_bench.report.findings`` rewrites every block of the document in place (``--check``
only reports the blocks that differ); ``tests/test_claims.py`` regenerates them and compares them
byte for byte, and the claims check (``tests/claims_check.py``) leaves the numbers inside them to
that test.
"""

import argparse
import functools
import json
import math
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

__all__ = [
    "BLOCKS",
    "DOCUMENT",
    "SOURCES",
    "Sources",
    "blocks_of",
    "formatted",
    "main",
    "markdown_tables",
    "regenerated",
    "rendered_blocks",
]

# every file a block reads, relative to the repository root (the one place to change when one moves)
SOURCES = {
    "report": "docs/benchmarks.md",
    "reference_pretraining": "benchmarks/experiments/reference_pretraining/reference_pretraining.txt",
    "predictor_init": "benchmarks/retired/predictor_init.txt",
    "embedding_pca": "benchmarks/retired/embedding_pca.txt",
    "predictor_outputs": "benchmarks/retired/predictor_outputs.txt",
    "corpus_screen": "benchmarks/records/screen_corpus_results.jsonl",
    "default_screen": "benchmarks/retired/default_screen.txt",
    "default_judgement": "benchmarks/retired/default_judgement.txt",
    "speed": "benchmarks/outputs/speed_reference_cpu.txt",
    "time_to_quality": "benchmarks/experiments/time_to_quality/time_to_quality.txt",
}
DOCUMENT = "docs/findings.md"

DASH = "—"
MINUS = "−"


# --- reading the sources


def markdown_tables(text):
    """The tables of a markdown text: ``[(heading chain, header, rows)]`` in order, each cell stripped.

    The heading chain holds the headings above the table, outermost first (a level skipped is left
    out); a table is a line starting with ``|`` followed by a ``|-`` separator line."""
    chain, tables, lines = [], [], text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = re.match(r"(#+)\s+(.*)", line)
        if heading:
            level = len(heading[1])
            chain = chain[: level - 1] + [""] * (level - 1 - len(chain)) + [heading[2].strip()]
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"\|\s*-", lines[i + 1]):
            header = [c.strip() for c in line.strip().strip("|").split("|")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            tables.append((tuple(h for h in chain if h), header, rows))
            continue
        i += 1
    return tables


def formatted(value, spec):
    """``value`` written with ``spec``: ``"printed"`` (the source's own string), ``"percent .1"`` (a
    share as a percentage with one decimal, without the sign) or a format spec of Python's; a
    number the source printed (a string) with fewer decimals is rounded half up."""
    if spec == "printed":
        assert isinstance(value, str), value
        return value
    if isinstance(value, str):  # a printed decimal, rounded half up as a reader would
        value = Decimal(value)
        places = re.fullmatch(r"\.(\d+)f", spec)
        if places:
            return format(value.quantize(Decimal(1).scaleb(-int(places[1])), rounding=ROUND_HALF_UP), "f")
    if spec.startswith("percent"):
        return format(value * 100, spec.split()[1] + "f")
    return format(value, spec)


class Table:
    """A table of a markdown file: its header and rows, each cell found by the first cells of its row."""

    def __init__(self, name, header, rows):
        self.name, self.header, self.rows = name, header, rows

    def row(self, *keys):
        chosen = [r for r in self.rows if tuple(r[: len(keys)]) == keys]
        if len(chosen) != 1:
            raise KeyError(f"{self.name}: {len(chosen)} rows {keys}")
        return chosen[0]

    def has(self, column):
        return column in self.header

    def cell(self, keys, column):
        """The cell of column ``column`` in the row whose first cells are ``keys`` (a string: the first)."""
        keys = (keys,) if isinstance(keys, str) else tuple(keys)
        if self.header.count(column) != 1:
            raise KeyError(f"{self.name}: column {column!r} not once in {self.header}")
        return self.row(*keys)[self.header.index(column)]


class Sources:
    """The files of ``SOURCES`` under the repository root ``root``, each read once (``texts``: the text of
    some of them as it is about to be written)."""

    def __init__(self, root=".", texts=None):
        self.root = Path(root)
        self.texts = dict(texts or {})  # {resolved path: text} read in place of the file

    @functools.cache  # noqa: B019 (a Sources lives as long as one regeneration)
    def text(self, key):
        path = (self.root / SOURCES[key]).resolve()
        return self.texts[path] if path in self.texts else path.read_text(encoding="utf-8")

    @functools.cache  # noqa: B019
    def tables(self, key):
        return markdown_tables(self.text(key))

    def table(self, key, heading="", n=0):
        """Table ``n`` (0 the first) under the headings ``heading`` (the innermost ones, joined by
        `` / ``; ``""``: any table of the file)."""
        wanted = tuple(heading.split(" / ")) if heading else ()
        found = [t for t in self.tables(key) if not wanted or t[0][-len(wanted) :] == wanted]
        if len(found) <= n:
            raise KeyError(f"{SOURCES[key]}: {len(found)} tables under {heading!r}")
        _, header, rows = found[n]
        return Table(f"{SOURCES[key]}: {heading or 'table'} [{n}]", header, rows)

    @functools.cache  # noqa: B019
    def records(self, key):
        """The JSON records of a results file or of a printed output (its lines that are records)."""
        return tuple(json.loads(line) for line in self.text(key).splitlines() if line.startswith("{"))

    def line(self, key, pattern):
        """What ``pattern``'s first group captures on each line of the file it matches, in order."""
        return [m[1] for m in (re.search(pattern, line) for line in self.text(key).splitlines()) if m]


def signed(text):
    """A printed number with a negative sign written ``−``, as the document's tables write it."""
    return MINUS + text[1:] if text.startswith("-") else text


def mean_sd(cell):
    """``mean ± sd`` of a report cell ``0.957 ± 0.022 (5) >m``; a dash stays a dash."""
    if cell == DASH:
        return DASH
    match = re.match(r"(−?\d+\.\d+) ± (\d+\.\d+) \(\d+\)", cell)
    if not match:
        raise ValueError(f"not a cell of a mean over seeds: {cell!r}")
    return f"{match[1]} ± {match[2]}"


def mean_of(cell):
    """The mean of a report cell (``0.957`` of ``0.957 ± 0.022 (5) >m``, or of a quoted ``0.81 ± 0.03``)."""
    if cell == DASH:
        return DASH
    match = re.match(r"−?\d+\.\d+", cell)
    if not match:
        raise ValueError(f"no figure in the cell {cell!r}")
    return match[0]


def best_quoted(cell):
    """The paper's best baseline as the report quotes it (``PatchTST 0.81 ± 0.01, MAE 0.81 ± 0.01``),
    written with the figure once after the names (``PatchTST, MAE 0.81``)."""
    if cell == DASH:
        return DASH
    parts = [re.fullmatch(r"(.+) (\d\.\d+) ± \d\.\d+", part) for part in cell.split(", ")]
    if not all(parts) or len({p[2] for p in parts}) != 1:
        raise ValueError(f"not one quoted figure of one or more methods: {cell!r}")
    return ", ".join(p[1] for p in parts) + " " + parts[0][2]


def table_lines(header, rows):
    """Lines of a markdown table, an empty cell written as a single space."""

    def line(cells):
        return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"

    return [line(header), "|" + "---|" * len(header)] + [line(row) for row in rows]


# --- the blocks

REPORT_HAUROC = "C-MAPSS benchmark / h-AUROC, 100% labels"
REPORT_EVENTS = "C-MAPSS benchmark / Event benchmarks"


def label_efficiency(sources, subset):
    return sources.table("report", f"Label efficiency / {subset}")


def authors_pretraining(sources):
    """The authors' code on FD001 with and without pretraining, per seed (``reference_pretraining.py
    --summarize``)."""
    table = sources.table("reference_pretraining")
    columns = {
        "untrained (--pre-epochs 0)": "untrained (`--pre-epochs 0`)",
        "pretrained (--pre-epochs 50)": "pretrained (`--pre-epochs 50`)",
        "pretrained - untrained": f"pretrained {MINUS} untrained",
    }
    rows = [[row[0]] + [signed(table.cell(row[0], c)) for c in columns] for row in table.rows]
    return table_lines(["seed", *columns.values()], rows)


def predictor_init(sources):
    """FD001, the event head started at random or from the JEPA predictor, per seed (the retired
    ``predictor_init.py``)."""
    table = sources.table("predictor_init")
    columns = {
        "random start (`hepa`)": "random start (`hepa`)",
        "pretrained start (`hepa-init`)": "pretrained start (`hepa-init`)",
        "pretrained - random": f"pretrained {MINUS} random",
    }
    rows = [[row[0]] + [signed(table.cell(row[0], c)) for c in columns] for row in table.rows]
    return table_lines(["seed", *columns.values()], rows)


def embedding_pca(sources):
    """PC1's share of the variance and Spearman's ρ between PC1 and the time to event, per dataset and
    encoder (the first run of the retired ``embedding_pca.py``, seed 0)."""
    fields = ("pc1_share", "spearman_rho_pc1_time")
    rows = [
        [r["dataset"], r["encoder"], *(signed(f"{r[field]:.3f}") for field in fields)]
        for r in sources.records("embedding_pca")
        if "n_units" not in r  # the FD001 rerun adding the median ρ within each engine: quoted in the text
    ]
    return table_lines(["dataset", "encoder", "PC1 share", "ρ(PC1, time to event)"], rows)


def predictor_outputs(sources):
    """The predictor's outputs' shift from the embedding and their cosine with it at three horizons
    (the retired ``predictor_outputs.py``, seed 0, test windows)."""
    records = sources.records("predictor_outputs")
    (horizons,) = {tuple(r["horizons"]) for r in records}
    at = " / ".join(str(k) for k in horizons)

    def three(values):  # as the record prints them, rounded half up
        return " / ".join(signed(formatted(repr(v), ".3f")) for v in values)

    rows = [[r["dataset"], three(r["relative_shift"]), three(r["cosine_with_embedding"])] for r in records]
    return table_lines(["dataset", f"shift at k = {at}", f"cosine of ĥ(t, k) with h_t at k = {at}"], rows)


CORPUS_DEFAULT = "hepa-default-auto0-knots12"
CORPUS_DESIGNS = {  # each design of the corpus screen, in the order of corpus_screen.txt, with its encoder
    CORPUS_DEFAULT: "the default: patch tokens, width 256, untrained",
    "hepa-u64-untrained": "channel tokens, width 64, untrained",
    "hepa-u64-own": "width 64, pretrained on the cell's own windows",
    "hepa-corpus-u64": "width 64, pretrained on the corpus, frozen",
    "hepa-corpus-u64-continued": "the same, pretraining continued on the cell's windows",
    "hepa-corpus-u64-sim30": "width 64, a corpus whose windows are 30 % simulated fleets",
    "hepa-u128-untrained": "channel tokens, width 128, untrained",
    "hepa-corpus-u128": "width 128, pretrained on the corpus, frozen",
    "hepa-corpus-u128-half": "width 128, pretrained on half the corpus for twice the epochs",
    "hepa-corpus-u128-h50": "width 128, pretrained on JEPA horizons 1..50",
    "hepa-u128-l4-untrained": "channel tokens, width 128, four layers, untrained",
    "hepa-corpus-u128-l4": "width 128, four layers, pretrained on the corpus, frozen",
    "hepa-u128-finetuned": "width 128, untrained, finetuned with the event head",
    "hepa-corpus-u128-finetuned": "width 128, pretrained on the corpus, finetuned with the head",
    "hepa-u256-untrained": "channel tokens, width 256, untrained",
    "hepa-corpus-u256": "width 256, pretrained on the corpus, frozen",
}


def corpus_screen_means(sources):
    """Each design's mean validation h-AUROC over the cells (dataset, fraction, seed) of the corpus
    screen, every design over the default's cells."""
    records = [r for r in sources.records("corpus_screen") if r.get("scope") == "validation"]
    cells = {}
    for r in records:
        cells.setdefault(r["method"], {})[(r["dataset"], r["fraction"], r["seed"])] = r["valid_h_auroc"]
    for method in CORPUS_DESIGNS:
        if cells[method].keys() != cells[CORPUS_DEFAULT].keys():
            raise ValueError(f"{method} has other cells of the corpus screen than {CORPUS_DEFAULT}")
    return {m: math.fsum(cells[m].values()) / len(cells[m]) for m in CORPUS_DESIGNS}


def corpus_screen(sources):
    """Mean validation h-AUROC of each design of the corpus screen, and its difference from the default's."""
    means = corpus_screen_means(sources)
    rows = [
        [
            f"`{method}`",
            encoder,
            f"{means[method]:.3f}",
            "" if method == CORPUS_DEFAULT else f"{means[method] - means[CORPUS_DEFAULT]:+.3f}",
        ]
        for method, encoder in CORPUS_DESIGNS.items()
    ]
    return table_lines(["method", "encoder", "mean", "mean − default"], rows)


SUBSETS = ("FD001", "FD002", "FD003", "FD004")
DEFAULT_SCREEN_ROWS = (*SUBSETS, "ETTm1", "VIX", "Weather", "Beijing", "MBA", "BATADAL")
DEFAULT_SCREEN_COLUMNS = {  # the candidates of the defaults' screen, as the document names them
    "`hepa-default`": "0.1.0 defaults",
    "`hepa-default-untrained`": "untrained (`max_epochs=0`)",
    "`hepa-default-regime0`": '`norm="regime"`, untrained',
    "`hepa-default-auto0-spread`": '`norm="auto"` (first form), untrained',
    "`hepa-default-auto0`": '`norm="auto"`, untrained',
}


def default_screen(sources):
    """The last screen of the retired ``default_screen.py``: validation h-AUROC, all labels, the mean of
    seeds 0 and 1."""
    table = sources.table("default_screen", n=2)
    rows = [[row] + [table.cell(row, c) for c in DEFAULT_SCREEN_COLUMNS] for row in DEFAULT_SCREEN_ROWS]
    return table_lines(["row", *DEFAULT_SCREEN_COLUMNS.values()], rows)


REGIMES = ("FD002", "FD004")  # the subsets with six operating conditions
PLAIN = ("FD001", "FD003")
# (header, method, the subsets of its cells (a dash on the others), the report's table it is read from)
CMAPSS_COLUMNS = (
    ("HEPA, paper protocol", "hepa", SUBSETS, "h-AUROC"),
    ("same, untrained encoder", "hepa-random", PLAIN, "h-AUROC"),
    ("HEPA, end-to-end finetuning", "hepa-e2e", PLAIN, "label efficiency"),
    ("same, untrained encoder", "hepa-random-e2e", PLAIN, "h-AUROC"),
    ("HEPA + `RegimeNormalizer`", "hepa-regime", REGIMES, "h-AUROC"),
    ("same, untrained encoder", "hepa-random-regime", REGIMES, "h-AUROC"),
    ("gradient boosting", "gbm-last30", SUBSETS, "h-AUROC"),
    ("gradient boosting + `RegimeNormalizer`", "gbm-regime-last30", REGIMES, "h-AUROC"),
    ("authors' implementation (quoted)", "authors' implementation", SUBSETS, "h-AUROC"),
)


def cmapss_reference(sources):
    """C-MAPSS under the reference protocol with all labels: mean ± std over the seeds of each recipe
    (the report's tables "h-AUROC, 100% labels" and "Label efficiency")."""
    hauroc = sources.table("report", REPORT_HAUROC)
    rows = []
    for subset in SUBSETS:
        row = [subset]
        for _, method, ran, where in CMAPSS_COLUMNS:
            if subset not in ran:
                row.append(DASH)
            elif where == "h-AUROC":
                row.append(mean_sd(hauroc.cell(subset, method)))
            else:
                row.append(mean_sd(label_efficiency(sources, subset).cell("100%", method)))
        rows.append(row)
    return table_lines(["subset", *(c[0] for c in CMAPSS_COLUMNS)], rows)


EVENT_DATASETS = ("TEP", "ETTm1", "MBA", "Weather", "Beijing", "VIX", "BATADAL")
PAPER_COLUMNS = {"paper HEPA (quoted)": mean_of, "paper best baseline (quoted)": best_quoted}


def event_cells(sources, rows, methods, boosting_from_cmapss=False):
    """Rows ``(dataset, labels)`` of the report's event table: the mean of each method, then the paper's
    figures as quoted. ``gbm-last30`` on a C-MAPSS subset is read from the subset's table "Label
    efficiency" (the same seeds and labelled engines; the event table has no cells of its own there)."""
    events = sources.table("report", REPORT_EVENTS)
    lines = []
    for dataset, labels in rows:
        cells = [dataset, labels]
        for method in methods:
            if boosting_from_cmapss and method == "gbm-last30":
                cells.append(mean_of(label_efficiency(sources, dataset).cell(labels, method)))
            else:
                cells.append(mean_of(events.cell((dataset, labels), method)))
        cells += [render(events.cell((dataset, labels), column)) for column, render in PAPER_COLUMNS.items()]
        lines.append(cells)
    return lines


def event_benchmarks(sources):
    """The event datasets: `hepa`, its never-pretrained control and boosting beside the paper's figures."""
    rows = [(d, labels) for d in EVENT_DATASETS for labels in ("100%", "10%")]
    cells = event_cells(sources, rows, ("hepa", "hepa-random", "gbm-last30"))
    methods = ["`hepa`", "`hepa-random` (never pretrained)", "`gbm-last30`"]
    header = ["dataset", "labels", *methods, *PAPER_COLUMNS]
    return table_lines(header, cells)


def cmapss_events(subsets, fractions, methods):
    """C-MAPSS through the event runner: ``methods`` on ``subsets`` at ``fractions`` beside the paper."""

    def block(sources):
        rows = [(s, labels) for s in subsets for labels in fractions]
        cells = event_cells(sources, rows, methods, boosting_from_cmapss=True)
        return table_lines(["subset", "labels", *(f"`{m}`" for m in methods), *PAPER_COLUMNS], cells)

    block.__doc__ = f"C-MAPSS {' and '.join(subsets)} through the event runner, beside the paper's figures."
    return block


SPEED_OURS, SPEED_REFERENCE = "hepa_sklearn 0.1.0 (971800c)", "reference (85f55f3)"
SPEED_RATIO = "reference / hepa_sklearn"


def speed_reference(sources):
    """``hepa protocol`` beside the authors' implementation, median of the side-by-side pairs
    (``hepa-bench speed --reference``), with the CPU seconds each took to first reach the held-out
    h-AUROC of ``time_to_quality.py``."""
    table = sources.table("speed")
    (target,) = set(sources.line("time_to_quality", r"^first reaches (\d\.\d+) after"))
    ours, theirs = sources.line("time_to_quality", r"^first reaches \d\.\d+ .* at (\d+\.\d) CPU s")
    columns = ("held-out h-AUROC", "CPU s", "wall s", "peak RSS MB")

    def seconds(printed):  # CPU seconds as printed, to the second, half up
        return formatted(printed, ".0f")

    rows = [
        ["this package (packed batch layout)", *(table.cell(SPEED_OURS, c) for c in columns), seconds(ours)],
        ["authors' implementation", *(table.cell(SPEED_REFERENCE, c) for c in columns), seconds(theirs)],
        [
            "ratio (authors' / ours, within each pair)",
            *(table.cell(SPEED_RATIO, c) for c in columns),
            f"{float(theirs) / float(ours):.1f}x",
        ],
    ]
    return table_lines(["", *columns, f"CPU s to first reach {target}"], rows)


def listed(items):
    """``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def transformers_cmapss(sources):
    """PatchTST and iTransformer with HEPA's normalisation on each C-MAPSS subset, all labels / 10 %
    (the report's tables "Label efficiency"), quoted in the document's opening paragraph."""
    order = ("FD001", "FD003", "FD002", "FD004")

    def pairs(method, named):
        return listed(
            [
                " / ".join(mean_of(label_efficiency(sources, s).cell(labels, method)) for labels in ("100%", "10%"))
                + (f" on {s}" if named else "")
                for s in order
            ]
        )

    return f"PatchTST {pairs('patchtst', True)}; iTransformer {pairs('itransformer', False)}"


def headline_judged(sources):
    """The 0.2.0 defaults' mean test h-AUROC with all labels on each row of their judgement (the retired
    ``default_judgement.py``), but BATADAL, which the sentence quotes apart (below chance)."""
    table = sources.table("default_judgement")
    rows = [row[0] for row in table.rows if row[1] == "100%" and row[0] != "BATADAL"]
    return listed([f"{row} {mean_of(table.cell((row, '100%'), '`hepa-default-auto0`'))}" for row in rows])


FLEETS = ("sim-default", "sim-hard", "sim-modes")


def boosting_gap_shares(sources):
    """The share of the gap from the age-only surface to the oracle that ``gbm`` closes on each simulated
    fleet, all labels and a tenth (the report's second table of the simulated fleets)."""
    table = sources.table("report", "Simulated fleets: the distance to the ceiling", n=1)
    cells = [table.cell((fleet, labels), "gbm") for fleet in FLEETS for labels in ("100%", "10%")]
    return listed([formatted(cell, ".2f") for cell in cells])


GBM = "gbm-last30"
EVENT_RUNNER = ("hepa", "hepa-random", "mae", "patchtst-revin", "itransformer-revin", GBM)
BLOCKS = {  # in the order of the document
    "transformers-cmapss": transformers_cmapss,
    "authors-pretraining": authors_pretraining,
    "predictor-init": predictor_init,
    "embedding-pca": embedding_pca,
    "predictor-outputs": predictor_outputs,
    "corpus-screen": corpus_screen,
    "boosting-gap-shares": boosting_gap_shares,
    "default-screen": default_screen,
    "headline-judged": headline_judged,
    "cmapss-reference": cmapss_reference,
    "event-benchmarks": event_benchmarks,
    "event-runner-fd001-fd003": cmapss_events(PLAIN, ("100%", "10%", "5%", "2%", "1%"), EVENT_RUNNER),
    "event-runner-fd002-fd004": cmapss_events(
        REGIMES, ("100%", "10%", "1%"), (GBM, "hepa-random", "hepa", *EVENT_RUNNER[2:-1])
    ),
    "speed-reference": speed_reference,
}


# --- the blocks of the document

MARKERS = re.compile(
    r"<!-- generated:(?P<name>[a-z0-9-]+):start -->(?P<body>.*?)<!-- generated:(?P=name):end -->", flags=re.DOTALL
)


def blocks_of(text):
    """``{name: lines}`` of each generated block of ``text``: a table's lines, without the blank lines
    next to its markers (each marker on a line of its own), or the one line of a list quoted inside a
    sentence (the markers around it on that line)."""
    found = {}
    for match in MARKERS.finditer(text):
        name, body = match["name"], match["body"]
        if name in found:
            raise ValueError(f"the block {name!r} occurs twice")
        own_lines = text[match.start() - 1 : match.start()] in ("", "\n") and body.startswith("\n")
        if own_lines and body.endswith("\n"):
            found[name] = body.strip("\n").splitlines()
        elif "\n" not in body:
            found[name] = [body]
        else:
            raise ValueError(f"the block {name!r} is neither lines between markers of their own nor one line")
    opened = re.findall(r"<!-- generated:([a-z0-9-]+):start -->", text)
    if sorted(opened) != sorted(found):
        raise ValueError(f"a marker without its pair: blocks {sorted(opened)}, closed {sorted(found)}")
    return found


def rendered_blocks(sources):
    """``{name: lines}`` of every block, rendered from ``sources`` (a list quoted in a sentence: one line)."""
    rendered = {name: render(sources) for name, render in BLOCKS.items()}
    return {name: [lines] if isinstance(lines, str) else lines for name, lines in rendered.items()}


def regenerated(text, sources):
    """``text`` with every generated block rendered afresh; each block of ``BLOCKS`` must occur once."""
    names = list(blocks_of(text))
    if sorted(names) != sorted(BLOCKS):
        raise ValueError(f"the document's blocks {sorted(names)} are not those of BLOCKS {sorted(BLOCKS)}")
    rendered = {name: render(sources) for name, render in BLOCKS.items()}

    def replaced(match):
        name, body = match["name"], rendered[match["name"]]
        if not isinstance(body, str):  # a table: its lines between markers of their own
            body = "\n\n" + "\n".join(body) + "\n\n"
        return f"<!-- generated:{name}:start -->{body}<!-- generated:{name}:end -->"

    return MARKERS.sub(replaced, text)


def main(argv=None):
    """``python -m hepa_bench.report.findings``: render the generated blocks of docs/findings.md afresh."""
    parser = argparse.ArgumentParser(prog="python -m hepa_bench.report.findings", description=main.__doc__)
    parser.add_argument("--root", default=".", help="the repository root (default: the current directory)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block differs")
    args = parser.parse_args(argv)
    path = Path(args.root) / DOCUMENT
    text = path.read_text(encoding="utf-8")
    new = regenerated(text, Sources(args.root))
    changed = [name for name, lines in blocks_of(new).items() if blocks_of(text)[name] != lines]
    if args.check:
        for name in changed:
            print(f"{DOCUMENT}: the block {name!r} differs from what its sources give", file=sys.stderr)
        return 1 if changed or new != text else 0
    if new != text:
        path.write_text(new, encoding="utf-8")
    rewritten = f" ({', '.join(changed)})" if changed else ""
    print(f"{DOCUMENT}: {len(BLOCKS)} blocks, {len(changed)} rewritten{rewritten}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
