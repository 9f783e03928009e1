"""The Host check (DNS rebinding) and the cross-site check, over HTTP (web/security.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pencilbox.cli import _parser, main
from pencilbox.web import create_app
from pencilbox.web.fetch import FAILED
from pencilbox.web.security import CHANGING_METHODS, bind_warning, host_names, parse_host
from tests.web.conftest import TestClient, app_routes, puzzle_id
from tests.web.test_restart import free_port


def raw_client(app: object, base_url: str = "http://127.0.0.1:8000") -> TestClient:
    """A client with no header of the app's pages, as another program or page would be."""
    return TestClient(app, base_url=base_url)  # type: ignore[arg-type]


@pytest.fixture
def raw(db_path: Path) -> TestClient:
    return raw_client(create_app(db_path))


@pytest.mark.parametrize(
    "host",
    [
        "attacker.example:8000",  # a DNS-rebinding page: its own name, our address and port
        "attacker.example",
        "127.0.0.1:9999",  # the right name on another port
        "127.0.0.1.attacker.example:8000",
        "localhost.:8000",
        "",
        "127.0.0.1:8000@evil",
        "[::1",
    ],
)
def test_foreign_host_names_get_400(raw: TestClient, host: str) -> None:
    for path in ("/api/puzzles", "/", "/static/common.js"):
        answer = raw.get(path, headers={"Host": host})
        assert answer.status_code == 400, (host, path)
        assert "does not answer to the host name" in answer.json()["error"]
    pid = raw.get("/api/puzzles").json()[0]["id"]
    refused = raw.delete(f"/api/puzzles/{pid}", headers={"Host": host, "X-Pencilbox": "1"})
    assert refused.status_code == 400
    assert raw.get(f"/api/puzzles/{pid}").status_code == 200  # still there


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000"]
)
def test_loopback_names_on_the_servers_port_are_answered(raw: TestClient, host: str) -> None:
    assert raw.get("/api/health", headers={"Host": host}).status_code == 200


def test_allowed_hosts_and_the_bind_address(db_path: Path) -> None:
    app = create_app(db_path, host="192.168.1.20", allowed_hosts=["pencil.lan", "box:9000"])
    client = raw_client(app)
    for host, status in (
        ("192.168.1.20:8000", 200),
        ("pencil.lan:8000", 200),
        ("pencil.lan:8001", 400),
        ("box:9000", 200),  # an explicit port (a proxy in front, say)
        ("box:8000", 400),
        ("other.lan:8000", 400),
    ):
        assert client.get("/api/health", headers={"Host": host}).status_code == status, host
    # the port comes from the server itself: on port 80 a Host without a port is right
    assert raw_client(app, "http://localhost").get("/api/health").status_code == 200
    assert raw_client(app, "http://127.0.0.1:81").get("/api/health").status_code == 200
    assert client.get("/api/health", headers={"Host": "localhost"}).status_code == 400


def test_host_names_parse() -> None:
    assert parse_host("[::1]:8000").name == "::1" and parse_host("[::1]:8000").port == 8000
    assert parse_host("::1").name == "::1" and parse_host("::1").port is None
    assert parse_host("Box.LAN:81").name == "box.lan"
    for bad in ("", "a b", "x:port", "a/b", "[::1]x", "x:123456"):
        with pytest.raises(ValueError):
            parse_host(bad)
    assert len(host_names("0.0.0.0")) == 3 and len(host_names("::")) == 3
    assert parse_host("10.0.0.2") in host_names("10.0.0.2")


def test_the_issues_reproducer_is_refused(raw: TestClient) -> None:
    """A foreign page's form-encoded POST to /solve answered 200 and solved the game."""
    pid = puzzle_id(raw, "data148")
    before = raw.get(f"/api/games/{pid}").json()["state"]
    answer = raw.post(
        f"/api/games/{pid}/solve",
        headers={
            "Origin": "http://evil.example",
            "Content-Type": "application/x-www-form-urlencoded",
        },
        content=b"",
    )
    assert answer.status_code == 403
    assert "evil.example" in answer.json()["error"]
    assert raw.get(f"/api/games/{pid}").json()["state"] == before


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/x-www-form-urlencoded"},  # a plain form, no Origin
        {"Content-Type": "text/plain"},  # a "simple" fetch
        {"Content-Type": "text/plain; charset=application/json"},
        {"Content-Type": "multipart/form-data; boundary=x"},
        {},  # no body at all
        {"Sec-Fetch-Site": "cross-site", "X-Pencilbox": "1"},
        {"Sec-Fetch-Site": "same-site", "X-Pencilbox": "1"},  # another port on localhost
        {"Origin": "http://127.0.0.1:9999", "X-Pencilbox": "1"},
        {"Origin": "null", "Content-Type": "application/json"},
        {"Origin": "http://localhost:8000", "X-Pencilbox": "1"},  # another origin, same port
    ],
)
def test_cross_site_changes_are_refused(raw: TestClient, headers: dict[str, str]) -> None:
    pid = puzzle_id(raw, "data148")
    for method, path in (
        ("POST", f"/api/games/{pid}/move"),
        ("POST", f"/api/games/{pid}/reset"),
        ("POST", f"/api/games/{pid}/solve"),
        ("POST", f"/api/games/{pid}/hint"),
        ("POST", f"/api/games/{pid}/pass"),
        ("POST", f"/api/games/{pid}/undo"),
        ("POST", f"/api/games/{pid}/redo"),
        ("POST", "/api/puzzles"),
        ("POST", "/api/generate"),
        ("POST", "/api/jobs"),
        ("DELETE", f"/api/puzzles/{pid}"),
        ("DELETE", "/api/jobs/1"),
        ("PUT", f"/api/puzzles/{pid}"),
        ("PATCH", f"/api/puzzles/{pid}"),
    ):
        body = b'{"move": "r1c1=1"}' if "Content-Type" in headers else None
        answer = raw.request(method, path, headers=headers, content=body)
        assert answer.status_code == 403, (method, path, headers)
    assert raw.get(f"/api/games/{pid}").json()["position"] == 0
    assert raw.get(f"/api/puzzles/{pid}").status_code == 200


