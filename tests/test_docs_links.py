"""Every relative link of README.md, docs/ and benchmarks/ points at a file or folder of
the repository (a moved module or renamed page breaks no link silently)."""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted(REPO.glob("docs/**/*.md")), *sorted(REPO.glob("benchmarks/**/*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_links(text):
    """The targets of Markdown links that name a path (not a URL, an anchor or math such as
    phi(k)](j))."""
    for target in LINK.findall(text):
        path = target.split("#")[0]
        if path and not re.match(r"[a-z]+:", path) and ("/" in path or "." in path):
            yield target


def test_the_link_pattern_sees_paths_and_skips_the_rest():
    text = "[a](docs/x.md#s) [b](https://x.org/y.md) [c](#anchor) M(i)](k) [d](img/p.png)"
    assert list(relative_links(text)) == ["docs/x.md#s", "img/p.png"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page):
    missing = [t for t in relative_links(page.read_text(encoding="utf-8"))
               if not (page.parent / t.split("#")[0]).exists()]
    assert not missing, f"{page.relative_to(REPO)}: broken links {missing}"
