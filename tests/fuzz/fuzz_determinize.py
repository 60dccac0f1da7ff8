"""Fuzz target ``determinize``: :func:`binocle.determinize` on edited views.

A view that ``observe`` gave is edited (a field replaced, as ``attrs.evolve``
would: another profile, seat, phase, hand, history entry, score, result, deck
card, or a value of the wrong type) and sampled.  The contract: a documented
refusal (a BinocleError), or a state whose view of that seat is exactly the
edited view (an edit that changed nothing the rules can tell).

Fuzz target ``determinize_whole_melds``: :func:`binocle.determinize` on genuine
views of hands whose melds were shown whole (cutthroat, three-handed ``meld``),
which can pin the hidden hands tightly; none may be refused.

Fuzz target ``determinize_episodes``: :func:`binocle.determinize` on genuine views
of random multi-hand episodes of every profile, played with concessions, claims
(wrong ones included: retirements and the two-handed game after them, overlooked
melds claimed) among the moves, seen by any seat (a retired player
too); none may be refused.

Registered in ``fuzzlib.TARGETS`` by this module's ``TARGETS``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

import binocle
from binocle import Action, Card, Kind, Phase, Suit, View
from binocle.core import HandResult
from binocle.profiles import get_profile

if TYPE_CHECKING:
    import fuzzlib


def _lib() -> Any:
    """The fuzz library, looked up when first needed: it registers this module's
    targets when it is imported, so this module does not import it at its top."""
    return importlib.import_module("fuzzlib")


def _other_profile(rng: random.Random, view: View) -> Any:
    return get_profile(rng.choice([s for s in _lib().PROFILE_SPECS if s != view.profile.spec()]))


def _small(rng: random.Random) -> Any:
    return rng.choice((-1, 0, 1, 2, 3, 4, 99, None, True, "1", 1.0, 2**70))


def _cards(rng: random.Random, cards: tuple[Card, ...]) -> tuple[Any, ...]:
    out: list[Any] = list(cards)
    r = rng.randrange(5)
    if r == 0 and out:
        out.pop(rng.randrange(len(out)))
    elif r == 1:
        out.insert(rng.randrange(len(out) + 1), rng.choice(binocle.CARDS))
    elif r == 2 and out:
        out[rng.randrange(len(out))] = rng.choice(binocle.CARDS)
    elif r == 3 and out:
        out[rng.randrange(len(out))] = _lib().junk_value(rng)
    else:
        rng.shuffle(out)
    return tuple(out)


def _numbers(rng: random.Random, values: tuple[int, ...]) -> tuple[Any, ...]:
    out: list[Any] = list(values)
    r = rng.randrange(4)
    if r == 0 and out:
        out[rng.randrange(len(out))] += rng.choice((-10, 10, 1, -1000))
    elif r == 1:
        out.append(rng.randrange(20))
    elif r == 2 and out:
        out.pop()
    elif out:
        out[rng.randrange(len(out))] = _small(rng)
    return tuple(out)


def _history(rng: random.Random, history: tuple[tuple[Action, int | None], ...]) -> Any:
    out: list[Any] = list(history)
    if not out:
        return ((binocle.Action(Kind.DEAL), None),)
    k = rng.randrange(len(out))
    r = rng.randrange(7)
    if r == 0:
        out.pop(k)
    elif r == 1:
        out.insert(k, out[k])
    elif r == 2 and len(out) > 1:
        j = rng.randrange(len(out))
        out[k], out[j] = out[j], out[k]
    elif r == 3:
        out[k] = (out[k][0], _small(rng))
    elif r == 4:
        try:
            out[k] = (binocle.Action(**_lib().random_action(rng, False)), out[k][1])
        except binocle.BinocleError:
            out[k] = (_lib().junk_value(rng), out[k][1])
    elif r == 5:
        out = out[: rng.randrange(len(out) + 1)]
    else:
        out[k] = _lib().junk_value(rng)
    return tuple(out)


def _results(rng: random.Random, results: tuple[HandResult, ...]) -> Any:
    out: list[Any] = list(results)
    if out and rng.random() < 0.5:
        k = rng.randrange(len(out))
        r = out[k]
        field = rng.choice(("dealer", "trump", "meld", "tricks", "delta", "outcome", "game_end"))
        value: Any
        if field in ("meld", "tricks", "delta"):
            value = _numbers(rng, getattr(r, field))
        elif field == "trump":
            value = rng.choice((*Suit, None))
        elif field == "outcome":
            value = rng.choice(("made", "set", "retired", "x", None))
        else:
            value = _small(rng)
        try:
            out[k] = attrs.evolve(r, **{field: value})
        except Exception:
            out[k] = _lib().junk_value(rng)
    elif out and rng.random() < 0.5:
        out.pop(rng.randrange(len(out)))
    elif out:
        out.append(out[-1])
    else:
        out.append(_lib().junk_value(rng))
    return tuple(out)


def _public(rng: random.Random, public: tuple[tuple[str, Any], ...]) -> Any:
    out: list[Any] = list(public)
    if out and rng.random() < 0.6:
        k = rng.randrange(len(out))
        out[k] = (out[k][0], _lib().junk_value(rng))
    elif out:
        out.pop(rng.randrange(len(out)))
    else:
        out.append(("stock", 3))
    return tuple(out)


#: One edit per field of a view: a function of (rng, view) giving the field's new value.
EDITS: dict[str, Callable[[random.Random, View], Any]] = {
    "profile": _other_profile,
    "seat": lambda rng, v: _small(rng),
    "phase": lambda rng, v: rng.choice((*Phase, None, "play")),
    "dealer": lambda rng, v: _small(rng),
    "current_player": lambda rng, v: _small(rng),
    "trump": lambda rng, v: rng.choice((*Suit, None, 5)),
    "hand": lambda rng, v: _cards(rng, v.hand),
    "hand_sizes": lambda rng, v: _numbers(rng, v.hand_sizes),
    "trick": lambda rng, v: tuple(
        (rng.choice((0, 1, 2, 5)), c) for c in _cards(rng, tuple(c for _, c in v.trick))
    ),
    "scores": lambda rng, v: _numbers(rng, v.scores),
    "results": lambda rng, v: _results(rng, v.results),
    "legal_actions": lambda rng, v: v.legal_actions[: len(v.legal_actions) // 2],
    "public": lambda rng, v: _public(rng, v.public),
    "claimants": lambda rng, v: _numbers(rng, v.claimants),
    "history": lambda rng, v: _history(rng, v.history),
    "deck": lambda rng, v: (
        _cards(rng, tuple(c for c in v.deck if c is not None))
        if rng.random() < 0.3
        else tuple(rng.choice((None, *binocle.CARDS)) if rng.random() < 0.1 else c for c in v.deck)
    ),
    "winner": lambda rng, v: _small(rng),
}


def edited_view(rng: random.Random, view: View) -> tuple[View, str]:
    """``view`` with one to three fields edited, and which."""
    fields = rng.sample(sorted(EDITS), rng.choice((1, 1, 1, 2, 3)))
    changes = {f: EDITS[f](rng, view) for f in fields}
    return attrs.evolve(view, **changes), ", ".join(fields)


def _genuine_view(rng: random.Random, pool: fuzzlib.Pool) -> View:
    """A view of a pool state, mostly by the player to act (a search bot's view)."""
    _, s = pool.pick(rng)
    seat = s.current_player
    if seat is None or rng.random() < 0.3:
        seat = rng.randrange(s.profile.players)
    if getattr(s, "pair", None) is not None and seat not in s.pair:  # type: ignore[attr-defined]
        seat = s.pair[0]  # type: ignore[attr-defined]
    return binocle.observe(s, seat)


def check_determinize(rng: random.Random, pool: fuzzlib.Pool, tally: fuzzlib.Tally) -> None:
    """``determinize`` on an edited view: refuses with a BinocleError, or gives a state
    whose view is the edited view, within 2 s; a view left as observe() gave it (one
    input in ten) is never refused."""
    genuine = _genuine_view(rng, pool)
    if rng.random() < 0.1:
        view, how = genuine, "nothing"
    else:
        view, how = edited_view(rng, genuine)
    seed = rng.randrange(2**32)
    ok, got = _lib().timed(
        tally, lambda: f"edited {how}: {view!r}"[:300], lambda: binocle.determinize(view, seed)
    )
    if not ok and how == "nothing" and got is not None:
        tally.note("wrong", f"a view that observe() gave refused: {got}")
    if ok:
        try:
            same = binocle.observe(got, view.seat) == view
        except Exception:
            same = False
        if not same:
            tally.note("wrong", f"a state whose view is not the edited view ({how})")


def _whole_meld_view(rng: random.Random) -> View:
    """A genuine view of a hand in play whose melds were shown whole: a cutthroat or
    three-handed game where every player announces ``meld`` (the best declaration)
    when he may, then random cards, up to a point early in the play."""
    spec = rng.choice([s for s in _lib().PROFILE_SPECS if not s.startswith("classic")])
    s = binocle.new_game(spec, seed=rng.randrange(2**32))
    plays = rng.randrange(1, 25)
    while not binocle.is_over(s) and plays > 0:
        legal = binocle.legal_actions(s)
        whole = [a for a in legal if a.kind is Kind.MELD and a.name is None]
        calm = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CONCEDE)] or legal
        a = whole[0] if whole else rng.choice(calm)
        plays -= a.kind is Kind.PLAY
        s = binocle.apply(s, a)
    seat = s.current_player
    return binocle.observe(s, rng.randrange(s.profile.players) if seat is None else seat)


