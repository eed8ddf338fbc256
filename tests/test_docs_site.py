"""The documentation site's generated pages (docs/gen/sitegen.py) say what the package holds.

These tests run the generators without MkDocs; `mkdocs build --strict` in .ci/run renders them
and fails on any broken link, anchor or cross-reference.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import re
import sys
from pathlib import Path

import alhambra
import pytest
from alhambra.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "gen"))

import roles  # noqa: E402
import sitegen  # noqa: E402

HOOKSPEC = Path(importlib.import_module("alhambra.hookspec").__file__)


def home(old_path: str) -> str:
    """Where a module of the engine lives now (``alhambra.city`` may be an alias of another)."""
    return importlib.import_module(old_path).__name__


def _specs_in_source() -> dict[str, bool]:
    """Every function of hookspec.py decorated with ``@hookspec`` or ``@hookspec(...)``, with
    its firstresult flag, read from the source text rather than through pluggy."""
    out = {}
    for node in ast.parse(HOOKSPEC.read_text("utf-8")).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            call = dec if isinstance(dec, ast.Call) else None
            name = call.func if call else dec
            if isinstance(name, ast.Name) and name.id == "hookspec":
                first = any(
                    k.arg == "firstresult" and getattr(k.value, "value", False) is True
                    for k in (call.keywords if call else [])
                )
                out[node.name] = first
    return out


def test_every_hook_of_hookspec_appears_in_the_hook_reference_with_its_firstresult_flag():
    page = sitegen.hook_reference()
    specs = _specs_in_source()
    assert len(specs) >= 26 and "alhambra_scoring" in specs
    for name, first in specs.items():
        flag = "yes" if first else "no"
        assert f"### `{name}` {{#{name}}}" in page, name
        assert re.search(rf"\| \[`{name}`\]\(#{name}\) \| [^|]+ \| {flag} \|", page), name
        section = page.split(f"### `{name}`")[1].split("\n### ")[0]
        assert f"**firstresult**: {flag}" in section, name
        doc = importlib.import_module("alhambra.hookspec").__dict__[name].__doc__.strip().splitlines()[0]
        assert doc.split(":")[0].split("(")[0][:40] in section, name
    assert page.count("\n### `") == len(specs)


def test_hook_reference_groups_hooks_by_the_banners_of_hookspec():
    stages = {h.name: h.stage for h in sitegen.hooks()}
    assert stages["alhambra_money_deck"] == "Setup"
    assert stages["alhambra_scoring"] == "Scoring"
    assert stages["alhambra_options"].startswith("Rule set")
    assert [h.firstresult for h in sitegen.hooks() if h.name == "alhambra_winners"] == [True]


def test_command_line_page_lists_every_subcommand_and_option_of_the_parser():
    page = sitegen.cli_reference()
    parser = build_parser()
    for action in parser._actions:
        for flag in action.option_strings:
            assert f"`{flag}`" in page
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    assert set(commands) == {"simulate", "replay", "modules", "play", "compare", "tournament", "sweep", "bots"}
    for name, sub in commands.items():
        assert f"## `alhambra {name}`" in page
        for action in sub._actions:
            for flag in action.option_strings:
                assert f"`{flag}`" in page.split(f"## `alhambra {name}`")[1], (name, flag)


def test_api_pages_cover_every_public_module_and_the_navigation_lists_them():
    pages = sitegen.api_pages()
    nav = pages["reference/SUMMARY.md"]
    for module in [
        "alhambra.game",
        home("alhambra.city"),
        "alhambra.bots.mcts",
        "alhambra_vizier.plugin",
        "alhambra_building_huts.layout",
    ]:
        path = sitegen.api_page_path(module, False)
        assert f"::: {module}\n" in pages[path]
        assert path.removeprefix("reference/") in nav
    assert "::: alhambra_bonus_cards\n" in pages["reference/alhambra_bonus_cards/index.md"]
    # the package page lists what it re-exports with a link to each object's own page
    top = pages["reference/alhambra/index.md"]
    assert "| `alhambra.Game` | [`alhambra.game.Game`][alhambra.game.Game] |" in top
    currencies = home("alhambra.components") + ".CURRENCIES"
    assert f"| `alhambra.CURRENCIES` | [`{currencies}`][{currencies}] |" in top
    assert not any("/_" in p for p in pages)


def test_rule_ids_are_read_from_the_rules_digest():
    rules = sitegen.rules()
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)) == 85  # sections 1-12 (69) and section 13 (the city gates and the diamonds, 16)
    assert ids[0] == "R-COMP-1" and ids[-1] == "R-DIA-7"
    place6 = next(r for r in rules if r.id == "R-PLACE-6")
    assert place6.section == 4 and place6.text.startswith("no hole may arise")


def test_cited_ids_expand_ranges_and_slashes():
    assert sitegen.cited_ids("R-VIZ-1 … R-VIZ-3") == ["R-VIZ-1", "R-VIZ-2", "R-VIZ-3"]
    assert sitegen.cited_ids("(R-HUT-1…3)") == ["R-HUT-1", "R-HUT-2", "R-HUT-3"]
    assert sitegen.cited_ids("R-TURN-3/4 and R-VIZ-2/R-VIZ-5") == ["R-TURN-3", "R-TURN-4", "R-VIZ-2", "R-VIZ-5"]
    assert sitegen.cited_ids("R-PLACE-2/3/5/6.") == ["R-PLACE-2", "R-PLACE-3", "R-PLACE-5", "R-PLACE-6"]
    assert sitegen.cited_ids("R-SET-6, then R-SET-6") == ["R-SET-6"]


def test_test_names_carry_rule_ids_by_the_project_convention():
    prefixes = {"TWO", "END", "TURN", "PLACE"}
    assert sitegen.ids_in_test_name("test_r_two_2_3_dirk_collects", prefixes) == ["R-TWO-2", "R-TWO-3"]
    assert sitegen.ids_in_test_name("test_r_turn_5_6_r_turn_3_4_listing", prefixes) == [
        "R-TURN-5",
        "R-TURN-6",
        "R-TURN-3",
        "R-TURN-4",
    ]
    assert sitegen.ids_in_test_name("test_r_place_r_turn_5_6_incremental", prefixes) == ["R-TURN-5", "R-TURN-6"]
    assert sitegen.ids_in_test_name("test_every_module_combination", prefixes) == []
    assert sitegen.ids_in_test_name("test_r_viz_2_asks", prefixes) == []  # not a known prefix


def test_rules_index_lists_every_rule_with_its_code_and_tests():
    page = sitegen.rules_index()
    data = sitegen.rules_index_data()
    for rule in data.rules:
        assert f"### {rule.id} {{#index-{rule.id}}}" in page
        assert f"[{rule.id}](RULES.md#{rule.id})" in page
    # a rule with a hand-built test and code: R-PLACE-6 (the hole rule)
    entry = page.split("### R-PLACE-6 ")[1].split("\n### ")[0]
    assert f"`{home('alhambra.city')}`" in entry and "tests/test_city.py::test_r_place_6" in entry
    n, code, tested, both = data.counts()
    assert n == 69 and code >= 60 and tested >= 60 and both <= min(code, tested)
    assert f"**Sections 1-12: {n} rule ids; {code} cited in code, {tested} with a test" in page


def test_rules_index_lists_a_rule_without_a_test_as_such(tmp_path):
    (tmp_path / "test_some.py").write_text(
        "def test_r_comp_1_players():\n    pass\n\ndef test_payment():\n    '''R-COMP-2 only in the docstring'''\n",
        "utf-8",
    )
    tests = sitegen.tests_citing({"COMP"}, tmp_path)
    assert [c.where for c in tests.named["R-COMP-1"]] == ["test_r_comp_1_players"]
    assert "R-COMP-2" not in tests.named and [c.where for c in tests.docstring["R-COMP-2"]] == ["test_payment"]
    data = sitegen.RulesIndex(sitegen.rules(), sitegen.code_citations(), tests, {})
    assert data.counts(range(1, 2)) == (5, 5, 1, 1)


def test_rules_digest_page_anchors_every_rule_id():
    text = sitegen.RULES_MD.read_text("utf-8")
    anchored = sitegen.anchor_rules(text)
    for rule in sitegen.rules():
        assert f"- [](){{#{rule.id}}}[**{rule.id}**](rules-index.md#index-{rule.id})" in anchored
    assert anchored.count("[](){#R-") == 85


def test_rule_ids_in_running_text_become_links_but_not_in_code_or_headings():
    known = {"R-PLACE-6", "R-SET-6"}
    text = "See R-PLACE-6 and `R-SET-6`.\n# R-PLACE-6\n```\nR-SET-6\n```\n[R-SET-6](x) R-NOPE-1 R-SET-6-style"
    out = sitegen.link_rule_ids(text, known).split("\n")
    assert out[0] == "See [R-PLACE-6][R-PLACE-6] and `R-SET-6`."
    assert out[1:5] == ["# R-PLACE-6", "```", "R-SET-6", "```"]
    assert out[5] == "[R-SET-6](x) R-NOPE-1 R-SET-6-style"


PACKAGES = ("alhambra", "alhambra_vizier", "alhambra_building_huts")


@pytest.mark.parametrize(
    "text, scope, expected",
    [
        (
            ":class:`~alhambra.ConfigError`",
            "alhambra_building_huts.layout",
            "[`ConfigError`][alhambra.errors.ConfigError]",
        ),
        (
            ":func:`parse_layout`",
            "alhambra_building_huts.layout.load_layout",
            "[`parse_layout`][alhambra_building_huts.layout.parse_layout]",
        ),
        (":mod:`.plugin`", "alhambra_vizier", "[`plugin`][alhambra_vizier.plugin]"),
        (":mod:`.evaluate`", "alhambra.bots.greedy", "[`evaluate`][alhambra.bots.evaluate]"),
        (
            ":meth:`Game.determinize`",
            "alhambra.bots.base.observe",
            "[`Game.determinize`][alhambra.game.Game.determinize]",
        ),
        (
            ":data:`alhambra.CURRENCIES`",
            "alhambra.x",
            f"[`alhambra.CURRENCIES`][{home('alhambra.components')}.CURRENCIES]",
        ),
        (":data:`NORTH`", home("alhambra.components"), "`NORTH`"),  # bound by unpacking: not documented
        (":func:`_legal_take`", "alhambra_building_huts", "`_legal_take`"),  # private
        (":class:`random.Random`", "alhambra.game", "`random.Random`"),  # outside the packages
        (":func:`no_such_thing`", "alhambra.game", "`no_such_thing`"),
        ("Build one::", "alhambra.city", "Build one:"),
    ],
)
def test_sphinx_roles_become_cross_references_or_plain_code(text, scope, expected):
    assert roles.convert(text, scope, PACKAGES) == expected


def test_version_comes_from_the_installed_metadata(capsys):
    assert alhambra.__version__ == importlib.metadata.version("alhambra-engine")
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"alhambra {alhambra.__version__}"


def test_the_version_is_written_once_in_pyproject():
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    version = importlib.metadata.version("alhambra-engine")
    assert re.search(rf'^version = "{re.escape(version)}"$', pyproject, re.MULTILINE)
    for top in sitegen.package_names():
        for path in sitegen.package_dir(top).rglob("*.py"):
            text = path.read_text("utf-8")
            assert not re.search(r"__version__\s*(:\s*str\s*)?=\s*['\"]\d+\.\d+", text), path
            assert not re.search(rf"['\"]{re.escape(version)}['\"]", text), path


def test_license_matches_the_package_metadata():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]  # an SPDX expression
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]  # superseded by it
    assert {"3.11", "3.12", "3.13"} <= {c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if "Python :: 3." in c}
    assert (ROOT / "LICENSE").read_text("utf-8").startswith("MIT License")


def test_the_package_metadata_has_project_urls_the_project_already_names():
    """Project-URLs are in the metadata (a package index shows them as links), and each is an
    https address that the README or mkdocs.yml already uses: none is made up."""
    import tomllib

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"].get("urls", {})
    assert urls, "[project.urls] is missing"
    named = (ROOT / "README.md").read_text("utf-8") + (ROOT / "mkdocs.yml").read_text("utf-8")
    for label, url in urls.items():
        assert label and len(label) <= 32, label  # core metadata: a label of at most 32 characters
        assert url.startswith("https://") and url in named, (label, url)


def test_the_test_extra_brings_what_the_site_builds_need():
    """The README's test command runs the site builds (tests/test_docs_build.py), which are
    skipped without MkDocs: the test extra holds every package of the docs extra that builds
    the site (all but the wheel check's build, twine and readme-renderer, and ruff, already in)."""
    import tomllib

    from packaging.requirements import Requirement

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    test = {Requirement(r).name for r in extras["test"]}
    site = {Requirement(r).name for r in extras["docs"]} - {"build", "twine", "readme-renderer", "ruff"}
    assert {"mkdocs", "mkdocs-material", "mkdocstrings"} <= site
    assert site <= test, sorted(site - test)


def test_changelog_follows_keep_a_changelog():
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert text.startswith("# Changelog") and "keepachangelog.com" in text
    assert "## [Unreleased]" in text
    assert re.search(r"^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$", text, re.MULTILINE)
    versions = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert f'version = "{versions[1]}"' in pyproject  # the newest release is the package's version
    newest = text.split(f"## [{versions[1]}]")[1].split("\n## [")[0]
    assert "### Breaking changes" in newest and "### Fixed" in newest
    assert "### Fixed" not in text.split("## [0.1.0]")[1]  # the first version fixed nothing earlier
    assert not re.search(r"\b(session|issue) \d", text)  # it speaks of the package, not of its making


def test_a_citation_inside_a_private_helper_points_at_the_public_object_around_it():
    source = (
        "class Alhambra:\n    def placements(self):\n        pass  # R-PLACE-2\n"
        "    def _hole(self):\n        def inner():\n            pass  # R-PLACE-6\n"
        "def _helper():\n    pass  # R-TURN-6\n"
    )
    defs = sitegen._definitions(ast.parse(source))
    assert sitegen._innermost(defs, 3) == ("Alhambra.placements", "Alhambra.placements")
    assert sitegen._innermost(defs, 6) == ("Alhambra._hole.inner", "Alhambra")
    assert sitegen._innermost(defs, 8) == ("_helper", "")


def test_format_examples_are_real_output_of_the_engine():
    import json

    save = json.loads(re.sub(r'"\.\.\. \d+ more numbers"', "0", sitegen.save_example()))
    real = json.loads(alhambra.new_game(["Ana", "Bo"], seed=1).to_json())
    assert list(save) == list(real) and list(save["state"]) == list(real["state"])
    assert save["format"] == "alhambra-save" and len(save["history"]) == 3
    assert len(save["rng"]["state"]) == 4  # three numbers and the count of the others
    record = json.loads(sitegen.result_example())
    assert record["format"] == "alhambra-result" and record["players"] == 3 and record["seed"] == 7
    # every installed module, in the canonical order the engine registers them in
    assert record["modules"] == ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]
    assert sum(record["action_counts"].values()) == record["actions"]


