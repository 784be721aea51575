"""The user guide and the site's front page stay true to the package.

docs/user_guide.md is a guide for users, task by task: short, its contents list the sections it
has, what it says of the defaults is what the estimators' defaults are, its code names only
objects and parameters that exist, and it quotes few figures, each bound (``BINDINGS``) to the
phrase of the README, the generated report (docs/benchmarks.md) or a committed benchmark output
that prints it, the same figure character for character. Statistics of the
research (p-values, Holm's correction, rank correlations, win counts) live in docs/findings.md and
docs/benchmarks.md, not here. The front page's quickstart is the README's Quickstart, character
for character.
"""

import ast
import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
DOCS = REPOSITORY / "docs"
USER_GUIDE = DOCS / "user_guide.md"
FRONT_PAGE = DOCS / "index.rst"
README = REPOSITORY / "README.md"

MAX_LINES = 725
MAX_FIGURES = 5  # figures quoted in the prose; the rest is linked
# where a figure of the user guide may be printed, verbatim
FIGURE_SOURCES = (
    "README.md",
    "docs/benchmarks.md",
    "benchmarks/decisions/*.md",
    "benchmarks/outputs/*.txt",
    "benchmarks/experiments/*/*.txt",
    "benchmarks/retired/*.txt",
)
# each figure the prose quotes, bound to where it is printed: (the user guide's phrase, the
# source, the source's phrase), "{}" standing for the figures, which must be the same in both
BINDINGS = [
    (
        "({} CPU seconds on one thread, an h-AUROC of {})",
        "README.md",
        "in {} CPU seconds on one thread, to an h-AUROC of {}",
    )
]
# numbers of the prose that are not figures: (the user guide's phrase, the number, why)
NOT_FIGURES = [("(TimesFM-2.5)", "2.5", "a model's name"), ("(Moirai 1.1)", "1.1", "a model's name")]
# words of the research statistics, which belong to docs/findings.md and docs/benchmarks.md
RESEARCH_TERMS = re.compile(
    r"\bp\s*[=<>≤]\s*\d|\bHolm\b|\bSpearman\b|\bWilcoxon\b|\bpaired t\b|\bt-test\b|\bsignifican|"
    r"\bρ\b|\b\d+ seeds\b|\b\d+/\d+/\d+\b",
    flags=re.IGNORECASE,
)
PACKAGE_MODULES = (
    "hepa_sklearn",
    "hepa_sklearn.baselines",
    "hepa_sklearn.datasets",
    "hepa_sklearn.metrics",
    "hepa_sklearn.persistence",
    "hepa_sklearn.export",
    "hepa_sklearn.causes",
    "hepa_sklearn.finetune",
    "hepa_sklearn.cmapss_protocol",
    "hepa_sklearn.windows",
    "hepa_sklearn.surface",
    "hepa_sklearn.classifier",
    "hepa_sklearn.training",
)


def read(path):
    return Path(path).read_text(encoding="utf-8")


def python_blocks(text):
    """The bodies of the fenced ``python`` code blocks of a markdown text, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def prose(text):
    """``text`` with fenced code blocks, inline code spans, HTML comments and link targets blanked out.

    Each removed character becomes a space (newlines are kept), so positions and line numbers stay.
    """

    def blank(match):
        return re.sub(r"[^\n]", " ", match.group(0))

    text = re.sub(r"^```.*?^```$", blank, text, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"<!--.*?-->", blank, text, flags=re.DOTALL)
    text = re.sub(r"`[^`]*`", blank, text)
    return re.sub(r"\]\([^)]*\)", lambda m: "]" + blank(m)[1:], text)


def figures(text):
    """``(position, number)`` of each decimal figure of the prose: ``0.907``, ``2.5``; not versions like ``0.2.0``."""
    return [(m.start(), m.group(0)) for m in re.finditer(r"(?<![\w.])\d+\.\d+(?![\w.]*\d)", prose(text))]


def printed(number, sources):
    """Whether ``number`` is printed as it is, not as part of a longer number, in one of the ``sources``."""
    pattern = re.compile(r"(?<![\w.])" + re.escape(number) + r"(?![\d])")
    return any(pattern.search(source) for source in sources)


@pytest.fixture(scope="module")
def sources():
    paths = sorted({p for pattern in FIGURE_SOURCES for p in REPOSITORY.glob(pattern)})
    return [read(path) for path in paths]


def github_slug(title):
    """The anchor MyST (``myst_heading_anchors``) and GitHub give a heading."""
    return re.sub(r"[^\w\- ]", "", title.lower().replace(" ", "-"))


def sections(text):
    """The titles of the ``##`` sections, in order."""
    return re.findall(r"^## (.+)$", prose_free_of_blocks(text), flags=re.MULTILINE)


