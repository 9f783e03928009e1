"""What stands between the web app and the other pages a user has open: one ASGI middleware
in front of every route, so that no route can forget it.

- Host check: the app answers only requests whose `Host` header names it (127.0.0.1, localhost
  or [::1] on the port it listens on, the `--host` it was started with, or an
  `--allowed-host`); anything else gets 400. A DNS-rebinding page, whose requests carry its own
  host name, can therefore neither read nor change the library.
- Cross-site requests: a request that changes something (POST, PUT, PATCH, DELETE) must come
  from the app's own pages: a foreign `Origin` or a `Sec-Fetch-Site` other than same-origin is
  refused (403), and so is a request without a JSON body or an `X-Pencilbox` header, which a
  plain HTML form or a "simple" cross-origin fetch cannot send. API reads (/api/...) refuse
  foreign origins too, so that another site cannot make the server burn CPU by embedding an
  API URL as an image. Pages and static files stay open to links from anywhere.

The app sends no CORS headers, so a browser never lets another origin add the custom header
or the JSON content type to a request (those need a preflight that this app refuses).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARD_ADDRESSES = ("", "0.0.0.0", "::", "[::]")
CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
OWN_HEADER = "x-pencilbox"
"""The header the app's pages send with every change (any value)."""
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@dataclass(frozen=True)
class HostName:
    """A name the server answers to, on one port or (port None) on the port it listens on."""

    name: str
    port: int | None = None


def parse_host(text: str) -> HostName:
    """`name`, `name:port`, `[v6]` or `[v6]:port` (as given to --allowed-host or in a Host
    header); names are compared in lower case. ValueError for anything else."""
    text = text.strip().lower()
    if text.startswith("["):
        name, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(f"cannot read the host {text[:80]!r}")
        port_text = rest[1:] if rest else ""
    elif text.count(":") == 1:
        name, _, port_text = text.partition(":")
    elif ":" in text:  # a bare IPv6 address (from --host)
        name, port_text = text, ""
    else:
        name, port_text = text, ""
    if not name or any(c.isspace() or c in "/@\\" for c in name):
        raise ValueError(f"cannot read the host {text[:80]!r}")
    if port_text and not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
        raise ValueError(f"cannot read the port in {text[:80]!r}")
    return HostName(name, int(port_text) if port_text else None)


def host_names(bind: str | None, allowed: Iterable[str] = ()) -> tuple[HostName, ...]:
    """The loopback names, the bind address unless it is a wildcard, and the allowed hosts."""
    names = [HostName(n) for n in LOOPBACK_NAMES]
    if bind and bind.strip().lower() not in WILDCARD_ADDRESSES:
        names.append(parse_host(bind))
    names.extend(parse_host(a) for a in allowed)
    return tuple(dict.fromkeys(names))


def bind_warning(bind: str) -> str | None:
    """A sentence for `serve` to print when the app listens beyond this machine."""
    name = bind.strip().strip("[]").lower()
    if name == "localhost":
        return None
    try:
        if ipaddress.ip_address(name).is_loopback:
            return None
    except ValueError:
        pass  # a host name: it may resolve to anything
    return (
        f"listening on {bind}: other machines can reach this server, and it has no login, "
        "so anyone who can connect to it can read and change the library (see the README's "
        "Security section)"
    )


class Guard:
    """The Host check and the cross-site check, in front of the whole app."""

    def __init__(self, app: ASGIApp, names: Iterable[HostName] = ()) -> None:
        self.app = app
        self.names = tuple(names) or host_names(None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        scheme = str(scope.get("scheme", "http"))
        host = headers.get("host")
        if not self.host_allowed(host, scheme, scope.get("server")):
            shown = (host or "")[:80]
            await _refuse(
                scope,
                receive,
                send,
                400,
                f"this server does not answer to the host name {shown!r}: open it as "
                "http://127.0.0.1:PORT/ (or start it with --allowed-host NAME)",
            )
            return
        problem = cross_site_problem(scope, headers, f"{scheme}://{host}")
        if problem:
            await _refuse(scope, receive, send, 403, problem)
            return
        await self.app(scope, receive, send)

    def host_allowed(self, host: str | None, scheme: str, server: object) -> bool:
        if not host:
            return False
        try:
            asked = parse_host(host)
        except ValueError:
            return False
        port = asked.port if asked.port is not None else DEFAULT_PORTS.get(scheme)
        listening = _server_port(server)
        for allowed in self.names:
            if allowed.name != asked.name:
                continue
            wanted = allowed.port if allowed.port is not None else listening
            if wanted is None or wanted == port:
                return True
        return False


def cross_site_problem(scope: Scope, headers: Headers, own_origin: str) -> str | None:
    """Why this request must be refused as cross-site, or None."""
    method = str(scope.get("method", "GET")).upper()
    changing = method in CHANGING_METHODS
    if not changing and not str(scope.get("path", "")).startswith("/api/"):
        return None  # pages and static files: links from anywhere are fine
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return f"refused a {site[:20]} request: only the app's own pages may use its API"
    origin = headers.get("origin")
    if origin is not None and not _same_origin(origin, own_origin):
        return f"refused a request from {origin[:80]!r}: only the app's own pages may use its API"
    if changing and not (_json_body(headers) or OWN_HEADER in headers):
        return (
            f"a {method} request must send a JSON body (Content-Type: application/json) or an "
            "X-Pencilbox header, as the app's own pages do"
        )
    return None


def _json_body(headers: Headers) -> bool:
    essence = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return essence == "application/json"


def _same_origin(origin: str, own: str) -> bool:
    return _normal_origin(origin) == _normal_origin(own)


def _normal_origin(origin: str) -> str | None:
    """scheme://host:port in lower case with the default port spelled out; None for "null"
    and anything unreadable."""
    scheme, separator, rest = origin.strip().lower().partition("://")
    if not separator or scheme not in DEFAULT_PORTS or "/" in rest:
        return None
    try:
        host = parse_host(rest)
    except ValueError:
        return None
    port = host.port if host.port is not None else DEFAULT_PORTS[scheme]
    return f"{scheme}://[{host.name}]:{port}"


def _server_port(server: object) -> int | None:
    """The port the server listens on (ASGI's scope["server"]); None when it has none (a
    Unix socket)."""
    if isinstance(server, list | tuple) and len(server) == 2 and isinstance(server[1], int):
        return server[1]
    return None


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    await JSONResponse({"error": message}, status)(scope, receive, send)
