"""Step a batch of games with random legal integers read from the masks.

    python examples/vector_random.py

``alhambra.env.vector_env`` gives a Gymnasium ``VectorEnv``: one learner seat per game, bots in
the others, a whole batch step in one call into the compiled kernel where it plays the
configuration. A game that ends starts again at the next step (its action ignored).

A learner choosing random integers against a greedy bot wins next to nothing (a share near
0.00): random integers pick another mix of actions than the random bot does (see docs/env.md),
and greedy play is far stronger; it is the baseline a trained agent starts from
(``examples/train_vs_greedy.py`` trains one).
"""

from __future__ import annotations

import alhambra.env
import numpy as np

envs = alhambra.env.vector_env(16, players=3, modules="vizier", opponents=["greedy", "random"], seed=1)
rng = np.random.default_rng(1)
obs, infos = envs.reset()
wins = games = 0.0
for _ in range(2000):
    mask = obs["action_mask"]  # (16, actions); all zero for a game that just ended
    actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
    obs, rewards, terminations, truncations, infos = envs.step(actions)
    wins += rewards[terminations].sum()
    games += terminations.sum()
print(f"{type(envs).__name__}: {games:.0f} games, the random learner's share of the wins {wins / max(games, 1):.2f}")
