"""Choosing the address phones can reach."""

from __future__ import annotations

from partyrummy.web import netaddr


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
