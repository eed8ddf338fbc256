"""The generated pages of the documentation site, as Markdown text, from the package as it is.

Nothing here is a hand-kept list: the API pages come from walking the installed packages
(``alhambra`` and the expansion modules this distribution registers under the entry-point group
``alhambra.modules``), the hook reference from the hook specifications pluggy collects from
``alhambra.hookspec``, the command-line page from ``alhambra.cli.build_parser()``, and the
rules index from the rule ids of ``docs/rules/RULES.md`` found in the packages' source and in
the names of the tests. ``generate.py`` (run by mkdocs-gen-files) writes these pages into the
site; ``hooks.py`` (an MkDocs hook) fills the generated parts of hand-written pages.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import io
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pluggy

sys.path.insert(0, str(Path(__file__).resolve().parent))

import roles  # noqa: E402

#: the repository checkout the site is built from (docs/gen/ is two levels below it)
ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "rules" / "RULES.md"
TESTS = ROOT / "tests"
DISTRIBUTION = "alhambra-engine"
MODULE_GROUP = "alhambra.modules"


# ---------------------------------------------------------------------------------------------
# The documented packages
# ---------------------------------------------------------------------------------------------


def package_names() -> list[str]:
    """``alhambra`` and the top-level packages of the expansion modules this distribution ships
    (its ``alhambra.modules`` entry points), in that order."""
    shipped = sorted(
        {
            ep.value.split(":")[0].split(".")[0]
            for ep in importlib.metadata.entry_points(group=MODULE_GROUP)
            if ep.dist is not None and ep.dist.name == DISTRIBUTION
        }
    )
    return ["alhambra", *[name for name in shipped if name != "alhambra"]]


def package_dir(name: str) -> Path:
    """The directory holding the package ``name`` (its ``__init__.py``)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"{name} is not an installed package")
    return Path(next(iter(spec.submodule_search_locations)))


def _is_private(part: str) -> bool:
    return part.startswith("_") and part != "__init__"


def modules_of(name: str) -> list[tuple[str, Path]]:
    """Every public module of package ``name``: ``(dotted name, file)``, packages before their
    submodules, in name order."""
    base = package_dir(name)
    out = []
    for path in sorted(base.rglob("*.py")):
        rel = path.relative_to(base).with_suffix("")
        parts = list(rel.parts)
        if "__pycache__" in parts or any(_is_private(p) for p in parts) or parts[-1] == "__main__":
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(not (base.joinpath(*parts[:i]) / "__init__.py").exists() for i in range(1, len(parts))):
            continue  # a directory of scripts or data inside the package, not a subpackage
        out.append((".".join([name, *parts]), path))
    return sorted(out, key=lambda item: item[0].split("."))


def shown_path(path: Path) -> str:
    """``path`` as the reader knows it: relative to the checkout when it lies in it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


# ---------------------------------------------------------------------------------------------
# API reference
# ---------------------------------------------------------------------------------------------


def api_page_path(module: str, is_package: bool) -> str:
    """Where the API page of ``module`` lies in the site, e.g. ``reference/alhambra/city.md``."""
    parts = module.split(".")
    return "/".join(["reference", *parts, "index.md"] if is_package else ["reference", *parts]) + (
        "" if is_package else ".md"
    )


def _defined_names(path: Path, unpacked: bool = True) -> list[str]:
    """The public names a module file defines itself (classes, functions, assignments; names
    bound by unpacking ``A, B = ...`` only if ``unpacked``: the API reference lists none)."""
    tree = ast.parse(path.read_text("utf-8"))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        else:
            names.extend(roles.assigned_names(node, unpacked))
    return [n for n in dict.fromkeys(names) if not n.startswith("_")]


def api_page(module: str, path: Path) -> str:
    """The Markdown of one module's API page: mkdocstrings renders what the module defines; a
    package's ``__all__`` names defined elsewhere are listed with links to their own pages."""
    lines = [f"# `{module}`", ""]
    exported = _exported(module, path) if path.name == "__init__.py" else None
    if exported is not None:
        own = _defined_names(path)
        members = ", ".join(json.dumps(n) for n in own)
        lines += [f"::: {module}", "    options:", "      show_root_heading: false", f"      members: [{members}]", ""]
        others = [n for n in exported if n not in own]
        if others:
            lines += ["## Names it exports", "", "| name | documented at |", "|---|---|"]
            for name in others:
                home = roles.resolve(name, module, package_names()) or _static_home(module, path, name)
                where = f"[`{home}`][{home}]" if home else _unlisted(module, name)
                lines.append(f"| `{module}.{name}` | {where} |")
            lines.append("")
    else:
        lines += [f"::: {module}", "    options:", "      show_root_heading: false", ""]
    return "\n".join(lines)


