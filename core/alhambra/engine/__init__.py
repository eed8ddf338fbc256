"""The engine: components, Alhambras, state records, actions, rule sets and the turn sequence.

Nothing here imports the built-in rules (:mod:`alhambra.rules`, registered by name), saving
(:mod:`alhambra.saving`), the :class:`~alhambra.Game` facade or the tools on top
(command line, simulation, bots, ...); the import contracts in ``pyproject.toml`` say so.
"""
