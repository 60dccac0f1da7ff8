"""The static site's engine with no server, under CPython: the local hub and the build.

:class:`binocle.web.local.LocalHub` answers the page's messages as ``binocle serve``
answers a one-person table against bots: a game is started, the bots move one step
at a time until the person is to act, every refused message gets an ``error`` and
changes nothing, and the saved table gives the same game back after a reload.
:func:`binocle.web.site.build_site` writes the page of ``binocle serve`` pointed at
the worker, every file in the service worker's list, and an engine zip that imports
and plays with nothing but the standard library beside it (no web framework).
The same site in Chromium: ``test_site_browser.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle.errors import InvalidArgumentError
from binocle.web import site as web_site
from binocle.web.local import NEEDS_SERVER, LocalHub
from binocle.web.site import PYODIDE_FILES, build_site, engine_zip
from web_support import choose


def _answers(hub: LocalHub, msg: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(text) for text in hub.receive(json.dumps(msg))]


def _bots(hub: LocalHub) -> list[dict[str, Any]]:
    out = []
    while step := hub.step():
        out.extend(json.loads(t) for t in step)
    return out


def _new(hub: LocalHub, profile: str = "cutthroat", **extra: Any) -> list[dict[str, Any]]:
    return _answers(hub, {"type": "new", "profile": profile, "seed": 5, "bot_delay": 0, **extra})


@pytest.mark.parametrize("profile", binocle.profile_names())
def test_a_whole_game_against_bots_with_no_server(profile: str) -> None:
    """A game of one hand (max_hands 1) plays to its end: the person's moves from the
    controls sent, the bots' by steps; each state's step count rises by one a move, and
    the record is given once the game is over."""
    hub = LocalHub()
    joined, state = _new(hub, profile, options={"max_hands": 1})
    assert joined["type"] == "joined" and joined["started"] is True
    assert state["type"] == "state" and state["step"] == 0
    last = state
    for _ in range(400):
        states = [m for m in _bots(hub) if m["type"] == "state"]
        if states:
            assert [m["step"] for m in states] == list(
                range(last["step"] + 1, last["step"] + 1 + len(states))
            )
            last = states[-1]
        if last["over"]:
            break
        move = choose(last["controls"])
        assert move is not None, "the bots stopped while the person has nothing to do"
        (last,) = _answers(hub, move)
        assert last["type"] == "state", last
    assert last["over"] is not None
    (rec,) = _answers(hub, {"type": "record"})
    assert rec["type"] == "record" and binocle.load_record(rec["record"])


def test_refused_messages_get_an_error_and_change_nothing() -> None:
    """Bad JSON (a key twice included), unknown types, a move out of turn, an illegal action, a deal mid-hand
    and the messages of tables for people are each refused with a reason; the game is
    as it was."""
    hub = LocalHub()
    assert _answers(hub, {"type": "action", "action": "pass"})[0]["type"] == "error"
    _new(hub)
    _bots(hub)
    before = hub.table.state if hub.table else None
    saved = hub.saved()
    for raw in ("{", "[]", '"x"', json.dumps({"type": 3}), json.dumps({"type": "nope"}),
                json.dumps({"type": "action", "action": "play ZZ"}),
                json.dumps({"type": "action"}), json.dumps({"type": "deal"}),
                json.dumps({"type": "join", "game": "x", "token": "y"}),
                json.dumps({"type": "new", "profile": "nosuch"}),
                json.dumps({"type": "record"})):  # fmt: skip
        (answer,) = (json.loads(t) for t in hub.receive(raw))
        assert answer["type"] == "error" and answer["message"], raw
    # A key twice is refused as the server refuses it (readers differ on which counts).
    twice = [json.loads(t) for t in hub.receive('{"type": "new", "type": "ping"}')]
    assert twice == [
        {"type": "error", "message": "ambiguous JSON: the key 'type' appears twice in one object"}
    ]
    for kind in ("table", "sit", "start", "lobby"):
        assert _answers(hub, {"type": kind}) == [{"type": "error", "message": NEEDS_SERVER}]
    assert hub.table is not None and hub.table.state is before
    assert hub.saved() is None and saved is not None
    assert _answers(hub, {"type": "ping"}) == [{"type": "pong"}]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200) | st.builds(json.dumps, st.dictionaries(
    st.sampled_from(["type", "action", "profile", "seat", "opponents", "options", "seed",
                     "bot_delay", "game", "token", "record"]),
    st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.lists(st.integers()),
)))  # fmt: skip
def test_any_message_gets_answers_and_never_an_exception(raw: str) -> None:
    """Whatever text the page sends, the hub answers with JSON messages (an ``error``
    for what it cannot carry out) and raises nothing."""
    hub = LocalHub()
    for text in hub.receive(raw):
        assert isinstance(json.loads(text)["type"], str)
    hub.step()


def test_the_saved_table_gives_the_game_back_after_a_reload() -> None:
    """The text :meth:`saved` returns, given to a new hub, lets the page join the same
    game (its id and token) at the same step, and play goes on from there; a text that
    cannot be read back starts afresh."""
    hub = LocalHub()
    joined, _ = _new(hub, "classic")
    _bots(hub)
    saved = hub.saved()
    assert saved is not None and hub.summary() == {
        "game": joined["game"],
        "token": joined["token"],
        "over": False,
    }
    again = LocalHub(saved)
    j2, state = _answers(again, {"type": "join", "game": joined["game"], "token": joined["token"]})
    assert j2["game"] == joined["game"] and state["step"] == hub.table.steps  # type: ignore[union-attr]
    assert _answers(again, {"type": "join", "game": joined["game"], "token": "nope"})[0][
        "message"
    ].startswith("wrong token")
    move = choose(state["controls"])
    assert move is not None and _answers(again, move)[0]["type"] == "state"
    for bad in ("", "{", json.dumps({"version": 99}), json.dumps({"version": 1})):
        assert LocalHub(bad).table is None


def _fake_pyodide(tmp: Path) -> Path:
    tarball = tmp / "pyodide-0.0.0.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        for name in PYODIDE_FILES:
            path = tmp / name
            path.write_text(f"// {name}\n")
            tar.add(path, arcname=f"package/{name}")
    return tarball


def test_the_site_holds_the_servers_page_pointed_at_the_worker(tmp_path: Path) -> None:
    """The site has the server's client files unchanged, its page loads ``site.js``
    before ``app.js`` with paths relative to the site and no lobby, the profiles'
    file is the server's catalogue, and the service worker keeps every other file."""
    from binocle.web.protocol import profiles_catalogue

    files = build_site(tmp_path / "site", pyodide=_fake_pyodide(tmp_path))
    site = tmp_path / "site"
    static = Path(web_site.__file__).parent / "static"
    for name in ("app.js", "style.css"):
        assert (site / "static" / name).read_bytes() == (static / name).read_bytes()
    page = (site / "index.html").read_text()
    assert page.index('src="site.js"') < page.index('src="static/app.js"')
    assert '"/static/' not in page and "lobby.js" not in page
    assert json.loads((site / "profiles.json").read_text())["profiles"] == profiles_catalogue()
    sw = (site / "sw.js").read_text()
    listed = json.loads(sw.split("const FILES = ", 1)[1].split(";", 1)[0])
    assert "sw.js" in files  # the browser keeps the service worker itself
    assert sorted(listed) == sorted(["./", *(f for f in files if f != "sw.js")])
    for name in PYODIDE_FILES:
        assert (site / "pyodide" / name).read_text() == f"// {name}\n"
    # A second build over the first, from a directory of Pyodide's files this time.
    assert build_site(site, pyodide=tmp_path) == files


