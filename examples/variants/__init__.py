"""A gallery of house rules, one base rule changed in each file (see docs/writing-modules.md)."""
