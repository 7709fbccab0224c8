"""The contents lists of the long documents: every section is listed, in order and at its depth,
and every entry leads to its section (a section added without its entry is found by nobody)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _anchor(heading: str, seen: dict[str, int]) -> str:
    """GitHub's link to a heading: lower case, punctuation dropped, spaces as hyphens, a repeated
    one numbered."""
    anchor = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
    count = seen.get(anchor, 0)
    seen[anchor] = count + 1
    return f"{anchor}-{count}" if count else anchor


def _sections(text: str) -> list[tuple[int, str]]:
    """(depth, anchor) of every ## and ### heading outside code blocks; depth 0 for ##."""
    seen: dict[str, int] = {}
    sections, in_code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"(##|###) (.+)", line)):
            sections.append((len(heading.group(1)) - 2, _anchor(heading.group(2), seen)))
    return sections


@pytest.mark.parametrize("document", ["docs/decisions.md", "models/README.md"])
def test_the_contents_list_every_section_in_order(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    contents = text.split("## Contents\n", 1)[1].split("\n## ", 1)[0]
    listed = [(len(indent) // 2, anchor) for indent, anchor in re.findall(r"^( *)- \[.+\]\(#(.+)\)$", contents, re.M)]
    sections = [section for section in _sections(text) if section != (0, "contents")]
    assert listed == sections
