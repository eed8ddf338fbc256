"""Tournaments: line-ups drawn over several bots, seats rotated, rated with openskill.

:func:`tournament_tasks` draws a line-up per round (a seeded shuffle, so the same arguments
give the same tournament): with at least as many bots as players, the combinations of
distinct bots are played in turn (in a shuffled order, each with a shuffled seating); with
fewer, every bot gets an equal share of the seats and the rest is drawn. Each round's line-up
is played on one seed in every distinct seat rotation (:mod:`.rotation`).

:func:`rate_tournament` rates the bots with openskill's Plackett-Luce model, one multiplayer
match per game in game order: the winners (R-END-4, shared victories tie) first, the others
by score. A bot that holds several seats of one game is rated as copies of its rating; its new
rating is the copies' mean. Beside the ratings: win rates over seats taken with 95 % intervals
clustered by seed (a seed's rotations and a bot's seats of one game together) and mean scores.

:func:`pairwise` is the head-to-head table shown beside the ratings: for every two bots, the
share of the games in which both sat where the first finished ahead of the second (by the
same ranks as the ratings; a tie counts half), with a 95 % interval clustered by seed: a
rating gap means little when this interval holds 0.5.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen

from ..errors import ConfigError
from ..game import MAX_PLAYERS, MIN_PLAYERS
from ..simulate import GameResult, SimTask, seat_bots
from .rotation import rotated_tasks
from .summary import seed_clusters
from .stats import Rate, clustered_rate


def draw_lineups(bots: Sequence[str], players: int, rounds: int, seed: int) -> list[tuple[str, ...]]:
    """``rounds`` line-ups of ``players`` bots drawn over ``bots`` (see the module doc).
    Raises :class:`ConfigError` for fewer than two distinct bots or a bad player count."""
    bots = list(dict.fromkeys(bots))
    if len(bots) < 2:
        raise ConfigError("a tournament needs at least two different bots")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (R-COMP-1)")
    rng = random.Random(seed)
    out: list[tuple[str, ...]] = []
    if len(bots) >= players:
        combos = list(itertools.combinations(bots, players))
        rng.shuffle(combos)
        for k in range(rounds):
            seating = list(combos[k % len(combos)])
            rng.shuffle(seating)
            out.append(tuple(seating))
    else:
        extra = list(itertools.combinations(bots, players % len(bots)))
        rng.shuffle(extra)
        for k in range(rounds):
            seating = bots * (players // len(bots)) + list(extra[k % len(extra)])
            rng.shuffle(seating)
            out.append(tuple(seating))
    return out


def cycle_length(bots: Sequence[str], players: int) -> int:
    """Rounds after which the schedule of :func:`draw_lineups` is balanced: every line-up
    (combination of distinct bots, or of the bots taking the remaining seats) played once, so
    every bot has taken the same number of seats and every pair of bots has met."""
    n = len(dict.fromkeys(bots))
    return math.comb(n, players) if n >= players else math.comb(n, players % n)


def tournament_tasks(
    bots: Sequence[str],
    *,
    players: int = 4,
    games: int = 100,
    seed: int = 1,
    modules: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    config_path: str | None = None,
) -> list[SimTask]:
    """The tasks of a tournament of at least ``games`` games: round ``k`` plays its line-up on
    seed ``seed + k`` in every distinct rotation, until ``games`` are reached, rounded up to
    whole cycles of line-ups (:func:`cycle_length`) so that every bot plays the same number of
    seats and every pairing meets. Raises :class:`~alhambra.bots.BotSpecError` for an
    unknown bot."""
    for b in bots:
        seat_bots([b], 1)  # unknown names fail here
    tasks: list[SimTask] = []
    mods = tuple(modules)
    cycle = cycle_length(bots, players) if len(set(bots)) >= 2 else 1
    for k, lineup in enumerate(draw_lineups(bots, players, max(games, 1) * cycle, seed)):  # a round has >= 1 game
        if len(tasks) >= games and k % cycle == 0:
            break
        tasks.extend(
            rotated_tasks(
                1,
                seed + k,
                lineup,
                players=players,
                modules=mods,
                options=options,
                config_path=config_path,
                start=len(tasks),
            )
        )
    return tasks


def schedule_line(tasks: Sequence[SimTask], asked: int) -> str:
    """One line on the schedule of ``tasks``: games, seeds, players, and how many games and
    seats every bot has (equal in a balanced schedule); says when ``asked`` games were rounded
    up to whole cycles of line-ups."""
    games: dict[str, int] = {}
    seats: dict[str, int] = {}
    for t in tasks:
        for b in t.bots:
            seats[b] = seats.get(b, 0) + 1
        for b in set(t.bots):
            games[b] = games.get(b, 0) + 1
    players = sorted({len(t.bots) for t in tasks})
    rounded = f" (--games {asked} rounded up to whole cycles of line-ups)" if len(tasks) != asked else ""
    per_bot = ", ".join(f"{b} {games[b]} games/{seats[b]} seats" for b in seats)
    return (
        f"tournament schedule: {len(tasks)} games{rounded} on {len({t.seed for t in tasks})} seeds, "
        f"{'/'.join(map(str, players))} players; {per_bot}"
    )


@frozen(slots=True)
class Standing:
    """One bot's line of the tournament table: openskill ``mu``, ``sigma`` and ``ordinal``
    (``mu - 3 sigma``, a conservative skill), ``seatings`` (seats taken), ``games`` it played,
    ``win`` (its win rate over seats taken, with the Wilson interval), ``chance`` (the rate
    it would win at by chance) and ``score`` (mean final score)."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    seatings: int
    games: int
    win: Rate
    chance: float
    score: float


