"""Behind a reverse proxy (TLS ended there): the client's address and scheme, from the
headers of proxies the operator trusts, and from nobody else.

``Settings.trusted_proxies`` names the proxies (addresses or networks, ``10.0.0.0/8``);
none by default, so the headers are ignored and the peer is the client. A request whose
peer is a trusted proxy gets, in its ASGI scope:

- ``client``: the nearest address of ``X-Forwarded-For`` that is no trusted proxy, read
  from the right (each proxy appends the address it heard from; the addresses left of an
  untrusted one are the client's own claim). This is the address the rate limits count.
- ``scheme``: ``X-Forwarded-Proto`` of the nearest proxy (``https`` or ``http``): the seat
  cookie is ``Secure`` and the origin check compares ``https://host`` where the browser
  spoke TLS to the proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from litestar.types import ASGIApp, Receive, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# X-Forwarded-For is read this far from its right end (a chain of proxies is short; the
# rest is whatever the client claimed).
MAX_HOPS = 16


def networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies as networks (a bare address is a network of one); a malformed
    entry is an error at start, not a proxy silently untrusted."""
    return tuple(ipaddress.ip_network(spec.strip(), strict=False) for spec in specs if spec.strip())


def trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def forwarded_client(header: str, proxies: tuple[Network, ...]) -> str | None:
    """The client's address in an ``X-Forwarded-For`` chain: the rightmost entry that is no
    trusted proxy (``None`` if the chain names no valid address)."""
    hops = [h.strip() for h in header.split(",")[-MAX_HOPS:]]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return None  # a garbled chain: nothing left of it can be believed
        if not trusted(hop, proxies):
            return hop
    return hops[0] if hops else None


class ProxyHeaders:
    """The ASGI wrapper that applies the above; outside the rate limit, which counts the
    address it sets."""

    def __init__(self, app: ASGIApp, proxies: tuple[Network, ...]) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Any, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if scope["type"] == "http" and peer and trusted(peer[0], self.proxies):
            forwarded_for = proto = None
            for name, value in scope["headers"]:
                if name == b"x-forwarded-for":
                    # Several headers are one list, in order.
                    text = value.decode("latin-1")
                    forwarded_for = text if forwarded_for is None else f"{forwarded_for},{text}"
                elif name == b"x-forwarded-proto":
                    proto = value.decode("latin-1")
            changed: dict[str, Any] = {}
            if forwarded_for is not None:
                client = forwarded_client(forwarded_for, self.proxies)
                if client is not None:
                    changed["client"] = (client, 0)
            if proto is not None:
                nearest = proto.split(",")[-1].strip().lower()
                if nearest in ("http", "https"):
                    changed["scheme"] = nearest
            if changed:
                scope = {**scope, **changed}
        await self.app(scope, receive, send)
