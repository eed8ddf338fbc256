"""The balance lab: does a rule change alter the game, and by how much?

* :mod:`.records`: what a result record adds about a game (points by source per scoring and
  seat, start player, money left); the format is ``docs/result-record.schema.json``;
  :mod:`.tally` what each seat did (buildings bought, built, wall, money, exact payments),
  recorded while the game is played; :mod:`.frames` loads records into a pandas DataFrame.
* :mod:`.rotation`: every line-up of bots in every seat with the same seeds.
* :mod:`.stats`: Wilson intervals of rates, t intervals of (paired) differences, verdicts.
* :mod:`.summary`: intervals and the confounding note for ``simulate``'s summary.
* :mod:`.compare`: variants side by side (``alhambra compare``).
* :mod:`.sweep`: a variant against its base over player counts and line-ups (``alhambra sweep``).
* :mod:`.tournament`: line-ups drawn over several bots, rated with openskill.
* :mod:`.report`: plots (matplotlib) and self-contained HTML reports (jinja2).

The lab is a tool on top of the engine: it uses the public API and :mod:`alhambra.simulate`;
the engine never imports it. Its libraries are the ``lab`` extra
(``pip install 'alhambra-engine[lab]'``).
"""
