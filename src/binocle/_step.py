"""The two calls every playout makes: :func:`legal_actions` and :func:`apply` (layer 4).

:mod:`binocle.game` publishes them; they are written here, in a module of their
own, so that the compiled build makes them native code.  Their arguments are
typed ``Any`` for that build: a compiled function refuses an argument of the
wrong type with a bare TypeError before its first line, where these check it
themselves and raise binocle's own errors (binocle.game gives the typed
signatures).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from binocle._build import native_base
from binocle.actions import CLAIM, Action, Kind, claim, parse_action_text
from binocle.core import GameState, Phase, Profile
from binocle.errors import IllegalActionError, InvalidArgumentError, InvalidNotationError, RuleCode

__all__ = ["apply", "legal_actions"]


def legal_actions(state: Any) -> tuple[Action, ...]:
    """Every legal action, in a deterministic order; empty only when the game is over.

    Between hands it holds the one deal drawn from the game's seed.
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    legal = state._legal
    if legal is None:
        profile = state.profile
        cls = type(profile)
        last = _LAST
        rule = last.legal if last.cls is cls else _remember(cls).legal
        legal = rule(profile, state)
        if _NATIVE:
            state._legal = legal  # a native attribute's own store
        else:
            _set_legal(state, legal)
    return legal


def apply(state: Any, action: Any) -> GameState:
    """The state after ``action`` (an action or its text); ``state`` is unchanged.

    Raises IllegalActionError naming the rule when the action is not legal: its
    ``rule`` is the rule's code, its ``action`` the action refused (read from the
    text) and its ``seat`` the seat that tried it (the player to act, the seat a
    knock names; None for a deal).
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    s = state
    legal = s._legal
    if legal is None:
        legal = legal_actions(s)
    if type(action) is Action:
        # Legal actions are mostly interned: look for the very object first,
        # which costs far less than comparing actions field by field.
        if len(legal) < 40:
            for x in legal:
                if x is action:
                    return _rules_apply(s, action)
        elif id(action) in _ids(legal):
            return _rules_apply(s, action)
        if action in legal:
            # The engine's own equal action: one built by hand may hold plain ints.
            return _rules_apply(s, legal[legal.index(action)])
    elif isinstance(action, str):
        action = s.profile.resolve(s, parse_action_text(action))
        if action in legal:
            return _rules_apply(s, action)
    else:
        raise InvalidNotationError(
            f"an action is an Action or its text, not {type(action).__name__}"
        )
    if action.kind is Kind.CLAIM and action.number is not None:
        return _knock(s, action)
    if action.kind is Kind.DEAL:
        if s.phase is Phase.DEAL:
            problem = s.profile.check_deck(action)
            if problem is None:
                return _rules_apply(s, action)
            raise IllegalActionError(problem, RuleCode.BAD_DECK, action, None)
        rule, text = s.profile.refusal(s, action)
        raise IllegalActionError(text, rule, action, None)
    rule, text = s.profile.refusal(s, action)
    raise IllegalActionError(text, rule, action, s.current_player)


def apply_pack_deal(state: GameState, action: Action) -> GameState:
    """The state after the deal ``action``, between hands, whose cards the caller drew
    from the profile's own pack (the OpenSpiel adapter's chance outcomes): the
    deck is not checked and the seed's own deal is not drawn.  Anything else goes
    through :func:`apply`."""
    return _rules_apply(state, action)


def _rules_apply(s: GameState, action: Action) -> GameState:
    """The profile's ``apply`` of an action found legal, read off its class once."""
    profile = s.profile
    cls = type(profile)
    last = _LAST
    move = last.apply if last.cls is cls else _remember(cls).apply
    return move(profile, s, action)


class _Last:
    """The profile class whose rules were read last, with its ``legal_actions`` and
    ``apply``: a game asks one profile at every step, and reading an object's
    attributes costs a fraction of a dictionary's lookup by the class."""

    def __init__(self) -> None:
        self.cls: type | None = None
        self.legal: Callable[[Any, GameState], tuple[Action, ...]] = _no_rule
        self.apply: Callable[[Any, GameState, Action], GameState] = _no_rule


def _no_rule(*args: Any) -> Any:  # pragma: no cover - never called (no class read yet)
    raise AssertionError("no profile class read yet")


def _remember(cls: type[Profile]) -> _Last:
    """``_LAST`` holding ``cls``'s rules (read off the class once, into ``_LEGAL`` and
    ``_APPLY``)."""
    legal = _LEGAL.get(cls)
    if legal is None:
        legal = _LEGAL[cls] = cls.legal_actions
    move = _APPLY.get(cls)
    if move is None:
        move = _APPLY[cls] = cls.apply
    last = _LAST
    last.cls = None
    last.legal = legal
    last.apply = move
    last.cls = cls
    return last


def _ids(legal: tuple[Action, ...]) -> frozenset[int]:
    """The ids of the actions of a long legal tuple (the bids), kept for the shared
    tuples: a bid is found among hundreds at once."""
    kept = _IDS.get(id(legal))
    if kept is None or kept[0] is not legal:
        if len(_IDS) >= 256:
            _IDS.clear()
        kept = _IDS[id(legal)] = (legal, frozenset(map(id, legal)))  # the tuple kept too
    return kept[1]


_IDS: Final[dict[int, tuple[tuple[Action, ...], frozenset[int]]]] = {}


def _knock(s: GameState, action: Action) -> GameState:
    """A knock that names its seat, from any seat among the claimants (classic rules,
    Claiming (knocking)).  The player to act's knock is recorded as plain ``claim``."""
    seat = action.number
    players = s.profile.players
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalActionError(
            f"a knock names a seat 0..{players - 1}, not {seat!r}", RuleCode.NOT_LEGAL, action
        )
    if action != claim(seat):
        raise IllegalActionError(
            f"a knock names its seat and nothing else (claim {seat})",
            RuleCode.NOT_LEGAL,
            action,
            seat,
        )
    if seat not in s.profile.claimants(s):
        rule, text = s.profile.knock_refusal(s, seat)
        raise IllegalActionError(text, rule, action, seat)
    if seat == s.current_player:
        return _rules_apply(s, CLAIM)
    return _rules_apply(s, claim(seat))


#: Each profile class's ``legal_actions`` and ``apply``, read off the class once: the
#: hot calls then skip the method lookup and the bound method made on each call.
_LEGAL: Final[dict[type, Callable[[Any, GameState], tuple[Action, ...]]]] = {}
_APPLY: Final[dict[type, Callable[[Any, GameState, Action], GameState]]] = {}
_LAST: Final = _Last()
#: Whether the states are native classes (the compiled build), whose memo of legal
#: actions is stored directly; in pure Python past the frozen guard, by its slot.
_NATIVE: Final = native_base(GameState) is not None
#: Memoises a state's legal actions in pure Python (the slot's own setter: the state
#: is frozen to users).
_set_legal: Final[Callable[[GameState, tuple[Action, ...]], None]] = vars(GameState)[
    "_legal"
].__set__
