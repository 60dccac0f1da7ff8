"""The public functions of the engine (layer 4): new games, actions, scores, views.

Every function here checks its arguments at the boundary and raises only the
documented errors (:mod:`binocle.errors`); the profiles behind it trust them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from binocle.actions import Action, deal, parse_action_text
from binocle.cards import Card, Suit, parse_cards, parse_suit
from binocle.core import GameState, MeldResult, Phase, Profile, View
from binocle.errors import InvalidArgumentError, InvalidNotationError, excerpt
from binocle.profiles import get_profile

__all__ = [
    "apply",
    "claimants",
    "current_winner",
    "end_reason",
    "is_over",
    "legal_actions",
    "meld",
    "new_game",
    "observe",
    "parse_action",
    "profile",
    "score",
    "stack_deck",
    "start",
    "winner",
]


def profile(spec: Any = "cutthroat", /, **options: Any) -> Profile:
    """A rule profile by name or alias, with options by keyword or in the text.

    >>> import binocle
    >>> binocle.profile("auction", min_bid=300).spec()
    'cutthroat(min_bid=300)'
    >>> binocle.profile("cutthroat(single_set=true)").single_set
    True
    """
    return get_profile(spec, **options)


def _state(state: Any) -> GameState:
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    return state


def new_game(
    profile: Any = "cutthroat",
    seed: int | None = None,
    dealer: int = 0,
    deck: Iterable[Card | str] | str | None = None,
) -> GameState:
    """A new game with its first hand dealt, from the ``seed`` or from ``deck``.

    ``profile`` is a profile or its name.  Later hands are dealt from the seed
    (a random one when none is given) unless a ``deal`` action gives the deck.

    >>> import binocle
    >>> s = binocle.new_game("cutthroat", seed=7)
    >>> s.current_player, len(s.hands[0]), s.phase.value
    (1, 15, 'bidding')
    """
    s = start(profile, seed, dealer)
    if deck is None:
        return apply(s, legal_actions(s)[0])
    try:
        cards = parse_cards(deck)
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"deck: {exc}") from None
    return apply(s, deal(cards))


def start(profile: Any = "cutthroat", seed: int | None = None, dealer: int = 0) -> GameState:
    """A new game before its first deal: ``legal_actions`` holds the deal from the seed.

    :func:`new_game` is this followed by the first deal.
    """
    p = get_profile(profile)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    check_seed(seed)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < p.players:
        raise InvalidArgumentError(
            f"the dealer is a seat 0..{p.players - 1}, not {excerpt(dealer)}"
        )
    return p.initial(seed, dealer)


#: Seeds are whole numbers with ``abs(seed) < MAX_SEED`` (64 bits and a sign).
MAX_SEED = 2**64


def check_seed(seed: Any) -> None:
    """Raise InvalidArgumentError unless ``seed`` is a whole number below 2**64 in size."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED < seed < MAX_SEED:
        raise InvalidArgumentError(
            f"a seed is a whole number of at most 64 bits (and a sign), not {excerpt(seed)}"
        )


def stack_deck(profile: Any, hands: Any, dealer: int = 0, **piles: Any) -> tuple[Card, ...]:
    """The deck order that deals ``hands`` (one per seat) and ``piles`` in ``profile``.

    Piles: cutthroat ``widow``; classic ``turn_up`` and ``stock`` (top first);
    three-handed ``turn_up`` (one of the dealer's cards).  Parts left out take
    the rest of the pack, in pack order.  Give the result to ``new_game(deck=…)``
    or to a ``deal`` action to set up a position.

    >>> import binocle
    >>> deck = binocle.stack_deck("classic", ["AS TS KS QS JS 9S AH TH KH QH JH 9H", None],
    ...                           dealer=1, turn_up="9C")
    >>> s = binocle.new_game("classic", deck=deck, dealer=1)
    >>> s.trump, s.hands[0][:2], s.results
    (<Suit.CLUBS: 3>, (Card('AS'), Card('TS')), ())
    """
    p = get_profile(profile)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < p.players:
        raise InvalidArgumentError(
            f"the dealer is a seat 0..{p.players - 1}, not {excerpt(dealer)}"
        )
    return p.stack_deck(hands, dealer, **piles)


if TYPE_CHECKING:

    def legal_actions(state: GameState) -> tuple[Action, ...]:
        """Every legal action, in a deterministic order (see binocle._step)."""

    def apply(state: GameState, action: Action | str) -> GameState:
        """The state after ``action`` (see binocle._step)."""

else:
    # Written (and compiled, in the compiled build) in binocle._step: every playout
    # makes these two calls, so they are native code there.
    from binocle._step import apply, legal_actions