def test_hook_reference_names_the_plugins_implementing_each_hook_in_calling_order():
    implemented = {h.name: h.implemented_by for h in sitegen.hooks()}
    assert implemented["alhambra_scoring"] == (("core.scoring", "trylast"),)
    assert implemented["alhambra_setup"][0] == ("core.setup", "tryfirst")  # tryfirst: called first
    assert ("vizier", "") in implemented["alhambra_between_turns"]
    page = sitegen.hook_reference()
    section = page.split("### `alhambra_scoring`")[1].split("\n### ")[0]
    assert "*Implemented by* (in calling order, every module on): `core.scoring` (trylast)." in section


def test_examples_page_shows_every_example_file_whole():
    page = sitegen.examples_page()
    for path in sorted(sitegen.EXAMPLES.iterdir()):
        if path.suffix in (".py", ".toml"):
            assert f"## `{path.name}`" in page
            assert path.read_text("utf-8").rstrip("\n") in page
    assert "a house rule" in page.split("## `golden_fountain.py`")[1].split("```")[0]


def test_exported_names_resolve_from_the_source_where_a_package_cannot_be_imported():
    init = sitegen.package_dir("alhambra") / "__init__.py"
    assert sitegen._static_home("alhambra", init, "Game") == "alhambra.game.Game"
    assert sitegen._static_home("alhambra", init, "EAST") is None  # bound by unpacking: no entry
    assert sitegen._static_home("alhambra", init, "bots") == "alhambra.bots"  # a submodule
    assert sitegen.safe_import("alhambra.no_such_module") is None


