"""The address of the client behind a request: what every per-address limit counts by.

Never stored or logged: the limits keep only keyed digests of it (rooms: server/rate_limit.py;
statistics: telemetry/ratelimit.py; sign-in, sign-up, password resets: accounts/).

Every limit counts ``network_of`` the address: an IPv6 client holds a whole /64 and may use any
address in it, so the /64 is one client (``client_network`` for a request).

Behind ``CLIENT_PROXY_HOPS`` trusted proxies (the environment's ``TELEMETRY_PROXY_HOPS``: the
number of proxies in front of Daphne that append to X-Forwarded-For), the client is that many
entries from the right of X-Forwarded-For; the entries further left are whatever the client
claimed, so a forged header gains it nothing. With fewer entries than that (a request that did
not come through every proxy) the peer's own address counts.
"""
from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """For a Django request (HTTP)."""
    return _behind_proxies(request.headers.get("X-Forwarded-For", ""), request.META.get("REMOTE_ADDR", ""))


def scope_client_address(scope: dict) -> str:
    """For an ASGI scope (a WebSocket): the same answer as ``client_address`` gives its request."""
    # Repeated headers are joined with commas, as Django does for request.headers.
    forwarded = ",".join(value.decode("latin-1") for name, value in scope.get("headers", ())
                         if name.lower() == b"x-forwarded-for")
    peer = scope.get("client") or ("",)
    return _behind_proxies(forwarded, peer[0])


def _behind_proxies(forwarded_for: str, peer: str) -> str:
    hops = settings.CLIENT_PROXY_HOPS
    if hops:
        forwarded = [part.strip() for part in forwarded_for.split(",") if part.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return peer


def network_of(address: str) -> str:
    """What a limit counts for a client address: an IPv4 address itself, an IPv6 address's /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # no address (a Unix socket) or a proxy's odd entry: counted as it is
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:  # an IPv4 client on a dual-stack socket
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))


def client_network(request) -> str:
    """``network_of`` the request's client: the subject of every per-address limit."""
    return network_of(client_address(request))
