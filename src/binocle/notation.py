"""Positions (layer 4): a state, or one seat's view of it, as one line of text.

:func:`position` writes the line, :func:`from_position` reads a state's back and
:func:`view_from_position` a view's.  The line has three parts separated by
``|``: the game (profile, seed, first dealer, and for a view its seat), a
summary a person reads (scores, dealer, phase, whose turn, hands, trick, the
piles …), and the moves that led there.  Reading replays the moves under the
rules, as :func:`binocle.loads` does, and checks every summary field given
against the state they reach, so a line that reads is a real game's position;
the docs page "Undo, history and positions" describes every field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from binocle.actions import Action, Kind
from binocle.cards import Card
from binocle.core import GameState, Phase, Profile, View
from binocle.errors import (
    BinocleError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidStateError,
    excerpt,
    shorten,
)

__all__ = ["MAX_LENGTH", "from_position", "position", "view_from_position"]

#: The longest position text read, in characters (a whole game is far shorter).
MAX_LENGTH: Final = 200_000
#: A move that is the deal the game's seed draws.
SEED_DEAL: Final = "*"
_WHOLE: Final = re.compile(r"-?[0-9]{1,20}\Z")
#: How a view's position finds the game it writes: a game consistent with the view,
#: drawn from a seed (:func:`binocle.determinize`, set by :func:`set_sampler`).
_SAMPLER: Final[list[Callable[[View, int], GameState]]] = []


def set_sampler(sample: Callable[[View, int], GameState]) -> None:
    """Make ``sample(view, seed)`` the game a view's position is written from.

    :mod:`binocle.determinize` sets :func:`~binocle.determinize.determinize` when it
    is imported (``import binocle`` does).
    """
    _SAMPLER[:] = [sample]


# -- writing -------------------------------------------------------------------------------


def position(subject: GameState | View, seat: int | None = None) -> str:
    """The position of a state, or of a seat's view, as one line of printable ASCII.

    ``position(state)`` is the whole state, read back by :func:`from_position`;
    ``position(view)``, or ``position(state, seat=n)`` for ``observe(state, n)``,
    is what that seat knows, read back by :func:`view_from_position`: its
    summary shows no card hidden from the seat, and its moves are those of a
    game drawn from the view alone (:func:`binocle.determinize` seeded with 0), so
    a card hidden from the seat in them is made up and tells nothing of the
    game observed.

    >>> import binocle
    >>> s = binocle.apply(binocle.new_game("cutthroat", seed=7), "bid 250")
    >>> text = binocle.position(s)
    >>> text[:60]
    'cutthroat seed=7 first=0 | hand=1 phase=bidding dealer=0 tur'
    >>> text.split(" | ")[2]
    '*,bid 250'
    >>> binocle.from_position(text) == s
    True
    """
    from binocle.game import observe

    if isinstance(subject, View):
        if seat is not None and seat != subject.seat:
            raise InvalidArgumentError(f"a view of seat {subject.seat} is not seat {seat}'s")
        return _view_text(subject)
    if not isinstance(subject, GameState):
        raise InvalidArgumentError(f"not a game state or a view: {type(subject).__name__}")
    if seat is not None:
        return _view_text(observe(subject, seat))
    head = f"{subject.profile.spec()} seed={subject.seed} first={subject.first_dealer}"
    return _line(head, state_summary(subject), moves_text(subject))


def sample_view(view: View, seed: int = 0) -> GameState:
    """A state sampled among those consistent with ``view`` by the sampler
    :func:`binocle.determinize` sets when imported (for the modules that build on
    this one without importing it); without it, :class:`~binocle.errors.InvalidArgumentError`."""
    if not _SAMPLER:
        raise InvalidArgumentError("this use of a view needs binocle.determinize imported")
    return _SAMPLER[0](view, seed)


def _view_text(view: View) -> str:
    if not _SAMPLER:
        raise InvalidArgumentError("the position of a view needs binocle.determinize imported")
    game = _SAMPLER[0](view, 0)
    head = f"{game.profile.spec()} seed={game.seed} first={game.first_dealer} view={view.seat}"
    return _line(head, view_summary(view), moves_text(game))


def _line(head: str, summary: list[tuple[str, str]], moves: str) -> str:
    return f"{head} | {' '.join(f'{k}={v}' for k, v in summary)} | {moves}"


def _cards(cards: tuple[Card, ...]) -> str:
    return "".join(map(str, cards)) or "-"


def _seat(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def _common(
    phase: Phase,
    dealer: int,
    current: int | None,
    trump: Any,
    scores: tuple[int, ...],
    hands: str,
    trick: tuple[tuple[int, Card], ...],
) -> list[tuple[str, str]]:
    """The summary fields a state and a view share, in the order they are written."""
    return [
        ("phase", phase.value),
        ("dealer", str(dealer)),
        ("turn", _seat(current)),
        ("trump", "-" if trump is None else str(trump)),
        ("scores", ",".join(map(str, scores))),
        ("hands", hands),
        ("trick", ",".join(f"{i}{c}" for i, c in trick) or "-"),
    ]


def state_summary(state: GameState) -> list[tuple[str, str]]:
    """The summary part of a state's position, as ``(name, text)`` pairs in order."""
    s = state
    out = [("hand", str(s.hand_number))]
    out += _common(
        s.phase, s.dealer, s.current_player, s.trump, s.scores,
        "/".join(_cards(h) for h in s.hands), s.trick,
    )  # fmt: skip
    for name in pile_names(s.profile):
        value = getattr(s, name, None)
        if isinstance(value, Card):
            out.append((name, str(value)))
        elif value is None:
            out.append((name, "-"))
        else:
            out.append((name, _cards(tuple(value))))
    if s.phase is Phase.OVER:
        out.append(("winner", _seat(s.profile.winner(s))))
    return out


