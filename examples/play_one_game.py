"""Play one game between random players with two modules on, then save and reload it."""

import random

import alhambra

game = alhambra.new_game(["Ana", "Bo", "Cy"], modules=["vizier", "exchange_offices"], seed=42)
rng = random.Random(42)
while not game.is_over:
    seat = game.current_player
    action = rng.choice(game.legal_actions())
    game.apply(action)

print("scores:", game.scores, "winners:", [game.config["players"][w] for w in game.winners])
print(game.state.players[0].city.render())
text = game.to_json()
assert alhambra.Game.from_json(text).scores == game.scores
