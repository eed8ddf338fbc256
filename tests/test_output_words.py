"""What the command line prints reads as a newcomer expects: seats named as `replay` names
them, the summary's columns explained, modules in the order the engine registers them, and
`alhambra play` links another device can open."""

from __future__ import annotations

import ipaddress

from alhambra.cli import main
from alhambra.cli_simulate import winner_names
from alhambra.web.command import announced_host


def test_winners_are_named_as_replay_names_them():
    assert winner_names([0]) == "Player 1"
    assert winner_names([1, 2]) == "Player 2, Player 3"  # a shared victory (R-END-4)


def test_simulate_names_the_winner_explains_fair_and_lists_modules_in_canonical_order(capsys):
    assert main(["simulate", "--players", "3", "--modules", "exchange_offices,vizier", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    game = next(line for line in out.splitlines() if line.startswith("game 1 seed 1: "))
    assert ", won by Player " in game and "winners [" not in game
    assert "summary: 1 game, 3 players, modules ['vizier', 'exchange_offices']" in out
    assert "(fair: the win rate of a bot no better than the others" in out


def test_play_announces_an_address_other_devices_can_open():
    assert announced_host("127.0.0.1") == announced_host("::1") == "localhost"
    assert announced_host("192.168.1.5") == "192.168.1.5"
    assert announced_host("fe80::1") == "[fe80::1]"
    for wildcard in ("0.0.0.0", "::"):
        host = announced_host(wildcard)
        assert host and host not in ("0.0.0.0", "::")
        try:
            assert not ipaddress.ip_address(host).is_unspecified
        except ValueError:
            pass  # a host name: the machine's own
