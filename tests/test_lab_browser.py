"""The balance lab's HTML report in a real browser (headless Chromium from Debian's
``chromium`` and ``chromium-driver``; ``.ci/run`` installs them): the page loads from the
file alone, its plot decodes from the inlined data URI, and the tables and verdicts show."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alhambra.lab.compare import (
    compare_results,
    compare_tasks,
    load_variant,
    run_compare,
    unique_labels,
)
from alhambra.lab.report import write_comparison_report
from alhambra.lab.stats import NO_DIFFERENCE
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from browser import headless_chromium

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    browser = headless_chromium("1300,1000")
    yield browser
    browser.quit()


def test_comparison_report_reads_in_a_browser(driver: WebDriver, tmp_path: Path) -> None:
    variants = unique_labels([load_variant(EXAMPLES / "base.toml"), load_variant(EXAMPLES / "double_walls.toml")])
    cmp = compare_results(run_compare(compare_tasks(variants, bots="greedy", games=8)), [v.label for v in variants])
    page = write_comparison_report(cmp, tmp_path / "report.html", variants=variants)
    driver.get(page.resolve().as_uri())
    assert driver.title == "Alhambra balance lab: base vs double_walls"
    img = driver.find_element(By.TAG_NAME, "img")
    width, height = driver.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", img)
    assert (width, height) == (1400, 1500)  # the PNG decoded from the data URI: six panels
    tables = driver.find_elements(By.TAG_NAME, "table")
    assert len(tables) == 3  # the variants, how often the rule mattered, all figures
    mattered = tables[1].find_elements(By.TAG_NAME, "td")
    assert [c.text for c in mattered] == [
        "double_walls against base",
        "8",
        f"{cmp.mattered[0].play_count} ({cmp.mattered[0].play_changed})",
        f"{cmp.mattered[0].winner_count} ({cmp.mattered[0].winner_changed})",
        f"{cmp.mattered[0].baseline} over {cmp.mattered[0].baseline_pairs} pairs",  # the A/A baseline
    ]
    assert cmp.mattered[0].baseline_pairs == 4  # seeds 1-2, 3-4, 5-6, 7-8
    assert cmp.mattered[0].play_count == 8  # greedy values the doubled walls: every game is played otherwise
    tables = [tables[0], tables[2]]
    rows = tables[1].find_elements(By.CSS_SELECTOR, "tr:not(.group)")
    assert len(rows) == 1 + len(cmp.rows)  # header + one per figure
    flagged = tables[1].find_elements(By.CSS_SELECTOR, "tr.detected td.verdict")
    assert len(flagged) == len(cmp.detected()) > 0
    # a finding's verdict quotes its simultaneous interval, or says that Holm's step-down found
    # it although that interval still reaches 0 (the winning score on these eight seeds)
    assert all(f.text.startswith(("double_walls higher", "double_walls lower")) for f in flagged)
    assert flagged[0].text.startswith("double_walls higher (Holm's step-down), by up to")
    walls = [
        r for r in rows[1:] if r.find_element(By.CSS_SELECTOR, "td.name").text.startswith("points per player: walls")
    ]
    assert walls[0].find_element(By.CSS_SELECTOR, "td.verdict").text == NO_DIFFERENCE
