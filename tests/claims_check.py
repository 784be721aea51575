"""Where each figure a document quotes comes from, and the check that it is what its source gives.

A *number* of a document is a run of digits (with ``,`` thousands separators and ``.`` decimals,
``0.1.0`` being one number), with its sign where a ``+``, ``-`` or ``−`` stands right in front
of it after a space or an opening bracket. Not numbers, by rule:

- digits that are part of a word or a name: a letter, digit, ``_`` or ``.`` right before or a
  letter, digit or ``_`` right after (``FD001``, ``ETTm1``, ``H100``, ``e2e``), or a hyphen
  joining them to a word before (``BSD-3-Clause``);
- anything inside a fenced code block, an inline code span, an HTML comment, a link's target
  ``](...)`` or a bare address (``https://...``);
- a generated block that a test of its own checks against the records: the README's summary
  table between ``<!-- summary-table:start -->`` and ``<!-- summary-table:end -->``, checked by
  ``tests/test_readme.py``, and each block of docs/findings.md between
  ``<!-- generated:NAME:start -->`` and ``<!-- generated:NAME:end -->``, which
  ``hepa_bench.report.findings`` renders from its sources and ``tests/test_claims.py`` regenerates
  and compares byte for byte.

Every other number must be named by exactly one kind of entry:

- a binding ``Bind(phrase, source, format)``: the figure is recomputed from ``source`` (a cell
  of a table of the generated report, a query over result records, a line of an experiment's
  output, a field of a JSON record, or a computation over those) and written with ``format``;
  the result must be the quoted string, character for character (the minus sign ``−`` read as
  ``-``; a figure quoted with fewer decimals than the source printed is the printed number
  rounded half up);
- a number that is not a measurement ``Not(phrase, number, reason)``;
- an entry of the inventory of figures not yet bound (``NOT_YET_BOUND``), which only shrinks.

A phrase is the text around the figure with ``{}`` where the figure stands; any run of
whitespace in it matches any other (a phrase may run over a line break), it may not run over a
blank line, and a binding's or an inventory entry's phrase must occur exactly once in its
document. ``{*}`` in a phrase stands for any number: where a sentence quotes several figures,
``binds(phrase, *sources)`` makes one binding per ``{}`` of the sentence, each with the other
figures as ``{*}``, and ``nots(phrase, numbers, reason)`` one ``Not`` per ``{}``, each with the
other numbers written out. A ``Not`` entry names every place its phrase occurs, with ``number``
in the slot.
A binding whose recomputed value is not the quoted string is reported unless it is listed in
``MISMATCHED`` (document, phrase, quoted, source value), which must be exactly the list of
such figures.
"""

import functools
import json
import math
import re
from collections import namedtuple
from decimal import Decimal
from pathlib import Path

# the generated blocks' own reading of a markdown table and writing of a figure, shared by the bindings
from hepa_bench.report.findings import formatted, markdown_tables

REPOSITORY = Path(__file__).resolve().parents[1]

NUMBER = r"[+\-−]?\d+(?:,\d{3})*(?:\.\d+)*"
ANY = "{*}"  # in a phrase: any number (another figure of the sentence, bound by an entry of its own)
DIGITS = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)*")
EXCLUDED_BLOCKS = re.compile(
    r"^```.*?^```[^\n]*$"  # fenced code blocks
    r"|<!-- summary-table:start -->.*?<!-- summary-table:end -->"  # generated, tests/test_readme.py
    r"|<!-- generated:([a-z0-9-]+):start -->.*?<!-- generated:\1:end -->"  # generated, tests/test_claims.py
    r"|<!--.*?-->",  # comments (markers)
    flags=re.MULTILINE | re.DOTALL,
)
EXCLUDED_INLINE = re.compile(r"(`+)(?:(?!\1).)+?\1|\]\([^)\s]*\)|https?://\S+", flags=re.DOTALL)


# --- entries

