"""The architecture's own figures: how big the modules are and how much of them is bookkeeping.

Prints, per expansion module, its code lines (docstrings, comments and blank lines not
counted), the code lines inside its hook implementations and how many of those are bookkeeping
(views, positions, validation, determinization, hidden piles, locations, words); then the
code lines of the core that name a module, the public members of ``Game`` and the import
circles of ``alhambra`` (type-checking imports included).

    python benchmarks/architecture.py
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds")
BOOKKEEPING = {
    "alhambra_view",
    "alhambra_position_part",
    "alhambra_position_read",
    "alhambra_check_state",
    "alhambra_determinize",
    "alhambra_hidden_piles",
    "alhambra_tile_locations",
    "alhambra_card_locations",
    "alhambra_action_words",
}


def code_lines(source: str) -> set[int]:
    """Line numbers holding code: not blank, not a comment, not a docstring."""
    tree = ast.parse(source)
    doc: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                doc.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (
            tokenize.COMMENT,
            tokenize.NL,
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            continue
        for line in range(tok.start[0], tok.end[0] + 1):
            if line not in doc:
                lines.add(line)
    return lines


def hook_lines(source: str, code: set[int]) -> tuple[int, int]:
    """(all, bookkeeping) code lines inside ``@hookimpl`` function bodies."""
    total = bookkeeping = 0
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        names = [ast.unparse(d) for d in node.decorator_list]
        if not any("hookimpl" in n for n in names):
            continue
        first = node.body[0]
        start = first.lineno
        body = {n for n in code if start <= n <= (node.end_lineno or start)}
        total += len(body)
        if node.name in BOOKKEEPING:
            bookkeeping += len(body)
    return total, bookkeeping


def module_figures() -> list[tuple[str, int, int, int]]:
    rows = []
    for name in MODULES:
        code = hooks = books = 0
        for path in sorted((ROOT / "modules" / f"alhambra_{name}").rglob("*.py")):
            source = path.read_text()
            lines = code_lines(source)
            code += len(lines)
            h, b = hook_lines(source, lines)
            hooks += h
            books += b
        rows.append((name, code, hooks, books))
    return rows


def core_lines_naming_modules(root: Path = ROOT) -> list[str]:
    """The code lines of ``root``'s core (``core/alhambra``) that name an expansion module, as
    a string (``"vizier"``) or a package (``alhambra_vizier``): ``"path:line: text"`` each.
    The core works with any module through the hooks, so the list should be empty
    (tests/test_architecture.py)."""
    pattern = re.compile(r"""["'](%s)["']|alhambra_(%s)\b""" % ("|".join(MODULES), "|".join(MODULES)))
    found = []
    for path in sorted((root / "core" / "alhambra").rglob("*.py")):
        source = path.read_text()
        lines = code_lines(source)
        for number, text in enumerate(source.splitlines(), 1):
            if number in lines and pattern.search(text):
                found.append(f"{path.relative_to(root)}:{number}: {text.strip()}")
    return found


def game_public_members() -> list[str]:
    sys.path[:0] = [str(ROOT / "core"), str(ROOT / "modules")]
    from alhambra.game import DEPRECATED_MEMBERS, Game

    # the members that moved answer, with a warning, until they are removed: not counted
    return sorted(n for n in dir(Game) if not n.startswith("_") and n not in DEPRECATED_MEMBERS)


def circles(graph: Any) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def import_circles() -> list[list[str]]:
    """The import circles of the ``alhambra`` package, type-checking imports included."""
    import grimp

    return circles(grimp.build_graph("alhambra", include_external_packages=False, exclude_type_checking_imports=False))


def main() -> None:
    rows = module_figures()
    print(f"{'module':<18}{'code':>6}{'hooks':>7}{'bookkeeping':>13}")
    for name, code, hooks, books in rows:
        print(f"{name:<18}{code:>6}{hooks:>7}{books:>13}")
    print(f"{'total':<18}{sum(r[1] for r in rows):>6}{sum(r[2] for r in rows):>7}{sum(r[3] for r in rows):>13}")
    naming = core_lines_naming_modules()
    print(f"\ncore code lines naming a module: {len(naming)}")
    for line in naming:
        print("  " + line)
    members = game_public_members()
    print(f"\nGame public members: {len(members)}")
    print("  " + ", ".join(members))
    circles = import_circles()
    print(f"\nimport circles (type-checking imports included): {len(circles)}")
    for comp in circles:
        print(f"  {len(comp)} files: " + ", ".join(comp))


if __name__ == "__main__":
    main()