def safe_import(name: str) -> ModuleType | None:
    """The module ``name``, or None if it cannot be imported here (a subpackage whose optional
    extra is not installed, such as ``alhambra.env`` without numpy: the site still documents
    it, from its source)."""
    try:
        return importlib.import_module(name)
    except Exception:  # noqa: BLE001 - any failure of an optional part's import means "not here"
        return None


def _exported(module: str, path: Path) -> list[str] | None:
    """A package's ``__all__``: read from its source when it is a literal list, otherwise from
    the imported package; None when it has none (or cannot be imported)."""
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and "__all__" in roles.assigned_names(node):
            try:
                return [str(n) for n in ast.literal_eval(node.value)] if node.value is not None else None
            except ValueError:
                break
    imported = safe_import(module)
    exported = getattr(imported, "__all__", None) if imported is not None else None
    return list(exported) if exported is not None else None


def _static_home(module: str, path: Path, name: str) -> str | None:
    """Where a package takes ``name`` from, read from the source (for a package that cannot be
    imported here): its ``from .x import name`` if that module defines it, else the submodule
    of that name or the one submodule defining it (names a module ``__getattr__`` provides)."""
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            base = module.split(".")[: len(module.split(".")) - max(node.level - 1, 0)] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            spec_dir = package_dir(target.split(".")[0])
            rel = target.split(".")[1:]
            for candidate in (spec_dir.joinpath(*rel).with_suffix(".py"), spec_dir.joinpath(*rel, "__init__.py")):
                if candidate.exists() and name in _defined_names(candidate, unpacked=False):
                    return f"{target}.{name}"
    # a name the package provides lazily (a module ``__getattr__``): a submodule of that name,
    # or the one submodule that defines it
    subs = [(m, p) for m, p in modules_of(module.split(".")[0]) if m.rpartition(".")[0] == module]
    if any(m == f"{module}.{name}" for m, _ in subs):
        return f"{module}.{name}"
    defining = [m for m, p in subs if name in _defined_names(p, unpacked=False)]
    return f"{defining[0]}.{name}" if len(defining) == 1 else None


def _unlisted(module: str, name: str) -> str:
    """Where an exported name the API reference does not list as an object is bound: a link
    to its module's page (a constant bound by unpacking, ``NORTH, EAST, ... = 1, 2, 4, 8``)."""
    home = roles.home_module(module, name)
    if home is None or not roles.is_rendered(home, package_names()):
        return "not documented as an object"
    try:
        value = getattr(safe_import(module), name, None)
    except Exception:  # noqa: BLE001 - a lazy attribute whose import fails here
        value = None
    shown = f" (`{name} = {value!r}`)" if isinstance(value, (int, str, float)) else ""
    return f"bound in [`{home}`][{home}]{shown}"


def api_pages() -> dict[str, str]:
    """Every API page by its path in the site, and ``reference/SUMMARY.md`` (the literate-nav
    navigation of the reference section)."""
    pages: dict[str, str] = {}
    nav = ["* [Overview](index.md)"]
    index = [
        "# API reference",
        "",
        "Generated from the docstrings of the installed packages at every build.",
        "",
        "| module | summary |",
        "|---|---|",
    ]
    for top in package_names():
        for module, path in modules_of(top):
            page = api_page_path(module, path.name == "__init__.py")
            pages[page] = api_page(module, path)
            depth = module.count(".")
            nav.append("    " * depth + f"* [{module.rsplit('.', 1)[-1]}]({page.removeprefix('reference/')})")
            summary = (ast.get_docstring(ast.parse(path.read_text("utf-8"))) or "").strip().split("\n\n")[0]
            summary = " ".join(roles.convert(summary, module, package_names()).split())
            summary = summary.replace("|", "\\|")
            index.append(f"| [`{module}`]({page.removeprefix('reference/')}) | {summary} |")
    pages["reference/index.md"] = "\n".join(index) + "\n"
    pages["reference/SUMMARY.md"] = "\n".join(nav) + "\n"
    return pages


