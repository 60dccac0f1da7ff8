"""The web front end's server: every message type, bad input, reconnection, and no leaks.

The server holds each game as an immutable state and sends a client only its
seat's view ("Building a front end"); every client message is validated, a bad
one gets an ``error`` reply and the connection stays up, and an illegal action
is refused with the engine's reason and changes nothing.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle.core import Phase
from web_support import CARD_TEXT, choose, require

#: A card as the narration writes it, with its suit symbol: ``T♠``.
SYMBOL_CARD = re.compile(r"\b[AKQJT987][♠♥♦♣]")

require("starlette")
require("httpx")
testclient = require("starlette.testclient")

from binocle.web import app as web_app  # noqa: E402
from binocle.web import protocol  # noqa: E402

PROFILES = binocle.profile_names()
STATIC = Path(web_app.__file__).parent / "static"


def served_app(**kw: Any) -> Any:
    """The application, answering Starlette's test client's host name too."""
    return web_app.create_app(allowed_hosts=("testserver",), **kw)


@pytest.fixture
def app() -> Any:
    return served_app()


@pytest.fixture
def client(app: Any) -> Any:
    with testclient.TestClient(app) as c:
        yield c


def hub(app: Any) -> web_app.Hub:
    return app.state.hub  # type: ignore[no-any-return]


def until(ws: Any, kind: str, limit: int = 10_000) -> dict[str, Any]:
    """Read messages until one of ``kind`` (errors are returned too)."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] in (kind, "error"):
            return msg  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} message")


def start(ws: Any, **fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    ws.send_json({"type": "new", "bot_delay": 0, **fields})
    joined = until(ws, "joined")
    assert joined["type"] == "joined", joined
    return joined, until(ws, "state")


def settle(ws: Any, app: Any, game: str, msg: dict[str, Any] | None = None) -> dict[str, Any]:
    """The newest state message once the bots have stopped (the person must act, or a deal
    is due, or the game is over), starting from ``msg`` if one was already read."""
    table = hub(app).tables[game]
    while True:
        if msg is not None and table.bot_to_act() is None and protocol.state_message(table) == msg:
            return msg
        msg = until(ws, "state")
        assert msg["type"] == "state", msg


# -- pages ------------------------------------------------------------------------------


def test_the_page_and_its_files_are_served_and_need_no_network(client: Any) -> None:
    """The page is static HTML/CSS/JS shipped in the package; nothing is fetched from elsewhere."""
    page = client.get("/")
    assert page.status_code == 200 and "<title>binocle" in page.text
    for name in ("app.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 1000
    for path in STATIC.iterdir():
        text = path.read_text()
        assert "http://" not in text and "https://" not in text, path.name
        assert "//cdn" not in text and "@import" not in text, path.name


def test_profiles_are_listed_with_their_options_and_defaults(client: Any) -> None:
    data = client.get("/api/profiles").json()
    assert [p["name"] for p in data["profiles"]] == list(PROFILES)
    assert {"baseline", "random"} <= set(data["bots"])
    cut = next(p for p in data["profiles"] if p["name"] == "cutthroat")
    assert cut["players"] == 3
    options = {o["name"]: o for o in cut["options"]}
    assert options["min_bid"]["default"] == 250 and options["min_bid"]["kind"] == "int"
    assert options["single_set"]["default"] is False and options["single_set"]["kind"] == "bool"
    # Every option is a control of its kind, with its default and a line of help.
    for p in data["profiles"]:
        for o in p["options"]:
            assert o["help"].endswith("."), o
            assert o["kind"] in ("bool", "int", "choice"), o
    hands = options["max_hands"]
    assert hands["kind"] == "int" and hands["nullable"] and hands["default"] is None
    classic = {o["name"]: o for o in data["profiles"][0]["options"]}
    assert classic["pack"]["kind"] == "choice" and classic["pack"]["choices"] == [48, 64]


def test_max_hands_from_the_form_ends_the_game_at_its_limit(client: Any, app: Any) -> None:
    """Every profile's ``max_hands`` (a whole number, or none): the form sends the number it
    reads, and the game ends at the end of that hand ("limit").  The form once sent the
    text "1", which the profile refused."""
    catalogue = client.get("/api/profiles").json()["profiles"]
    option = next(o for o in catalogue[2]["options"] if o["name"] == "max_hands")
    assert option["kind"] == "int"  # the page sends an "int" field as a JSON number
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "new", "profile": "cutthroat", "options": {"max_hands": "1"}})
        assert "max_hands" in until(ws, "joined")["message"]
        joined, msg = start(ws, profile="cutthroat", seed=3, autoplay="baseline",
                            options={"max_hands": 1})  # fmt: skip
        while not msg.get("over"):
            msg = until(ws, "state")
            assert msg["type"] == "state", msg
        table = hub(app).tables[joined["game"]]
        assert len(table.state.results) == 1 and binocle.end_reason(table.state) == "limit"