def _ranks(r: GameResult) -> list[int]:
    """Plackett-Luce ranks of one game (lower is better): winners 0, the others by score."""
    order = sorted({s for i, s in enumerate(r.scores) if i not in r.winners}, reverse=True)
    return [0 if i in r.winners else 1 + order.index(s) for i, s in enumerate(r.scores)]


def rate_tournament(results: Sequence[GameResult]) -> list[Standing]:
    """The standings of ``results`` (in game order), best ordinal first. Raises
    :class:`ConfigError` without openskill (the ``lab`` extra) or without games."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ConfigError("tournament ratings need openskill: pip install 'alhambra-engine[lab]'") from None
    if not results:
        raise ConfigError("a tournament without games has no standings")
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    games: dict[str, int] = {}
    fair: dict[str, float] = {}
    scores: dict[str, list[int]] = {}
    for r in results:
        teams = []
        for b in r.bots:
            if b not in ratings:
                ratings[b] = model.rating(name=b)
            teams.append([model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma, name=b)])
        new = model.rate(teams, ranks=[float(k) for k in _ranks(r)])
        updated: dict[str, list[Any]] = {}
        for b, team in zip(r.bots, new):
            updated.setdefault(b, []).append(team[0])
        for b, copies in updated.items():
            ratings[b] = model.rating(
                mu=sum(c.mu for c in copies) / len(copies), sigma=sum(c.sigma for c in copies) / len(copies), name=b
            )
            games[b] = games.get(b, 0) + 1
        ret = r.returns()
        for s, b in enumerate(r.bots):
            wins[b] = wins.get(b, 0.0) + ret[s]
            seats[b] = seats.get(b, 0) + 1
            fair[b] = fair.get(b, 0.0) + 1.0 / r.players
            scores.setdefault(b, []).append(r.scores[s])
    table = [
        Standing(
            b,
            rt.mu,
            rt.sigma,
            rt.ordinal(),
            seats[b],
            games[b],
            clustered_rate(seed_clusters(results, lambda r, seat, b=b: r.bots[seat] == b)).rate,
            fair[b] / seats[b],
            sum(scores[b]) / len(scores[b]),
        )
        for b, rt in ratings.items()
    ]
    return sorted(table, key=lambda s: -s.ordinal)


@frozen(slots=True)
class Pairing:
    """How ``bot`` fared against ``other`` in the games where both sat: ``games`` (how many)
    and ``ahead`` (the share of those games in which ``bot`` finished ahead of ``other``, a
    tie counting half, with its 95 % interval clustered by seed)."""

    bot: str
    other: str
    games: int
    ahead: Rate


def ahead_share(r: GameResult, bot: str, other: str) -> float | None:
    """In game ``r``, the share of the pairs (a seat of ``bot``, a seat of ``other``) in which
    ``bot``'s seat finished ahead (by :func:`_ranks`: the winners first, the others by score;
    a tie counts half); None unless both sat in it."""
    mine = [s for s, b in enumerate(r.bots) if b == bot]
    theirs = [s for s, b in enumerate(r.bots) if b == other]
    if not mine or not theirs or bot == other:
        return None
    ranks = _ranks(r)
    points = [1.0 if ranks[x] < ranks[y] else 0.5 if ranks[x] == ranks[y] else 0.0 for x in mine for y in theirs]
    return sum(points) / len(points)


def pairwise(results: Sequence[GameResult], bots: Sequence[str] | None = None) -> dict[tuple[str, str], Pairing]:
    """``{(bot, other): Pairing}`` for every ordered pair of distinct ``bots`` (default: every
    bot of ``results``, in order of appearance) that met. The shares of ``(a, b)`` and
    ``(b, a)`` add up to 1 in every game; the interval is :func:`.stats.clustered_rate` over
    the seeds (a seed's rotations together)."""
    if bots is None:
        bots = list(dict.fromkeys(b for r in results for b in r.bots))
    out: dict[tuple[str, str], Pairing] = {}
    for a in bots:
        for b in bots:
            if a == b:
                continue
            per_seed: dict[int, list[float]] = {}
            for r in results:
                share = ahead_share(r, a, b)
                if share is not None:
                    acc = per_seed.setdefault(r.seed, [0.0, 0.0])
                    acc[0] += share
                    acc[1] += 1.0
            if per_seed:
                games = round(sum(n for _, n in per_seed.values()))
                out[(a, b)] = Pairing(a, b, games, clustered_rate([(y, n) for y, n in per_seed.values()]).rate)
    return out


def format_pairwise(table: Sequence[Standing], pairs: dict[tuple[str, str], Pairing]) -> list[str]:
    """The head-to-head table as text lines, rows and columns in the order of the standings:
    each cell the row bot's share of finishing ahead of the column bot [95 % interval]."""
    bots = [s.bot for s in table]
    width = max([12] + [len(b) for b in bots])
    cell = 22
    lines = [
        "  head to head: share of the games both played in which the row bot finished ahead of the column bot "
        "(a tie counts half), 95% intervals clustered by seed",
        f"  {'':<{width}} " + " ".join(f"{b[:cell]:>{cell}}" for b in bots),
    ]
    for a in bots:
        cells = []
        for b in bots:
            p = pairs.get((a, b))
            if a == b:
                cells.append(f"{'-':>{cell}}")
            elif p is None:
                cells.append(f"{'never met':>{cell}}")
            else:
                cells.append(f"{f'{p.ahead.value:.2f} [{p.ahead.low:.2f}, {p.ahead.high:.2f}]':>{cell}}")
        lines.append(f"  {a:<{width}} " + " ".join(cells))
    return lines


def format_tournament(table: Sequence[Standing]) -> list[str]:
    """The standings as text lines."""
    width = max([12] + [len(s.bot) for s in table])
    lines = [
        (
            f"tournament: {len(table)} bots; openskill Plackett-Luce ratings (ordinal = mu - 3 sigma); "
            "win rates over seats taken with 95% intervals clustered by seed"
        ),
        (
            f"  {'bot':<{width}} {'ordinal':>8} {'mu':>7} {'sigma':>6} {'games':>6} {'seats':>6} {'win rate':>9} "
            f"{'95% interval':>15} {'chance':>7} {'score':>7}"
        ),
    ]
    for s in table:
        lines.append(
            f"  {s.bot:<{width}} {s.ordinal:>8.2f} {s.mu:>7.2f} {s.sigma:>6.2f} {s.games:>6} {s.seatings:>6} "
            f"{s.win.value:>9.3f} {f'[{s.win.low:.3f}, {s.win.high:.3f}]':>15} {s.chance:>7.3f} {s.score:>7.1f}"
        )
    return lines