#: the pages of the site made at build time, which a checkout does not hold; a hand-written page
#: links the file each is made from instead (docs/gen/hooks.py, ``SITE_PAGES``), except the rules
#: index, which is made from the rules digest, the code and the tests together
GENERATED_PAGES = {"rules/rules-index.md"}


def _relative_links(path: Path) -> list[str]:
    """The relative link targets of a Markdown page, code spans and fenced blocks left out."""
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    out = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        target = target.split("#", 1)[0]
        if target and not re.match(r"[a-z]+:", target):
            out.append(target)
    return out


@pytest.mark.parametrize(
    "page", sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")), ids=str
)
def test_every_link_of_a_hand_written_page_resolves_in_the_checkout(page):
    path = ROOT / "docs" / page
    broken = [
        t
        for t in _relative_links(path)
        if not (path.parent / t).exists() and (Path(page).parent / t).as_posix() not in GENERATED_PAGES
    ]
    assert broken == [], f"docs/{page} links what a checkout does not hold: {broken}"


def test_the_guide_links_files_and_the_site_leads_them_to_the_generated_pages():
    pytest.importorskip("mkdocs")
    import hooks  # docs/gen/hooks.py

    guide = (ROOT / "docs" / "writing-modules.md").read_text("utf-8")
    assert "](../core/alhambra/hookspec.py)" in guide and "](../examples/)" in guide
    site = hooks.site_links(guide, "writing-modules.md")
    assert "](hooks.md)" in site and "](examples.md)" in site and "](../core/" not in site
    assert hooks.site_links("[a](../../core/alhambra/cli.py#x)", "rules/RULES.md") == "[a](../command-line.md#x)"
    assert hooks.site_links("[b](../core/alhambra/)", "library.md") == "[b](reference/index.md)"
    assert hooks.site_links("[c](env.md#part)", "writing-modules.md") == "[c](env.md#part)"
    for source in hooks.SITE_PAGES:
        assert (ROOT / source).exists(), source
    made = {name for name, _ in sitegen.iter_generated()}
    assert set(hooks.SITE_PAGES.values()) <= made | {"reference/index.md", "reference/alhambra/index.md"}
