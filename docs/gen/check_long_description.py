"""Check a built wheel's long description as a package index shows it.

``python docs/gen/check_long_description.py dist/alhambra_engine-*.whl``: the description
(README.md, rewritten by the ``fancy-pypi-readme`` hook of pyproject.toml) renders with
readme_renderer's Markdown renderer, keeps the README's sections, and has no link or picture
relative to the repository (which would lead nowhere on an index). Exits 1 naming the problem.
"""

from __future__ import annotations

import re
import sys
import zipfile
from email.parser import Parser

RELATIVE = re.compile(r"\]\((?![a-z]+://|#)[^)]*\)")


def long_description(wheel: str) -> str:
    """The body of the wheel's ``METADATA`` (its long description)."""
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(zf.read(name).decode("utf-8"))
    if message.get("Description-Content-Type", "").split(";")[0] != "text/markdown":
        raise SystemExit(f"{wheel}: the long description is not declared as Markdown")
    return str(message.get_payload())


def problems(text: str) -> list[str]:
    """What is wrong with a long description (empty: nothing)."""
    from readme_renderer.markdown import render

    out = [f"relative link or picture: {m.group(0)}" for m in RELATIVE.finditer(text)]
    html = render(text) or ""
    for heading in ("Quick start", "As a library", "Command line"):
        if not re.search(rf"<h2[^>]*>{heading}<", html):
            out.append(f"the rendered description has no section {heading!r}")
    return out


if __name__ == "__main__":
    found = problems(long_description(sys.argv[1]))
    for problem in found:
        print(problem, file=sys.stderr)
    sys.exit(1 if found else 0)
