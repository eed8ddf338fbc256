"""Headless Chromium for the browser tests: Debian's ``chromium`` and ``chromedriver``
(browsers cannot be downloaded by the test tools here; ``.ci/run`` installs both)."""

from __future__ import annotations

import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver


def _binary(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError(f"none of {names} is installed: apt-get install chromium chromium-driver (.ci/run does)")


def headless_chromium(window: str = "1500,1000") -> WebDriver:
    """A headless Chromium driven by Selenium, ``window`` wide and high (``"W,H"`` in pixels),
    with a 60 s page-load limit. The caller quits it. Raises RuntimeError naming the missing
    binaries."""
    options = webdriver.ChromeOptions()
    options.binary_location = _binary("chromium", "chromium-browser")
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        f"--window-size={window}",
        "--disable-gpu",
        "--disable-extensions",
    ):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(_binary("chromedriver")), options=options)
    browser.set_page_load_timeout(60)
    return browser