def view_summary(view: View) -> list[tuple[str, str]]:
    """The summary part of a view's position: the seat's own cards, the others' counts."""
    hands = "/".join(
        _cards(view.hand) if i == view.seat else f"?{n}" for i, n in enumerate(view.hand_sizes)
    )
    return _common(
        view.phase, view.dealer, view.current_player, view.trump, view.scores, hands, view.trick
    )


def pile_names(profile: Profile) -> tuple[str, ...]:
    """The piles a profile deals besides the hands (``widow``; ``turn_up``, ``stock``)."""
    names = [t for t, _ in profile.deal_schedule(0) if isinstance(t, str)]
    return tuple(dict.fromkeys(names))


def moves_text(state: GameState) -> str:
    """Every action of the game as its text, oldest first, separated by commas; a deal
    the game's seed draws is written ``*``."""
    from binocle.timeline import state_at

    out: list[str] = []
    node = state.history
    while node is not None:
        action: Action = node[1]
        if action.kind is Kind.DEAL and action == _seed_deal(state, node[0], state_at):
            out.append(SEED_DEAL)
        else:
            out.append(str(action))
        node = node[0]
    out.reverse()
    return ",".join(out)


def _seed_deal(state: GameState, before: Any, state_at: Any) -> Action | None:
    """The deal the seed draws in the state of ``state``'s game at ``before``."""
    from binocle.game import legal_actions

    earlier: GameState = state_at(state, before)
    legal = legal_actions(earlier)
    return legal[0] if earlier.phase is Phase.DEAL and legal else None


# -- reading -------------------------------------------------------------------------------


def from_position(text: str) -> GameState:
    """Read a state's position (:func:`position`); the state it names, history included.

    The moves are replayed under the rules from the game's start and each
    summary field given must agree with the state they reach; fields may be
    left out (a hand-written position may give the moves alone).  Raises
    InvalidNotationError for text that is not a position (or is a view's: read
    it with :func:`view_from_position`) and InvalidStateError, naming the move
    or the field, for one whose moves or fields the rules refuse.

    >>> import binocle
    >>> s = binocle.from_position("classic seed=3 first=0 | turn=0 | *,play TS")
    >>> s.current_player, s.trick, len(binocle.history(s))
    (0, ((1, Card('TS')),), 2)
    """
    state, seat, _ = _read(text)
    if seat is not None:
        raise InvalidNotationError(
            f"a position of seat {seat}'s view: read it with binocle.view_from_position"
        )
    return state


