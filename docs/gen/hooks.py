"""MkDocs hooks of the site: the generated parts of hand-written pages (see sitegen.py).

* ``rules/RULES.md``: every rule id becomes an anchor (``#R-PLACE-6``) linking to its entry in
  the rules index.
* every page: a rule id in running text links to its anchor in the rules digest.
* any page: a line ``<!-- generated: NAME -->`` is replaced by the output of the generator
  ``NAME`` (``save-example``, ``result-example``), so examples are real output of this build.
* a page of ``docs/`` that ``mkdocs.yml``'s navigation does not list yet (one a new part of the
  project adds) is listed under "More" instead of failing the strict build as an omitted file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sitegen  # noqa: E402

KNOWN = {rule.id for rule in sitegen.rules()}
GENERATED = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)
GENERATORS = {
    "save-example": lambda: "```json\n" + sitegen.save_example() + "\n```",
    "result-example": lambda: "```json\n" + sitegen.result_example() + "\n```",
}


def _listed(nav: Any) -> set[str]:
    """Every page path named in a ``nav`` configuration (nested lists of dicts and strings)."""
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, dict):
        return set().union(*(_listed(v) for v in nav.values()))
    if isinstance(nav, list):
        return set().union(*(_listed(v) for v in nav))
    return set()


def on_files(files: Any, config: Any, **kwargs: Any) -> Any:
    nav = config.get("nav")
    if isinstance(nav, list):
        listed = _listed(nav)
        extra = sorted(
            f.src_uri
            for f in files.documentation_pages()
            if f.src_uri not in listed
            and not f.src_uri.startswith("reference/")
            and not f.src_uri.endswith("SUMMARY.md")
        )
        if extra:
            nav.append({"More": extra})
    return files


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri == "rules/RULES.md":
        markdown = sitegen.anchor_rules(markdown)
    markdown = sitegen.link_rule_ids(markdown, KNOWN)

    def fill(m: re.Match[str]) -> str:
        try:
            return GENERATORS[m.group(1)]()
        except KeyError:
            raise ValueError(f"{page.file.src_uri}: no generator named {m.group(1)!r}") from None

    return GENERATED.sub(fill, markdown)
