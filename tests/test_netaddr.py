"""Choosing the address phones can reach."""

from __future__ import annotations

from partyrummy.server.defences import netaddr


def test_prefers_a_home_lan_address_on_a_physical_interface(monkeypatch) -> None:
    found = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("tun0", "10.8.0.2"), ("wlp2s0", "192.168.1.23")]
    monkeypatch.setattr(netaddr, "interface_addresses", lambda: found)
    assert netaddr.lan_address() == "192.168.1.23"


def test_a_vpn_loses_to_ethernet_and_loopback_is_the_last_resort(monkeypatch) -> None:
    monkeypatch.setattr(netaddr, "interface_addresses", lambda: [("wg0", "192.168.50.1"), ("eth0", "10.0.0.5")])
    assert netaddr.lan_address() == "10.0.0.5"
    monkeypatch.setattr(netaddr, "interface_addresses", lambda: [("lo", "127.0.0.1")])
    monkeypatch.setattr(netaddr.socket, "getaddrinfo", lambda *a, **k: [])
    assert netaddr.lan_address() == "127.0.0.1"


def test_loopback_in_every_spelling_and_nothing_else() -> None:
    for address in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.1.1"):
        assert netaddr.is_loopback(address), address
    for address in ("192.168.1.20", "::ffff:192.168.1.20", "fe80::1%eth0", "", None, "nonsense"):
        assert not netaddr.is_loopback(address), address
