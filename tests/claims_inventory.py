"""Writes ``tests/claims_findings_pending.py``: the numbers of docs/findings.md that no entry of
``claims_findings`` names yet, each with a phrase that occurs once in the document.

Run from the repository root: ``python tests/claims_inventory.py``. The inventory is meant to
shrink only: the test fails when it grows past its recorded size.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import claims_findings  # noqa: E402
from claims_check import located, normalised, paragraphs, read  # noqa: E402
from claims_check import numbers as numbers_of

OUTPUT = Path(__file__).resolve().parent / "claims_findings_pending.py"


def unique_phrase(text, offset, paragraph, start, end):
    """The shortest phrase around the number at ``start:end`` of ``paragraph`` that names it alone."""
    flat, where = normalised(paragraph)
    a = where.index(start)
    b = where.index(end - 1) + 1
    for width in range(30, 400, 10):
        left = flat[max(0, a - width) : a]
        right = flat[b : b + width]
        if a - width > 0 and " " in left:
            left = left[left.index(" ") + 1 :]
        if b + width < len(flat) and " " in right:
            right = right[: right.rindex(" ")]
        phrase = left + "{}" + right
        _, (hits,) = located(text, [phrase])
        if len(hits) == 1 and hits[0][0] == offset + start:
            return phrase
    raise ValueError(f"no unique phrase for {flat[a:b]!r} in {flat[:80]!r}")


def main():
    document = claims_findings.DOCUMENT
    text = read(document)
    entries = claims_findings.BINDINGS + claims_findings.NOT_MEASUREMENTS
    numbers, hits = located(text, [e.phrase for e in entries])
    covered = {n[0] for named in hits for n in named}
    lines = []
    for offset, paragraph in paragraphs(text):
        for start, end, number in numbers_of(paragraph):
            if offset + start in covered:
                continue
            phrase = unique_phrase(text, offset, paragraph, start, end)
            lines.append(f"    Pending({phrase!r}, {number!r}),")
    OUTPUT.write_text(
        '"""The numbers of docs/findings.md not bound to a source yet (written by\n'
        "``tests/claims_inventory.py``; entries are removed as figures are bound, never added).\n"
        '"""\n\nimport sys\nfrom pathlib import Path\n\n'
        "sys.path.insert(0, str(Path(__file__).resolve().parent))\n\n"
        "from claims_check import Pending  # noqa: E402, F401 (none left when every number is bound)\n\n"
        "NOT_YET_BOUND = [\n" + "\n".join(lines) + "\n]\n\n"
        "# the size the inventory may not exceed (lowered as figures are bound)\n"
        f"CEILING = {len(lines)}\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} numbers not yet bound")


if __name__ == "__main__":
    main()
