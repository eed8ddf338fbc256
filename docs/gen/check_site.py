"""Open the built site in a real browser (headless Chromium) and check what a reader reaches.

``python docs/gen/check_site.py [SITE_DIR]`` (default ``site``, after ``mkdocs build``): the
rules digest has an anchor for every rule id of RULES.md, the hook reference a heading for every
hook pluggy collects from ``alhambra.hookspec``, the rules index an entry per rule id, the
search index knows every hook, and no page shows a Sphinx role as raw text. Exits 1 naming what is missing, 2 if no Chromium is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sitegen  # noqa: E402

ROLE_TEXT = re.compile(r":(class|func|meth|mod|attr|data|exc|obj):(`|<code>)[^`<]+")
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def rendered(browser: str, page: Path) -> str:
    """The page's DOM after the browser has loaded it and run its scripts."""
    done = subprocess.run(
        [
            browser,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=3000",
            "--dump-dom",
            page.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def problems(site: Path, browser: str) -> list[str]:
    """What the built ``site`` lacks, one line per missing thing."""
    out = []
    rule_ids = [r.id for r in sitegen.rules()]
    hook_names = [h.name for h in sitegen.hooks()]
    digest = rendered(browser, site / "rules" / "RULES" / "index.html")
    out += [f"rules digest: no anchor {rid}" for rid in rule_ids if f'id="{rid}"' not in digest]
    index = rendered(browser, site / "rules" / "rules-index" / "index.html")
    out += [f"rules index: no entry {rid}" for rid in rule_ids if f'id="index-{rid}"' not in index]
    hooks = rendered(browser, site / "hooks" / "index.html")
    out += [f"hook reference: no heading {name}" for name in hook_names if f'id="{name}"' not in hooks]
    for page in sorted(site.rglob("*.html")):
        raw = ROLE_TEXT.search(page.read_text("utf-8"))
        if raw:
            out.append(f"{page.relative_to(site)}: a Sphinx role left as text: {raw.group(0)}")
    search = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    text = " ".join(doc.get("title", "") + " " + doc.get("text", "") for doc in search["docs"])
    out += [f"search index: no {name}" for name in hook_names if name not in text]
    return out


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else "site")
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        print("check_site: no Chromium installed (apt-get install chromium)", file=sys.stderr)
        return 2
    found = problems(site, browser)
    for line in found:
        print(f"check_site: {line}", file=sys.stderr)
    if not found:
        print(
            f"check_site: {site}: {len(sitegen.rules())} rule anchors, {len(sitegen.hooks())} hooks, "
            f"rules index and search index complete in {browser}"
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
