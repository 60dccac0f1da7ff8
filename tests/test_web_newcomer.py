"""The table as a newcomer reads it: the log in names and "you", knocks that say what
they do, facts that end with the game, and seats a person may leave or the table's
maker hand to a bot."""

from __future__ import annotations

import re
from typing import Any

import binocle
from web_support import choose, require

require("starlette")
require("httpx")
testclient = require("starlette.testclient")

from binocle.web import app as web_app  # noqa: E402
from binocle.web import protocol, words  # noqa: E402


def _two_people(seed: int = 1) -> protocol.Table:
    table = protocol.person_seats_table(
        {"profile": "classic", "seats": ["person", "person"], "name": "Ann", "seed": seed}
    )
    table.taken[1] = "Bob"
    table.names = ("Ann", "Bob")
    table.started = True
    return table


def test_the_log_speaks_in_names_and_you() -> None:
    """A whole classic hand told to seat 0: no line names a seat by number; each trick
    says who played what and who takes it; "you" takes the verbs "you" takes."""
    table = _two_people()
    while not table.state.results:
        table.apply(binocle.legal_actions(table.state)[0])
    lines = protocol.state_message(table, 0)["narration"]
    assert lines and not any(re.search(r"\bseat \d", line) for line in lines), lines
    tricks = [line for line in lines if "the trick" in line]
    assert len(tricks) >= 12
    assert all(("Bob plays" in t or "Bob play " not in t) and "you play" in t for t in tricks)
    assert any(line.strip().startswith("you announce") for line in lines)
    assert not any(re.search(r"\byou (announces|draws|takes|plays|wins)\b", x) for x in lines)
    bob = protocol.state_message(table, 1)["narration"]
    assert any("Ann plays" in line for line in bob) and any("you play" in line for line in bob)


def test_in_names_conjugates_and_keeps_other_lines() -> None:
    lines = ["  trick 1:K♠  0:A♠  → seat 0", "  seat 1 bids 250", "Hand 2: seat 0 deals",
             "  seat 0 (you): ♠ A K", "no seat here"]  # fmt: skip
    assert words.in_names(lines, ["Ann", "Bob"], 0) == [
        "  Bob plays K♠, you play A♠: you take the trick", "  Bob bids 250",
        "Hand 2: you deal", "  you: ♠ A K", "no seat here",
    ]  # fmt: skip


def test_a_knock_that_can_only_lose_is_marked_dangerous_in_plain_words() -> None:
    """At 0 of 1000 a knock can only lose: the table says so in words and marks it
    dangerous (before: "a knock counts 0 of 1000", shown as any button)."""
    table = _two_people()
    while 0 not in binocle.claimants(table.state):
        table.apply(binocle.legal_actions(table.state)[0])
    msg = protocol.state_message(table, 0)
    knock = msg["table"]["knock"]
    assert knock["danger"] is True and knock["correct"] is False
    assert "points needed to win" in knock["text"] and "loses the game" in knock["text"]
    # Each seat's panel says what a knock would count in words (before: "toward a
    # knock: 12 of 1000").
    lines = [line for seat in msg["table"]["seats"] for line in seat["lines"]]
    assert any(re.fullmatch(r"a knock now would count \d+ of the 1000 needed", x) for x in lines)
    assert not any("toward a knock" in x for x in lines)


def test_the_facts_follow_the_game_to_its_end() -> None:
    """Once the game is over the table names no dealer and no trump (before: "Trump: not
    named yet" and "Dealer: you" stayed after the game)."""
    table = protocol.new_table({"profile": "cutthroat", "seed": 2, "autoplay": "random",
                                "options": {"max_hands": 1}})  # fmt: skip
    while table.state.phase is not binocle.Phase.OVER:
        table.apply(protocol.bot_action(table.state, *(table.bot_to_act() or (None, None))))
    facts = {f["name"]: f["text"] for f in protocol.state_message(table, 0)["table"]["facts"]}
    assert "dealer" not in facts and "trump" not in facts
    assert facts["phase"] == words.PHASE_WORDS["over"]


