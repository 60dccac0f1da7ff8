"""The shared frame of every profile: phases, states, hand results, views (layer 3).

A profile is a frozen object whose fields are its options and whose methods are
its phase machine.  A state is a frozen value; each profile subclasses
:class:`GameState` with the fields its phases need.  Transitions build new
states positionally and share every part that did not change.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Literal, TypeVar, overload

import attrs

from binocle._build import (
    frozen_state,
    python_changers,
    state_builder,
    state_changer,
    state_updater,
)
from binocle._mypyc import mypyc_attr
from binocle.actions import Action, Kind, claim, new_action
from binocle.cards import Card, Suit, format_cards, show_picture
from binocle.errors import InvalidArgumentError, InvalidNotationError, RuleCode, excerpt, is_whole
from binocle.rules import deal as _deal
from binocle.rules.deal import shuffled_pack
from binocle.rules.tricks import Obligation, _trick_winner

__all__ = [
    "FrozenValue",
    "GameState",
    "HandResult",
    "Meld",
    "MeldResult",
    "Phase",
    "Profile",
    "View",
    "frozen_state",
    "python_changers",
    "set_text",
    "state_builder",
    "state_changer",
    "state_updater",
]


class Phase(enum.Enum):
    """Where a hand stands.  Each profile uses the phases it needs."""

    DEAL = "deal"
    BIDDING = "bidding"
    DISCARD = "discard"
    TRUMP = "trump"
    DIX = "dix"
    MELD = "meld"
    PLAY = "play"
    ANNOUNCE = "announce"
    OVER = "over"


# The members as module constants, for the engine's hot paths (the profiles import
# them): a global read costs a fraction of reading a member off its enum class
# (Python 3.11).  Private to binocle, out of __all__ and the docs.
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_BIDDING: Final = Phase.BIDDING
_PHASE_DISCARD: Final = Phase.DISCARD
_PHASE_TRUMP: Final = Phase.TRUMP
_PHASE_DIX: Final = Phase.DIX
_PHASE_MELD: Final = Phase.MELD
_PHASE_PLAY: Final = Phase.PLAY
_PHASE_ANNOUNCE: Final = Phase.ANNOUNCE
_PHASE_OVER: Final = Phase.OVER


@attrs.frozen(slots=True)
class Meld:
    """One scored combination: its name, the cards it uses and its value."""

    name: str
    cards: tuple[Card, ...]
    value: int

    def __str__(self) -> str:
        return f"{self.name} {format_cards(self.cards)} ({self.value})"


@attrs.frozen(slots=True)
class MeldResult:
    """What :func:`binocle.meld` returns: the total and the combinations scored."""

    total: int
    melds: tuple[Meld, ...]

    def __str__(self) -> str:
        if not self.melds:
            return "no meld (0)"
        return ", ".join(str(m) for m in self.melds) + f" = {self.total}"

    def _repr_svg_(self) -> str | None:
        """The combinations as a picture, for a notebook (:func:`binocle.svg.melds_svg`)."""
        return show_picture(self)


@attrs.frozen(slots=True)
class HandResult:
    """The outcome of one finished hand, by seat.

    ``meld``: meld and dix points scored in the hand; ``tricks``: trick points
    taken (the last-trick bonus and the bidder's discards included); ``delta``:
    the change of each game score.  ``bidder``, ``bid`` and ``made`` are None
    where the profile has no bidding.  ``outcome`` is ``"played"``,
    ``"conceded"`` (the bidder gave up), ``"thrown-in"`` (everyone passed),
    ``"redeal"`` (a bunched hand), ``"claimed"`` (a claim ended the hand) or
    ``"retired"`` (a wrong claim retired a player, three-handed).  ``game_end``
    is None, except on the hand that ended the game: then why it ended, as
    :func:`binocle.end_reason` says (``"target"``, ``"claim"`` or ``"limit"``).
    ``chips`` is None where ``delta`` is points; where hands are settled in chips
    (cutthroat ``settlement=chips``) it is the hand's value in chips, which the
    bidder collected from or paid to each other player, and ``delta`` is chips
    (``meld`` and ``tricks`` stay points).
    """

    dealer: int
    trump: Suit | None
    meld: tuple[int, ...]
    tricks: tuple[int, ...]
    delta: tuple[int, ...]
    bidder: int | None = None
    bid: int | None = None
    made: bool | None = None
    outcome: str = "played"
    game_end: str | None = None
    chips: int | None = None


T = TypeVar("T", bound="GameState")
F = TypeVar("F", bound="FrozenValue")
_D = TypeVar("_D")
_E = TypeVar("_E")


# A value class is written out by hand, not made by attrs: compiled (the mypyc build),
# it is then a native class, built and read at C speed, whose ``Final`` fields are
# read-only; in pure Python :func:`binocle.core.frozen_state` gives it the same frozen
# behaviour.  Its fields are named once, in ``_FIELDS`` (the order of ``__init__``).
@mypyc_attr(allow_interpreted_subclasses=True)
class FrozenValue:
    """A frozen value whose class is written out: the states and their parts
    (:class:`~binocle.profiles.cutthroat.Auction`).

    Compared by value (all fields but those ``_UNCOMPARED``, a state's ``history``)
    and hashable;
    :meth:`fields` names the fields, :meth:`replace` makes a copy with some
    changed; setting or deleting a field raises :class:`AttributeError`.
    """

    __slots__ = ()
    #: The fields, in the order ``__init__`` takes them; a subclass adds its own.
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    #: The fields carried along but not compared, hashed or shown.
    _UNCOMPARED: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """The names of the fields, in the order the constructor takes them."""
        return cls._FIELDS

    def replace(self: F, **changes: Any) -> F:
        """A copy with the fields named changed (the rest shared): the constructor,
        for building positions by hand (tests, tools).

        Like the constructor it checks no value: a state from :func:`binocle.new_game`,
        :func:`binocle.apply` or :func:`binocle.loads` is consistent, one built by hand
        is what it was given (:func:`binocle.testing.check_state` checks it).  Raises
        TypeError for a name that is not a field, and, in the compiled build, for a
        value of the wrong Python type (``hands=[...]`` where a tuple belongs).
        """
        unknown = sorted(set(changes).difference(self._FIELDS))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {unknown[0]!r}")
        return type(self)(*[changes.get(n, getattr(self, n)) for n in self._FIELDS])

    def _values(self) -> tuple[Any, ...]:
        """The compared fields: all but those ``_UNCOMPARED``."""
        return tuple([getattr(self, n) for n in self._FIELDS if n not in self._UNCOMPARED])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, FrozenValue)
        return self is other or self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{n}={getattr(self, n)!r}" for n in self._FIELDS if n not in self._UNCOMPARED
        )
        return f"{type(self).__name__}({shown})"

    def __copy__(self: F) -> F:
        return self

    def __deepcopy__(self: F, memo: object) -> F:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple([getattr(self, n) for n in self._FIELDS]))


@mypyc_attr(allow_interpreted_subclasses=True)
class GameState(FrozenValue):
    """A game position: an immutable value, compared by value and hashable.

    Public attributes common to every profile: ``profile``, ``seed`` (the
    deals not given explicitly are drawn from it), ``first_dealer``,
    ``hand_number`` (1 during the first hand), ``phase``, ``dealer``, ``current_player`` (None while nobody acts),
    ``trump``, ``hands`` (one sorted tuple of cards per seat), ``trick`` (the
    trick in progress: ``(seat, card)`` pairs), ``scores`` and ``results``.
    ``history`` (the actions that led here, as a linked list of nodes
    ``(earlier node or None, action, seat)``, the newest first; no node holds a
    state) is carried along but not compared; read it as ``(seat, action)``
    pairs with :func:`binocle.history`, or with :meth:`actions` or :meth:`moves`;
    :func:`binocle.undo` gives the state before the last action.  A :class:`FrozenValue`: :meth:`fields`
    names every field of a state class, and :meth:`replace` makes a copy with
    some fields changed; setting or deleting a field raises :class:`AttributeError`.
    """

    _UNCOMPARED: ClassVar[tuple[str, ...]] = ("history",)
    # The fields, in the order ``__init__`` takes them (a subclass adds its own), and
    # the memo of the legal actions besides.
    # --- generated by tools/gen_states.py from its table of fields: do not edit ---
    _FIELDS: ClassVar[tuple[str, ...]] = (
        "profile", "seed", "first_dealer", "hand_number", "phase", "dealer", "current_player",
        "trump", "hands", "trick", "scores", "results", "history",
    )  # fmt: skip
    __slots__ = (*_FIELDS, "_legal")

    def __init__(
        self,
        profile: "Profile",
        seed: int,
        first_dealer: int,
        hand_number: int,
        phase: Phase,
        dealer: int,
        current_player: int | None,
        trump: Suit | None,
        hands: tuple[tuple[Card, ...], ...],
        trick: tuple[tuple[int, Card], ...],
        scores: tuple[int, ...],
        results: tuple[HandResult, ...],
        history: tuple[Any, Action, int | None] | None,
    ) -> None:
        self.profile: Final = profile
        self.seed: Final = seed
        self.first_dealer: Final = first_dealer
        self.hand_number: Final = hand_number
        self.phase: Final = phase
        self.dealer: Final = dealer
        self.current_player: Final = current_player
        self.trump: Final = trump
        self.hands: Final = hands
        self.trick: Final = trick
        self.scores: Final = scores
        self.results: Final = results
        self.history: Final = history
        self._legal: tuple[Action, ...] | None = None

    # --- end of generated code ---

    def __str__(self) -> str:
        """The state as a person reads it: every seat's hand, the trick, trump, the
        widow or turn-up and stock, melds, scores, the phase and who acts
        (:func:`binocle.display.state_text`, which :func:`set_text` installs);
        ``repr`` gives every field."""
        text = _TEXT.get("state")
        return repr(self) if text is None else text(self)

    def _repr_svg_(self) -> str | None:
        """The whole table as a picture, for a notebook (:func:`binocle.svg.table_svg`)."""
        return show_picture(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # The history is a linked list as deep as the game is long; pickle would recurse
        # once per action (RecursionError past about a thousand).  It travels flat.
        values = {n: getattr(self, n) for n in self._FIELDS if n != "history"}
        return (_unpickle_state, (type(self), values, self.moves()))

    def actions(self) -> tuple[Action, ...]:
        """Every action that led from the game's first deal to this state, in order."""
        return tuple(a for a, _ in self.moves())

    def moves(self) -> tuple[tuple[Action, int | None], ...]:
        """Every action with the seat that took it (None for a deal), in order."""
        out: list[tuple[Action, int | None]] = []
        node = self.history
        while node is not None:
            out.append((node[1], node[2]))
            node = node[0]
        out.reverse()
        return tuple(out)


#: The text for people of a state and of a view, by ``"state"`` and ``"view"``: the
#: surface gives it (:func:`set_text`); the rules write no text of their own.
_TEXT: Final[dict[str, Callable[[Any], str]]] = {}


def set_text(state: Callable[[GameState], str], view: Callable[[View], str]) -> None:
    """Make ``str(state)`` and ``str(view)`` call ``state`` and ``view``.

    :mod:`binocle.display` installs :func:`~binocle.display.state_text` and
    :func:`~binocle.display.view_text` when it is imported (``import binocle`` does).
    Until then a state or a view reads as its ``repr``.
    """
    _TEXT["state"] = state
    _TEXT["view"] = view


def _unpickle_state(
    cls: type[T], values: dict[str, Any], moves: tuple[tuple[Action, int | None], ...]
) -> T:
    """A state from :meth:`GameState.__reduce__`: its fields and its flat history."""
    history: Any = None
    for action, seat in moves:
        history = (history, action, seat)
    return cls(**values, history=history)


@attrs.frozen(slots=True)
class View:
    """What one seat may know of a state: no hidden card of anyone else.

    Two states that differ only in cards hidden from ``seat`` give equal views.
    Profile-specific public facts (bids, the widow once shown, melds on the
    table, the turn-up, the stock size, one's own discards …) are in
    ``public`` as sorted ``(name, value)`` pairs; :meth:`get` reads them.
    ``claimants`` holds the seats that may knock now (:func:`binocle.claimants`):
    a front end offers this seat a Knock button when ``seat`` is among them.

    ``history`` is the whole game as this seat saw it: every action with the
    seat that took it (None for a deal), oldest first, where the part hidden
    from the seat is left out: a deal shows no cards (``Action(Kind.DEAL)``),
    another seat's face-down discard shows no card.  ``deck`` is the current
    hand's deal in dealing order as far as this seat has seen it: its own
    cards, the cards turned up or shown, the stock cards it drew; None where
    a card is hidden from it (empty between hands).  These two are what
    :func:`binocle.determinize` reads.  ``winner`` is the seat that won the game
    once it is over (:func:`binocle.winner`), else None.

    ``log`` is the current hand as text, one entry per action (``"deal"``,
    ``"1: play TS"``), with what follows an action by the rules alone: in the
    classic game, after each announcement, the two draws from the stock
    (``"0: draw TS"`` for a card this seat may see, ``"1: draw"`` for one it may
    not).
    """

    profile: "Profile"
    seat: int
    phase: Phase
    dealer: int
    current_player: int | None
    trump: Suit | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    scores: tuple[int, ...]
    results: tuple[HandResult, ...]
    legal_actions: tuple[Action, ...]
    log: tuple[str, ...]
    public: tuple[tuple[str, Any], ...]
    claimants: tuple[int, ...] = ()
    history: tuple[tuple[Action, int | None], ...] = ()
    deck: tuple[Card | None, ...] = ()
    winner: int | None = None

    def __str__(self) -> str:
        """The view as its seat reads it: its own hand, the others' card counts, the
        public facts, scores, the phase and its legal actions
        (:func:`binocle.display.view_text`, which :func:`set_text` installs)."""
        text = _TEXT.get("view")
        return repr(self) if text is None else text(self)

    def _repr_svg_(self) -> str | None:
        """The seat's table as a picture, for a notebook (:func:`binocle.svg.table_svg`)."""
        return show_picture(self)

    @overload
    def get(self, name: Literal["bidder", "bid", "retired"]) -> int | None | None: ...
    @overload
    def get(self, name: Literal["bidder", "bid", "retired"], default: _D) -> int | _D | None: ...
    @overload
    def get(
        self, name: Literal["discard_count", "stock_size", "dixes", "tricks"]
    ) -> int | None: ...
    @overload
    def get(
        self, name: Literal["discard_count", "stock_size", "dixes", "tricks"], default: _D
    ) -> int | _D: ...
    @overload
    def get(self, name: Literal["exchanged"]) -> bool | None: ...
    @overload
    def get(self, name: Literal["exchanged"], default: _D) -> bool | _D: ...
    @overload
    def get(
        self,
        name: Literal[
            "meld_points",
            "targets",
            "taken",
            "claim_totals",
            "dix_shown",
            "announced",
            "recorded",
            "payers",
        ],
    ) -> tuple[int, ...] | None: ...
    @overload
    def get(
        self,
        name: Literal[
            "meld_points",
            "targets",
            "taken",
            "claim_totals",
            "dix_shown",
            "announced",
            "recorded",
            "payers",
        ],
        default: _D,
    ) -> tuple[int, ...] | _D: ...
    @overload
    def get(self, name: Literal["pair"]) -> tuple[int, ...] | None | None: ...
    @overload
    def get(self, name: Literal["pair"], default: _D) -> tuple[int, ...] | _D | None: ...
    @overload
    def get(self, name: Literal["scored"]) -> tuple[bool, ...] | None: ...
    @overload
    def get(self, name: Literal["scored"], default: _D) -> tuple[bool, ...] | _D: ...
    @overload
    def get(self, name: Literal["widow", "discards"]) -> tuple[Card, ...] | None | None: ...
    @overload
    def get(
        self, name: Literal["widow", "discards"], default: _D
    ) -> tuple[Card, ...] | _D | None: ...
    @overload
    def get(self, name: Literal["concealed"]) -> tuple[Card, ...] | None: ...
    @overload
    def get(self, name: Literal["concealed"], default: _D) -> tuple[Card, ...] | _D: ...
    @overload
    def get(self, name: Literal["turn_up"]) -> Card | None | None: ...
    @overload
    def get(self, name: Literal["turn_up"], default: _D) -> Card | _D | None: ...
    @overload
    def get(self, name: Literal["tables"]) -> tuple[tuple[Card, ...], ...] | None: ...
    @overload
    def get(self, name: Literal["tables"], default: _D) -> tuple[tuple[Card, ...], ...] | _D: ...
    @overload
    def get(self, name: Literal["last_trick"]) -> tuple[tuple[int, Card], ...] | None: ...
    @overload
    def get(
        self, name: Literal["last_trick"], default: _D
    ) -> tuple[tuple[int, Card], ...] | _D: ...
    @overload
    def get(self, name: Literal["played"]) -> tuple[tuple[tuple[int, Card], ...], ...] | None: ...
    @overload
    def get(
        self, name: Literal["played"], default: _D
    ) -> tuple[tuple[tuple[int, Card], ...], ...] | _D: ...
    @overload
    def get(self, name: Literal["calls"]) -> tuple[tuple[int, int], ...] | None: ...
    @overload
    def get(self, name: Literal["calls"], default: _D) -> tuple[tuple[int, int], ...] | _D: ...
    @overload
    def get(self, name: Literal["melds"]) -> tuple[MeldResult | None, ...] | None: ...
    @overload
    def get(self, name: Literal["melds"], default: _D) -> tuple[MeldResult | None, ...] | _D: ...
    @overload
    def get(
        self, name: Literal["table_melds"]
    ) -> tuple[tuple[tuple[str, tuple[Card, ...], bool], ...], ...] | None: ...
    @overload
    def get(
        self, name: Literal["table_melds"], default: _D
    ) -> tuple[tuple[tuple[str, tuple[Card, ...], bool], ...], ...] | _D: ...
    @overload
    def get(self, name: Literal["two_handed"]) -> tuple[tuple[str, object], ...] | None: ...
    @overload
    def get(
        self, name: Literal["two_handed"], default: _D
    ) -> tuple[tuple[str, object], ...] | _D: ...
    @overload
    def get(self, name: str, default: object = None) -> object: ...
    def get(self, name: str, default: object = None) -> object:
        """A profile-specific public fact by name, e.g. ``view.get("widow")``, or
        ``default`` (None) where the profile or the moment has none.

        Typed by name: ``view.get("bid")`` is ``int | None`` to a type checker,
        ``view.get("widow")`` a tuple of cards or None, and so on for each fact of
        the profiles' fact types (:class:`~binocle.profiles.CutthroatFacts`,
        :class:`~binocle.profiles.ClassicFacts`,
        :class:`~binocle.profiles.ThreeHandedFacts`); another name gives ``object``.
        ``binocle.profiles.cutthroat_facts(view)`` and its siblings give every
        fact at once, typed.
        """
        for key, value in self.public:
            if key == name:
                return value
        return default


def _option_fields(cls: type[Any]) -> list[Any]:
    """A profile's option fields: its own first, then the options every profile has."""
    own = [f for f in attrs.fields(cls) if f.name != "max_hands"]
    return [*own, *(f for f in attrs.fields(cls) if f.name == "max_hands")]


def _max_hands_value(value: Any) -> Any:
    """``max_hands`` as read from text: ``none`` means no limit."""
    return None if isinstance(value, str) and value.strip().lower() == "none" else value


def _max_hands_option(instance: Any, attribute: Any, value: Any) -> None:
    """attrs validator of ``max_hands``: None (no limit) or a positive whole number."""
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_OPTION
    ):
        raise ValueError(
            f"max_hands must be a whole number 1..{MAX_OPTION} (or none), not {excerpt(value)}"
        )


def _own_state(profile: Profile, state: Any) -> GameState:
    """``state`` when it is a state of ``profile``'s game, else
    :class:`~binocle.errors.InvalidArgumentError` (for the profile's methods that take
    a state)."""
    if isinstance(state, GameState) and (state.profile is profile or state.profile == profile):
        return state
    raise InvalidArgumentError(f"not a state of the {profile.name} game: {excerpt(state)}")


def _whole_number(value: Any, what: str) -> int:
    """``value`` when it is a whole number from 0, else
    :class:`~binocle.errors.InvalidArgumentError` naming ``what``."""
    if is_whole(value) and value >= 0:
        return value
    raise InvalidArgumentError(f"{what} is a whole number from 0, not {excerpt(value)}")


def _rules_entry(profile: Profile, table: Mapping[type, _E]) -> _E | None:
    """The entry of ``table`` for the rules ``profile`` is built on: that of its own
    class, else of its nearest base class in ``table``; None where there is none.

    Code kept by rules family outside the profiles (tensor layouts, action spaces, the
    determinizer's reading of a view) is looked up so: a profile built on existing
    rules (partnership on cutthroat's) takes theirs without an entry of its own.
    """
    for k in type(profile).__mro__:
        if k in table:
            return table[k]
    return None


@attrs.frozen(slots=True)
class Profile:
    """A rule profile: options as frozen fields, the phase machine as methods.

    Subclasses set ``name``, ``aliases``, ``players`` and ``description`` and
    implement the abstract methods.  Instances come from
    :func:`binocle.profile`.

    Every profile has the option ``max_hands`` (None: the game is played to
    its end, as the published rules play it).  With ``max_hands=N`` the game is over
    at the end of hand N if the rules have not ended it before: the highest
    score wins, a tie as the profile breaks ties (else nobody wins), and
    :func:`binocle.end_reason` is ``"limit"``.
    """

    name: "ClassVar[str]" = ""
    aliases: "ClassVar[tuple[str, ...]]" = ()
    players: "ClassVar[int]" = 0
    description: "ClassVar[str]" = ""
    #: Whether the validator plays a hand out past a revoke and scores it with
    #: :meth:`revoke_scores` (the profile's rules page, "Revoke", says how).
    revokes_played_out: "ClassVar[bool]" = False
    #: Whether a wrong claim (a knock short of the target) loses the game at once
    #: (classic rules, Claiming (knocking)); False where it retires the claimant
    #: (three-handed rules, Claiming (knocking)) or where nobody claims.
    wrong_claim_loses: "ClassVar[bool]" = False
    #: Whether each seat's meld is laid on the table for all to see, the whole of it in
    #: the meld phase (cutthroat, partnership and three-handed rules, Melds); False where
    #: melds are announced one by one after a trick won (classic rules, Announcements).
    #: A view then lists each seat's meld under ``melds``.
    melds_shown: "ClassVar[bool]" = False
    #: The keys of a view's public facts (``view.public``) that the cards hidden
    #: from the viewer decide (a meld shown is its hand's whole meld, an overlooked meld
    #: is counted against a hand): a deal that fits what the viewer saw may differ in
    #: them (:func:`binocle.determinize` lets them differ).
    hidden_facts: "ClassVar[frozenset[str]]" = frozenset()
    #: Whether the turn-up, the last card dealt, stays on show once its hand is over
    #: (three-handed rules, Deal): the view of the last hand of a game, or of a hand a
    #: retirement ended, still names it under ``turn_up``.
    turn_up_stays: "ClassVar[bool]" = False

    max_hands: int | None = attrs.field(
        default=None, converter=_max_hands_value, validator=_max_hands_option, kw_only=True
    )

    # -- identity ------------------------------------------------------------

    def spec(self) -> str:
        """The profile as text that :func:`binocle.profile` reads back.

        Only options that differ from their defaults are written.
        """
        parts = []
        for f in _option_fields(type(self)):
            value = getattr(self, f.name)
            if value != f.default:
                text = str(value).lower() if isinstance(value, bool) else str(value)
                parts.append(f"{f.name}={text}")
        return f"{self.name}({','.join(parts)})" if parts else self.name

    def __str__(self) -> str:
        return self.spec()

    @property
    def seats(self) -> int:
        """How many players sit at the table."""
        return self.players

    @property
    def pack_size(self) -> int:
        """48, or 64 where a profile offers the larger pack."""
        return 48

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats that score together, one tuple per side, in seat order: each
        seat alone, unless the profile plays in partnerships (partners share one
        score, and each partner's game score and hand result show the side's)."""
        return tuple((i,) for i in range(self.players))

    def side_of(self, seat: Any) -> tuple[int, ...]:
        """The seats that score with ``seat``, ``seat`` among them, in seat order: its
        side of :attr:`sides` (``(seat,)`` where each seat plays alone).

        Raises :class:`~binocle.errors.InvalidArgumentError` unless ``seat`` is a seat
        of this profile (a whole number 0 to ``players - 1``).
        """
        # ``seat`` is typed Any: the compiled build would turn True into 1 before this.
        if is_whole(seat):
            for side in self.sides:
                if seat in side:
                    return side
        raise InvalidArgumentError(
            f"seat is a whole number 0 to {self.players - 1} in the {self.name} game,"
            f" not {excerpt(seat)}"
        )

    @property
    def retirement_game(self) -> Profile | None:
        """The game the players left go on with after a retirement (a wrong claim
        retires its claimant, and the two others play the classic game with a stock:
        three-handed rules, The two-handed game after a retirement), or None where
        nobody retires.

        A retirement's game is played inside the state (``state.sub``); its hands
        count as hands of their own in an episode, and a player who retired leaves
        dead cards on the trick.
        """
        return None

    def stock_game(self, state: Any) -> GameState | None:
        """The part of ``state`` that draws from a stock after each trick, whose draws
        are chance outcomes: ``state`` itself in the classic game, the two-handed game
        after a three-handed retirement, None where there is no stock.  Anything but a
        state of this profile's game raises :class:`~binocle.errors.InvalidArgumentError`."""
        _own_state(self, state)
        return None

    def max_decisions_per_hand(self) -> int:
        """An upper bound on the decisions (not chance outcomes) one hand can take: the
        length of a hand's part of the perfect-recall tensor
        (:func:`binocle.encoding.max_decisions_per_hand`).

        Raises :class:`~binocle.errors.InvalidArgumentError` where the profile gives
        no bound.
        """
        raise InvalidArgumentError(f"no episode bounds are defined for the {self.name} profile")

    def hand_bounds(self) -> tuple[int, int, int]:
        """Per hand: the lowest and highest change of one seat's score, and the highest
        change of two seats' scores added together (what
        :func:`binocle.encoding.utility_bounds` builds on).

        Raises :class:`~binocle.errors.InvalidArgumentError` where the profile gives
        no bounds.
        """
        raise InvalidArgumentError(f"no episode bounds are defined for the {self.name} profile")

    def highest_before_last_hand(self, gained: Any) -> int:
        """A bound on one seat's score before the last hand of an episode begun at a
        new game, when two seats' scores gained at most ``gained`` together in the
        hands before it (:func:`binocle.encoding.utility_bounds`).

        Below the target, unless two seats stand at the target together and play on
        (classic and three-handed rules, End of a hand: both reached it, their targets
        raised): then one of them holds at most what the two gained less the other's
        target.  ``gained`` is a whole number from 0, else
        :class:`~binocle.errors.InvalidArgumentError`.
        """
        gained = _whole_number(gained, "gained")
        target: int = getattr(self, "target", 0)
        below = target - 1
        both = gained - target
        return max(below, both) if both >= target else below

    def options(self) -> dict[str, Any]:
        """Every option of this profile with its value."""
        return {f.name: getattr(self, f.name) for f in _option_fields(type(self))}

    # -- the phase machine (implemented by each profile) ----------------------

    def initial(self, seed: int, dealer: int) -> GameState:
        """The state before the first deal: phase DEAL, nobody to act."""
        raise NotImplementedError

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        """Every legal action, in a deterministic order (deals excepted)."""
        raise NotImplementedError

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after a legal ``action`` (already checked by the caller)."""
        raise NotImplementedError

    def refusal(self, state: GameState, action: Action) -> tuple[RuleCode, str]:
        """Why ``action`` is illegal in ``state``: the :class:`~binocle.errors.RuleCode`
        of the rule it breaks and the text that names the rule and what forbids it
        (what :class:`~binocle.errors.IllegalActionError` carries).

        Raises :class:`~binocle.errors.InvalidArgumentError` ("… is legal here")
        when :func:`binocle.apply` would accept ``action``: no rule refuses it.
        """
        raise NotImplementedError

    def explain(self, state: GameState, action: Action) -> str:
        """Why ``action`` is illegal in ``state``: the rule and what forbids it (the
        text of :meth:`refusal`).

        Raises :class:`~binocle.errors.InvalidArgumentError` ("… is legal here")
        when :func:`binocle.apply` would accept ``action``.
        """
        return self.refusal(state, action)[1]

    def is_legal(self, state: GameState, action: Action) -> bool:
        """Whether :func:`binocle.apply` accepts ``action`` in ``state``: one of its
        legal actions, a knock (``claim <seat>``) of a seat among the claimants, or
        a deal of this pack when a deal is due."""
        legal = state._legal
        if legal is None:
            legal = self.legal_actions(state)
        if action in legal:
            return True
        if action.kind is Kind.CLAIM and action.number is not None:
            seat = action.number
            return action == claim(seat) and seat in self.claimants(state)
        if action.kind is Kind.DEAL:
            return state.phase is Phase.DEAL and self.check_deck(action) is None
        return False

    def refuse_legal(self, state: GameState, action: Action) -> None:
        """Raise InvalidArgumentError when ``action`` is legal in ``state``: asked why
        it is refused, the answer is that it is not."""
        if self.is_legal(state, action):
            raise InvalidArgumentError(
                f"{action} is legal here: no rule refuses it (binocle.apply accepts it)"
            )

    def observe(self, state: GameState, seat: int) -> View:
        """What ``seat`` may know of ``state``."""
        raise NotImplementedError

    def meld(self, cards: tuple[Card, ...], trump: Suit | None) -> MeldResult:
        """The meld of ``cards`` with ``trump``, as this profile scores it."""
        raise NotImplementedError

    def meld_of(self, cards: tuple[Card, ...], trump: Suit) -> MeldResult:
        """:func:`binocle.meld` once its arguments are cards and a suit: refuses cards
        that are not of this profile's pack (or more than two of a kind), then melds."""
        hand = tuple(sorted(cards))
        size = self.pack_size
        for c in dict.fromkeys(hand):
            if size == 48 and c & 7 >= 6:
                raise InvalidNotationError(f"{c} is not in the {size}-card pack")
            if hand.count(c) > 2:
                raise InvalidNotationError(f"{c} appears {hand.count(c)} times: the pack has two")
        return self.meld(hand, trump)

    def check(self, state: GameState) -> None:
        """Raise InvalidStateError unless every card of the pack is accounted for."""
        raise NotImplementedError

    def revoke_penalty(self, state: GameState, seat: int) -> str:
        """What follows when ``seat`` revokes in ``state``: plays a card against the
        trick obligations (follow suit, win the trick, trump).

        The engine never lets such a card be played; :func:`binocle.validate`
        reports a revoke in a game recorded elsewhere with this text, which
        each profile takes from its rules page ("Revoke").
        """
        return "the card does not stand: it is taken back and a legal one played instead"

    def revoke_scores(
        self, state: GameState, seat: int, last: Action | None = None
    ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """Each seat's score for the hand in which ``seat`` revoked, where
        :attr:`revokes_played_out` is true: the hand under the revoke rule, and
        the same hand played out where the rules give a choice (else None).

        ``state`` is the hand past the revoke, in its play: the revoking card
        played anyway, then the record's further cards of the hand; ``last``
        is the card that ended the hand after it, None where the record stops
        before its end.
        """
        raise NotImplementedError

    def winner(self, state: GameState) -> int | None:
        """The seat that won the game, or None (a state's ``game_winner``)."""
        won: int | None = getattr(state, "game_winner", None)
        return won

    def current_winner(self, state: GameState) -> tuple[int, Card] | None:
        """The seat and the card now winning the trick in progress (common rules,
        Trick winner: the highest trump, else the highest card of the suit led; of
        two identical cards the first played); None while no card of it wins."""
        trick = state.trick
        if not trick:
            return None
        return trick[_trick_winner([c for _, c in trick], state.trump)]

    # -- knocking and the end of the game ---------------------------------------

    def claimants(self, state: GameState) -> tuple[int, ...]:
        """The seats that may knock (claim the game) now, in seat order.

        None by default: a profile without claiming ends its games at the end
        of a hand.  Computed only when asked, never on the way of ``apply``.
        """
        return ()

    def knock_refusal(self, state: GameState, seat: int) -> tuple[RuleCode, str]:
        """Why ``seat`` may not knock now (``seat`` is not among the claimants): the
        rule's code and the text."""
        if state.phase is Phase.OVER:
            return RuleCode.GAME_OVER, f"the game is over: seat {seat} cannot claim it"
        if state.phase is Phase.DEAL:
            return (
                RuleCode.WRONG_PHASE,
                f"the hand is over: seat {seat} cannot claim before the next deal",
            )
        return RuleCode.NO_CLAIM_OPEN, f"there is no claiming (knocking) in the {self.name} game"

    def explain_knock(self, state: GameState, seat: int) -> str:
        """Why ``seat`` may not knock now (the text of :meth:`knock_refusal`)."""
        return self.knock_refusal(state, seat)[1]

    def limit_reached(self, hand_number: int) -> bool:
        """Whether the ``max_hands`` limit ends the game at the end of this hand."""
        return self.max_hands is not None and hand_number >= self.max_hands

    # -- shared machinery ----------------------------------------------------

    def explain_out_of_hand(self, state: GameState, action: Action) -> tuple[RuleCode, str] | None:
        """Why ``action`` is illegal when the game is over, or a deal is (or is not)
        due, as :meth:`refusal` gives it; None when the hand is in progress and the
        profile must say."""
        phase = state.phase
        if phase is Phase.OVER:
            return RuleCode.GAME_OVER, f"the game is over: {action} is not possible"
        if action.kind is Kind.DEAL:
            if phase is not Phase.DEAL:
                return RuleCode.WRONG_PHASE, f"no deal now: the hand is in the {phase.value} phase"
            return RuleCode.BAD_DECK, self.check_deck(action) or "not a deal of this pack"
        if phase is Phase.DEAL:
            return (
                RuleCode.WRONG_PHASE,
                f"the hand is over: the next action is a deal, not {action}",
            )
        return None

    def view(
        self,
        state: GameState,
        seat: int,
        public: dict[str, Any],
        log: tuple[str, ...],
        legal: tuple[Action, ...] | None = None,
        deck: tuple[Card | None, ...] = (),
    ) -> View:
        """The :class:`View` of ``seat``: its own hand, the common public fields,
        the profile's ``public`` facts, ``log``, the game's history as the seat
        saw it (:meth:`mask`) and what it knows of the deal (``deck``)."""
        s = state
        if legal is None:
            legal = self.legal_actions(s) if seat == s.current_player else ()
        return View(
            self, seat, s.phase, s.dealer, s.current_player, s.trump, s.hands[seat],
            tuple(len(h) for h in s.hands), s.trick, s.scores, s.results, legal, log,
            tuple(sorted(public.items())), self.claimants(s),
            public_history(s, seat, self.mask), deck, self.winner(s),
        )  # fmt: skip

    def mask(self, action: Action, actor: int | None, seat: int) -> Action:
        """``action`` as ``seat`` saw it: a deal without its cards; the profile
        hides more where its rules put cards face down."""
        return HIDDEN_DEAL if action.kind is Kind.DEAL else action

    def seen_deck(
        self, state: GameState, seat: int, public: tuple[int, ...] = ()
    ) -> tuple[Card | None, ...]:
        """The current hand's deck as ``seat`` knows it: its own dealt cards and the
        deck positions in ``public``; None elsewhere (empty between hands)."""
        if state.phase is Phase.DEAL or state.phase is Phase.OVER:
            return ()
        deck = current_deal(state)
        if deck is None:
            return ()
        known = set(public)
        pos = 0
        for target, n in self.deal_schedule(state.dealer):
            if target == seat:
                known.update(range(pos, pos + n))
            pos += n
        return tuple(c if i in known else None for i, c in enumerate(deck))

    def resolve(self, state: GameState, action: Action) -> Action:
        """Interpret a parsed action in the state (e.g. which copy of a card)."""
        return action

    def deal_for(self, state: GameState) -> Action:
        """The deal drawn from the game's seed for the next hand."""
        deck = shuffled_pack(self.pack_size, f"binocle:{state.seed}:{state.hand_number}")
        return new_action(Kind.DEAL, cards=deck)  # the engine's own deck: no checks

    def deal_schedule(self, dealer: int) -> tuple[tuple[int | str, int], ...]:
        """How a deck is dealt, in order: packets of ``(seat or pile name, cards)``.

        Pile names are the profile's own (``"widow"``, ``"turn_up"``, ``"stock"``).
        """
        raise NotImplementedError

    def play_obligation(self, stock_exhausted: bool | None = None) -> Obligation:
        """The trick rule a card played is held to (the Play section of the profile's
        rules page).

        ``stock_exhausted`` says whether the stock is gone, where the rule changes
        with it (classic: any card while the stock lasts); where it does not, it
        is ignored.  Raises InvalidArgumentError where the rule needs it and it is
        None.
        """
        raise NotImplementedError

    def check_melds(
        self,
        hand: tuple[Card, ...],
        trump: int,
        declared: tuple[tuple[str, tuple[Card, ...], int | None], ...],
        table: object = None,
    ) -> list[tuple[RuleCode | None, str, int]]:
        """A ruling on each declared meld ``(name, cards, value announced or None)`` of
        ``hand`` with ``trump``, in order: ``(None, "", value)`` where it stands, else
        ``(code, why, what it scores)`` (the Melds or Announcements section of the
        profile's rules page).

        ``table`` is what the player laid down before, where the rules look at it
        (classic: a :class:`~binocle.rules.classic_melds.MeldTable`); None for
        nothing.  Raises InvalidArgumentError for a table of the wrong kind.
        """
        raise NotImplementedError

    def split_deck(
        self, deck: tuple[Card, ...], dealer: int
    ) -> tuple[list[list[Card]], dict[str, list[Card]]]:
        """The hands (in deal order) and the piles that ``deck`` deals."""
        return _deal.split_deck(deck, self.deal_schedule(dealer), self.players)

    def stack_deck(self, hands: Any, dealer: int = 0, **piles: Any) -> tuple[Card, ...]:
        """The deck order that deals exactly these ``hands`` and ``piles``.

        ``hands`` has one entry per seat and ``piles`` one per pile of the deal
        schedule, each as card text or cards.  Parts left out (or None) take the
        rest of the pack, in pack order, in the order they are dealt.  The
        inverse of the deal, for setting up a position:

        >>> import binocle
        >>> p = binocle.profile("cutthroat")
        >>> hands = ["AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD",
        ...          "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD", None]
        >>> deck = p.stack_deck(hands, dealer=0, widow="QD QD JD")
        >>> s = binocle.new_game(p, deck=deck)
        >>> binocle.observe(s, 0).hand[:3], s.hands[1] == s.hands[0]
        ((Card('AS'), Card('TS'), Card('KS')), True)
        """
        return _deal.stack_deck(
            self.deal_schedule(dealer), self.players, self.pack_size, hands, piles
        )

    def check_deck(self, action: Action) -> str | None:
        """Why a ``deal`` action's deck is not this profile's pack, or None."""
        return _deal.check_deck(action.cards, self.pack_size)


#: A deal as the players see it: no cards.
HIDDEN_DEAL: Any = new_action(Kind.DEAL)


def public_history(
    state: GameState, seat: int, mask: Callable[[Action, int | None, int], Action]
) -> tuple[tuple[Action, int | None], ...]:
    """The game's actions as ``seat`` saw them (``mask``), oldest first."""
    out: list[tuple[Action, int | None]] = []
    node = state.history
    while node is not None:
        prev, action, actor = node
        out.append((mask(action, actor, seat), actor))
        node = prev
    out.reverse()
    return tuple(out)


def current_deal(state: GameState) -> tuple[Card, ...] | None:
    """The deck of the current hand's deal, or None before the first deal."""
    node = state.history
    while node is not None:
        if node[1].kind is Kind.DEAL:
            cards: tuple[Card, ...] = node[1].cards
            return cards
        node = node[0]
    return None


#: The largest whole-number profile option (nine digits).
MAX_OPTION: Final = 999_999_999
