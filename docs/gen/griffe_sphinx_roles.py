"""Griffe extension for the site: in docstrings, Sphinx roles become cross-references (see
roles.py) and rule ids links to the rules digest (sitegen.link_rule_ids)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).resolve().parent))

import roles  # noqa: E402
import sitegen  # noqa: E402


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    out = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            out.extend(_walk(member))  # type: ignore[arg-type]
    return out


class SphinxRoles(griffe.Extension):
    """Rewrite every docstring of a loaded package once, when the whole package is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        packages = sitegen.package_names()
        known = {rule.id for rule in sitegen.rules()}
        for obj in _walk(pkg):
            if obj.docstring is not None:
                text = roles.convert(obj.docstring.value, obj.path, packages)
                obj.docstring.value = sitegen.link_rule_ids(text, known)