Bind = namedtuple("Bind", "phrase source format")
Not = namedtuple("Not", "phrase number reason")
Pending = namedtuple("Pending", "phrase number")  # an entry of NOT_YET_BOUND
Mismatch = namedtuple("Mismatch", "document phrase quoted source_value")


def _slots(phrase, fillings):
    """``phrase`` once per ``{}`` of it: that ``{}`` kept, each other one replaced by its filling."""
    pieces = phrase.split("{}")
    assert len(pieces) == len(fillings) + 1, f"{len(fillings)} figures for the slots of {phrase!r}"
    return [
        pieces[0] + "".join(("{}" if i == j else fillings[i]) + piece for i, piece in enumerate(pieces[1:]))
        for j in range(len(fillings))
    ]


def binds(phrase, *sources, format="printed"):
    """One ``Bind`` per ``{}`` of ``phrase``, in order, the other figures as ``{*}``; each source is a
    source, written with ``format``, or a pair ``(source, format)``."""
    slots = [s if isinstance(s, tuple) else (s, format) for s in sources]
    return [Bind(p, s, f) for p, (s, f) in zip(_slots(phrase, [ANY] * len(slots)), slots, strict=True)]


def nots(phrase, values, reason):
    """One ``Not`` per ``{}`` of ``phrase``, in order, each with the other numbers (``values``) written out."""
    return [Not(p, n, reason) for p, n in zip(_slots(phrase, list(values)), values, strict=True)]


# --- reading the documents


def read(path):
    return (REPOSITORY / path).read_text(encoding="utf-8")


def paragraphs(text):
    """``(offset, paragraph)`` of the text outside the excluded blocks, cut at blank lines."""
    pieces, start = [], 0
    for block in EXCLUDED_BLOCKS.finditer(text):
        pieces.append((start, text[start : block.start()]))
        start = block.end()
    pieces.append((start, text[start:]))
    out = []
    for offset, piece in pieces:
        position = 0
        for blank in re.finditer(r"\n[ \t]*\n", piece):
            out.append((offset + position, piece[position : blank.start()]))
            position = blank.end()
        out.append((offset + position, piece[position:]))
    return [(offset, p) for offset, p in out if p.strip()]


def numbers(paragraph):
    """``(start, end, text)`` of each number of a paragraph (see the module's docstring)."""
    excluded = [m.span() for m in EXCLUDED_INLINE.finditer(paragraph)]
    found = []
    for match in DIGITS.finditer(paragraph):
        start, end = match.span()
        before = paragraph[start - 1] if start else " "
        after = paragraph[end] if end < len(paragraph) else " "
        if before.isalnum() or before in "_." or after.isalnum() or after == "_":
            continue
        if before in "+-−":
            before2 = paragraph[start - 2] if start > 1 else " "
            if before2.isalpha() or before2 == "_":
                continue  # a hyphenated word: BSD-3-Clause
            if not before2.isalnum():
                start -= 1  # a sign
        if any(a <= start < b for a, b in excluded):
            continue
        found.append((start, end, paragraph[start:end]))
    return found


def normalised(paragraph):
    """The paragraph with each run of whitespace as one space, and each character's original index."""
    chars, where = [], []
    for match in re.finditer(r"\S+", paragraph):
        if chars:
            chars.append(" ")
            where.append(match.start() - 1)
        chars.extend(match[0])
        where.extend(range(match.start(), match.end()))
    return "".join(chars), where


class Phrase:
    def __init__(self, phrase):
        left, slot, right = phrase.partition("{}")
        assert slot and "{}" not in right, f"a phrase needs exactly one {{}}: {phrase!r}"
        self.left, self.right = re.sub(r"\s+", " ", left), re.sub(r"\s+", " ", right)
        self.fixed = [piece for piece in (self.left + ANY + self.right).split(ANY) if piece]
        self.pattern = None

    def find(self, flat):
        if not all(piece in flat for piece in self.fixed):
            return []
        if self.pattern is None:

            def literal(text):
                return NUMBER.join(re.escape(piece) for piece in text.split(ANY))

            self.pattern = re.compile(literal(self.left) + f"({NUMBER})" + literal(self.right))
        return [m.span(1) for m in self.pattern.finditer(flat)]


