"""Saving and configuration: JSON saves through cattrs (:mod:`.serialize`) and TOML game
configurations (:mod:`.config`). Loading never executes anything from the file."""