# ---------------------------------------------------------------------------------------------
# Hook reference
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HookInfo:
    """One hook specification: its name, stage (the banner above it), signature, options."""

    name: str
    stage: str
    signature: str
    firstresult: bool
    historic: bool
    doc: str
    line: int
    #: ``(plugin name, ordering marks)`` of a game with every module, in calling order
    implemented_by: tuple[tuple[str, str], ...] = ()


def _hookspec_module():
    # ``alhambra.hookspec`` as an attribute is the marker re-exported by the package; the
    # module itself is found by its import name
    return importlib.import_module("alhambra.hookspec")


def _signature(fn) -> str:
    sig = inspect.signature(fn, eval_str=False)
    params = []
    for p in sig.parameters.values():
        ann = p.annotation
        text = (
            p.name
            if ann is inspect.Parameter.empty
            else f"{p.name}: {ann if isinstance(ann, str) else inspect.formatannotation(ann)}"
        )
        params.append(text)
    ret = sig.return_annotation
    tail = (
        ""
        if ret is inspect.Signature.empty
        else f" -> {ret if isinstance(ret, str) else inspect.formatannotation(ret)}"
    )
    return f"{fn.__name__}({', '.join(params)}){tail}"


def _stages(source: list[str]) -> list[tuple[int, str]]:
    """``(line, title)`` of the banner comments of the hook specifications' source: a ``# title``
    line right after a ``# ----`` line."""
    out = []
    for i in range(1, len(source)):
        above, line = source[i - 1].strip(), source[i].strip()
        if above.startswith("# ---") and line.startswith("# ") and not line.startswith("# ---"):
            out.append((i + 1, line[2:].strip()))
    return out


def implementations() -> dict[str, tuple[tuple[str, str], ...]]:
    """Per hook, the plugins implementing it in a game with every installed module, in the
    order pluggy calls them, each with its ordering marks: ``("core.setup", "tryfirst")``."""
    import alhambra

    pm = alhambra.Ruleset(sorted(alhambra.available_modules())).pm
    out = {}
    for name in vars(pm.hook):
        caller = getattr(pm.hook, name)
        if getattr(caller, "spec", None) is None:
            continue
        names = []
        for impl in reversed(caller.get_hookimpls()):  # pluggy calls the last registered first
            marks = [m for m in ("tryfirst", "trylast", "hookwrapper", "wrapper") if getattr(impl, m, False)]
            names.append((pm.get_name(impl.plugin) or "", ", ".join(marks)))
        out[name] = tuple(names)
    return out


def hooks() -> list[HookInfo]:
    """Every hook specification pluggy collects from ``alhambra.hookspec``, in source order,
    with the plugins that implement it in a game with every module."""
    module = _hookspec_module()
    implemented = implementations()
    pm = pluggy.PluginManager(module.PROJECT)
    pm.add_hookspecs(module)
    out = []
    stage_cache: dict[str, list[tuple[int, str]]] = {}
    for name in sorted(vars(pm.hook)):
        caller = getattr(pm.hook, name)
        spec = getattr(caller, "spec", None)
        if spec is None:
            continue
        fn = spec.function
        source_file = inspect.getsourcefile(fn) or ""
        if source_file not in stage_cache:
            stage_cache[source_file] = _stages(Path(source_file).read_text("utf-8").splitlines())
        line = inspect.getsourcelines(fn)[1]
        stage = next((title for start, title in reversed(stage_cache[source_file]) if start < line), "Hooks")
        doc = roles.convert(inspect.getdoc(fn) or "", f"{module.__name__}.{name}", package_names())
        out.append(
            HookInfo(
                name,
                stage,
                _signature(fn),
                bool(spec.opts.get("firstresult")),
                bool(spec.opts.get("historic")),
                doc,
                line,
                implemented.get(name, ()),
            )
        )
    return sorted(out, key=lambda h: h.line)