@functools.lru_cache(maxsize=4096)
def _phrase(phrase):
    return Phrase(phrase)


class _Phrases(tuple):
    """Phrases, hashed by identity so that a paragraph's cache entry is found without rehashing them."""

    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other


@functools.lru_cache(maxsize=64)
def _phrases(phrases):
    return _Phrases(phrases)


@functools.lru_cache(maxsize=4096)
def _analyse(paragraph, phrases):
    """Numbers of ``paragraph`` as ``(start, end, text)`` and ``(i, number)`` for each number that
    phrase ``i`` names."""
    found = numbers(paragraph)
    by_start = {start: (start, end, text) for start, end, text in found}
    flat, where = normalised(paragraph)
    hits = []
    for i, phrase in enumerate(phrases):
        for a, b in _phrase(phrase).find(flat):
            number = by_start.get(where[a])  # the slot holds a whole number, its sign included
            if number is not None and number[1] == where[b - 1] + 1:
                hits.append((i, number))
    return tuple(found), tuple(hits)


def located(text, phrases):
    """``(numbers, hits)``: every number of ``text`` as ``(start, end, text)`` and, per phrase, the
    numbers it names, positions in ``text``."""
    phrases = _phrases(tuple(phrases))
    all_numbers, hits = [], [[] for _ in phrases]
    for offset, paragraph in paragraphs(text):
        found, named = _analyse(paragraph, phrases)
        all_numbers += [(offset + a, offset + b, t) for a, b, t in found]
        for i, (a, b, t) in named:
            hits[i].append((offset + a, offset + b, t))
    return all_numbers, hits


def same(quoted, expected):
    return quoted.replace("−", "-") == expected.replace("−", "-")


def check(document, text, bindings, nots, pending, expected, mismatched):
    """What is wrong with the figures of ``text``: a list of lines, empty when every number is
    bound and equal to its source (or listed), and every entry names what it says.

    ``expected[i]`` is the string ``bindings[i]`` recomputes; ``mismatched`` the ``Mismatch``
    entries of ``document``."""
    entries = [("bind", b) for b in bindings] + [("not", n) for n in nots] + [("pending", p) for p in pending]
    all_numbers, hits = located(text, [entry.phrase for _, entry in entries])
    problems, covered = [], {}
    listed = {(m.phrase, m.quoted, m.source_value) for m in mismatched}
    seen_mismatch = set()

    def where(start):
        return f"{document}:{text.count(chr(10), 0, start) + 1}"

    for i, ((kind, entry), named) in enumerate(zip(entries, hits, strict=True)):
        if kind == "not":
            named = [n for n in named if n[2] == entry.number]
            if not named:
                problems.append(f"{document}: not-a-measurement {entry.number!r} in {entry.phrase!r}: phrase not found")
        elif len(named) != 1:
            problems.append(f"{document}: {kind} {entry.phrase!r}: phrase found {len(named)} times, not once")
            continue
        for number in named:
            covered.setdefault(number[0], set()).add(kind)
        if kind == "pending" and named[0][2] != entry.number:
            problems.append(
                f"{where(named[0][0])}: {named[0][2]} in {entry.phrase!r}: NOT_YET_BOUND says {entry.number}"
            )
        if kind == "bind":
            (start, _, quoted), value = named[0], expected[i]
            if not same(quoted, value):
                if (entry.phrase, quoted, value) in listed:
                    seen_mismatch.add((entry.phrase, quoted, value))
                else:
                    problems.append(
                        f"{where(start)}: {quoted} in {entry.phrase!r}: the source gives {value} ({entry.source})"
                    )
    for phrase, quoted, value in listed - seen_mismatch:
        problems.append(f"{document}: MISMATCHED {quoted} in {phrase!r} (source {value}) is not a mismatch now")
    for start, _, number in all_numbers:
        kinds = covered.get(start, set())
        if not kinds:
            problems.append(f"{where(start)}: {number} is bound to no source and not listed as not a measurement")
        elif "pending" in kinds and kinds != {"pending"}:
            problems.append(f"{where(start)}: {number} is bound or listed; remove it from NOT_YET_BOUND")
    return problems