def view_from_position(text: str) -> View:
    """Read a view's position (:func:`position` of a view): that seat's :class:`View`.

    The text's moves are replayed as :func:`from_position` does and the seat
    named by ``view=`` observes the state they reach.  A state's position is
    refused (InvalidNotationError): it would show every hand.
    """
    from binocle.game import observe

    state, seat, given = _read(text)
    if seat is None:
        raise InvalidNotationError(
            "a state's position, not a view's (view=<seat> missing): read it with"
            " binocle.from_position"
        )
    view = observe(state, seat)
    _check_fields(given, view_summary(view))
    return view


def _read(text: Any) -> tuple[GameState, int | None, list[tuple[str, str]]]:
    """The state a position's moves reach, the seat of a view (or None) and the
    summary fields given; a state's fields are checked here, a view's by the caller."""
    from binocle.game import legal_actions, parse_action, start
    from binocle.profiles import get_profile

    if not isinstance(text, str):
        raise InvalidNotationError(f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise InvalidNotationError(f"a position is at most {MAX_LENGTH} characters")
    parts = text.split("|")
    if len(parts) != 3:
        raise InvalidNotationError(
            "a position has three parts separated by '|' (game | summary | moves),"
            f" not {len(parts)}: {excerpt(text)}"
        )
    head = parts[0].split()
    if not head:
        raise InvalidNotationError("a position begins with its profile")
    try:
        profile = get_profile(head[0])
    except BinocleError as exc:
        raise InvalidNotationError(f"profile: {exc}") from None
    numbers = _pairs(head[1:], "game")
    unknown = sorted(set(numbers).difference(("seed", "first", "view")))
    if unknown:
        raise InvalidNotationError(f"unknown game field {excerpt(unknown[0])}")
    seed = _whole(numbers.get("seed", "0"), "seed")
    first = _whole(numbers.get("first", "0"), "first")
    seat = None if "view" not in numbers else _whole(numbers["view"], "view")
    if seat is not None and not 0 <= seat < profile.players:
        raise InvalidNotationError(f"view: a seat 0..{profile.players - 1}, not {seat}")
    given = list(_pairs(parts[1].split(), "summary").items())
    try:
        state = start(profile, seed, first)
    except InvalidArgumentError as exc:
        raise InvalidNotationError(str(exc)) from None
    moves = [m.strip() for m in parts[2].split(",")] if parts[2].strip() else []
    for i, move in enumerate(moves):
        where = f"move {i} ({excerpt(move, 40)})"
        try:
            if move == SEED_DEAL:
                if state.phase is not Phase.DEAL:
                    raise InvalidStateError(
                        f"{where}: no deal is due (the hand is in the {state.phase.value} phase)",
                        i,
                    )
                action = legal_actions(state)[0]
            else:
                action = parse_action(state, move)
            state = _apply(state, action)
        except (IllegalActionError, InvalidNotationError) as exc:
            raise InvalidStateError(f"{where}: {exc}", i) from None
    profile.check(state)
    if seat is None:
        _check_fields(given, state_summary(state))
    return state, seat, given


def _apply(state: GameState, action: Action) -> GameState:
    from binocle.game import apply

    return apply(state, action)


def _pairs(tokens: list[str], part: str) -> dict[str, str]:
    """``name=value`` tokens as a dict; InvalidNotationError for another token or a
    name given twice."""
    out: dict[str, str] = {}
    for token in tokens:
        name, eq, value = token.partition("=")
        if not eq or not name or not value:
            raise InvalidNotationError(f"{part} field {excerpt(token)} is not name=value")
        if name in out:
            raise InvalidNotationError(f"{part} field {excerpt(name)} is given twice")
        out[name] = value
    return out


def _whole(text: str, name: str) -> int:
    if not _WHOLE.match(text):
        raise InvalidNotationError(f"{name} is a whole number, not {excerpt(text)}")
    return int(text)


def _check_fields(given: list[tuple[str, str]], actual: list[tuple[str, str]]) -> None:
    """Each summary field given must be one of ``actual``'s and say the same."""
    expected = dict(actual)
    for name, value in given:
        if name not in expected:
            raise InvalidNotationError(
                f"unknown summary field {excerpt(name)} (fields: {', '.join(expected)})"
            )
        if value != expected[name]:
            raise InvalidStateError(
                f"summary field {name}={shorten(value)} disagrees with the moves,"
                f" which give {name}={shorten(expected[name])}"
            )
