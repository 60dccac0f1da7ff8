"""Tables for several people, the store that keeps them, and the limits on what a client asks.

A host makes a table (which seats are people's and which bots'), gets a link per
seat, people sit (by link or from the lobby), and play begins with ``start`` once
every person's seat is taken; each connection is sent its own seat's view only.
Every change is written to the store, and a new server on the same database
takes every table back at the same step.  Bots move only while someone is
connected.  A full server drops finished games first, then bot-only games
nobody watches, never a game a person sits at; new tables are limited per
connection and per address; the websocket's Origin must be the served host.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle.core import Phase
from web_support import choose, require

require("starlette")
require("httpx")
testclient = require("starlette.testclient")

from starlette.websockets import WebSocketDisconnect  # noqa: E402

from binocle.web import app as web_app  # noqa: E402
from binocle.web import protocol  # noqa: E402
from binocle.web.store import MemoryStore, SQLiteStore, StoredTable, TableStore  # noqa: E402


def served_app(**kw: Any) -> Any:
    """The application, answering Starlette's test client's host name too."""
    return web_app.create_app(allowed_hosts=("testserver",), **kw)


def hub(app: Any) -> web_app.Hub:
    return app.state.hub  # type: ignore[no-any-return]


def until(ws: Any, *kinds: str, limit: int = 10_000) -> dict[str, Any]:
    """Read messages until one of ``kinds`` or an error."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] in (*kinds, "error"):
            return msg  # type: ignore[no-any-return]
    raise AssertionError(f"no {kinds} message")