def first_paragraph(text):
    body = text.split("\n\n")
    return next(part for part in body if part.strip() and not part.startswith("#"))


def code_span_settings(text):
    """``(name, value)`` of each code span of the form ``name=value`` in ``text``."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"`(\w+)=([^`]+)`", text)]


def public_objects():
    """Every public name of the package's modules, mapped to its object."""
    objects = {}
    for module_name in PACKAGE_MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            objects.setdefault(name, getattr(module, name))
    return objects


def accepted_keywords(obj):
    """The keyword arguments a class or function takes, or None when it takes any."""
    parameters = inspect.signature(obj).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters if p.kind is not inspect.Parameter.POSITIONAL_ONLY}


def calls_with_keywords(source):
    """``(called name, keywords)`` of every call in ``source`` whose callee is a plain name."""
    calls = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.append((node.func.id, [k.arg for k in node.keywords if k.arg is not None]))
    return calls


# --- the user guide


def test_the_user_guide_is_short():
    n_lines = len(read(USER_GUIDE).splitlines())
    assert n_lines <= MAX_LINES, f"docs/user_guide.md has {n_lines} lines; research detail belongs in docs/findings.md"


def test_the_contents_list_the_sections_in_order():
    text = read(USER_GUIDE)
    listed = re.findall(r"^\d+\. \[(.+)\]\(#([\w-]+)\)$", text.split("\n## ", 1)[0], flags=re.MULTILINE)
    titles = sections(text)
    assert [title for title, _ in listed] == [re.sub(r"`", "", t) for t in titles]
    assert [anchor for _, anchor in listed] == [github_slug(re.sub(r"`", "", t)) for t in titles]


def test_the_internal_links_point_to_headings_and_files():
    text = read(USER_GUIDE)
    headings = {github_slug(re.sub(r"`", "", h)) for h in re.findall(r"^#{2,3} (.+)$", text, flags=re.MULTILINE)}
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    anchors = [t[1:] for t in targets if t.startswith("#")]
    assert anchors and set(anchors) <= headings, set(anchors) - headings
    files = [t.split("#", 1)[0] for t in targets if not t.startswith("#") and "://" not in t]
    missing = [f for f in files if not (DOCS / f).exists()]
    assert files and not missing, missing
    # the site builds a linked .md file as one of its pages, so it must be one
    outside = [f for f in files if f.endswith(".md") and not (DOCS / f).resolve().is_relative_to(DOCS)]
    assert not outside, f"links to markdown files outside docs/, which the site cannot build: {outside}"


def test_the_first_paragraph_is_true_to_the_defaults():
    from hepa_sklearn import HEPAPretrainer

    paragraph = " ".join(first_paragraph(read(USER_GUIDE)).split())
    assert "default the encoder is not pretrained" in paragraph
    settings = code_span_settings(paragraph)
    assert {name for name, _ in settings} >= {"max_epochs", "regimes", "window_level"}
    defaults = HEPAPretrainer().get_params()
    assert all(ast.literal_eval(value) == defaults[name] for name, value in settings), settings


