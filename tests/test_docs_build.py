"""The documentation site builds strictly: any MkDocs warning fails the build.

`.ci/run` builds the site with `mkdocs build --strict` (never `--quiet`: with it MkDocs drops
warnings before strict mode counts them). These tests build the site from a copy of `docs/`
with the project's own configuration, once as it is and once with a planted broken link, so
they show that strict mode does count the warnings.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("material")

ROOT = Path(__file__).resolve().parents[1]


def build(tmp_path: Path, plant: str | None = None) -> subprocess.CompletedProcess[str]:
    """Build the site from a copy of ``docs/`` (``plant`` appended to ``playing.md``)."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("gen", "__pycache__"))
    if plant is not None:
        with (docs / "playing.md").open("a", encoding="utf-8") as f:
            f.write("\n" + plant + "\n")
    config = (ROOT / "mkdocs.yml").read_text("utf-8")
    config = config.replace("docs_dir: docs\n", f"docs_dir: {docs}\nsite_dir: {tmp_path / 'site'}\n")
    config = config.replace("docs/gen/", f"{ROOT / 'docs' / 'gen'}/")
    (tmp_path / "mkdocs.yml").write_text(config, "utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "core"), str(ROOT / "modules"), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def warnings(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("WARNING -")]


def test_the_site_builds_strictly_with_no_warning(tmp_path):
    done = build(tmp_path)
    assert warnings(done) == [] and done.returncode == 0, done.stderr[-3000:]
    site = tmp_path / "site"
    assert (site / "bots" / "index.html").is_file()
    assert not (site / "reference" / "SUMMARY").exists()  # the literate nav file is not a page
    playing = (site / "playing" / "index.html").read_text("utf-8")
    assert 'href="../bots/"' in playing and 'href="docs/' not in playing  # README links, site-relative


def test_a_planted_broken_link_fails_the_strict_build(tmp_path):
    done = build(tmp_path, plant="See [the missing page](no-such-page.md).")
    assert done.returncode != 0
    assert any("no-such-page.md" in w for w in warnings(done)), done.stderr[-3000:]
    assert "Aborted with 1 warnings in strict mode!" in done.stdout + done.stderr