def test_the_apps_own_requests_pass(raw: TestClient) -> None:
    pid = puzzle_id(raw, "data148")
    own = {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"}
    moved = raw.post(f"/api/games/{pid}/move", json={"move": "r1c2=1"}, headers=own)
    assert moved.status_code == 200 and moved.json()["position"] == 1
    # a JSON body is enough for scripts (a browser sends it cross-site only after a preflight)
    assert raw.post(f"/api/games/{pid}/move", json={"move": "r1c3=1"}).status_code == 200
    # body-less changes need the header
    assert (
        raw.post(f"/api/games/{pid}/undo", headers={"X-Pencilbox": "1", **own}).json()["position"]
        == 1
    )
    assert raw.post(f"/api/games/{pid}/undo", headers={"X-Pencilbox": "yes"}).status_code == 200
    # "none" is what a browser sends for a request the user typed
    typed = raw.post(
        f"/api/games/{pid}/redo", headers={"X-Pencilbox": "1", "Sec-Fetch-Site": "none"}
    )
    assert typed.status_code == 200


def test_api_reads_from_other_sites_are_refused_but_pages_open(raw: TestClient) -> None:
    pid = puzzle_id(raw, "data148")
    for path in (f"/api/puzzles/{pid}/solve", f"/api/puzzles/{pid}/thumbnail.svg", "/api/puzzles"):
        assert raw.get(path, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        assert raw.get(path, headers={"Origin": "http://evil.example"}).status_code == 403
    # a link from another site to a page (a share link) still opens it
    for path in ("/", "/nonogram", "/static/common.js"):
        assert raw.get(path, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200
    assert raw.get(f"/api/puzzles/{pid}", headers={"Sec-Fetch-Site": "same-origin"}).is_success


def test_the_pages_send_the_header(client: TestClient) -> None:
    common = client.get("/static/common.js").text
    assert '"X-Pencilbox"' in common
    assert client.post("/api/parse", json={"text": ""}).status_code == 422  # reached the app


def test_serve_flags_and_the_bind_warning() -> None:
    args = _parser().parse_args(
        ["serve", "--allowed-host", "a.lan", "--allowed-host", "b:81", "--allow-fetch"]
    )
    assert args.allowed_host == ["a.lan", "b:81"] and args.allow_fetch
    assert not _parser().parse_args(["serve"]).allow_fetch
    for loopback in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"):
        assert bind_warning(loopback) is None, loopback
    for wide in ("0.0.0.0", "::", "192.168.1.20", "pencil.lan"):
        warning = bind_warning(wide)
        assert warning is not None and "no login" in warning, wide


def test_every_changing_route_refuses_a_plain_form_and_a_foreign_page(raw: TestClient) -> None:
    """Whatever routes the app has (the list comes from the app itself), a form post or a
    foreign page's request with the app's own header never reaches one."""
    pid = puzzle_id(raw, "data148")
    routes = [(m, path) for m, path in app_routes(raw.app) if m in CHANGING_METHODS]
    assert ("POST", "/api/games/{puzzle_id}/redo") in routes
    assert ("POST", "/api/pictures/read") in routes and len(routes) >= 17
    values = {"puzzle_id": str(pid), "job_id": "1", "genre": "nonogram", "name": "check"}
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    foreign = {"Origin": "http://evil.example", "X-Pencilbox": "1"}
    for method, path in routes:
        url = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values.get(m.group(1), "x"), path)
        for headers in (form, foreign, {"Sec-Fetch-Site": "cross-site", "X-Pencilbox": "1"}):
            answer = raw.request(method, url, headers=headers, content=b"move=r1c1%3D1")
            assert answer.status_code == 403, (method, url, headers, answer.text[:200])
    assert raw.get(f"/api/games/{pid}").json()["position"] == 0


def serve(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[Any, str]:
    """`pencilbox serve ARGS` up to the point where it would listen: the app it built and
    what it printed on stderr."""
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(app=app, **options))
    assert main(["serve", *argv]) == 0
    return started["app"], capsys.readouterr().err


def test_serve_warns_beyond_loopback_and_applies_its_flags(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    port = str(free_port())
    inside = {"text": "http://10.1.2.3/p.non"}
    app, err = serve(["--db", str(db_path), "--port", port], monkeypatch, capsys)
    assert err == ""  # loopback: no warning
    own = raw_client(app, f"http://127.0.0.1:{port}")
    assert own.get("/api/health").status_code == 200
    refused = own.post("/api/puzzles", json=inside)
    assert refused.status_code == 422 and "--allow-fetch" in refused.json()["error"]

    wide = ["--host", "0.0.0.0", "--allowed-host", "pencil.lan", "--allow-fetch"]
    other = str(db_path.with_name("other.sqlite3"))  # the first app holds its library's lock
    app, err = serve([*wide, "--db", other, "--port", port], monkeypatch, capsys)
    assert err.startswith("pencilbox: warning: listening on 0.0.0.0") and "no login" in err
    assert raw_client(app, f"http://pencil.lan:{port}").get("/api/health").status_code == 200
    assert raw_client(app, f"http://evil.example:{port}").get("/api/health").status_code == 400
    fetching = raw_client(app, f"http://127.0.0.1:{port}").post("/api/puzzles", json=inside)
    assert fetching.status_code == 422 and fetching.json()["error"] == FAILED  # fetch is on
