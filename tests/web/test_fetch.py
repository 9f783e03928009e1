"""The URL import (`serve --allow-fetch`): off by default; on, it refuses every address inside
the machine or the network, checks each redirect, caps time and size and answers one sentence.
Only servers on 127.0.0.1 take part, and the refusals happen before any connection."""

from __future__ import annotations

import contextlib
import ipaddress
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pencilbox.web import create_app, fetch
from pencilbox.web.fetch import FAILED, FetchRefused, fetch_text, is_public
from tests.web.conftest import TestClient, app_client

PUZZLE = "1\n1\n"  # a 1x1 nonogram in the clues notation
SECRET = "internal-secret-4711"


class Site:
    """A local web server whose answers a test sets per path; it counts what it was asked."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, dict[str, str], bytes, float]] = {}
        self.asked: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                site.asked.append(self.path)
                status, headers, body, delay = site.routes.get(
                    self.path, (404, {}, SECRET.encode(), 0.0)
                )
                time.sleep(delay)
                with contextlib.suppress(OSError):  # the fetch gave up on us
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site() -> Iterator[Site]:
    started = Site()
    yield started
    started.close()


@pytest.fixture
def fetching(db_path: Path) -> Iterator[TestClient]:
    with app_client(create_app(db_path, allow_fetch=True)) as client:
        yield client


def only(port: int) -> fetch.AddressCheck:
    """An address check that lets exactly one local server through (standing in for a
    public site in these tests)."""
    return lambda address, where: address.is_loopback and where == port


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.1.2.3",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "224.0.0.1",
        "239.255.255.250",
        "240.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",  # IPv4-mapped
        "::ffff:10.0.0.1",
        "2002:7f00:1::",  # 6to4 around 127.0.0.1
        "64:ff9b::7f00:1",  # NAT64 around 127.0.0.1
        "2001:db8::1",  # documentation
    ],
)
def test_inside_addresses_are_not_public(address: str) -> None:
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


def test_fetching_is_off_by_default(client: TestClient, site: Site) -> None:
    site.routes["/p.non"] = (200, {}, PUZZLE.encode(), 0.0)
    answer = client.post("/api/puzzles", json={"text": f"{site.url}/p.non"})
    assert answer.status_code == 422 and "--allow-fetch" in answer.json()["error"]
    assert site.asked == []


@pytest.mark.parametrize(
    "url",
    [
        "{site}/p.non",
        "http://localhost:{port}/p.non",
        "http://[::1]:{port}/p.non",
        "http://[::ffff:127.0.0.1]:{port}/p.non",
        "http://0.0.0.0:{port}/p.non",
        "http://0x7f000001:{port}/p.non",
        "http://2130706433:{port}/p.non",
        "http://10.1.2.3:{port}/p.non",
        "http://192.168.0.1/p.non",
        "http://169.254.169.254/latest/meta-data/",
        "http://user:pass@127.0.0.1:{port}/p.non",
        "file:///etc/passwd",
        "ftp://127.0.0.1/p.non",
    ],
)
def test_inside_addresses_are_refused_before_connecting(
    fetching: TestClient, site: Site, url: str
) -> None:
    site.routes["/p.non"] = (200, {}, PUZZLE.encode(), 0.0)
    text = url.format(site=site.url, port=site.port)
    answer = fetching.post("/api/puzzles", json={"text": text})
    assert answer.status_code == 422
    if text.startswith("http"):
        assert answer.json()["error"] == FAILED
    assert site.asked == []  # refused before any connection


def test_a_redirect_to_an_inside_address_is_refused(site: Site) -> None:
    inside = Site()
    try:
        inside.routes["/p.non"] = (200, {}, PUZZLE.encode(), 0.0)
        site.routes["/go"] = (302, {"Location": f"{inside.url}/p.non"}, b"", 0.0)
        with pytest.raises(FetchRefused):
            fetch_text(f"{site.url}/go", allowed=only(site.port))
        assert site.asked == ["/go"] and inside.asked == []
    finally:
        inside.close()


def test_redirects_are_followed_when_each_hop_passes(site: Site) -> None:
    site.routes["/p.non"] = (200, {}, PUZZLE.encode(), 0.0)
    site.routes["/a"] = (301, {"Location": "/b"}, b"", 0.0)
    site.routes["/b"] = (307, {"Location": f"{site.url}/p.non"}, b"", 0.0)
    assert fetch_text(f"{site.url}/a", allowed=only(site.port)) == PUZZLE
    site.routes["/loop"] = (302, {"Location": "/loop"}, b"", 0.0)
    with pytest.raises(FetchRefused):
        fetch_text(f"{site.url}/loop", allowed=only(site.port))
    assert site.asked.count("/loop") == fetch.REDIRECTS + 1


def test_size_and_time_are_capped(site: Site) -> None:
    site.routes["/big"] = (200, {}, b"1\n" * 6000, 0.0)
    with pytest.raises(FetchRefused):
        fetch_text(f"{site.url}/big", allowed=only(site.port), limit=10_000)
    site.routes["/slow"] = (200, {}, PUZZLE.encode(), 3.0)
    started = time.monotonic()
    with pytest.raises(FetchRefused):
        fetch_text(f"{site.url}/slow", allowed=only(site.port), seconds=0.5)
    assert time.monotonic() - started < 2.5


def test_one_sentence_that_echoes_nothing(site: Site) -> None:
    site.routes["/binary"] = (200, {}, b"\xff\xfe" + SECRET.encode(), 0.0)
    for path in ("/missing", "/binary"):  # a 404 page, and a body that is not UTF-8
        with pytest.raises(FetchRefused) as refused:
            fetch_text(f"{site.url}{path}", allowed=only(site.port))
        assert str(refused.value) == FAILED and SECRET not in str(refused.value)
    closed = Site()
    closed.close()  # nothing listens there any more: a socket error
    with pytest.raises(FetchRefused) as refused:
        fetch_text(f"{closed.url}/p.non", allowed=only(closed.port))
    assert str(refused.value) == FAILED


def test_a_fetched_puzzle_is_imported(
    fetching: TestClient, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    site.routes["/p.non"] = (200, {}, PUZZLE.encode(), 0.0)
    real = fetch_text
    monkeypatch.setattr(
        "pencilbox.web.reading.fetch_text", lambda url: real(url, allowed=only(site.port))
    )
    answer = fetching.post("/api/puzzles", json={"text": f"{site.url}/p.non"})
    assert answer.status_code == 201 and answer.json()["genre"] == "nonogram"
    assert site.asked == ["/p.non"]


def test_puzzlink_urls_are_read_here_and_never_fetched(
    fetching: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fetch(url: str) -> str:
        raise AssertionError(f"fetched {url}")

    monkeypatch.setattr("pencilbox.web.reading.fetch_text", no_fetch)
    read = fetching.post("/api/parse", json={"text": "https://puzz.link/p?sudoku/4/4/g1g2h3g4"})
    assert read.status_code == 200 and read.json()["puzzle"]["genre"] == "sudoku"
    for url in (
        "https://puzz.link/p?slither/5/5/abcde",
        "http://pzv.jp/p.html?lits/4/4/x",
        "https://www.puzz.link/list.html",
    ):
        answer = fetching.post("/api/parse", json={"text": url})
        assert answer.status_code == 422 and "never fetches" in answer.json()["error"], url