def test_the_table_of_defaults_is_the_estimators_defaults():
    from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer

    estimators = {"HEPAPretrainer": [HEPAPretrainer()], "HEPAEventPredictor": [HEPAEventPredictor()]}
    estimators["both"] = estimators["HEPAPretrainer"] + estimators["HEPAEventPredictor"]
    rows = re.findall(r"^\| `?(\w+)`? \| `(\w+)` \| `([^`]+)` \|", read(USER_GUIDE), flags=re.MULTILINE)
    stated = {(owner, name) for owner, name, _ in rows}
    assert {("HEPAPretrainer", p) for p in ("max_epochs", "regimes", "norm", "window_level")} <= stated
    assert ("HEPAEventPredictor", "K") in stated
    for owner, name, value in rows:
        for estimator in estimators[owner]:
            assert estimator.get_params()[name] == ast.literal_eval(value), (owner, name, value)


def test_the_code_blocks_compile_and_name_what_exists():
    """Every Python block parses; what it imports from the package exists; the package's classes and
    functions it calls take the keywords it passes."""
    objects = public_objects()
    blocks = python_blocks(read(USER_GUIDE))
    assert len(blocks) >= 10
    for block in blocks:
        tree = ast.parse(block)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module.startswith("hepa_sklearn"):
                module = importlib.import_module(node.module)
                missing = [alias.name for alias in node.names if not hasattr(module, alias.name)]
                assert not missing, f"{node.module} has no {missing}"
        for name, keywords in calls_with_keywords(block):
            if name in objects and callable(objects[name]):
                accepted = accepted_keywords(objects[name])
                assert accepted is None or set(keywords) <= accepted, f"{name}({keywords}): takes {sorted(accepted)}"


def test_the_inline_code_names_what_exists():
    """Dotted package names and calls of the package's estimators in inline code (``HEPAPretrainer(tokens=...)``)."""
    objects = public_objects()
    spans = re.findall(r"`([^`\n]+)`", prose_free_of_blocks(read(USER_GUIDE)))
    checked = 0
    for span in spans:
        for dotted in re.findall(r"\bhepa_sklearn(?:\.\w+)+", span):
            resolve(dotted)
            checked += 1
        try:
            calls = calls_with_keywords(span)
        except SyntaxError:
            continue
        for name, keywords in calls:
            if name in objects and callable(objects[name]):
                accepted = accepted_keywords(objects[name])
                assert accepted is None or set(keywords) <= accepted, f"`{span}`: {name} takes {sorted(accepted)}"
                checked += 1
    assert checked >= 10


def prose_free_of_blocks(text):
    return re.sub(r"^```.*?^```$", "", text, flags=re.MULTILINE | re.DOTALL)