def check_whole_melds(rng: random.Random, pool: fuzzlib.Pool, tally: fuzzlib.Tally) -> None:
    """``determinize`` on a genuine view whose melds shown are whole melds (cutthroat
    melds, three-handed ``meld``): never refused, and the sample's view is the view,
    within 2 s.  Such melds can pin the hidden hands tightly (a player who showed four
    Queens as his whole meld holds no King)."""
    view = _whole_meld_view(random.Random(rng.randrange(2**32)))
    seed = rng.randrange(2**32)
    ok, got = _lib().timed(
        tally, lambda: f"seed {seed}: {view!r}"[:300], lambda: binocle.determinize(view, seed)
    )
    if not ok and got is not None:
        tally.note("wrong", f"a view that observe() gave refused (seed {seed}): {got}")
    elif ok and binocle.observe(got, view.seat) != view:
        tally.note("wrong", f"a sample whose view is not the view (seed {seed})")


def episode_view(rng: random.Random) -> tuple[View, str]:
    """A genuine view of a random game of a random profile, played over one to four
    hands with concessions and claims mixed in (their share drawn per game, up
    to one move in four), by a random seat; and how it was reached."""
    spec = rng.choice(_lib().PROFILE_SPECS)
    seed = rng.randrange(2**32)
    s = binocle.new_game(spec, seed=seed, dealer=rng.randrange(2 if "classic" in spec else 3))
    hands = rng.randrange(1, 5)
    bold = rng.choice((0.0, 0.02, 0.1, 0.25))
    steps = rng.randrange(40 * hands)
    for _ in range(steps):
        if binocle.is_over(s) or len(s.results) >= hands:
            break
        legal = binocle.legal_actions(s)
        calm = [a for a in legal if a.kind not in (Kind.CLAIM, Kind.CLAIM_OVERLOOKED, Kind.CONCEDE)]
        s = binocle.apply(s, rng.choice(calm if calm and rng.random() >= bold else legal))
    seat = rng.randrange(s.profile.players)
    return binocle.observe(s, seat), f"{spec} seed {seed}, seat {seat}, {len(s.results)} hands"


def check_episodes(rng: random.Random, pool: fuzzlib.Pool, tally: fuzzlib.Tally) -> None:
    """``determinize`` on a genuine view of a random multi-hand episode (concessions,
    claims, retirements, overlooked melds claimed): never refused, and the sample's view is the view,
    within 2 s."""
    view, how = episode_view(random.Random(rng.randrange(2**32)))
    seed = rng.randrange(2**32)
    ok, got = _lib().timed(tally, lambda: how, lambda: binocle.determinize(view, seed))
    if not ok and got is not None:
        tally.note("wrong", f"a view that observe() gave refused ({how}, seed {seed}): {got}")
    elif ok and binocle.observe(got, view.seat) != view:
        tally.note("wrong", f"a sample whose view is not the view ({how}, seed {seed})")


#: The targets of this module: (checker, relative cost weight for a time budget).
TARGETS: dict[str, tuple[Callable[[random.Random, fuzzlib.Pool, fuzzlib.Tally], None], float]] = {
    "determinize": (check_determinize, 2.0),
    "determinize_whole_melds": (check_whole_melds, 1.0),
    "determinize_episodes": (check_episodes, 1.0),
}