# --- formats


def one_unit_changed(number, step=1):
    """``number`` moved by ``step`` units of its last decimal, written the same way."""
    sign = number[0] if number[0] in "+-−" else ""
    body = number[len(sign) :]
    if body.count(".") > 1:  # a version: its last part
        head, _, last = body.rpartition(".")
        return sign + head + "." + str(int(last) + step)
    digits = body.replace(",", "")
    places = len(digits.partition(".")[2])
    value = Decimal(digits) + Decimal(step).scaleb(-places)
    if value < 0:
        value = Decimal(digits) - Decimal(step).scaleb(-places)
    written = format(value, f",.{places}f" if "," in body else f".{places}f")
    return sign + written


# --- sources


class Source:
    def value(self):
        raise NotImplementedError


def _number_in(text, index):
    found = [t for _, _, t in numbers(text)]
    assert len(found) > index, f"no number {index} in {text!r}"
    return found[index]


@functools.cache
def report_tables(path):
    """The tables of a generated markdown report: ``[(heading chain, header, rows)]`` in order."""
    return markdown_tables(read(path))


CELL_PARTS = {"mean": 0, "sd": 1, "seeds": 2, "first": 0, "second": 1, "third": 2}


class Cell(Source):
    """A cell of a table of a generated report (``docs/benchmarks.md`` unless ``report`` says).

    ``table``: the headings above the table, innermost last, joined by `` / `` (as many of the
    innermost as make it unique; ``""``: any table of the file); ``n``: which table under that
    heading (0 the first); ``row``: the first cells of the row (a string for the first alone; a
    list of such keys: the one row that any of them names); ``column``: the column's header;
    ``part``: the number in the cell that is meant (``mean``, ``sd`` and ``seeds`` of a
    ``0.957 ± 0.022 (5)`` cell; ``first``, ``second``... of any other), or ``text`` for the cell.
    """

    def __init__(self, table, row, column, part="mean", n=0, report="docs/benchmarks.md"):
        self.table, self.row, self.column, self.part, self.n, self.report = table, row, column, part, n, report

    def __repr__(self):
        return f"{self.report}: table {self.table!r}[{self.n}], row {self.row!r}, column {self.column!r}, {self.part}"

    def cell(self):
        wanted = tuple(self.table.split(" / ")) if self.table else ()
        tables = [t for t in report_tables(self.report) if not wanted or t[0][-len(wanted) :] == wanted]
        assert len(tables) > self.n, f"{self}: {len(tables)} tables under that heading"
        _, header, rows = tables[self.n]
        alternatives = self.row if isinstance(self.row, list) else [self.row]
        alternatives = [(key,) if isinstance(key, str) else tuple(key) for key in alternatives]
        chosen = [r for r in rows for keys in alternatives if tuple(r[: len(keys)]) == keys]
        assert len(chosen) == 1, f"{self}: {len(chosen)} rows"
        assert header.count(self.column) == 1, f"{self}: column in header {header}"
        return chosen[0][header.index(self.column)]

    def value(self):
        cell = self.cell()
        if self.part == "text":
            return cell
        return _number_in(cell, CELL_PARTS[self.part])


@functools.cache
def json_lines(path):
    """The JSON records of a results file or of an experiment's output (its lines that are records)."""
    return tuple(json.loads(line) for line in read(path).splitlines() if line.startswith("{"))