def test_a_bad_pyodide_or_directory_is_refused(tmp_path: Path) -> None:
    """A missing Pyodide, one lacking a file, or a file where the site should go: an
    InvalidArgumentError saying what is wrong."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("")
    (tmp_path / "bad.tgz").write_bytes(b"not a tarball")
    for pyodide in (tmp_path / "missing", tmp_path / "empty", tmp_path / "bad.tgz"):
        with pytest.raises(InvalidArgumentError):
            build_site(tmp_path / "out", pyodide=pyodide)
    with pytest.raises(InvalidArgumentError):
        build_site(tmp_path / "file", pyodide=_fake_pyodide(tmp_path))


def test_the_engine_zip_plays_with_the_standard_library_alone(tmp_path: Path) -> None:
    """binocle, attrs and typing-extensions from the zip, in an isolated interpreter with
    no site-packages: the local hub imports (no Starlette) and plays a game's start."""
    (tmp_path / "engine.zip").write_bytes(engine_zip())
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1])\n"
        "from binocle.web.local import LocalHub\n"
        "hub = LocalHub()\n"
        "out = hub.receive(json.dumps({'type': 'new', 'seed': 1}))\n"
        "assert [json.loads(t)['type'] for t in out] == ['joined', 'state']\n"
        "assert 'starlette' not in sys.modules and 'attrs' in sys.modules\n"
        "print(sys.modules['binocle'].__file__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(tmp_path / "engine.zip")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "engine.zip" in done.stdout


def test_the_command_writes_the_site_or_says_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``binocle site DIR --pyodide PATH`` writes the site and says how to serve it (exit
    0); a Pyodide that is not there is bad input (exit 2, the reason on standard error)."""
    from binocle.cli import main

    assert main(["site", str(tmp_path / "s"), "--pyodide", str(_fake_pyodide(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "python -m http.server" in out and (tmp_path / "s" / "index.html").is_file()
    assert main(["site", str(tmp_path / "t"), "--pyodide", str(tmp_path / "none")]) == 2
    assert "binocle site: no Pyodide tarball" in capsys.readouterr().err


def test_a_compiled_module_without_its_source_is_refused(tmp_path: Path) -> None:
    """The engine zip holds Python source: a compiled module with its ``.py`` beside it
    (and mypyc's shared runtime) is left out, one with no source is refused."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "core.py").write_text("X = 1\n")
    (package / "core.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    (package / "core__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    assert [name for name, _ in web_site._tree(package, "pkg")] == ["pkg/core.py"]
    (package / "fast.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    with pytest.raises(InvalidArgumentError, match="no Python source"):
        list(web_site._tree(package, "pkg"))