class _StuckBot:
    """A bot whose moves never come (until the test lets them go)."""

    name = "stuck"

    def __init__(self, seed: int | None = None) -> None:
        self.calls = 0

    def choose(self, view: Any) -> Any:
        self.calls += 1
        _RELEASE.wait(60)
        return view.legal_actions[0]


_RELEASE = threading.Event()


def test_a_bot_too_slow_to_move_loses_its_seat_to_the_baseline_bot() -> None:
    """``Limits.bot_seconds``: a bot that has not chosen its move in time is replaced for
    the rest of the game by the baseline bot, which makes the move; the players are told,
    the seat's name and the stored bot follow, and the game goes on to its end."""
    _RELEASE.clear()
    app = served_app(bots=["baseline", _StuckBot], limits=web_app.Limits(bot_seconds=0.3))
    try:
        with testclient.TestClient(app) as client, client.websocket_connect("/ws") as ws:
            joined, msg = start(ws, profile="cutthroat", seed=3, autoplay="baseline",
                                opponents=["stuck", "baseline"], options={"max_hands": 1})  # fmt: skip
            told = []
            while not msg.get("over"):
                msg = ws.receive_json()
                if msg["type"] == "error":
                    told.append(msg["message"])
                else:
                    assert msg["type"] in ("state", "table"), msg
            table = hub(app).tables[joined["game"]]
            assert told == [
                "stuck 1 did not choose a move within 0.3 s: the baseline bot plays seat 1"
                " for the rest of the game"
            ]
            assert table.bot_names[1] == "baseline" and table.names[1] == "baseline 1"
            assert protocol.table_doc(table)["bots"]["1"] == "baseline"
            assert binocle.is_over(table.state)
            assert binocle.replay(binocle.record(table.state)) == table.state
    finally:
        _RELEASE.set()


def test_the_bot_time_limit_is_a_positive_number_of_seconds_or_none() -> None:
    assert web_app.Limits(bot_seconds=None).bot_seconds is None
    for bad in (0, -1, float("nan"), float("inf"), 10**400, True, "5"):
        with pytest.raises(binocle.errors.InvalidArgumentError, match="bot_seconds"):
            web_app.Limits(bot_seconds=bad)  # type: ignore[arg-type]