def _read(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(10_000):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in (kind, "error"):
            return msg
    raise AssertionError(kind)


def test_a_person_leaves_and_the_maker_hands_an_absent_person_to_a_bot() -> None:
    """Bob leaves his seat mid-game: a bot takes it, his link stops working, the game
    goes on.  Carl's page closes; the maker (Ann) hands Carl's seat to a bot.  Only the
    maker may, and only for an absent person; the maker's own seat stays his."""
    app = web_app.create_app(allowed_hosts=("testserver",))
    hub = app.state.hub
    with (
        testclient.TestClient(app) as client,
        client.websocket_connect("/ws") as ann,
        client.websocket_connect("/ws") as bob,
    ):
        ann.send_json({"type": "table", "profile": "cutthroat", "seats": ["person"] * 3,
                       "name": "Ann", "seed": 9, "bot_delay": 0})  # fmt: skip
        links = _read(ann, "links")
        tokens = links["tokens"]
        bob.send_json({"type": "join", "game": links["game"], "token": tokens["1"],
                       "name": "Bob"})  # fmt: skip
        assert _read(bob, "joined")["seat"] == 1
        game = hub.tables[links["game"]]
        with client.websocket_connect("/ws") as carl:
            carl.send_json({"type": "join", "game": game.id, "token": tokens["2"], "name": "Carl"})
            assert _read(carl, "joined")["seat"] == 2
            ann.send_json({"type": "replace", "seat": 2, "bot": "random"})
            assert "absent" in _read(ann, "error")["message"]
            bob.send_json({"type": "replace", "seat": 2})
            assert "maker" in _read(bob, "error")["message"]
        ann.send_json({"type": "start"})
        started = _read(ann, "state")
        bob.send_json({"type": "leave", "bot": "random"})
        left = _read(bob, "left")
        assert left == {"type": "left", "game": game.id, "seat": 1, "bot": "random"}
        # The others are told at once, with a new seating: before, the state of the
        # same step was dropped as one already sent, and a page showed the old name
        # until the next move.  (The new bot may move first: then that state tells it.)
        told = _read(ann, "state")
        assert told["seating"] > started["seating"] and told["names"][1] == "random 1"
        assert told["step"] in (started["step"], started["step"] + 1)
        assert 1 in game.bots and 1 not in game.tokens and game.names[1] == "random 1"
        ann.send_json({"type": "replace", "seat": 2, "bot": "random"})
        msg = _read(ann, "state")
        while msg.get("names") != ["Ann", "random 1", "random 2"]:
            msg = _read(ann, "state")
        assert 2 in game.bots and set(game.tokens) == {0}
        ann.send_json({"type": "leave"})
        while (reply := ann.receive_json())["type"] != "error":
            if reply["type"] == "state":
                msg = reply  # the newest state: the bots may have moved meanwhile
        assert "stays yours" in reply["message"]
        steps = game.steps
        for _ in range(30):  # the game goes on with the bots
            move = choose(msg["controls"])
            if move is not None:
                ann.send_json(move)
            msg = _read(ann, "state")
        assert game.steps > steps
        bob.send_json({"type": "join", "game": game.id, "token": tokens["1"]})
        assert "wrong token" in _read(bob, "error")["message"]


def test_two_people_asking_for_the_same_deal_get_one_and_no_error() -> None:
    """Both people are offered the next deal and both ask for it (the page sends the step
    that offered it): the hand is dealt once, and the later ask is dropped without an
    error (before: "no deal is due: the hand is in progress")."""
    app = web_app.create_app(allowed_hosts=("testserver",))
    hub = app.state.hub
    with (
        testclient.TestClient(app) as client,
        client.websocket_connect("/ws") as ann,
        client.websocket_connect("/ws") as bob,
    ):
        ann.send_json({"type": "table", "profile": "classic", "seats": ["person", "person"],
                       "name": "Ann", "seed": 3, "bot_delay": 0})  # fmt: skip
        links = _read(ann, "links")
        bob.send_json({"type": "join", "game": links["game"], "token": links["tokens"]["1"]})
        _read(bob, "joined")
        ann.send_json({"type": "start"})
        _read(ann, "state")
        table = hub.tables[links["game"]]
        sockets = {0: ann, 1: bob}
        while table.state.current_player is not None:
            seat = table.state.current_player
            steps = table.steps
            move = choose(protocol.controls(table, seat))
            assert move is not None
            sockets[seat].send_json(move)
            while table.steps == steps:
                assert _read(sockets[seat], "state")["type"] == "state"
        offered = table.steps
        hand = table.state.hand_number
        ann.send_json({"type": "deal", "step": offered})
        bob.send_json({"type": "deal", "step": offered})
        bob.send_json({"type": "ping"})
        msg = bob.receive_json()
        while msg["type"] != "pong":
            assert msg["type"] != "error", msg
            msg = bob.receive_json()
        assert table.state.hand_number == hand + 1 and table.steps == offered + 1