def resolve(dotted):
    """The object a dotted name of the package names (a module, or an attribute of one)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise AssertionError(f"{dotted} names nothing")


NUMBER = r"(\d[\d,]*(?:\.\d+)?)"


def phrase_pattern(phrase):
    """A regex of ``phrase`` in which ``{}`` is a number and any run of whitespace matches any other."""
    words = [re.escape(word).replace(r"\{\}", NUMBER) for word in phrase.split()]
    return re.compile(r"\s+".join(words))


def bound_spans(text, bindings):
    """``(start, end, numbers, problem)`` of each binding's phrase in ``text``; ``problem`` is None when the
    source prints the same numbers in its phrase."""
    spans = []
    for phrase, source, printed_phrase in bindings:
        matches = list(phrase_pattern(phrase).finditer(text))
        if len(matches) != 1:
            spans.append((0, 0, (), f"{phrase!r} is in the user guide {len(matches)} times"))
            continue
        (match,) = matches
        numbers = match.groups()
        expected = " ".join(printed_phrase.format(*numbers).split())
        source_text = " ".join(read(REPOSITORY / source).split())
        problem = None if expected in source_text else f"{source} does not print {expected!r}"
        if not any(Path(source).match(pattern) for pattern in FIGURE_SOURCES):
            problem = f"{source} is not a source of figures"
        spans.append((match.start(), match.end(), numbers, problem))
    return spans


def not_figure_spans(text):
    """``(start, end, numbers, None)`` of each phrase of ``NOT_FIGURES`` in ``text``."""
    spans = []
    for phrase, number, _ in NOT_FIGURES:
        matches = list(phrase_pattern(phrase).finditer(text))
        assert matches and number in phrase, f"NOT_FIGURES: {phrase!r} is no longer in the user guide"
        spans += [(m.start(), m.end(), (number,), None) for m in matches]
    return spans


def inside(position, number, spans):
    return any(start <= position < end and number in numbers for start, end, numbers, _ in spans)


def test_every_figure_is_bound_to_where_it_is_printed(sources):
    text = read(USER_GUIDE)
    bound = bound_spans(text, BINDINGS)
    problems = [problem for *_, problem in bound if problem]
    assert not problems, problems
    names = not_figure_spans(text)
    quoted = [(position, number) for position, number in figures(text) if not inside(position, number, names)]
    unbound = [(text.count("\n", 0, p) + 1, number) for p, number in quoted if not inside(p, number, bound)]
    assert not unbound, f"figures bound to no source (add them to BINDINGS, or link instead): {unbound}"
    assert len(quoted) <= MAX_FIGURES, f"{len(quoted)} figures quoted; link to docs/benchmarks.md instead"
    assert all(printed(number, sources) for _, number in quoted)


def test_the_research_statistics_stay_out_of_the_user_guide():
    text = prose(read(USER_GUIDE))
    found = [(text.count("\n", 0, m.start()) + 1, m.group(0)) for m in RESEARCH_TERMS.finditer(text)]
    assert not found, f"research statistics in the user guide (they belong in docs/findings.md): {found}"


def test_the_figure_check_on_a_hand_made_text():
    text = (
        "Scores 0.907 in `0.5` [a](x/1.5.md), release 0.2.0, and 0.123 here.\n"
        "```python\nprint(0.25)\n```\n<!-- 0.75 -->\n"
    )
    assert [number for _, number in figures(text)] == ["0.907", "0.123"]
    sources = ["to an h-AUROC of 0.907 (seed 0)", "0.1234 and 10.123"]
    assert printed("0.907", sources) and not printed("0.123", sources) and not printed("0.90", sources)
    guide = read(USER_GUIDE)
    assert not any(problem for *_, problem in bound_spans(guide, BINDINGS))
    changed = guide.replace("an h-AUROC of 0.960", "an h-AUROC of 0.961", 1)
    assert any("does not print" in (problem or "") for *_, problem in bound_spans(changed, BINDINGS))
    ((start, end, numbers, _),) = bound_spans("x (97 CPU seconds on one thread, an h-AUROC of\n0.907) y", BINDINGS)
    assert numbers == ("97", "0.907") and start == 2
    assert RESEARCH_TERMS.search("raw paired p = 0.004") and RESEARCH_TERMS.search("Holm-adjusted")
    assert RESEARCH_TERMS.search("wins 2/25/1") and not RESEARCH_TERMS.search("steps 1..K, K = 150")


# --- the front page


def test_the_front_page_quickstart_is_the_readmes():
    readme = read(README)
    quickstart = readme.split("## Quickstart", 1)[1]
    (expected,) = python_blocks(quickstart)[:1]
    front = read(FRONT_PAGE)
    block = re.search(r"^\.\. code-block:: python\n\n((?:   .*\n|\n)+)", front, flags=re.MULTILINE).group(1)
    assert textwrap.dedent(block).strip("\n") == expected.strip("\n")


def test_the_front_page_is_true_to_the_defaults():
    from hepa_sklearn import HEPAPretrainer

    intro = " ".join(read(FRONT_PAGE).split("\n\n.. code-block::", 1)[0].split())
    assert "not pretrained" in intro
    settings = [(m.group(1), m.group(2)) for m in re.finditer(r"``(\w+)=([^`]+)``", intro)]
    assert {name for name, _ in settings} >= {"max_epochs", "regimes", "window_level"}
    defaults = HEPAPretrainer().get_params()
    assert all(ast.literal_eval(value) == defaults[name] for name, value in settings), settings
