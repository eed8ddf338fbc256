"""Module "bonus_cards" of Die Gunst des Wesirs (placeholder: being written)."""

NAME = "bonus_cards"
RULES = ()
