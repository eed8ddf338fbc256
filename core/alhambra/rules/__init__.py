"""The base game's rules as built-in plugins, one module per concern.

Each is registered under the name shown in :data:`alhambra.ruleset.BUILTIN_PLUGINS`
(``core.setup``, ``core.turn`` …), so a variant can block one and register its own.
"""
