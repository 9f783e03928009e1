"""Fetching a pasted URL on the server (only with `serve --allow-fetch`).

A server that fetches what a page asks it to can be turned against the machine it runs on and
its network (its own API, a router's admin page, a cloud metadata service). So: the name is
resolved here, every address it resolves to must be a public one (not loopback, private,
link-local, multicast, reserved or unspecified, IPv4 hidden in IPv6 included), and the
connection goes to the address that was checked, never to a second resolution of the name (a
DNS answer that changes between check and use gains nothing). Redirects are followed only a
few times and each hop is checked the same way. The whole fetch has a time limit and a size
limit, and every failure gives the same sentence, which echoes neither what came back nor the
socket's error.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any
from urllib.parse import urljoin, urlsplit

SECONDS = 5.0
"""The whole fetch, redirects included."""
LIMIT = 1_000_000
"""Largest answer in bytes."""
REDIRECTS = 3
FAILED = (
    "could not import from that URL: pencilbox fetches only public http(s) addresses that "
    f"answer within {SECONDS:g} s with a UTF-8 text file of at most {LIMIT // 1_000_000} MB"
)
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
AddressCheck = Callable[[Address, int], bool]
"""Whether the fetch may connect to this address and port."""

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_resolver = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pencilbox-resolve")


class FetchRefused(Exception):
    """The URL cannot be fetched; str() is the one sentence a user sees."""

    def __init__(self) -> None:
        super().__init__(FAILED)


def is_public(address: Address, port: int = 0) -> bool:
    """True for globally routable unicast addresses only."""
    inner = _embedded_ipv4(address)
    if inner is not None:
        return is_public(inner)
    return address.is_global and not (
        address.is_multicast
        or address.is_loopback
        or address.is_link_local
        or address.is_private
        or address.is_reserved
        or address.is_unspecified
    )


def _embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside an IPv4-mapped, 6to4, Teredo or NAT64 IPv6 address."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def fetch_text(
    url: str,
    *,
    allowed: AddressCheck = is_public,
    seconds: float = SECONDS,
    limit: int = LIMIT,
) -> str:
    """The text at `url`; FetchRefused for anything else (see the module's docstring)."""
    end = time.monotonic() + seconds
    for _ in range(REDIRECTS + 1):
        status, location, body = _get(url, allowed, end, limit)
        if status in REDIRECT_CODES and location:
            url = urljoin(url, location)
            continue
        if status != 200 or body is None:
            raise FetchRefused
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            raise FetchRefused from None
    raise FetchRefused


def _get(
    url: str, allowed: AddressCheck, end: float, limit: int
) -> tuple[int, str | None, bytes | None]:
    """One GET to a checked address: (status, Location, body of a 200 answer)."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        host = parts.hostname
    except ValueError:
        raise FetchRefused from None
    if parts.scheme not in ("http", "https") or not host or parts.username or parts.password:
        raise FetchRefused
    address = _checked_address(host, port, allowed, end)
    connection = _connection(parts.scheme, host, port, address, _left(end))
    try:
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target, headers={"User-Agent": "pencilbox", "Accept": "*/*"})
        answer = connection.getresponse()
        if answer.status != 200:
            return answer.status, answer.getheader("Location"), None
        return answer.status, None, _read(connection, answer, end, limit)
    except (OSError, http.client.HTTPException, ValueError):
        raise FetchRefused from None
    finally:
        connection.close()


def _checked_address(host: str, port: int, allowed: AddressCheck, end: float) -> str:
    """Resolve `host`; every address must pass `allowed` (a name that also points inside the
    network is refused as a whole). The first address is the one to connect to."""
    try:
        future = _resolver.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
        found = future.result(timeout=_left(end))
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    except (OSError, ValueError, FutureTimeout, UnicodeError):
        raise FetchRefused from None
    if not addresses or not all(allowed(a, port) for a in addresses):
        raise FetchRefused
    return str(addresses[0])


def _connection(
    scheme: str, host: str, port: int, address: str, timeout: float
) -> http.client.HTTPConnection:
    """A connection that talks to `host` (Host header, TLS name) at the checked `address`."""
    connection: http.client.HTTPConnection
    if scheme == "https":
        context = ssl.create_default_context()
        connection = http.client.HTTPSConnection(host, port, timeout=timeout, context=context)
    else:
        connection = http.client.HTTPConnection(host, port, timeout=timeout)

    def connect_to_checked(_: Any, timeout: float, source: Any = None) -> socket.socket:
        return socket.create_connection((address, port), timeout, source)

    connection._create_connection = connect_to_checked  # type: ignore[attr-defined]
    return connection


def _read(
    connection: http.client.HTTPConnection,
    answer: http.client.HTTPResponse,
    end: float,
    limit: int,
) -> bytes:
    """The body, in pieces, within the time left and the size limit."""
    declared = answer.getheader("Content-Length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise FetchRefused
    parts: list[bytes] = []
    size = 0
    while True:
        if connection.sock is not None:
            connection.sock.settimeout(_left(end))
        piece = answer.read1(65536)
        if not piece:
            return b"".join(parts)
        size += len(piece)
        if size > limit:
            raise FetchRefused
        parts.append(piece)


def _left(end: float) -> float:
    left = end - time.monotonic()
    if left <= 0:
        raise FetchRefused
    return left
