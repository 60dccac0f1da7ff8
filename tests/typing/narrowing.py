"""What a program written against binocle's public names gets from a type checker.

``tests/test_public_api.py`` runs ``mypy --strict`` on this file: it must pass with
no error, and each ``reveal_type`` must show the type written beside it
(a comment ``revealed:`` then the type).  The functions are never called.
"""

from __future__ import annotations

from typing_extensions import reveal_type

import binocle
from binocle.actions import Action, is_bid, is_discard, is_play, is_trump
from binocle.cards import Card, Rank, Suit, highest, winning_card


def card_of_a_play(a: Action) -> Card:
    """Once the kind is checked, the card is a Card, not Card | None."""
    if is_play(a):
        reveal_type(a.card)  # revealed: binocle.cards.Card
        return a.card
    if is_discard(a):
        return a.card
    raise ValueError(a)


def amount_of_a_bid(a: Action) -> int | None:
    if is_bid(a):
        reveal_type(a.number)  # revealed: int
        return a.number
    return None


def suit_named(a: Action) -> Suit | None:
    if is_trump(a):
        reveal_type(a.suit)  # revealed: binocle.cards.Suit
        return a.suit
    return None


def strength(cards: list[Card], trump: Suit | None) -> int:
    best = highest(cards, trump)
    reveal_type(best)  # revealed: binocle.cards.Card | None
    reveal_type(winning_card(cards, trump))  # revealed: binocle.cards.Card
    reveal_type(Rank.ACE.strength)  # revealed: int
    return 0 if best is None else best.rank.strength


def winner_now(state: binocle.GameState) -> int | None:
    now = binocle.current_winner(state)
    reveal_type(now)  # revealed: tuple[int, binocle.cards.Card] | None
    return None if now is None else now[0]


def widow_of(state: binocle.GameState) -> tuple[Card, ...] | None:
    """A state narrowed to its profile's class shows the profile's fields."""
    from binocle.profiles import CutthroatState

    if isinstance(state, CutthroatState):
        reveal_type(state.widow)  # revealed: tuple[binocle.cards.Card, ...]
        return state.widow
    return None


def facts_of(view: binocle.View) -> int:
    """A view's public facts, typed per profile."""
    from binocle.profiles import classic_facts, cutthroat_facts

    if view.profile.name == "cutthroat":
        facts = cutthroat_facts(view)
        reveal_type(facts["widow"])  # revealed: tuple[binocle.cards.Card, ...] | None
        return facts["discard_count"]
    return classic_facts(view)["stock_size"]


def facts_of_a_view(view: binocle.View) -> int:
    """A view's public facts are typed by name; ``default`` joins the type."""
    reveal_type(view.get("bid"))  # revealed: int | None
    # The widow is a fact of cutthroat views, None until the bidding is over.
    reveal_type(view.get("widow", ()))  # revealed: tuple[binocle.cards.Card, ...] | None
    reveal_type(view.get("no such fact"))  # revealed: object
    return len(view.get("played", ()))


def fields_of_a_record(state: binocle.GameState) -> str:
    """A record, a report and a schema are typed data, not ``Any``."""
    doc = binocle.record(state)
    reveal_type(doc["actions"][0]["seat"])  # revealed: int | None
    report = binocle.validate(doc).to_dict()
    reveal_type(report["violations"][0]["code"])  # revealed: str
    schema = binocle.schema("record")  # binocle.JSONObject: narrow to read it
    title = schema["title"]
    assert isinstance(title, str)
    reveal_type(title)  # revealed: str
    return doc["actions"][0]["action"]