def _field(record, field):
    for part in field.split("."):
        record = record[int(part)] if isinstance(record, list) else record[part]
    return record


class Records(Source):
    """A query over JSON records: those of ``file`` whose fields equal ``where``, one per seed of
    ``seeds`` (checked), reduced by ``how`` (``mean`` of ``field``; ``one``: the one record's
    field; ``count``: how many records)."""

    def __init__(self, file, where, field, how="mean", seeds=None):
        self.file, self.where, self.field, self.how, self.seeds = file, where, field, how, seeds

    def __repr__(self):
        seeds = f", seeds {self.seeds}" if self.seeds is not None else ""
        return f"{self.how} of {self.field} over {self.file} where {self.where}{seeds}"

    def records(self):
        chosen = [r for r in json_lines(self.file) if all(r.get(k) == v for k, v in self.where.items())]
        if self.seeds is not None:
            seeds = [r["seed"] for r in chosen]
            assert sorted(seeds) == sorted(self.seeds), f"{self}: records of seeds {sorted(seeds)}"
        return chosen

    def value(self):
        chosen = self.records()
        if self.how == "count":
            return len(chosen)
        values = [_field(r, self.field) for r in chosen]
        assert values, f"{self}: no records"
        if self.how == "one":
            assert len(values) == 1, f"{self}: {len(values)} records"
            return values[0]
        if self.how == "mean":
            return math.fsum(values) / len(values)
        raise ValueError(self.how)

    def by_seed(self):
        return {r["seed"]: _field(r, self.field) for r in self.records()}


class Line(Source):
    """The text that ``pattern``'s first group captures on the one line of ``file`` it matches
    (the ``n``-th such line when ``n`` is given)."""

    def __init__(self, file, pattern, n=None):
        self.file, self.pattern, self.n = file, pattern, n

    def __repr__(self):
        return f"{self.file}: line matching {self.pattern!r}" + (f" [{self.n}]" if self.n is not None else "")

    def value(self):
        found = [m[1] for m in (re.search(self.pattern, line) for line in read(self.file).splitlines()) if m]
        if self.n is None:
            assert len(found) == 1, f"{self}: {len(found)} lines"
            return found[0]
        return found[self.n]


class Json(Source):
    """A field of a JSON file, ``path`` its keys (and list indices) joined by dots."""

    def __init__(self, file, path):
        self.file, self.path = file, path

    def __repr__(self):
        return f"{self.file}: {self.path}"

    def value(self):
        return _field(json.loads(read(self.file)), self.path)


def _number(value):
    return float(value) if isinstance(value, (str, Decimal)) else value


class Computed(Source):
    """A computation over other sources: ``difference`` (a − b), ``ratio`` (a / b), ``len`` (of a
    list), ``paired t p`` (two-sided, of two ``Records`` paired by seed), or a function."""

    def __init__(self, how, *sources):
        self.how, self.sources = how, sources

    def __repr__(self):
        name = self.how if isinstance(self.how, str) else self.how.__name__
        return f"{name} of ({'; '.join(map(repr, self.sources))})"

    def value(self):
        if self.how == "paired t p":
            from scipy.stats import ttest_rel

            a, b = (s.by_seed() for s in self.sources)
            shared = sorted(set(a) & set(b))
            assert len(shared) >= 2, self
            return float(ttest_rel([a[s] for s in shared], [b[s] for s in shared]).pvalue)
        values = [s.value() for s in self.sources]
        if self.how == "difference":
            return _number(values[0]) - _number(values[1])
        if self.how == "ratio":
            return _number(values[0]) / _number(values[1])
        if self.how == "len":
            return len(values[0])
        return self.how(*values)


def expected_strings(bindings):
    """The string each binding's source gives, written in its format (computed once)."""
    return [formatted(b.source.value(), b.format) for b in bindings]