def make_table(ws: Any, **fields: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """Make a table; the ``joined`` reply and the seats' tokens."""
    ws.send_json({"type": "table", "bot_delay": 0, **fields})
    joined = until(ws, "joined")
    assert joined["type"] == "joined", joined
    links = until(ws, "links")
    assert links["type"] == "links", links
    return joined, links["tokens"]


def check_own_view(table: protocol.Table, seat: int, msg: dict[str, Any]) -> None:
    """The state message shows the seat's own hand as the engine holds it, and no card
    of another seat's hand that the seat's view does not show."""
    view = binocle.observe(table.state, seat)
    assert msg["view"]["seat"] == seat
    assert msg["view"]["hand"] == [str(c) for c in view.hand]
    assert msg["view"] == protocol.view_json(view)


# -- two people at one table ------------------------------------------------------------


def test_two_people_play_a_whole_classic_hand_each_seeing_only_his_seat() -> None:
    app = served_app()
    with (
        testclient.TestClient(app) as client,
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
    ):
        joined, tokens = make_table(a, profile="classic", seats=["person", "person"],
                                    name="Ann", seed=5)  # fmt: skip
        assert set(tokens) == {"0", "1"} and joined["seat"] == 0 and not joined["started"]
        game = joined["game"]
        table = hub(app).tables[game]
        b.send_json({"type": "join", "game": game, "token": tokens["1"], "name": "Bob"})
        assert until(b, "joined")["seat"] == 1
        assert table.names == ("Ann", "Bob") and table.ready and not table.started
        b.send_json({"type": "action", "action": "pass"})
        assert "has not started" in until(b, "state")["message"]
        a.send_json({"type": "start"})
        pages = {0: a, 1: b}
        latest = {seat: until(ws, "state") for seat, ws in pages.items()}
        hands = len(table.state.results)
        moves = 0
        while len(table.state.results) == hands:
            for seat, msg in latest.items():
                assert msg["step"] == table.steps
                check_own_view(table, seat, msg)
            actor = table.state.current_player
            assert actor in pages
            other = 1 - actor
            # The seat not to act is refused and nothing changes.
            before = table.state
            pages[other].send_json({"type": "action", "action": "pass"})
            assert "not your turn" in until(pages[other], "state")["message"]
            assert table.state is before
            move = choose(latest[actor]["controls"])
            assert move is not None
            pages[actor].send_json(move)
            latest = {seat: until(ws, "state") for seat, ws in pages.items()}
            for msg in latest.values():
                assert msg["type"] == "state", msg
            moves += 1
        assert moves > 20
        assert latest[0]["view"]["results"] == latest[1]["view"]["results"]


def test_a_table_with_a_bot_lists_links_sits_from_the_lobby_and_starts_when_full() -> None:
    app = served_app()
    with (
        testclient.TestClient(app) as client,
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
    ):
        joined, tokens = make_table(
            a, profile="three-handed", seats=["person", "baseline", "person"], seed=8
        )
        game = joined["game"]
        assert set(tokens) == {"0", "2"}
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [game]
        assert "token" not in json.dumps(listed)
        seats = listed[0]["seats"]
        assert [(s["kind"], s["taken"]) for s in seats] == [
            ("person", True), ("bot", True), ("person", False)
        ]  # fmt: skip
        a.send_json({"type": "start"})
        assert "must be taken first" in until(a, "state")["message"]
        for bad in ({"seat": 1}, {"seat": 0}, {"seat": "2"}, {"seat": True}, {}):
            b.send_json({"type": "sit", "game": game, **bad})
            assert "free person's seat" in until(b, "joined")["message"]
        b.send_json({"type": "sit", "game": game, "seat": 2, "name": "  Carla   B "})
        assert until(b, "joined")["token"] == tokens["2"]
        assert hub(app).tables[game].names[2] == "Carla B"
        assert client.get("/api/tables").json()["tables"] == []  # full: no longer open
        seen = until(a, "table")
        while not seen["ready"]:
            seen = until(a, "table")
        b.send_json({"type": "start"})
        for ws, seat in ((a, 0), (b, 2)):
            msg = until(ws, "state")
            check_own_view(hub(app).tables[game], seat, msg) if msg["step"] == hub(app).tables[
                game
            ].steps else None
            assert msg["view"]["seat"] == seat


def test_a_seats_link_takes_the_seat_back_from_another_browser_and_a_wrong_one_fails() -> None:
    app = served_app()
    with testclient.TestClient(app) as client:
        with client.websocket_connect("/ws") as a:
            joined, tokens = make_table(a, profile="classic", seats=["person", "person"])
        with client.websocket_connect("/ws") as other:
            game = joined["game"]
            other.send_json({"type": "join", "game": game, "token": tokens["1"]})
            assert until(other, "joined")["seat"] == 1
            good = tokens["1"]
            near = good[:-1] + ("y" if good.endswith("x") else "x")  # one character off
            for token in (near, "", "a" * 65, "\ud800", 5, None):
                other.send_json({"type": "join", "game": game, "token": token})
                assert until(other, "joined")["message"] == "wrong token for that game"
            for bad in ("nope", "\udfff", 3, "a" * 65):
                other.send_json({"type": "join", "game": bad, "token": tokens["1"]})
                assert until(other, "joined")["message"].startswith("no such game")


def test_an_unlisted_table_is_not_in_the_lobby_and_takes_people_by_link_only() -> None:
    app = served_app()
    with testclient.TestClient(app) as client, client.websocket_connect("/ws") as a:
        joined, _ = make_table(a, profile="classic", seats=["person", "person"], listed=False)
        assert client.get("/api/tables").json()["tables"] == []
        a.send_json({"type": "sit", "game": joined["game"], "seat": 1})
        assert "by invitation" in until(a, "joined")["message"]


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"seats": ["person"]}, "'seats' lists the 2 seats"),
        ({"seats": "person,person"}, "'seats' must be a list"),
        ({"seats": ["baseline", "random"]}, "at least one 'person'"),
        ({"seats": ["person", "god"]}, "unknown bot 'god'"),
        ({"seats": ["person", "baseline"], "seat": 1}, "one of the people's seats"),
        ({"seats": ["person", "person"], "name": "x" * 25}, "at most 24"),
        ({"seats": ["person", "person"], "name": "\ud800"}, "valid Unicode"),
        ({"seats": ["person", "person"], "name": "\n\t"}, "printable"),
        ({"seats": ["person", "person"], "listed": 1}, "'listed' must be true or false"),
        ({"seats": ["person", "person"], "profile": "\udc80"}, "valid Unicode"),
        ({"seats": ["person", "person"], "options": {"\ud800": 1}}, "valid Unicode"),
        ({"seats": ["person", "person"], "options": {"target": "\ud800"}}, "valid Unicode"),
    ],
)
def test_a_bad_table_message_gets_an_error_and_makes_nothing(
    fields: dict[str, Any], says: str
) -> None:
    app = served_app()
    with testclient.TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "table", "profile": "classic", **fields}))
        reply = ws.receive_json()
        assert reply["type"] == "error" and says in reply["message"], reply
        assert hub(app).tables == {}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_every_field_of_every_message_refuses_wrong_values_with_an_error_frame(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Each field of each message type given each odd value (wrong type, huge, a lone
    surrogate, nested) gets an ``error`` reply that says what was wrong (or is taken,
    where the value is a valid one), never an unhandled exception or a closed socket."""
    wrong: list[Any] = [None, True, -1, 2**70, 1.5, "", "\ud800", "x" * 5000, [], {}, [[[]]]]
    messages = {
        "new": ["profile", "options", "seat", "opponents", "seed", "bot_delay", "autoplay"],
        "table": ["profile", "options", "seats", "seat", "name", "seed", "bot_delay", "listed"],
        "join": ["game", "token", "name"],
        "sit": ["game", "seat", "name"],
        "action": ["action"],
        "replay": ["record"],
    }
    app = served_app(limits=web_app.Limits(tables_per_minute=10**6,
                                                   tables_per_connection=10**6))  # fmt: skip
    with testclient.TestClient(app) as client, client.websocket_connect("/ws") as ws:
        for kind, names in messages.items():
            for name in names:
                for value in wrong:
                    ws.send_text(json.dumps({"type": kind, name: value}))
                    ws.send_json({"type": "ping"})
                    replies = []
                    while (reply := ws.receive_json())["type"] != "pong":
                        replies.append(reply)
                    errors = [r["message"] for r in replies if r["type"] == "error"]
                    assert all("could not handle" not in e and len(e) <= 500 for e in errors)
                    if not errors:  # a valid value (an empty options object, seat 0 …)
                        assert kind in ("new", "table"), (kind, name, value)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


# -- the store ----------------------------------------------------------------------------


def _play_until(ws: Any, app: Any, game: str, steps: int) -> dict[str, Any]:
    table = hub(app).tables[game]
    msg = until(ws, "state")
    while table.steps < steps:
        move = choose(msg["controls"])
        if move is not None and msg["step"] == table.steps:
            ws.send_json(move)
        msg = until(ws, "state")
        assert msg["type"] == "state", msg
    return msg


def test_a_new_server_on_the_same_database_takes_every_table_back_at_the_same_step(
    tmp_path: Path,
) -> None:
    db = tmp_path / "tables.sqlite3"
    app = served_app(store=SQLiteStore(db))
    with testclient.TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "profile": "cutthroat", "seed": 4, "bot_delay": 0})
        joined = until(ws, "joined")
        _play_until(ws, app, joined["game"], 30)
        with client.websocket_connect("/ws") as b:
            made, tokens = make_table(b, profile="classic", seats=["person", "person"])
        kept = hub(app).tables[joined["game"]]
        steps, state, narration = kept.steps, kept.state, list(kept.narration)
    hub(app).store.close()
    raw = SQLiteStore(db)
    docs = {t.id: t for t in raw.load()}
    raw.close()
    assert set(docs) == {joined["game"], made["game"]}
    assert "binocle-state" in docs[joined["game"]].doc  # the game as binocle.dumps writes it
    again = served_app(store=SQLiteStore(db))
    with testclient.TestClient(again) as client, client.websocket_connect("/ws") as ws:
        back = hub(again).tables[joined["game"]]
        assert back.steps == steps and back.state == state and back.narration == narration
        assert back.state.moves() == state.moves()
        ws.send_json({"type": "join", "game": joined["game"], "token": joined["token"]})
        assert until(ws, "joined")["seat"] == joined["seat"]
        msg = until(ws, "state")
        assert msg["step"] == steps
        while not msg["over"]:
            move = choose(msg["controls"])
            if move is not None and msg["step"] == back.steps:
                ws.send_json(move)
            msg = until(ws, "state")
        assert binocle.is_over(back.state)
        with client.websocket_connect("/ws") as b:
            b.send_json({"type": "join", "game": made["game"], "token": tokens["1"]})
            assert until(b, "joined")["seat"] == 1
    hub(again).store.close()


def test_the_stores_keep_save_replace_and_delete() -> None:
    stores: list[TableStore] = [MemoryStore(), SQLiteStore(":memory:")]
    for store in stores:
        assert isinstance(store, TableStore)
        store.save(StoredTable("a", "{}", False, 1.0))
        store.save(StoredTable("b", "[1]", True, 2.0))
        store.save(StoredTable("a", '{"x": 1}', True, 3.0))
        assert sorted(store.load(), key=lambda t: t.id) == [
            StoredTable("a", '{"x": 1}', True, 3.0), StoredTable("b", "[1]", True, 2.0)
        ]  # fmt: skip
        store.delete("b")
        store.delete("nothing")
        assert [t.id for t in store.load()] == ["a"]
        store.close()


def test_a_stored_table_that_cannot_be_read_back_is_skipped_not_fatal() -> None:
    store = MemoryStore()
    store.save(StoredTable("bad", "{not json", False, 1.0))
    store.save(StoredTable("old", json.dumps({"version": 99}), False, 1.0))
    app = served_app(store=store)
    assert hub(app).tables == {}


def test_the_default_database_is_under_the_users_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from binocle.web.store import default_db_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "binocle" / "web.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local" / "share" / "binocle" / "web.sqlite3"


# -- pausing, caps and limits ---------------------------------------------------------------


def _wait(predicate: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.01)


def test_bots_stop_when_nobody_watches_and_go_on_when_someone_comes_back() -> None:
    app = served_app()
    with testclient.TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "new", "profile": "cutthroat", "autoplay": "baseline",
                          "bot_delay": 0.05, "seed": 3})  # fmt: skip
            joined = until(ws, "joined")
            until(ws, "state")
            until(ws, "state")
        game = joined["game"]
        table = hub(app).tables[game]
        _wait(lambda: hub(app).tasks[game].done())
        paused = table.steps
        assert not binocle.is_over(table.state)
        time.sleep(0.3)  # six bot delays: a running game would have moved
        assert table.steps == paused and hub(app).tasks[game].done()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "game": game, "token": joined["token"]})
            until(ws, "joined")
            _wait(lambda: table.steps > paused)


def test_a_full_server_drops_finished_then_unwatched_bot_games_never_a_persons() -> None:
    app = served_app(max_tables=3)
    h = hub(app)
    with testclient.TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "new", "profile": "classic", "seed": 1})
            person = until(ws, "joined")["game"]
            ws.send_json({"type": "new", "profile": "classic", "autoplay": "random", "seed": 2,
                          "options": {"max_hands": 1}})  # fmt: skip
            finished = until(ws, "joined")["game"]
            _wait(lambda: binocle.is_over(h.tables[finished].state))
            ws.send_json({"type": "new", "profile": "classic", "autoplay": "random", "seed": 3,
                          "bot_delay": 1})  # fmt: skip
            bots = until(ws, "joined")["game"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "new", "profile": "classic"})
            first = until(ws, "joined")["game"]
            assert finished not in h.tables and {person, bots, first} == set(h.tables)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "new", "profile": "classic"})
            second = until(ws, "joined")["game"]
            assert bots not in h.tables and {person, first, second} == set(h.tables)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "new", "profile": "classic"})
            assert "as many games as it can" in until(ws, "joined")["message"]
            assert {person, first, second} == set(h.tables)


def test_new_tables_are_limited_per_connection_and_per_address() -> None:
    limits = web_app.Limits(tables_per_connection=3, tables_per_minute=5)
    app = served_app(limits=limits)
    with testclient.TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            replies = []
            for _ in range(10):
                ws.send_json({"type": "new", "profile": "classic", "seed": 1})
                replies.append(until(ws, "joined"))
            assert [r["type"] for r in replies] == ["joined"] * 3 + ["error"] * 7
            assert "too many new tables" in replies[-1]["message"]
        with client.websocket_connect("/ws") as ws:
            replies = []
            for _ in range(3):
                ws.send_json({"type": "table", "profile": "classic", "seats": ["person"] * 2})
                replies.append(until(ws, "joined"))
            assert [r["type"] for r in replies] == ["joined", "joined", "error"]
        assert len(hub(app).tables) == 5


def test_connections_are_limited_per_address() -> None:
    app = served_app(limits=web_app.Limits(connections_per_address=2))
    with testclient.TestClient(app) as client:
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws"):
                pass
            a.send_json({"type": "ping"})
            assert a.receive_json() == {"type": "pong"}
            b.send_json({"type": "ping"})
            assert b.receive_json() == {"type": "pong"}
        with client.websocket_connect("/ws") as c:  # the others closed: room again
            c.send_json({"type": "ping"})
            assert c.receive_json() == {"type": "pong"}


@pytest.mark.parametrize(
    ("origin", "allowed", "accepted"),
    [
        (None, (), True),
        ("http://testserver", (), True),
        ("https://TESTSERVER", (), True),
        ("http://evil.example", (), False),
        ("http://testserver.evil.example", (), False),
        ("null", (), False),
        ("http://evil.example", ("http://evil.example",), True),
        ("http://other.example", ("*",), True),
        ("http://other.example", ("http://evil.example",), False),
    ],
)
def test_the_websocket_accepts_pages_of_the_served_host_or_allowed_origins_only(
    origin: str | None, allowed: tuple[str, ...], accepted: bool
) -> None:
    app = served_app(allow_origins=allowed)
    headers = {} if origin is None else {"origin": origin}
    with testclient.TestClient(app) as client:
        if accepted:
            with client.websocket_connect("/ws", headers=headers) as ws:
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
        else:
            with (
                pytest.raises(WebSocketDisconnect),
                client.websocket_connect("/ws", headers=headers),
            ):
                pass
    assert hub(app).connections == 0


# -- replays cost in proportion to their length --------------------------------------------


def _long_game(actions: int) -> binocle.GameState:
    s = binocle.new_game(binocle.profile("classic", target=100_000), seed=1)
    for _ in range(actions):
        calm = [a for a in binocle.legal_actions(s) if a.kind is not binocle.Kind.CLAIM]
        s = binocle.apply(s, calm[0])
    return s


def test_a_replay_narrates_each_step_from_the_current_hand_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Observing a state walks its whole history; the replay tells each step from states
    whose history starts at the hand's deal, so its cost grows with the record's length,
    not with its square.  The lines are those of the whole history."""
    state = _long_game(3000)
    rec = binocle.record(state)
    lengths: list[int] = []
    original = protocol.narrate_all

    def spy(before: Any, action: Any, after: Any) -> list[str]:
        lengths.append(len(after.moves()))
        return original(before, action, after)

    monkeypatch.setattr(protocol, "narrate_all", spy)
    frames = protocol.replay_message({"record": rec})["frames"]
    assert len(frames) == len(rec["actions"]) + 1
    longest_hand = max(
        len(h) for h in _hands([a for a, _ in state.moves()])
    )  # the actions of the longest hand
    assert max(lengths) <= longest_hand < 200
    states = binocle.replay(rec, every=True)
    for i in (1, 2, 100, 1500, len(states) - 1):
        before, after = states[i - 1], states[i]
        assert frames[i]["lines"] == original(before, after.moves()[-1][0], after)


def _hands(actions: list[Any]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for a in actions:
        if a.kind is binocle.Kind.DEAL:
            out.append([])
        out[-1].append(a)
    return out


def test_a_state_of_the_current_hand_only_observes_like_the_whole_state() -> None:
    state = _long_game(700)
    node: Any = None
    for action, seat in state.moves():
        node = (None if action.kind is binocle.Kind.DEAL else node, action, seat)
    short = protocol._hand_only(state, node)
    for seat in range(2):
        full, part = binocle.observe(state, seat), binocle.observe(short, seat)
        assert full.log == part.log and full.public == part.public and full.hand == part.hand
    assert short == state and state.phase is not Phase.OVER


def test_the_server_opens_no_more_websockets_than_the_process_may_open_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``binocle serve`` lowers the websocket cap below the descriptor limit (a margin
    kept for HTTP, the database and the log), so a flood is refused, not fatal."""
    import resource

    monkeypatch.setattr(resource, "getrlimit", lambda _: (1024, 4096))
    lowered = web_app._within_descriptors(web_app.Limits())
    assert lowered.max_connections == (1024 - 64) * 2 // 3
    assert lowered.max_tables == web_app.Limits().max_tables
    monkeypatch.setattr(resource, "getrlimit", lambda _: (100_000, 100_000))
    assert web_app._within_descriptors(web_app.Limits()) == web_app.Limits()