def claimants(state: GameState) -> tuple[int, ...]:
    """The seats that may knock (claim the game) now, in seat order; empty where
    nothing can be claimed.

    Any of them may knock whoever is to act: the player to act with ``claim``
    (it is among his legal actions), any seat with ``claim <seat>``.  The first
    knock applied wins.  Cutthroat has no claiming, so it is always empty there.

    >>> import binocle
    >>> s = binocle.new_game("classic", seed=3)
    >>> s.current_player, binocle.claimants(s)
    (1, (0, 1))
    >>> s = binocle.apply(s, "claim 0")          # the dealer knocks out of turn, wrongly
    >>> binocle.is_over(s), binocle.winner(s), binocle.end_reason(s)
    (True, 1, 'claim')
    """
    s = _state(state)
    return s.profile.claimants(s)


def current_winner(state: GameState) -> tuple[int, Card] | None:
    """The seat and the card now winning the trick in progress; None when no card of
    it is on the table.

    Common rules, Trick winner: the highest trump, else the highest card of the
    suit led; of two identical cards the first played (the card of
    :func:`binocle.cards.winning_card`, the index of
    :func:`binocle.rulings.trick_winner`).  In the three-handed game the card of a
    player who retired after playing it wins nothing.

    >>> import binocle, random
    >>> rng = random.Random(1)
    >>> s = binocle.start("cutthroat", seed=7)
    >>> binocle.current_winner(s) is None
    True
    >>> while len(s.trick) < 2:
    ...     s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
    >>> s.trick, s.trump
    (((1, Card('QH')), (2, Card('KH'))), <Suit.CLUBS: 3>)
    >>> binocle.current_winner(s)
    (2, Card('KH'))
    """
    s = _state(state)
    return s.profile.current_winner(s)


def end_reason(state: GameState) -> str | None:
    """Why the game ended, or None while it goes on.

    ``"target"``: a player reached the target at the end of a hand (the game
    won on its merits, or no winner where the profile says so); ``"claim"``: a
    knock ended it (a correct claim wins; a wrong one loses, or retires the
    last but one player); ``"limit"``: the profile's ``max_hands`` limit ended it
    (the highest score wins; a tie as the profile breaks ties, else nobody).

    >>> import binocle
    >>> from binocle.bots import RandomBot, play_game
    >>> s = play_game("cutthroat(max_hands=2)", [RandomBot(i) for i in range(3)], seed=1)
    >>> binocle.is_over(s), len(s.results), binocle.end_reason(s)
    (True, 2, 'limit')
    """
    s = _state(state)
    if s.phase is not Phase.OVER or not s.results:
        return None
    return s.results[-1].game_end


def parse_action(state: GameState, text: str) -> Action:
    """Read an action's text in the context of ``state``; ``str(action)`` reads back.

    The action is not checked for legality (:func:`apply` does that).
    """
    s = _state(state)
    return s.profile.resolve(s, parse_action_text(text))


def score(state: GameState) -> tuple[int, ...]:
    """The game scores by seat."""
    return _state(state).scores


def is_over(state: GameState) -> bool:
    """Whether the game has ended."""
    return _state(state).phase is Phase.OVER


def winner(state: GameState) -> int | None:
    """The seat that won the game, or None while it goes on."""
    s = _state(state)
    return s.profile.winner(s)


def observe(state: GameState, seat: int) -> View:
    """What ``seat`` may know of ``state``: its own cards and everything public."""
    s = _state(state)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(s.hands):
        raise InvalidArgumentError(f"a seat is 0..{len(s.hands) - 1}, not {excerpt(seat)}")
    return s.profile.observe(s, seat)


def meld(
    cards: Iterable[Card | str] | str, trump: Suit | str, profile: Any = "cutthroat"
) -> MeldResult:
    """The meld of ``cards`` with ``trump`` as ``profile`` scores it.

    >>> import binocle
    >>> r = binocle.meld("AC TC KC QC JC QS JD AS AH AD", "C", "cutthroat")
    >>> r.total, [m.name for m in r.melds]
    (290, ['run', 'pinochle', 'aces around'])
    """
    p = get_profile(profile)
    if type(cards) is not tuple or tuple(map(type, cards)) != _ALL_CARDS[len(cards) & 63]:
        cards = parse_cards(cards)  # text, or not (only) cards in a tuple
    t = trump if type(trump) is Suit else parse_suit(trump)  # type: ignore[arg-type]
    return p.meld_of(cards, t)


#: ``(Card,) * n``: what ``tuple(map(type, cards))`` gives for n cards (n < 64).
_ALL_CARDS: Final = tuple((Card,) * n for n in range(64))
