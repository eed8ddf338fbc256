"""Module "exchange_offices" of Die Gunst des Wesirs (placeholder: being written)."""

NAME = "exchange_offices"
RULES = ()
