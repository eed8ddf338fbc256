"""Module "vizier" of Die Gunst des Wesirs (placeholder: being written)."""

NAME = "vizier"
RULES = ()