# -- bad messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('"text"', "JSON object"),
        ("{}", "unknown message type"),
        ('{"type": "teleport"}', "unknown message type 'teleport'"),
        ('{"type": 7}', "unknown message type 'int'"),
        ('{"type": "action", "action": "pass"}', "start a game"),
        ('{"type": "knock"}', "start a game"),
        ('{"type": "deal"}', "start a game"),
        ('{"type": "record"}', "start a game"),
        ('{"type": "join", "game": "nope", "token": "x"}', "no such game"),
        ('{"type": "join"}', "no such game"),
        ('{"type": "new", "profile": "nope"}', "unknown profile"),
        ('{"type": "new", "profile": 5}', "'profile' must be text"),
        ('{"type": "new", "options": {"min_bid": -5}}', "min_bid"),
        ('{"type": "new", "options": {"nope": 1}}', "unknown option 'nope'"),
        ('{"type": "new", "options": {"min_bid": [1]}}', "a value is"),
        ('{"type": "new", "options": []}', "'options' must be an object"),
        ('{"type": "new", "seat": 3}', "'seat' is 0..2"),
        ('{"type": "new", "seat": true}', "not a boolean"),
        ('{"type": "new", "opponents": ["baseline"]}', "needs 2 opponents"),
        ('{"type": "new", "opponents": ["baseline", "god"]}', "unknown bot 'god'"),
        ('{"type": "new", "opponents": ["baseline", 3]}', "unknown bot '3'"),
        ('{"type": "new", "seed": -1}', "'seed'"),
        ('{"type": "new", "seed": 1.5}', "'seed' must be a whole number"),
        ('{"type": "new", "bot_delay": 99}', "'bot_delay'"),
        ('{"type": "new", "autoplay": "god"}', "unknown bot 'god'"),
        ('{"type": "replay"}', "needs 'record'"),
        ('{"type": "replay", "record": "{"}', "JSON"),
        ('{"type": "replay", "record": {"format": "other"}}', "format"),
        ('{"type": "' + "x" * 5000 + '"}', "unknown message type"),
        ("[" * 100_000, "not JSON"),
        ('{"type": "ping", "type": "new"}', "ambiguous JSON: the key 'type' appears twice"),
    ],
)
def test_a_bad_message_gets_an_error_and_the_connection_stays_up(
    client: Any, raw: str, says: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(raw)
        reply = ws.receive_json()
        assert reply["type"] == "error"
        assert says in reply["message"], reply["message"]
        assert len(reply["message"]) <= 500
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_binary_frames_and_oversized_messages_are_refused(client: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_bytes(b"\x00\x01")
        assert "JSON text" in ws.receive_json()["message"]
        ws.send_text(" " * (web_app.MAX_MESSAGE + 1))
        assert "too long" in ws.receive_json()["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# -- playing ---------------------------------------------------------------------------------


def test_an_illegal_action_is_refused_with_the_engines_reason_and_changes_nothing(
    client: Any, app: Any
) -> None:
    """Cutthroat rules, Bidding: a bid must be higher than the last."""
    with client.websocket_connect("/ws") as ws:
        joined, msg = start(ws, profile="cutthroat", seat=1, seed=7, opponents=["random", "random"])
        table = hub(app).tables[joined["game"]]
        msg = settle(ws, app, joined["game"], msg)
        assert msg["view"]["current_player"] == 1
        before = table.state
        too_low = f"bid {table.state.profile.min_bid - 10}"
        with pytest.raises(binocle.IllegalActionError) as engine:
            binocle.apply(before, too_low)
        ws.send_json({"type": "action", "action": too_low})
        reply = until(ws, "state")
        assert reply == {"type": "error", "message": str(engine.value)}
        assert table.state is before
        ws.send_json({"type": "action", "action": "bid 250 please"})
        assert until(ws, "state")["type"] == "error"
        ws.send_json({"type": "action", "action": 250})
        assert "'action' must be text" in until(ws, "state")["message"]
        assert table.state is before
        legal = [a["text"] for a in msg["controls"]["actions"]]
        assert legal == [str(a) for a in binocle.legal_actions(before)]
        ws.send_json({"type": "action", "action": legal[0]})
        after = until(ws, "state")
        assert after["type"] == "state" and table.state is not before


def test_actions_for_another_seat_and_untimely_deals_are_refused(client: Any, app: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        joined, msg = start(ws, profile="classic", seat=0, seed=3, opponents=["baseline"])
        table = hub(app).tables[joined["game"]]
        msg = settle(ws, app, joined["game"], msg)
        before = table.state
        ws.send_json({"type": "deal"})
        assert "no deal is due" in until(ws, "state")["message"]
        ws.send_json({"type": "action", "action": "claim 1"})
        reply = until(ws, "state")
        assert reply["type"] == "error"
        ws.send_json({"type": "action", "action": "deal " + " ".join(["AS"] * 48)})
        assert until(ws, "state")["type"] == "error"
        assert table.state is before
        if msg["view"]["current_player"] != 0:  # a bot is to act: the person may not act for it
            ws.send_json({"type": "action", "action": "pass"})
            assert "not your turn" in until(ws, "state")["message"]


def test_every_profile_plays_to_the_end_through_the_websocket(client: Any, app: Any) -> None:
    """A whole game: the person's moves, the bots', the deals after each score sheet."""
    for profile in PROFILES:
        with client.websocket_connect("/ws") as ws:
            joined, msg = start(ws, profile=profile, seat=0, seed=11)
            table = hub(app).tables[joined["game"]]
            sheets = 0
            for _ in range(20_000):
                if msg.get("over"):
                    break
                if table.bot_to_act() is None and protocol.state_message(table) == msg:
                    move = choose(msg["controls"])
                    assert move is not None, msg["controls"]
                    sheets += move["type"] == "deal"
                    ws.send_json(move)
                msg = until(ws, "state")
                assert msg["type"] == "state", msg
            assert msg["over"] is not None and binocle.is_over(table.state)
            assert msg["over"]["winner"] == binocle.winner(table.state)
            assert msg["view"]["scores"] == list(binocle.score(table.state))
            assert (
                sheets == len(table.state.results) - 1
                or table.state.results[-1].outcome != "played"
            )
            ws.send_json({"type": "record"})
            rec = until(ws, "record")["record"]
            assert binocle.replay(rec) == table.state
            assert rec["seats"][0] == "you"


def test_a_client_that_disconnects_mid_game_reconnects_to_its_game(client: Any, app: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        joined, msg = start(ws, profile="three-handed", seat=2, seed=5)
        msg = settle(ws, app, joined["game"], msg)
        move = choose(msg["controls"])
        assert move is not None
        ws.send_json(move)
        until(ws, "state")
    table = hub(app).tables[joined["game"]]
    assert hub(app).clients[table.id] == set()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "game": joined["game"], "token": "wrong"})
        assert "wrong token" in until(ws, "joined")["message"]
        ws.send_json({"type": "join", "game": joined["game"], "token": joined["token"]})
        again = until(ws, "joined")
        assert again["type"] == "joined" and again["seat"] == 2
        msg = settle(ws, app, joined["game"], until(ws, "state"))
        assert msg["view"]["seat"] == 2
        assert msg["view"]["hand"] == [str(c) for c in table.state.hands[2]]
        move = choose(msg["controls"])
        assert move is not None
        ws.send_json(move)
        assert until(ws, "state")["type"] == "state"


def test_the_record_is_refused_before_the_end_and_the_replay_viewer_reads_one(
    client: Any, app: Any
) -> None:
    state = binocle.bots.play_game("cutthroat", seed=4)
    rec = binocle.record(state)
    with client.websocket_connect("/ws") as ws:
        start(ws, profile="cutthroat", seat=0, seed=2)
        ws.send_json({"type": "record"})
        assert "when the game is over" in until(ws, "record")["message"]
        ws.send_json({"type": "replay", "record": json.dumps(rec)})
        replay = until(ws, "replay")
        assert replay["type"] == "replay"
        frames = replay["frames"]
        assert len(frames) == len(rec["actions"]) + 1
        assert frames[-1]["scores"] == list(state.scores)
        assert frames[1]["action"] == "deal" and frames[2]["action"] == rec["actions"][1]["action"]
        assert frames[-1]["hands"] == [[str(c) for c in h] for h in state.hands]
        broken = dict(rec, actions=rec["actions"][:5] + [{"seat": 0, "action": "play ZZ"}])
        ws.send_json({"type": "replay", "record": broken})
        assert until(ws, "replay")["type"] == "error"


def test_the_person_may_knock_when_a_claim_is_open(client: Any, app: Any) -> None:
    """Classic rules, Claiming (knocking): a knock is a claim; a wrong one loses the game."""
    with client.websocket_connect("/ws") as ws:
        joined, msg = start(ws, profile="classic", seat=0, seed=8)
        table = hub(app).tables[joined["game"]]
        for _ in range(2000):
            msg = settle(ws, app, joined["game"], msg)
            if msg["controls"]["knock"]:
                break
            move = choose(msg["controls"])
            assert move is not None
            ws.send_json(move)
            msg = until(ws, "state")
        assert 0 in binocle.claimants(table.state)
        ws.send_json({"type": "knock"})
        msg = until(ws, "state")
        assert msg["type"] == "state" and binocle.is_over(table.state)
        assert msg["over"]["winner"] == binocle.winner(table.state)
        ws.send_json({"type": "knock"})
        assert "no claim is possible" in until(ws, "state")["message"]


def test_unplayable_cards_carry_the_engines_reason() -> None:
    """Three-handed rules, Play: a player must follow suit; the page shows why a card is not."""
    table = protocol.new_table({"profile": "three-handed", "seat": 0, "seed": 21})
    for _ in range(5000):
        s = table.state
        if s.current_player == 0 and s.trick:
            legal = binocle.legal_actions(s)
            reasons = protocol.controls(table)["unplayable"]
            if reasons:
                for card, reason in reasons.items():
                    with pytest.raises(binocle.IllegalActionError) as exc:
                        binocle.apply(s, f"play {card}")
                    assert reason == str(exc.value)
                    assert all(str(a.card) != card for a in legal)
                return
        nxt = table.bot_to_act()
        if nxt is None and s.current_player == 0:
            table.apply(binocle.legal_actions(s)[0])
        elif nxt is None:
            protocol.handle_deal(table)
        else:
            table.apply(protocol.bot_action(s, *nxt))
    raise AssertionError("no trick in which a card was unplayable")


# -- no leaks ----------------------------------------------------------------------------------


def _cards(value: Any) -> Counter[str]:
    return Counter(CARD_TEXT.findall(json.dumps(value)))


def check_no_leak(state: Any, seat: int, msg: dict[str, Any]) -> None:
    """``msg`` carries nothing the seat's view does not: its view part is the engine's view
    of that seat (no card in it more often than in the view), its controls are the view's
    legal actions, and the reasons given for unplayable cards name only cards the seat
    can see."""
    view = binocle.observe(state, seat)
    seen = _cards(binocle.serial.encode(view))
    assert set(msg) == {
        "type", "game", "step", "seating", "names", "view", "narration", "controls", "table", "over"
    }  # fmt: skip
    assert msg["view"] == protocol.view_json(view)
    # The narration of this hand (binocle.narrate.narrate, with suit symbols) names no
    # card hidden from the seat now: in another hand and nowhere in the seat's view.
    hand = msg["narration"]
    starts = [i for i, line in enumerate(hand) if line.startswith("Hand ")]
    hand = hand[starts[-1] :] if starts else hand
    told = {str(binocle.parse_card(c)) for c in SYMBOL_CARD.findall(" ".join(hand))}
    others = {str(c) for p, h in enumerate(state.hands) if p != seat for c in h}
    assert not told & (others - set(seen)), told & (others - set(seen))
    assert not _cards(msg["view"]) - seen, _cards(msg["view"]) - seen
    # The table in words names no card hidden from the seat (letters or symbols).
    words = json.dumps(msg["table"], ensure_ascii=False)
    named = set(CARD_TEXT.findall(words))
    named |= {str(binocle.parse_card(c)) for c in SYMBOL_CARD.findall(words)}
    assert not named & (others - set(seen)), named & (others - set(seen))
    controls = msg["controls"]
    assert set(controls) == {"actions", "unplayable", "knock", "deal"}
    assert [a["text"] for a in controls["actions"]] in (
        [],
        [str(a) for a in view.legal_actions if a.kind is not binocle.Kind.DEAL],
    )
    for card, reason in controls["unplayable"].items():
        assert card in {str(c) for c in view.hand}
        assert set(_cards(reason)) <= set(seen)
    assert msg["over"] is None or set(msg["over"]) == {"winner", "scores", "reason"}


@pytest.mark.parametrize("profile", PROFILES)
def test_no_card_hidden_from_the_seat_ever_crosses_the_wire(
    client: Any, app: Any, monkeypatch: pytest.MonkeyPatch, profile: str
) -> None:
    """Every message the server sends a seat, in bot-only games, shows no card that seat's
    view does not show: the cards in the others' hands, the stock, an unseen widow and the
    next deal stay on the server."""
    sent: list[tuple[Any, int, dict[str, Any]]] = []
    original = protocol.state_message

    def spy(table: protocol.Table, seat: int | None = None) -> dict[str, Any]:
        msg = original(table, seat)
        sent.append((table.state, table.seat if seat is None else seat, msg))
        return msg

    monkeypatch.setattr(protocol, "state_message", spy)
    received: list[dict[str, Any]] = []
    for game in range(3):
        seat = game % binocle.profile(profile).players
        with client.websocket_connect("/ws") as ws:
            joined, msg = start(
                ws, profile=profile, seat=seat, seed=100 + game, autoplay="baseline"
            )
            received += [joined, msg]
            while not msg.get("over"):
                msg = until(ws, "state")
                assert msg["type"] == "state", msg
                received.append(msg)
    assert len(sent) > 300
    hidden_somewhere = 0
    for state, seat, msg in sent:
        check_no_leak(state, seat, msg)
        if state.phase is not Phase.OVER:
            others = {str(c) for p, h in enumerate(state.hands) if p != seat for c in h}
            hidden_somewhere += bool(others - set(_cards(msg)))
    # Most messages are sent while other hands hold cards this seat cannot see.
    assert hidden_somewhere > len(sent) // 2
    # What the client received is what was built and checked.
    built = [json.dumps(m, sort_keys=True) for _, _, m in sent]
    wire = [json.dumps(m, sort_keys=True) for m in received if m["type"] == "state"]
    assert set(wire) <= set(built)


def test_the_leak_check_catches_a_leak() -> None:
    """The check above is not empty: a message that also carried the next deal fails it."""
    state = binocle.new_game("classic", seed=3)
    while state.current_player is not None:  # to the end of the first hand
        calm = [a for a in binocle.legal_actions(state) if a.kind is not binocle.Kind.CLAIM]
        state = binocle.apply(state, calm[0])
    table = protocol.new_table({"profile": "classic", "seed": 3})
    table.state = state
    msg = protocol.state_message(table)
    check_no_leak(state, 0, msg)
    leaky = dict(
        msg, view=dict(msg["view"], log=[*msg["view"]["log"], str(binocle.legal_actions(state)[0])])
    )
    with pytest.raises(AssertionError):
        check_no_leak(state, 0, leaky)
    table.state = mid = binocle.new_game("classic", seed=3)
    msg = protocol.state_message(table)
    check_no_leak(mid, 0, msg)
    other = dict(msg, view=dict(msg["view"], hand=[str(c) for c in mid.hands[1]]))
    with pytest.raises(AssertionError):
        check_no_leak(mid, 0, other)
    with pytest.raises(AssertionError):
        check_no_leak(mid, 0, dict(msg, extra=[str(c) for c in mid.hands[1]]))


def test_binocle_serve_prints_its_address_and_serves_the_page() -> None:
    """``binocle serve --host --port``: the address is printed and the page is served there."""
    import subprocess
    import sys
    import urllib.request

    from web_support import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "binocle", "serve", "--port", str(port), "--db", ":memory:"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert b"<title>binocle" in r.read()
                break
            except OSError:
                import time

                time.sleep(0.05)
        else:
            raise AssertionError("binocle serve did not answer")
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_binocle_serve_refuses_a_bad_port_and_states_its_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from binocle.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "a port is 0..65535" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "127.0.0.1" in out and "8000" in out


# -- the table in words ----------------------------------------------------------------------

from binocle.web import words  # noqa: E402

#: Engine words a player should never read on the table.
RAW = re.compile(r"\b(true|false|True|False|None|null|exchanged|overlooked|payers|scored:)\b|—|: $")


def _walk(profile: str, seed: int, *, stop: Any = None, calm: bool = True) -> Any:
    """The states of a game of random moves (no knock, no concession when ``calm``),
    up to the first for which ``stop(state)`` holds, or to the end."""
    import random

    rng = random.Random(seed)
    s = binocle.new_game(profile, seed=seed)
    while True:
        yield s
        if binocle.is_over(s) or (stop is not None and stop(s)):
            return
        legal = binocle.legal_actions(s)
        quiet = [a for a in legal if a.kind not in (binocle.Kind.CLAIM, binocle.Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(quiet if calm and quiet else legal))


def _texts(table: dict[str, Any]) -> list[str]:
    out = [f["text"] for f in table["facts"]] + [f["label"] for f in table["facts"]]
    for seat in table["seats"]:
        out += seat["lines"] + seat["tags"]
    for key in ("trick_winner", "last_trick", "discard", "knock", "concede", "hand_meld"):
        if table[key]:
            out.append(table[key]["text"])
    if table["sheet"]:
        out += [table["sheet"]["summary"]] + [r["note"] for r in table["sheet"]["rows"]]
    return out


@pytest.mark.parametrize("profile", PROFILES)
def test_every_public_fact_is_in_words(profile: str) -> None:
    """The table's facts, seats and sheet are sentences: no raw engine field, no true/false,
    no dash for nothing, each phase named as a player says it."""
    names = ["you", "ann", "bob", "cat"][: binocle.profile(profile).players]
    phases = set()
    for state in _walk(profile, 4, stop=lambda s: len(s.results) >= 2):
        table = words.seat_table(state, 0, names)
        for text in _texts(table):
            assert text.strip() and not RAW.search(text), (state.phase, text)
        phase = next(f for f in table["facts"] if f["name"] == "phase")["text"]
        assert phase == words.PHASE_WORDS[state.phase.value]
        phases.add(state.phase)
    assert Phase.PLAY in phases and Phase.DEAL in phases


def test_the_bidding_is_a_row_per_player_and_a_pass_is_a_pass() -> None:
    """Cutthroat rules, Bidding: each call in its player's row, in order; a pass reads
    "pass" (the view's calls write it 0)."""
    names = ["you", "ann", "bob"]
    seen_pass = False
    for state in _walk("cutthroat", 9, stop=lambda s: s.phase is not Phase.BIDDING and s.results == ()
                       and s.phase is not Phase.DEAL):  # fmt: skip
        view = binocle.observe(state, 0)
        rows = words.seat_table(state, 0, names)["bidding"]
        if state.phase is not Phase.BIDDING and state.phase is not Phase.DISCARD:
            continue
        assert rows is not None
        calls = view.get("calls")
        for seat in range(3):
            expected = ["pass" if n == 0 else str(n) for p, n in calls if p == seat]
            assert rows[seat]["calls"] == expected and rows[seat]["name"] == names[seat]
            assert "0" not in rows[seat]["calls"]
            seen_pass |= "pass" in expected
    assert seen_pass


@pytest.mark.parametrize("profile", PROFILES)
def test_the_last_trick_and_its_winner_are_shown_in_every_profile(profile: str) -> None:
    """Common rules, Trick winner: after each trick, every seat's table shows the trick just
    taken (its cards in order) and who took it, the player who then leads (three-handed
    included, which has no last trick in its view)."""
    checked = 0
    states = list(_walk(profile, 6, stop=lambda s: bool(s.results)))
    for before, after in itertools.pairwise(states):
        full = before.trick and not after.trick and after.phase is Phase.PLAY
        if not full:
            continue
        (action, seat) = after.moves()[-1]
        trick = [[p, str(c)] for p, c in before.trick] + [[seat, str(action.card)]]
        for viewer in range(len(after.hands)):
            last = words.seat_table(after, viewer, ["a", "b", "c", "d"])["last_trick"]
            assert last is not None and last["cards"] == trick, (last, trick)
            assert last["winner"] == after.current_player
        checked += 1
    assert checked >= 5
    # At the end of the hand the last trick is still there, on the score sheet.
    end = states[-1]
    sheet = words.seat_table(end, 0, ["a", "b", "c", "d"])["sheet"]
    assert sheet is not None and sheet["last_trick"] is not None


@pytest.mark.parametrize("profile", ["classic", "three-handed"])
def test_the_knock_shows_what_the_engine_would_count(profile: str) -> None:
    """Classic and three-handed rules, Claiming (knocking): a claim counts the game score,
    the meld scored this hand and the card points taken; a correct one wins, a wrong one
    loses (classic) or retires the knocker (three-handed).  The figures sent are the
    engine's, and the verdict they state is what the knock does."""
    names = ["you", "ann", "bob"]
    checked = 0
    for state in _walk(profile, 2, stop=lambda s: len(s.results) >= 1):
        if 0 not in binocle.claimants(state):
            assert words.seat_table(state, 0, names)["knock"] is None
            continue
        knock = words.seat_table(state, 0, names)["knock"]
        view = binocle.observe(state, 0)
        assert knock["total"] == view.get("claim_totals")[0]
        assert knock["target"] == view.get("targets")[0]
        assert knock["text"].startswith(f"You have {knock['total']} ")
        assert str(knock["target"]) in knock["text"]
        after = binocle.apply(state, "claim 0")
        assert knock["correct"] == (binocle.winner(after) == 0)
        assert knock["danger"] is not knock["correct"]  # shown as dangerous when it loses
        if not knock["correct"]:
            says = "loses the game" if profile == "classic" else "retires you"
            assert says in knock["text"]
        checked += 1
    assert checked > 10


def test_the_knock_figures_travel_in_the_state_message(client: Any, app: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        joined, msg = start(ws, profile="classic", seat=0, seed=8)
        msg = settle(ws, app, joined["game"], msg)
        table = hub(app).tables[joined["game"]]
        assert msg["controls"]["knock"] == (0 in binocle.claimants(table.state))
        if msg["controls"]["knock"]:
            assert (
                msg["table"]["knock"]["total"]
                == binocle.observe(table.state, 0).get("claim_totals")[0]
            )


def _cutthroat_to(phase: Phase, seed: int, seat_bids: bool = True) -> Any:
    """A cutthroat game in which seat 0 takes the bid at 250, up to ``phase``."""
    s = binocle.new_game("cutthroat", seed=seed)
    while s.phase is Phase.BIDDING:
        s = binocle.apply(s, "bid 250" if s.current_player == 0 and not s.bid else "pass")
    assert s.bidder == 0
    while s.phase is not phase:
        legal = binocle.legal_actions(s)
        quiet = [a for a in legal if a.kind is not binocle.Kind.CONCEDE]
        s = binocle.apply(s, quiet[0])
    return s


def test_the_widow_is_marked_in_the_bidders_hand_and_burying_is_explained() -> None:
    """Cutthroat rules, Widow, discards and trump: the bidder takes the widow (18 cards) and
    buries three; his table marks the widow's cards in his hand and says how many to bury."""
    s = _cutthroat_to(Phase.DISCARD, 5)
    table = words.seat_table(s, 0, ["you", "ann", "bob"])
    widow = [str(c) for c in binocle.observe(s, 0).get("widow")]
    assert sorted(table["widow"]) == sorted(widow) and len(s.hands[0]) == 18
    assert table["discard"]["count"] == 3 and "Bury 3 cards" in table["discard"]["text"]
    other = words.seat_table(s, 1, ["you", "ann", "bob"])
    assert other["widow"] == [] and "buries 3 cards" in other["discard"]["text"]
    s = binocle.apply(s, binocle.legal_actions(s)[0])
    assert words.seat_table(s, 0, ["you", "ann", "bob"])["discard"]["count"] == 2


def test_while_bidding_the_hand_shows_its_meld_in_each_trump() -> None:
    s = binocle.new_game("cutthroat", seed=5)
    seat = s.current_player
    table = words.seat_table(s, seat, ["a", "b", "c"])
    totals = {x["trump"]: x["total"] for x in table["hand_meld"]["by_suit"]}
    for suit in "SHDC":
        assert totals[suit] == binocle.meld(s.hands[seat], suit, "cutthroat").total
    assert table["hand_meld"]["best"] == max(totals.values())
    assert f"Your meld: {max(totals.values())} with" in table["hand_meld"]["text"]
    assert words.seat_table(s, (seat + 1) % 3, ["a", "b", "c"])["hand_meld"] is None


def test_conceding_says_what_it_costs() -> None:
    """Cutthroat rules, Giving up: the bidder loses his bid once, not the double set."""
    s = _cutthroat_to(Phase.PLAY, 5)
    assert s.current_player == 0 and "concede" in [str(a) for a in binocle.legal_actions(s)]
    concede = words.seat_table(s, 0, ["you", "ann", "bob"])["concede"]
    assert concede["cost"] == 250 and concede["set_cost"] == 500
    assert "you lose your bid, 250" in concede["text"]
    after = binocle.apply(s, "concede")
    assert after.results[-1].delta[0] == -concede["cost"]


def test_the_score_sheet_explains_a_set_and_a_forfeited_meld() -> None:
    """Cutthroat rules, Scoring a hand: a bidder short of his bid loses twice the bid and his
    meld does not count (the sheet shows the meld he had and why); an opponent who won no
    counter forfeits his meld; each row shows the progress to the target."""
    found_set = found_forfeit = False
    for seed in range(40):
        s = binocle.new_game("cutthroat", seed=seed)
        while s.phase is Phase.BIDDING:
            s = binocle.apply(s, "bid 400" if not s.bid else "pass")
        s = next(iter(_walk_from(s)))
        r = s.results[-1]
        sheet = words.seat_table(s, 0, ["you", "ann", "bob"])["sheet"]
        assert sheet is not None and sheet["hand"] == 1
        bidder = r.bidder
        if r.made is False:
            note = sheet["rows"][bidder]["note"]
            assert note.startswith("double set: meld ") and f"short of the bid {r.bid}" in note
            assert f"({r.delta[bidder]})" in note and "the meld does not count" in note
            assert sheet["rows"][bidder]["declared"] is not None
            assert "was set" in sheet["summary"]
            found_set = True
        for i in range(3):
            row = sheet["rows"][i]
            assert f"{s.scores[i]} of 1500" in row["note"]
            if i != bidder and r.meld[i] == 0 and row["declared"]:
                assert f"meld {row['declared']} forfeited" in row["note"]
                found_forfeit = True
        if found_set and found_forfeit:
            return
    raise AssertionError((found_set, found_forfeit))


def test_the_score_sheet_of_a_partnership_speaks_of_sides() -> None:
    """Partnership rules, Melds and Scoring a hand: a side's meld is its two players'
    melds, and the bid is the side's: when the bidding side is set, both partners' notes
    say so with the side's meld (never that a partner's meld was forfeited for want of a
    counter), and a side that won counters keeps its meld."""
    names = ["you", "ann", "bob", "carl"]
    found = 0
    for seed in range(60):
        s = binocle.new_game("partnership", seed=seed)
        while s.phase is Phase.BIDDING:
            s = binocle.apply(s, "bid 400" if not s.bid else "pass")
        s = next(iter(_walk_from(s)))
        r = s.results[-1]
        sheet = words.seat_table(s, 0, names)["sheet"]
        assert sheet is not None
        rows = sheet["rows"]
        side = next(side for side in s.profile.sides if r.bidder in side)
        if r.made is False and r.outcome == "played":
            meld = sum(rows[j]["declared"] or 0 for j in side)
            for j in side:
                note = rows[j]["note"]
                assert note.startswith(f"set: meld {meld} + tricks {r.tricks[j]} = "), note
                assert "forfeited" not in note, note
                assert ("your side lose" if 0 in side else "ann and carl lose") in note, note
            found += 1
        for j in range(4):
            if j not in side and r.tricks[j] > 0 and r.meld[j] > 0:
                assert "forfeited" not in rows[j]["note"]
        if found >= 3:
            return
    raise AssertionError(found)


def _walk_from(s: Any) -> Any:
    import random

    rng = random.Random(1)
    while not s.results:
        legal = binocle.legal_actions(s)
        quiet = [a for a in legal if a.kind is not binocle.Kind.CONCEDE]
        s = binocle.apply(s, rng.choice(quiet))
    yield s
