"""A/A false findings of ``alhambra compare``, measured through the command line.

Each replicate compares the base game with a variant that only deals the building bag again
(the same game, another deal: no rule differs), on its own seeds (``1 + 1000 * r``), and reads
the report's verdict line: a replicate whose verdict names any figure is a false finding.
Prints the share of comparisons with any finding after Holm's correction (the report's stated
level: at most 5 %), the share of single differences flagged, and the same two shares
uncorrected (each p-value against 5 % on its own), each with its Wilson 95 % interval.

    python benchmarks/lab_false_findings.py --bots random --replicates 20 --games 16
    python benchmarks/lab_false_findings.py --bots greedy --replicates 200 --games 16
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import tempfile
import time
from pathlib import Path

from alhambra.cli import main
from alhambra.lab.compare import compare_results
from alhambra.lab.stats import wilson
from alhambra.simulate import read_results

RESHUFFLE = (Path(__file__).parents[1] / "examples" / "reshuffle.py").read_text("utf-8")


def run(bots: str, replicates: int, games: int, players: int) -> dict[str, int]:
    """Play the replicates; return the counts (see the module doc)."""
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "reshuffle.py").write_text(RESHUFFLE)
        (d / "a.toml").write_text(f"players = {players}\n")
        (d / "b.toml").write_text(f'players = {players}\nmodules = ["reshuffle"]\nmodule_paths = ["reshuffle.py"]\n')
        any_holm = any_raw = flagged_holm = flagged_raw = differences = 0
        for r in range(replicates):
            out = d / f"r{r}.jsonl"
            argv = [
                "compare",
                str(d / "a.toml"),
                str(d / "b.toml"),
                "--bots",
                bots,
                "--games",
                str(games),
                "--seed",
                str(1 + 1000 * r),
                "--workers",
                "1",
                "--no-progress",
                "--out",
                str(out),
            ]
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                if main(argv) != 0:
                    raise SystemExit(f"compare failed: {' '.join(argv)}")
            m = re.search(r"verdict: (\d+) of (\d+) figures differ after Holm", text.getvalue())
            if m is None:
                raise SystemExit("no verdict line in the report:\n" + text.getvalue())
            found = int(m.group(1))
            any_holm += found > 0
            results = read_results(out)
            cmp = compare_results(
                [[x for x in results if x.variant == "a"], [x for x in results if x.variant == "b"]], ["a", "b"]
            )
            raw = [p < 0.05 for row in cmp.rows for p in row.pvalues]
            holm = [p < 0.05 for row in cmp.rows for p in row.adjusted]
            if sum(holm) != found:
                raise SystemExit(f"replicate {r}: the report says {found}, the table {sum(holm)}")
            any_raw += any(raw)
            flagged_raw += sum(raw)
            flagged_holm += sum(holm)
            differences += len(raw)
    return {
        "replicates": replicates,
        "differences": differences,
        "any_holm": any_holm,
        "any_raw": any_raw,
        "flagged_holm": flagged_holm,
        "flagged_raw": flagged_raw,
    }


def main_() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="random")
    ap.add_argument("--replicates", type=int, default=20)
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    start = time.perf_counter()
    c = run(args.bots, args.replicates, args.games, args.players)
    n, k = c["replicates"], c["differences"]
    print(
        f"A/A through alhambra compare: {n} comparisons of {args.games} games, {args.players} players, "
        f"bots {args.bots}, {k // max(n, 1)} differences each"
    )
    for name, key, total in (
        ("comparisons with any finding, Holm (the report)", "any_holm", n),
        ("single differences flagged, Holm", "flagged_holm", k),
        ("comparisons with any finding, uncorrected", "any_raw", n),
        ("single differences flagged, uncorrected", "flagged_raw", k),
    ):
        print(f"  {name}: {c[key]} of {total} = {wilson(c[key], total)}")
    print(f"  time {time.perf_counter() - start:.0f}s")


if __name__ == "__main__":
    main_()