def hook_reference() -> str:
    """The hook reference page: the module's introduction, a table of every hook with its stage
    and *firstresult* flag, then each hook with its signature and full docstring."""
    module = _hookspec_module()
    all_hooks = hooks()
    intro = roles.convert(inspect.getdoc(module) or "", module.__name__, package_names())
    lines = [
        "# Hook reference",
        "",
        (
            f"Generated at build time from `{module.__name__}` "
            f"({len(all_hooks)} hooks, project name `{module.PROJECT}`)."
        ),
        "",
        intro,
        "",
        "| hook | stage | firstresult |",
        "|---|---|---|",
    ]
    for h in all_hooks:
        short = h.stage.split(" (")[0]
        lines.append(f"| [`{h.name}`](#{h.name}) | {short} | {'yes' if h.firstresult else 'no'} |")
    stage: str | None = None
    for h in all_hooks:
        if h.stage != stage:
            stage = h.stage
            lines += ["", f"## {stage}"]
        flags = f"**firstresult**: {'yes' if h.firstresult else 'no'}"
        if h.historic:
            flags += " · **historic**: yes"
        users = (
            ", ".join(f"`{n}`" + (f" ({marks})" if marks else "") for n, marks in h.implemented_by)
            or "no built-in plugin or shipped module"
        )
        lines += [
            "",
            f"### `{h.name}` {{#{h.name}}}",
            "",
            "```python",
            h.signature,
            "```",
            "",
            flags + f" · [API entry][{module.__name__}.{h.name}]",
            "",
            h.doc,
            "",
            f"*Implemented by* (in calling order, every module on): {users}.",
        ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    out = []
    for action in parser._actions:  # argparse offers no public walk of its parser tree
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append((name, sub, helps.get(name) or ""))
    return out


def _argument_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        names = ", ".join(f"`{s}`" for s in action.option_strings) or f"`{action.dest}`"
        if action.option_strings and action.nargs != 0:
            metavar = action.metavar or action.dest.upper()
            names += f" `{metavar}`" if not isinstance(metavar, tuple) else ""
        default = (
            "" if action.default in (None, argparse.SUPPRESS, False) or action.nargs == 0 else f"`{action.default}`"
        )
        choices = ", ".join(f"`{c}`" for c in action.choices) if action.choices else ""
        text = (action.help or "").replace("%(prog)s", parser.prog).replace("|", "\\|")
        if action.help == argparse.SUPPRESS:
            continue
        rows.append(f"| {names} | {text} | {default} | {choices} |")
    return rows


def _command_section(level: str, title: str, parser: argparse.ArgumentParser, summary: str) -> list[str]:
    lines = ["", f"{level} `{title}`", ""]
    if summary:
        lines += [summary[0].upper() + summary[1:] + ".", ""]
    lines += ["```text", parser.format_usage().strip(), "```", ""]
    if parser.description:
        lines += [parser.description, ""]
    rows = _argument_rows(parser)
    if rows:
        lines += ["| argument | meaning | default | choices |", "|---|---|---|---|", *rows]
    return lines


def cli_reference() -> str:
    """The command-line page: usage, description and arguments of ``alhambra`` and each of its
    subcommands, read from ``alhambra.cli.build_parser()``."""
    from alhambra.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps usage lines to the terminal's width
    try:
        parser = build_parser()
        lines = [
            "# Command line",
            "",
            ("Generated at build time from `alhambra.cli.build_parser()`; `alhambra COMMAND --help` prints the same."),
            *_command_section("##", parser.prog, parser, ""),
        ]
        for name, sub, summary in _subparsers(parser):
            lines += _command_section("##", f"{parser.prog} {name}", sub, summary)
            for subname, subsub, subsummary in _subparsers(sub):
                lines += _command_section("###", f"{parser.prog} {name} {subname}", subsub, subsummary)
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Rules index
# ---------------------------------------------------------------------------------------------

RULE_LINE = re.compile(r"^- (R-[A-Z]+-\d+)\b(.*)$")
#: the rules index's heading of rule R-X-n has the id ``index-R-X-n`` (``R-X-n`` is the rule's
#: own anchor in the digest)
INDEX_ANCHOR = "index-"
SECTION = re.compile(r"^## (\d+)\. (.*)$")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of RULES.md: its id, section number and title, and its first line of text."""

    id: str
    section: int
    section_title: str
    text: str


def rules(text: str | None = None) -> list[Rule]:
    """The rules of ``docs/rules/RULES.md`` (or of ``text``), in order."""
    text = RULES_MD.read_text("utf-8") if text is None else text
    out = []
    number, title = 0, ""
    for line in text.splitlines():
        sec = SECTION.match(line)
        if sec:
            number, title = int(sec.group(1)), sec.group(2).strip()
            continue
        m = RULE_LINE.match(line)
        if m:
            out.append(Rule(m.group(1), number, title, m.group(2).lstrip(" :").strip()))
    return out


#: an id with what may follow it: ``R-VIZ-1 … R-VIZ-7``, ``R-VIZ-1…7``, ``R-TURN-3/4``, ``R-VIZ-2/R-VIZ-5``
CITED = re.compile(r"R-([A-Z]+)-(\d+)((?:\s*(?:…|\.\.\.|–|/)\s*(?:R-\1-)?\d+)*)")
_STEP = re.compile(r"(…|\.\.\.|–|/)\s*(?:R-[A-Z]+-)?(\d+)")


def cited_ids(text: str) -> list[str]:
    """The rule ids ``text`` names, ranges and slashed lists expanded, in order, once each."""
    out: list[str] = []
    for m in CITED.finditer(text):
        prefix, last = m.group(1), int(m.group(2))
        numbers = [last]
        for sep, num in _STEP.findall(m.group(3)):
            n = int(num)
            numbers.extend(range(last + 1, n + 1) if sep != "/" and n > last else [n])
            last = n
        out.extend(f"R-{prefix}-{n}" for n in numbers)
    return list(dict.fromkeys(out))


@dataclass(frozen=True, slots=True)
class Citation:
    """A place that names a rule id: a file, a line, the innermost definition around it."""

    file: str
    line: int
    where: str  # qualified name of the def/class around the line, or "" for module level
    module: str = ""  # dotted module name, for code (links to its API page)
    page: str = ""  # the module's API page in the site, if it has one
    anchor: str = ""  # the id of the object the API page shows for ``where`` (module if none)


def _definitions(tree: ast.AST) -> list[tuple[int, int, str, str]]:
    """``(first line, last line, qualified name, shown name)`` of every def and class of a
    module; the shown name is the part of the qualified name the API reference renders (public
    names down from the module through classes: a private helper or a function's inner
    function shows as what contains it)."""
    out: list[tuple[int, int, str, str]] = []

    def visit(node: ast.AST, prefix: str, shown: str, container: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                public = container and not child.name.startswith("_")
                here = f"{shown}.{child.name}".lstrip(".") if public else shown
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                out.append((first, child.end_lineno or child.lineno, name, here))
                visit(child, name + ".", here, public and isinstance(child, ast.ClassDef))
            else:
                visit(child, prefix, shown, container)

    visit(tree, "", "", True)
    return out


def _innermost(defs: list[tuple[int, int, str, str]], line: int) -> tuple[str, str]:
    """The qualified and shown names of the innermost definition around ``line``."""
    inside = [d for d in defs if d[0] <= line <= d[1]]
    if not inside:
        return "", ""
    best = max(inside, key=lambda d: d[0])
    return best[2], best[3]


def code_citations() -> dict[str, list[Citation]]:
    """Every rule id named anywhere in the documented packages' source (docstrings, comments,
    messages, module ``RULES``), each with the places that name it, one per definition."""
    found: dict[str, list[Citation]] = {}
    for top in package_names():
        base = package_dir(top)
        public = {path: module for module, path in modules_of(top)}
        for path in sorted(base.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            text = path.read_text("utf-8")
            defs = _definitions(ast.parse(text))
            rel = path.relative_to(base).with_suffix("").parts
            module = ".".join([top, *(rel[:-1] if rel[-1] == "__init__" else rel)])
            page = api_page_path(module, path.name == "__init__.py") if path in public else ""
            seen: set[tuple[str, str]] = set()
            for number, line in enumerate(text.splitlines(), 1):
                for rid in cited_ids(line):
                    where, shown = _innermost(defs, number)
                    if (rid, where) not in seen:
                        seen.add((rid, where))
                        anchor = f"{module}.{shown}" if shown else module
                        found.setdefault(rid, []).append(
                            Citation(shown_path(path), number, where, module, page, anchor)
                        )
    return found


def ids_in_test_name(name: str, prefixes: set[str]) -> list[str]:
    """The rule ids a test's name carries: ``test_r_place_6_no_holes`` names R-PLACE-6 and
    ``test_r_two_2_3_dirk`` names R-TWO-2 and R-TWO-3 (only prefixes of RULES.md count)."""
    out: list[str] = []
    for m in re.finditer(r"(?:^|_)r_([a-z]+)((?:_\d+)+)(?=_|$)", name.lower()):
        prefix = m.group(1).upper()
        if prefix in prefixes:
            out.extend(f"R-{prefix}-{int(n)}" for n in m.group(2).strip("_").split("_"))
    return list(dict.fromkeys(out))


@dataclass(slots=True)
class CitingTests:
    """Per rule id: the tests named after it, and the tests that only cite it in a docstring."""

    named: dict[str, list[Citation]] = field(default_factory=dict)
    docstring: dict[str, list[Citation]] = field(default_factory=dict)


def tests_citing(prefixes: set[str], tests_dir: Path = TESTS) -> CitingTests:
    """Scan every ``test_*.py`` under ``tests_dir`` for test functions naming a rule id (see
    :func:`ids_in_test_name`) or citing one in their docstring."""
    out = CitingTests()
    for path in sorted(tests_dir.rglob("test_*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not node.name.startswith("test"):
                continue
            cite = Citation(shown_path(path), node.lineno, node.name)
            named = ids_in_test_name(node.name, prefixes)
            for rid in named:
                out.named.setdefault(rid, []).append(cite)
            for rid in cited_ids(ast.get_docstring(node) or ""):
                if rid not in named:
                    out.docstring.setdefault(rid, []).append(cite)
    return out


@dataclass(frozen=True, slots=True)
class RulesIndex:
    """The rules with where they are cited: code and tests per id, and ids cited but unknown."""

    rules: list[Rule]
    code: dict[str, list[Citation]]
    tests: CitingTests
    unknown: dict[str, list[Citation]]

    def counts(self, sections: range = range(1, 13)) -> tuple[int, int, int, int]:
        """``(ids, with code, with a named test, with both)`` among the rules of ``sections``."""
        ids = [r.id for r in self.rules if r.section in sections]
        code = {i for i in ids if self.code.get(i)}
        tested = {i for i in ids if self.tests.named.get(i)}
        return len(ids), len(code), len(tested), len(code & tested)


def rules_index_data() -> RulesIndex:
    """Scan the packages and the tests for the ids of RULES.md (see :class:`RulesIndex`)."""
    all_rules = rules()
    known = {r.id for r in all_rules}
    code = code_citations()
    tests = tests_citing({r.id.split("-")[1] for r in all_rules})
    unknown = {rid: cites for rid, cites in code.items() if rid not in known}
    for rid, cites in tests.named.items():
        if rid not in known:
            unknown.setdefault(rid, []).extend(cites)
    return RulesIndex(all_rules, {k: v for k, v in code.items() if k in known}, tests, unknown)


def _code_item(c: Citation, up: str) -> str:
    where = f"`{c.where}`" if c.where else "module level"
    if c.page:
        where = f"[{where}]({up}{c.page}#{c.anchor})"
    return f"`{c.module}`: {where} (`{c.file}:{c.line}`)"


def _test_item(c: Citation) -> str:
    return f"`{c.file}::{c.where}` (line {c.line})"


def _short(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " …"


def rules_index(page: str = "rules/rules-index.md") -> str:
    """The rules index page: a summary table, then per rule id the code and the tests citing it;
    ids without a test are listed as such."""
    data = rules_index_data()
    up = "../" * page.count("/")
    n, with_code, with_tests, both = data.counts()
    untested = [r for r in data.rules if not data.tests.named.get(r.id)]
    lines = [
        "# Rules index",
        "",
        (
            "Generated at build time: for every rule id of the [rules digest](RULES.md), the code that "
            "names it (docstrings, comments, messages and module `RULES` of the packages) and the tests "
            "named after it (`test_r_place_6_…`). Tests that only cite an id in their docstring are "
            "listed apart and do not count as its tests."
        ),
        "",
        (
            f"**Sections 1-12: {n} rule ids; {with_code} cited in code, {with_tests} with a test named "
            f"after them, {both} with both.**"
        ),
        "",
        "| rule | section | code | tests | also in test docstrings |",
        "|---|---|---|---|---|",
    ]
    for r in data.rules:
        code, named = data.code.get(r.id, []), data.tests.named.get(r.id, [])
        doc = data.tests.docstring.get(r.id, [])
        lines.append(
            f"| [{r.id}](#{INDEX_ANCHOR}{r.id}) | {r.section}. {r.section_title} | {len(code) or '**none**'} | "
            f"{len(named) or '**no test**'} | {len(doc) or ''} |"
        )
    lines += ["", "## Rules without a test", ""]
    lines += [f"* [{r.id}](#{INDEX_ANCHOR}{r.id}): {_short(r.text)}" for r in untested] or [
        "Every rule id has a test named after it."
    ]
    lines += ["", "## Rules no code cites", ""]
    lines += [
        f"* [{r.id}](#{INDEX_ANCHOR}{r.id}): {_short(r.text)}" for r in data.rules if not data.code.get(r.id)
    ] or ["The code cites every rule id."]
    if data.unknown:
        lines += ["", "## Cited ids that are not in the rules digest", ""]
        for rid, cites in sorted(data.unknown.items()):
            lines.append(f"* `{rid}`: " + "; ".join(f"`{c.file}:{c.line}`" for c in cites))
    section = None
    for r in data.rules:
        if r.section != section:
            section = r.section
            lines += ["", f"## {r.section}. {r.section_title}"]
        lines += ["", f"### {r.id} {{#{INDEX_ANCHOR}{r.id}}}", "", f"[{r.id}](RULES.md#{r.id}): {r.text}", ""]
        code = data.code.get(r.id, [])
        lines += ["**Code:**", ""] + ([f"* {_code_item(c, up)}" for c in code] or ["* none"]) + [""]
        named = data.tests.named.get(r.id, [])
        lines += ["**Tests:**", ""] + ([f"* {_test_item(c)}" for c in named] or ["* **no test**"])
        doc = data.tests.docstring.get(r.id, [])
        if doc:
            lines += ["", "**Also cited in the docstrings of:**", ""] + [f"* {_test_item(c)}" for c in doc]
    return "\n".join(lines) + "\n"


def anchor_rules(markdown: str, index_page: str = "rules-index.md") -> str:
    """RULES.md with every rule id an anchor (``#R-PLACE-6``, also a cross-reference target:
    ``[R-PLACE-6][R-PLACE-6]`` links to it from any page) and a link to its rules-index entry."""

    def one(m: re.Match[str]) -> str:
        rid = m.group(1)
        return f"- [](){{#{rid}}}[**{rid}**]({index_page}#{INDEX_ANCHOR}{rid}){m.group(2)}"

    return "\n".join(RULE_LINE.sub(one, line) for line in markdown.splitlines()) + "\n"


#: a bare rule id in running text: not already link text, an anchor or part of a longer word
BARE_ID = re.compile(r"(?<![\[#\w-])(R-[A-Z]+-\d+)(?![\w-]|\]|\()")
CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
FENCE = re.compile(r"^\s*(```|~~~)")


def link_rule_ids(markdown: str, known: set[str]) -> str:
    """``markdown`` with every bare known rule id in running text a cross-reference to its
    anchor in the rules digest; code (fenced or inline), headings and HTML lines are left as
    they are."""
    out, fenced = [], False
    for line in markdown.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
        if fenced or FENCE.match(line) or line.lstrip().startswith(("#", "<")):
            out.append(line)
            continue
        pieces, last = [], 0
        for code in CODE_SPAN.finditer(line):
            pieces.append(_link_ids(line[last : code.start()], known))
            pieces.append(code.group(0))
            last = code.end()
        pieces.append(_link_ids(line[last:], known))
        out.append("".join(pieces))
    return "\n".join(out)


def _link_ids(text: str, known: set[str]) -> str:
    return BARE_ID.sub(lambda m: f"[{m.group(1)}][{m.group(1)}]" if m.group(1) in known else m.group(1), text)


# ---------------------------------------------------------------------------------------------
# Examples of the save and result formats
# ---------------------------------------------------------------------------------------------


def save_example(actions: int = 3) -> str:
    """A real save: a 2-player game, seed 1, after its first ``actions`` listed actions, as JSON
    (the generator's 625 state numbers shortened to three and a count)."""
    import alhambra

    game = alhambra.new_game(["Ana", "Bo"], seed=1)
    for _ in range(actions):
        game.apply(game.legal_actions()[0])
    data = json.loads(game.to_json())
    state = data.get("rng", {}).get("state")
    if isinstance(state, list) and len(state) > 3:
        data["rng"]["state"] = [*state[:3], f"... {len(state) - 3} more numbers"]
    return _outline(data)


def _outline(data: dict, nested: tuple[str, ...] = ("state",)) -> str:
    """JSON with one line per top-level key (and per key of the objects named in ``nested``)."""

    def compact(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    lines = []
    for key, value in data.items():
        if key in nested and isinstance(value, dict):
            inner = [f"    {compact(k)}: {compact(v)}" for k, v in value.items()]
            lines.append(f"  {compact(key)}: {{\n" + ",\n".join(inner) + "\n  }")
        else:
            lines.append(f"  {compact(key)}: {compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def result_example() -> str:
    """A real result record: one line of ``alhambra simulate --players 3 --modules all --out``."""
    from alhambra.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.jsonl"
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(
                [
                    "simulate",
                    "--players",
                    "3",
                    "--modules",
                    "all",
                    "--games",
                    "1",
                    "--seed",
                    "7",
                    "--workers",
                    "1",
                    "--quiet",
                    "--no-progress",
                    "--out",
                    str(out),
                ]
            )
        if code != 0:
            raise RuntimeError(f"alhambra simulate exited with {code}")
        record = json.loads(out.read_text("utf-8").splitlines()[0])
    return _outline(record, nested=())


EXAMPLES = ROOT / "examples"


def _summary_of(path: Path) -> str:
    """A file's own description: a Python file's module docstring (first paragraph), a TOML
    file's leading comment lines."""
    text = path.read_text("utf-8")
    if path.suffix == ".py":
        doc = ast.get_docstring(ast.parse(text)) or ""
        return " ".join(doc.split("\n\n")[0].split())
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# ").rstrip())
    return " ".join(part for part in lines if part)


def examples_page(directory: Path = EXAMPLES) -> str:
    """The examples page: every file of ``examples/`` with its description and its full text."""
    files = sorted(p for p in directory.iterdir() if p.suffix in (".py", ".toml"))
    lines = [
        "# Examples",
        "",
        f"Every file of the repository's `examples/` directory ({len(files)} files), as it is: "
        "modules and house rules of your own, variants, and game configurations that "
        "`alhambra simulate --config FILE` plays.",
        "",
    ]
    for path in files:
        lang = "python" if path.suffix == ".py" else "toml"
        lines += [
            f"## `{path.name}`",
            "",
            _summary_of(path),
            "",
            f"```{lang}",
            path.read_text("utf-8").rstrip("\n"),
            "```",
            "",
        ]
    return "\n".join(lines)


def iter_generated() -> Iterator[tuple[str, str]]:
    """Every generated page: ``(path in the site, Markdown)``."""
    yield from api_pages().items()
    yield "hooks.md", hook_reference()
    yield "command-line.md", cli_reference()
    yield "rules/rules-index.md", rules_index()
    yield "examples.md", examples_page()
