"""Tools for testing the engine and programs built on it (layer 4).

:func:`check_consistency` plays random games and checks the engine's
invariants at every step; :func:`perft` counts legal action sequences to a
depth, so any change in legality shows up as a changed number.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator
from typing import Any

import attrs

from binocle.actions import (
    BUNCH,
    CLAIM,
    CLAIM_OVERLOOKED,
    CONCEDE,
    DIX,
    MELD,
    PASS,
    Action,
    Kind,
    bid,
    claim,
    declare,
    discard,
    play,
    trump,
)
from binocle.cards import CARDS, Suit
from binocle.core import GameState, Phase
from binocle.errors import (
    IllegalActionError,
    InvalidArgumentError,
    RuleCode,
    excerpt,
    is_finite,
    is_whole,
)
from binocle.game import (
    apply,
    claimants,
    end_reason,
    is_over,
    legal_actions,
    new_game,
    observe,
    parse_action,
)
from binocle.profiles import get_profile
from binocle.serial import dumps, loads

__all__ = ["ConsistencyError", "Report", "check_consistency", "check_state", "perft"]


class ConsistencyError(AssertionError):
    """An invariant of the engine does not hold; the message says which and where."""


@attrs.frozen
class Report:
    """What :func:`check_consistency` played and checked (``knocks``: knocks by a
    seat that was not the player to act)."""

    games: int
    hands: int
    actions: int
    illegal_tried: int
    knocks: int = 0


def _refused_seat(state: GameState, action: Action) -> int | None:
    """The seat a refusal of ``action`` names: the seat a knock names (None where it
    names none of the table's), none for a deal, else the player to act."""
    if action.kind is Kind.CLAIM and action.number is not None:
        n = action.number
        return n if 0 <= n < len(state.hands) else None
    if action.kind is Kind.DEAL:
        return None
    return state.current_player


def _candidates(state: GameState, rng: random.Random) -> Iterator[Action]:
    """Actions of every kind, most of them illegal in ``state``."""
    c = CARDS[rng.randrange(32)]
    yield play(c)
    yield play(c, "table")
    yield discard(c)
    yield Action(Kind.GIVE, card=c)
    yield bid(rng.choice((0, 10, 240, 250, 255, 260, 300, 1000, 99990)))
    yield trump(rng.choice(list(Suit)))
    yield from (PASS, DIX, MELD, CLAIM, CLAIM_OVERLOOKED, CONCEDE, BUNCH)
    yield declare("marriage", (CARDS[2], CARDS[3]))
    yield Action(Kind.DEAL, cards=(c,) * 48)
    yield from (claim(seat) for seat in range(len(state.hands) + 1))


def check_state(state: GameState) -> None:
    """Check one state's own invariants; raise ConsistencyError if one fails."""

    def fail(message: str) -> None:
        raise ConsistencyError(f"{message} (hand {state.hand_number}, phase {state.phase.value})")

    legal = legal_actions(state)
    if state.phase is Phase.OVER:
        if legal:
            fail("legal actions after the game is over")
    elif not legal:
        fail("no legal action before the game is over")
    if len(set(legal)) != len(legal):
        fail("legal actions repeat")
    if state.profile.legal_actions(state) != legal:
        fail("legal actions are not deterministic")
    # Hands are kept sorted: the engine finds a card in a hand by bisection (a
    # profile's own piles of a hand are its check's, as classic's concealed cards).
    for seat, hand in enumerate(state.hands):
        if list(hand) != sorted(hand):
            fail(f"seat {seat}'s hand is not sorted: {' '.join(map(str, hand))}")
    try:
        state.profile.check(state)
    except Exception as exc:
        fail(f"cards not accounted for: {exc}")
    total = tuple(sum(r.delta[i] for r in state.results) for i in range(len(state.scores)))
    if total != state.scores:
        fail(f"scores {state.scores} are not the sum of the hands' deltas {total}")
    for a in legal:
        if a.kind is Kind.DEAL:
            continue
        text = str(a)
        if parse_action(state, text) != a:
            fail(f"action text does not read back: {text!r}")
    if copy.copy(state) is not state or copy.deepcopy(state) is not state:
        fail("copying an immutable state made a new object")
    knockers = claimants(state)
    if list(knockers) != sorted(set(knockers)) or not set(knockers) <= set(range(len(state.hands))):
        fail(f"claimants {knockers} are not distinct seats in seat order")
    current = state.current_player
    if (current is not None and current in knockers) != (CLAIM in legal):
        fail(
            "the player to act may knock, but claim is not among his legal actions, or the reverse"
        )
    if (end_reason(state) is None) != (not is_over(state)):
        fail(f"end_reason {end_reason(state)!r} does not say whether the game is over")
    for seat in range(len(state.hands)):
        view = observe(state, seat)
        if view.hand != state.hands[seat]:
            fail(f"seat {seat}'s view shows another hand")
        if seat == state.current_player and view.legal_actions != legal:
            fail("the view of the player to act lists other legal actions")
        if view.claimants != knockers:
            fail(f"seat {seat}'s view gives other claimants than binocle.claimants")


def check_consistency(
    profile: Any = "cutthroat",
    games: int = 5,
    seed: int = 0,
    *,
    max_hands: int = 4,
    illegal_per_step: int = 2,
    json_every: int = 25,
    claim_rate: float = 0.01,
) -> Report:
    """Play random games and check every invariant at every step.

    Checked: legal actions non-empty until the game is over, unique and
    deterministic; every illegal action tried is refused with
    IllegalActionError, naming a rule code, the action and the seat that tried
    it, and leaves the state unchanged (knocks of seats that may not knock
    included); action texts read back;
    JSON round trips (every ``json_every`` steps and at every hand's end);
    every card is accounted for; a played hand distributes exactly 250 trick
    points (counted once a side where partners share one); scores are the sum of the hands' deltas; pickling and copying keep
    the value; the claimants are the same in every view, and the player to act
    is among them exactly when ``claim`` is legal.  Games are played with the
    profile option ``max_hands`` (at most ``max_hands``), so each ends, by the
    rules or by the limit.  Claims and concessions, which end a hand at once,
    are chosen with probability ``claim_rate``: a knock from any seat that may
    knock, the player to act or another.

    ``games``, ``illegal_per_step`` are whole numbers from 0, ``max_hands`` and
    ``json_every`` from 1, ``seed`` any whole number and ``claim_rate`` a number
    from 0 to 1; anything else raises :class:`~binocle.InvalidArgumentError`.
    """
    for what, value, least in (
        ("games", games, 0), ("illegal_per_step", illegal_per_step, 0),
        ("max_hands", max_hands, 1), ("json_every", json_every, 1), ("seed", seed, None),
    ):  # fmt: skip
        if not is_whole(value) or (least is not None and value < least):
            bound = "" if least is None else f" from {least}"
            raise InvalidArgumentError(f"{what} is a whole number{bound}, not {excerpt(value)}")
    if not is_finite(claim_rate) or not 0 <= claim_rate <= 1:
        raise InvalidArgumentError(f"claim_rate is a number from 0 to 1, not {excerpt(claim_rate)}")
    rng = random.Random(seed)
    hands = actions = tried = knocked = 0
    p = get_profile(profile)
    if p.max_hands is None or p.max_hands > max_hands:
        p = get_profile(p, max_hands=max_hands)
    for g in range(games):
        s = new_game(p, seed=seed * 1000 + g, dealer=g % p.players)
        step = 0
        while True:
            check_state(s)
            if s.phase is Phase.OVER:
                if end_reason(s) is None:
                    raise ConsistencyError(f"game {g} is over, yet end_reason says nothing")
                break
            legal = legal_actions(s)
            before_json = dumps(s)
            before_hash = hash(s)
            knockers = claimants(s)
            illegal = [
                a
                for a in _candidates(s, rng)
                if a not in legal and not (a.kind is Kind.CLAIM and a.number in knockers)
            ]
            for cand in rng.sample(illegal, min(illegal_per_step, len(illegal))):
                tried += 1
                try:
                    apply(s, cand)
                except IllegalActionError as exc:
                    if not str(exc):
                        raise ConsistencyError(f"refusal of {cand} gives no reason") from None
                    if not isinstance(exc.rule, RuleCode) or exc.action != cand:
                        raise ConsistencyError(
                            f"refusal of {cand} gives rule {exc.rule!r}, action {exc.action!r}"
                        ) from None
                    if exc.seat != _refused_seat(s, cand):
                        raise ConsistencyError(
                            f"refusal of {cand} names seat {exc.seat}, not {_refused_seat(s, cand)}"
                        ) from None
                else:
                    raise ConsistencyError(f"illegal action {cand} was accepted (game {g})")
            if dumps(s) != before_json or hash(s) != before_hash:
                raise ConsistencyError("a refused action changed the state")
            ordinary = [a for a in legal if a.kind not in _SUDDEN]
            if ordinary and rng.random() >= claim_rate:
                action = rng.choice(ordinary)
            else:
                knocks = [claim(i) for i in knockers if i != s.current_player]
                action = rng.choice([*legal, *knocks])
            after = apply(s, action)
            actions += 1
            step += 1
            if dumps(s) != before_json:
                raise ConsistencyError("apply changed the state it was given")
            if action.kind is Kind.CLAIM:
                knocker = s.current_player if action.number is None else action.number
                if after.moves()[-1][1] != knocker:
                    raise ConsistencyError("the history does not give the knocker as the actor")
                knocked += knocker != s.current_player
            if len(after.results) > len(s.results):
                hands += 1
                r = after.results[-1]
                # Partners show their side's figure: one seat a side counts.
                dealt = sum(r.tricks[side[0]] for side in p.sides)
                if r.outcome == "played" and dealt != 250:
                    raise ConsistencyError(f"a played hand distributed {dealt} trick points")
            if step % json_every == 0 or len(after.results) > len(s.results):
                text = dumps(after)
                back = loads(text)
                if back != after or hash(back) != hash(after):
                    raise ConsistencyError("JSON round trip changed the state")
                if pickle.loads(pickle.dumps(after)) != after:
                    raise ConsistencyError("pickle round trip changed the state")
            s = after
    return Report(games, hands, actions, tried, knocked)


_SUDDEN = frozenset({Kind.CLAIM, Kind.CONCEDE})


def perft(state: GameState, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``state``.

    A sequence that reaches the end of the game early counts once.
    """
    if depth == 0 or state.phase is Phase.OVER:
        return 1
    legal = legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(apply(state, a), depth - 1) for a in legal)
