"""``alhambra simulate``: playing the tasks and reporting, so that an interrupted run loses
nothing.

* Results go to ``--out`` as each game finishes, one line a game, flushed.
* Ctrl-C (SIGINT) or SIGTERM stops the run at once (or, if it comes while a finished game is
  being recorded, as soon as that record is whole): the workers are terminated (no process is
  left behind), every finished game is kept, and the summary of those is printed; the exit
  status is 130. The summary, the printed lines and ``--out`` always count the same games.
* ``--resume FILE`` continues a run from its results: the seeds already in FILE are not
  played again, new results are appended to FILE (a half-written last line is cut first), and
  the summary covers all of them.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import attrs

from .cli_checks import wants_progress
from .errors import ConfigError
from .simulate import (
    GameResult,
    SimTask,
    _python_handlers,
    _restore_handlers,
    append_result,
    format_summary,
    read_results_with_end,
    run_games,
    summarize,
)

#: Exit status of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, the shells' convention).
INTERRUPTED = 130


class _Stop(BaseException):
    """Ctrl-C or SIGTERM, raised in the main thread (see :class:`_Stopper`). A
    :class:`BaseException`, as :class:`KeyboardInterrupt` is: raised wherever the main thread
    happens to be, it must pass through a library's ``except Exception`` (Ray wraps one raised
    while it unpickles a game's record into a ``RaySystemError`` and logs its traceback)."""


@attrs.define(slots=True)
class _Stopper:
    """The run's handler of SIGINT and SIGTERM: raises :class:`_Stop`, except while a finished
    game is being recorded (kept in the summary, written to ``--out``); a signal then waits
    until the record is whole, so the summary and the out file always count the same games."""

    recording: bool = False
    pending: bool = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.recording:
            self.pending = True
            return
        raise _Stop()

    def recorded(self) -> None:
        """End of a record: stop now if a signal came during it."""
        self.recording = False
        if self.pending:
            raise _Stop()


def resume_tasks(path: str, tasks: Sequence[SimTask]) -> tuple[list[SimTask], list[GameResult], int]:
    """For ``--resume FILE``: the tasks whose (seed, seat rotation) FILE does not hold yet (numbered afresh),
    FILE's results, and the byte length of its whole records. Raises :class:`ConfigError` if
    FILE cannot be read, is no regular file (a device such as ``/dev/zero`` or a pipe would be
    read without end, and neither can be appended to) or its games were played with other
    players, modules, bots or options than this run's."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ConfigError(f"--resume {path}: a run's results are a regular file, not a device, pipe or directory")
        done, end = read_results_with_end(path)
    except ConfigError:
        raise
    except OSError as exc:
        raise ConfigError(f"--resume {path}: cannot read it: {exc.strerror or exc}") from None
    except Exception as exc:
        raise ConfigError(f"--resume {path}: {exc}") from None
    if tasks and done:
        t, r = tasks[0], done[0]
        players = t.players if isinstance(t.players, int) else len(t.players)
        # the line-up as a multiset: with --rotate-seats each game seats it another way round
        mine = (players, sorted(t.modules), sorted(t.bots))
        theirs = (r.players, sorted(r.modules), sorted(r.bots))
        if mine != theirs:
            raise ConfigError(
                f"--resume {path}: its games were played with (players, modules, bots) {theirs}, this run with {mine}"
            )
    played = {(r.seed, r.rotation) for r in done}  # a seed is played once per seat rotation
    left = [t for t in tasks if (t.seed, t.rotation) not in played]
    return [attrs.evolve(t, index=k) for k, t in enumerate(left)], done, end


def play_and_report(
    args: Any,
    tasks: Sequence[SimTask],
    *,
    workers: int,
    previous: Sequence[GameResult] = (),
    resume_end: int | None = None,
) -> int:
    """Play ``tasks``, print a line per game (unless ``--quiet``) and the summary, write
    ``--out`` (streamed), ``--save``, ``--plot`` and ``--report``. ``previous``: results of a resumed run
    (in the summary, already in the out file, which is cut to ``resume_end`` bytes and
    appended to). Returns the exit status: 0, or :data:`INTERRUPTED`."""
    out_path = args.out or (args.resume if getattr(args, "resume", None) else None)
    progress = wants_progress(args, len(tasks))
    emit = print
    if progress:
        from tqdm import tqdm

        emit = tqdm.write
    results: list[GameResult] = []
    saves: list[str] = []
    interrupted = False
    out = None
    handlers = _python_handlers()  # the caller's SIGINT and SIGTERM handlers, put back at the end
    stopper = _Stopper()

    from .lab.summary import load_statistics

    load_statistics()  # the summary's intervals: imported now, so an interrupted run prints them at once
    start = time.perf_counter()
    runs = None
    try:
        signal.signal(signal.SIGTERM, stopper)
        signal.signal(signal.SIGINT, stopper)
        if out_path:
            if resume_end is not None:
                out = open(out_path, "r+", encoding="utf-8")
                out.truncate(resume_end)
                out.seek(resume_end)
            else:
                out = open(out_path, "w", encoding="utf-8")
        runs = run_games(tasks, workers=workers, backend=args.backend, progress=progress, ray_address=args.ray_address)
        for r, save in runs:
            stopper.recording = True
            results.append(r)
            if out is not None:
                append_result(out, r)
            if save is not None:
                saves.append(save)
            if not args.quiet:
                emit(
                    f"game {len(previous) + len(results)} seed {r.seed}: scores {r.scores}, won by {winner_names(r.winners)}; "
                    f"{r.actions} actions, scorings {','.join(map(str, r.scorings))}"
                )
            stopper.recorded()
    except (KeyboardInterrupt, _Stop):
        interrupted = True
    finally:
        close = getattr(runs, "close", None)
        if close is not None:
            close()  # terminates the workers of an interrupted run
        _restore_handlers(handlers)
        if out is not None:
            out.close()
    elapsed = time.perf_counter() - start
    everything = [*previous, *results]
    if interrupted:
        print(
            f"interrupted: {len(results)} of {len(tasks)} game(s) finished"
            + (f" (and {len(previous)} from {args.resume})" if previous else ""),
            file=sys.stderr,
        )
    timed = (len(results), sum(r.actions for r in results))
    for line in format_summary(summarize(everything), elapsed, timed):
        print(line)
    if args.save and saves:
        Path(args.save).write_text(saves[0] if len(saves) == 1 else "\n".join(saves) + "\n", "utf-8")
        print(f"saved {len(saves)} game(s) to {args.save}")
    if out_path:
        print(
            f"wrote {len(results)} result record(s) to {out_path}"
            + (f" ({len(everything)} in all)" if previous else "")
        )
    if args.plot and everything:
        from .plotting import plot_results

        plot_results(everything, args.plot)
        print(f"plotted {len(everything)} game(s) to {args.plot}")
    if getattr(args, "report", None) and everything:
        from .lab.report import write_simulation_report

        write_simulation_report(
            everything, summarize(everything), args.report, command="alhambra " + " ".join(sys.argv[1:])
        )
        print(f"wrote the report to {args.report}")
    return INTERRUPTED if interrupted else 0


def winner_names(winners: Sequence[int]) -> str:
    """The winning seats (0-based) as ``replay`` names them: ``Player 1, Player 3``."""
    return ", ".join(f"Player {seat + 1}" for seat in winners)
