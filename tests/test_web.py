"""The web front end's server: every message type, bad input, reconnection, and no leaks.

The server holds each game as an immutable state and sends a client only its
seat's view ("Building a front end"); every client message is validated, a bad
one gets an ``error`` reply and the connection stays up, and an illegal action
is refused with the engine's reason and changes nothing.
"""

from __future__ import annotations

import json
import re
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


@pytest.fixture
def app() -> Any:
    return web_app.create_app()


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
    assert set(msg) == {"type", "game", "step", "names", "view", "narration", "controls", "over"}
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
