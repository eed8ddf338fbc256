"""Run by mkdocs-gen-files at every build: writes the generated pages (see sitegen.py)."""

import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sitegen  # noqa: E402

for path, text in sitegen.iter_generated():
    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text)
