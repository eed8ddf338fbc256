"""Module "building_huts" of Die Gunst des Wesirs (placeholder: being written)."""

NAME = "building_huts"
RULES = ()
