"""MkDocs hooks of the site: the generated parts of hand-written pages (see sitegen.py).

* ``rules/RULES.md``: every rule id becomes an anchor (``#R-PLACE-6``) linking to its entry in
  the rules index.
* every page: a rule id in running text links to its anchor in the rules digest.
* any page: a line ``<!-- generated: NAME -->`` is replaced by the output of the generator
  ``NAME`` (``save-example``, ``result-example``), so examples are real output of this build.
* a line ``--8<-- "README.md:NAME"`` is replaced by the README's section ``NAME`` (between its
  ``[start:NAME]`` and ``[end:NAME]`` markers), its links into ``docs/`` made relative to the
  page, so a section reads right both on the repository's front page and on the site.
* the literate navigation's ``reference/SUMMARY.md`` is read for the navigation, not published.
* a link to a file of the repository that a generated page shows (``../core/alhambra/hookspec.py``,
  ``../examples/``) leads to that page (:data:`SITE_PAGES`): the hand-written pages link real
  files, which resolve in a checkout, and the site shows the page made from them.

A page of ``docs/`` that ``mkdocs.yml``'s navigation does not list is an omitted file, which
fails the strict build: every page is listed under its own name.
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sitegen  # noqa: E402
from mkdocs.structure.files import InclusionLevel  # noqa: E402

KNOWN = {rule.id for rule in sitegen.rules()}
ROOT = Path(__file__).resolve().parents[2]
README_SECTION = re.compile(r'^--8<-- "README\.md:([a-z-]+)"$', re.MULTILINE)
DOCS_LINK = re.compile(r"\]\(docs/([^)#\s]+)")
GENERATED = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)
#: a file or folder of the repository (from its root) -> the generated page of the site that shows
#: it: a hand-written page links the file (it resolves in a checkout), the site the page
SITE_PAGES = {
    "core/alhambra/hookspec.py": "hooks.md",
    "core/alhambra/cli.py": "command-line.md",
    "core/alhambra/": "reference/index.md",
    "core/alhambra/__init__.py": "reference/alhambra/index.md",
    "examples/": "examples.md",
}
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")
GENERATORS = {
    "save-example": lambda: "```json\n" + sitegen.save_example() + "\n```",
    "result-example": lambda: "```json\n" + sitegen.result_example() + "\n```",
}


def on_files(files: Any, config: Any, **kwargs: Any) -> Any:
    summary = files.get_file_from_path("reference/SUMMARY.md")
    if summary is not None:  # literate-nav has read it (plugins run before hooks)
        summary.inclusion = InclusionLevel.EXCLUDED
    return files


def readme_section(name: str, page_uri: str) -> str:
    """The README's section ``name`` with its ``docs/...`` links relative to ``page_uri``.

    Raises:
        ValueError: the README has no such section.
    """
    text = (ROOT / "README.md").read_text("utf-8")
    m = re.search(rf"<!-- --8<-- \[start:{name}\] -->\n(.*?)<!-- --8<-- \[end:{name}\] -->", text, re.S)
    if m is None:
        raise ValueError(f"{page_uri}: README.md has no section {name!r}")
    here = posixpath.dirname(page_uri) or "."
    return DOCS_LINK.sub(lambda link: "](" + posixpath.relpath(link.group(1), here), m.group(1))


def site_links(markdown: str, page_uri: str) -> str:
    """``markdown`` (the page ``page_uri`` of ``docs/``) with its links to the files of
    :data:`SITE_PAGES` leading to their pages of the site instead."""
    here = posixpath.dirname(page_uri)

    def one(m: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join("docs", here, m.group(1)))
        site_page = SITE_PAGES.get(target + "/" if m.group(1).endswith("/") else target)
        if site_page is None:
            return m.group(0)
        return "](" + posixpath.relpath(site_page, here or ".") + (m.group(2) or "") + ")"

    return LINK.sub(one, markdown)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    markdown = README_SECTION.sub(lambda m: readme_section(m.group(1), page.file.src_uri), markdown)
    markdown = site_links(markdown, page.file.src_uri)
    if page.file.src_uri == "rules/RULES.md":
        markdown = sitegen.anchor_rules(markdown)
    markdown = sitegen.link_rule_ids(markdown, KNOWN)

    def fill(m: re.Match[str]) -> str:
        try:
            return GENERATORS[m.group(1)]()
        except KeyError:
            raise ValueError(f"{page.file.src_uri}: no generator named {m.group(1)!r}") from None

    return GENERATED.sub(fill, markdown)
