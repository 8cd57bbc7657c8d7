"""The address phones can reach: a private IPv4 address of a physical-looking interface."""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys

__all__ = ["lan_address", "interface_addresses", "is_loopback"]

_VIRTUAL = ("lo", "docker", "br-", "veth", "virbr", "tun", "tap", "wg", "zt", "tailscale", "vmnet", "vboxnet", "utun")


def is_loopback(address: str | None) -> bool:
    """Whether a peer address is this machine itself (its own TV tab, local bots, tests)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%")[0])  # no IPv6 zone ("fe80::1%eth0")
    except ValueError:
        return False
    # A dual-stack server (--host ::) sees IPv4 peers as ::ffff:a.b.c.d, which Python 3.11 calls not loopback.
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) pairs, where the platform lets us ask (Linux)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
            except OSError:
                continue  # no IPv4 address on this interface
            found.append((name, socket.inet_ntoa(packed[20:24])))
    return found


def _rank(interface: str, address: str) -> tuple[int, int]:
    ip = ipaddress.ip_address(address)
    virtual = interface.startswith(_VIRTUAL)
    # Home networks are mostly 192.168/16, then 10/8; 172.16/12 is often docker.
    private = 0 if address.startswith("192.168.") else 1 if address.startswith("10.") else 2 if ip.is_private else 3
    return (virtual, private)


def lan_address() -> str:
    """The best guess at this machine's LAN address; 127.0.0.1 when there is none."""
    candidates = [(i, a) for i, a in interface_addresses() if not ipaddress.ip_address(a).is_loopback]
    if candidates:
        return min(candidates, key=lambda pair: _rank(*pair))[1]
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not ipaddress.ip_address(address).is_loopback:
                return address
    except OSError:
        pass
    return "127.0.0.1"
