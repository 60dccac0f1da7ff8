"""Numbers for learning and search: actions as ids, views as tensors, deals as chance.

Everything a game-AI framework needs, in the core and with no dependency, so
that the OpenSpiel and PettingZoo adapters (and any training code) stay thin:

- **A fixed action space per profile** (and its options): :func:`num_distinct_actions`,
  :func:`action_id`, :func:`action_from_id`, :func:`legal_ids`, :func:`legal_mask`.
  An id means the same thing in every state: a bid id is always that bid, a
  card id always that card.  :func:`action_labels` lists them; the docs page
  "Binocle for AI research" prints the table of every profile.
- **Observations from a view alone**: :func:`information_state_string`,
  :func:`information_state_tensor`, :func:`observation_string` and
  :func:`observation_tensor` read nothing but :func:`binocle.observe`'s
  :class:`~binocle.View`, so they cannot show a card the seat may not see.
  :func:`tensor_layout` names the parts of each tensor.
- **Chance and episodes**: an :class:`Episode` deals card by card as chance
  outcomes (the classic stock's cards are drawn as chance when they are
  drawn), plays one hand or several, and keeps the returns.

>>> import binocle
>>> from binocle import encoding
>>> encoding.num_distinct_actions("cutthroat")
332
>>> s = binocle.new_game("cutthroat", seed=7)
>>> ids = encoding.legal_ids(s)
>>> ids[:3], encoding.action_from_id(s, ids[1])
((0, 1, 2), Action(kind=<Kind.BID: 'bid'>, card=None, number=250, suit=None, cards=(), name=None, source=None))
>>> encoding.action_id(s, "bid 260")
2
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from binocle import actions as A
from binocle.actions import Action, Kind, parse_action_text
from binocle.cards import CARDS, Card, Suit, format_cards
from binocle.cards import kinds as _pack_kinds
from binocle.core import GameState, MeldResult, Phase, Profile, View
from binocle.errors import BinocleError, IllegalActionError, InvalidArgumentError, RuleCode
from binocle.profiles import get_profile
from binocle.rules.classic_melds import KINDS, MeldTable

__all__ = [
    "ActionSpace",
    "Episode",
    "TensorLayout",
    "action_from_id",
    "action_id",
    "action_labels",
    "action_space",
    "information_state_string",
    "information_state_tensor",
    "kinds",
    "legal_ids",
    "legal_mask",
    "num_distinct_actions",
    "observation_string",
    "observation_tensor",
    "tensor_layout",
]

# ---------------------------------------------------------------------------
# The action space
# ---------------------------------------------------------------------------

_FOUR_NAMES: Final = ((0, "aces"), (2, "kings"), (3, "queens"), (4, "jacks"))
#: The classic combinations in the order their ids run: (kind, card numbers).
_COMBOS: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    *((k, (s * 8 + 2, s * 8 + 3)) for k in ("marriage", "royal marriage") for s in range(4)),
    *(("sequence", tuple(s * 8 + r for r in range(5))) for s in range(4)),
    ("binocle", (3, 20)),
    ("double binocle", (3, 3, 20, 20)),
    ("grand binocle", (2, 3, 20)),
    *((f"four {n}", tuple(s * 8 + r for s in range(4))) for r, n in _FOUR_NAMES),
    *((f"eight {n}", tuple(sorted(s * 8 + r for s in range(4) for _ in (0, 1))))
      for r, n in _FOUR_NAMES),
)  # fmt: skip
assert {k for k, _ in _COMBOS} == {k for k, _, _ in KINDS}


def _distinct(cards: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(card number, copies) of each distinct card of a combination, in card order."""
    out: dict[int, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return tuple(sorted(out.items()))


def _splits(need: tuple[tuple[int, int], ...]) -> int:
    """How many ways the cards of a combination can come from the hand and the table.

    A card needed once: from the hand, the first table copy or the second (3);
    needed twice: both from the hand, one from either table copy, both from
    the table (4).
    """
    n = 1
    for _, copies in need:
        n *= 3 if copies == 1 else 4
    return n


def _split_label(kind: str, need: tuple[tuple[int, int], ...], code: int) -> str:
    fresh: list[str] = []
    table: list[str] = []
    for c, copies in reversed(need):
        radix = 3 if copies == 1 else 4
        code, digit = divmod(code, radix)
        name = str(CARDS[c])
        if copies == 1:
            if digit == 0:
                fresh.insert(0, name)
            else:
                table.insert(0, name if digit == 1 else f"{name}/2")
        elif digit == 0:
            fresh[:0] = [name, name]
        elif digit == 3:
            table[:0] = [name, name]
        else:
            fresh.insert(0, name)
            table.insert(0, name if digit == 1 else f"{name}/2")
    text = f"meld {kind}"
    if fresh:
        text += " " + " ".join(fresh)
    if table:
        text += " + " + " ".join(table)
    return text


@attrs.frozen(slots=True, eq=False)
class ActionSpace:
    """The fixed action space of one profile (with its options).

    ``labels[i]`` is what id ``i`` means, as action text; a card from the
    second table copy is written ``KS/2`` (see the docs page "Binocle for AI
    research").  Build one with :func:`action_space`.
    """

    profile: Profile
    labels: tuple[str, ...]
    cards: tuple[Card, ...]
    _fixed: dict[Action, int] = attrs.field(repr=False)
    _plain: dict[str, int] = attrs.field(repr=False)
    _table_play: int = attrs.field(repr=False)
    _melds: int = attrs.field(repr=False)
    _combo_base: dict[tuple[str, tuple[int, ...]], int] = attrs.field(repr=False)
    _by_id: tuple[Action | None, ...] = attrs.field(repr=False)

    @property
    def size(self) -> int:
        """How many ids there are."""
        return len(self.labels)

    def table(self) -> str:
        """The table as text, one ``<id> <meaning>`` line per id."""
        return "".join(f"{i} {label}\n" for i, label in enumerate(self.labels))

    def id(self, state: GameState, action: Action | str) -> int:
        """The id of ``action`` (or its text) in ``state``."""
        if isinstance(action, str):
            action = parse_action_text(action)
        if not isinstance(action, Action):
            raise InvalidArgumentError(f"not an action: {type(action).__name__}")
        i = self._fixed.get(action)
        if i is not None:
            return i
        kind = action.kind
        if kind is Kind.CLAIM:
            if action.number is None or action.number == state.current_player:
                text = str(action) if action.number is None else "claim"
                if text in self._plain:
                    return self._plain[text]
            if action.number is None:
                raise InvalidArgumentError(
                    f"{action} has no id in the {self.profile.name} action space"
                )
            raise InvalidArgumentError(
                f"{action}: a knock out of turn has no id; the action space offers"
                " the claim to the player to act"
            )
        if kind is Kind.PLAY and action.source == "table" and self._table_play >= 0:
            return self._table_play_id(state, action)
        if kind is Kind.MELD and action.name is not None and self._melds >= 0:
            return self._meld_id(state, action)
        raise InvalidArgumentError(f"{action} has no id in the {self.profile.name} action space")

    def _card_index(self, c: Card | None) -> int:
        if c is None or c not in self.cards:
            raise InvalidArgumentError(f"not a card of the {len(self.cards) * 2}-card pack: {c}")
        return self.cards.index(c)

    def _table_play_id(self, state: GameState, action: Action) -> int:
        i = self._card_index(action.card)
        card = self.cards[i]
        copy = 0
        if action.number is not None:
            table = _meld_table(state)
            groups = _table_groups(table).get(card, []) if table is not None else []
            if action.number not in groups:
                raise InvalidArgumentError(f"{action}: no such table copy now")
            copy = groups.index(action.number)
        return self._table_play + 2 * i + copy

    def _meld_id(self, state: GameState, action: Action) -> int:
        table_words = (action.source or "").split()
        table_cards = [parse_action_text(f"play {w.partition('#')[0]}").card for w in table_words]
        everything = tuple(sorted(int(c) for c in (*action.cards, *table_cards) if c is not None))
        base = self._combo_base.get((action.name or "", everything))
        if base is None:
            raise InvalidArgumentError(f"{action}: not a combination of the meld table")
        groups: dict[Card, list[int]] = {}
        if any("#" in w for w in table_words):
            table = _meld_table(state)
            groups = _table_groups(table) if table is not None else {}
        used: dict[int, list[int]] = {}
        for w, c in zip(table_words, table_cards, strict=True):
            assert c is not None
            slot = w.partition("#")[2]
            copy = 0
            if slot:
                slots = groups.get(c, [])
                if int(slot) not in slots:
                    raise InvalidArgumentError(f"{action}: no table copy {w} now")
                copy = slots.index(int(slot))
            used.setdefault(int(c), []).append(copy)
        code = 0
        for k, copies in _distinct(everything):
            on_table = used.get(k, [])
            if copies == 1:
                digit = 0 if not on_table else 1 + on_table[0]
                code = code * 3 + digit
            else:
                digit = 0 if not on_table else 3 if len(on_table) == 2 else 1 + on_table[0]
                code = code * 4 + digit
        return base + code

    def legal_ids(self, state: GameState) -> tuple[int, ...]:
        """The ids of the legal actions of the player to act, ascending."""
        from binocle.game import legal_actions

        if state.current_player is None:
            return ()
        return tuple(sorted(self.id(state, a) for a in legal_actions(state)))

    def legal_map(self, state: GameState) -> dict[int, Action]:
        """Each legal id with its action (the player to act's; empty when nobody acts)."""
        from binocle.game import legal_actions

        if state.current_player is None:
            return {}
        return {self.id(state, a): a for a in legal_actions(state)}

    def action(self, state: GameState, action_id: int) -> Action:
        """The legal action with id ``action_id`` in ``state``.

        Raises :class:`~binocle.IllegalActionError` when that id is not legal now.
        """
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise InvalidArgumentError(f"an action id is a whole number, not {action_id!r}")
        if not 0 <= action_id < self.size:
            raise InvalidArgumentError(
                f"action id {action_id} is outside 0..{self.size - 1} ({self.profile})"
            )
        from binocle.game import legal_actions

        fixed = self._by_id[action_id]
        if fixed is not None and state.current_player is not None and fixed in legal_actions(state):
            return fixed
        found = self.legal_map(state).get(action_id)
        if found is None:
            # The action the id names where it names one (a card id's copy depends on
            # the state), and the seat to act.
            rule = RuleCode.GAME_OVER if state.phase is Phase.OVER else RuleCode.NOT_LEGAL
            raise IllegalActionError(
                f"action id {action_id} ({self.labels[action_id]}) is not legal now",
                rule,
                fixed,
                state.current_player,
            )
        return found


def _build_space(profile: Profile) -> ActionSpace:
    cards = kinds(profile.pack_size)
    labels: list[str] = []
    fixed: dict[Action, int] = {}
    plain: dict[str, int] = {}

    def add(label: str, action: Action | None = None) -> None:
        if action is not None:
            fixed[action] = len(labels)
        plain[label] = len(labels)
        labels.append(label)

    table_play = melds = -1
    name = profile.name
    if name == "cutthroat":
        add("pass", A.PASS)
        for b in range(profile.min_bid, profile.max_bid + 1, 10):  # type: ignore[attr-defined]
            add(f"bid {b}", A.bid(b))
        add("bunch", A.BUNCH)
        for c in cards:
            add(f"discard {c}", A.DISCARD[c])
        for s in Suit:
            add(f"trump {s}", A.TRUMP[s])
        add("meld", A.MELD)
        add("concede", A.CONCEDE)
        for c in cards:
            add(f"play {c}", A.PLAY[c])
    elif name in ("classic", "three-handed"):
        add("pass", A.PASS)
        add("dix", A.DIX)
        if name == "three-handed":
            add("dix 2", Action(Kind.DIX, number=2))
            add("meld", A.MELD)
        add("claim", A.CLAIM)
        if name == "three-handed":
            add("claim overlooked", A.CLAIM_OVERLOOKED)
        for c in cards:
            add(f"play {c}", A.PLAY[c])
        table_play = len(labels)
        for c in cards:
            add(f"play {c} table", A.PLAY_TABLE[c])
            add(f"play {c} table/2")
        melds = len(labels)
    else:
        raise InvalidArgumentError(f"no action space is defined for the {name} profile")
    combo_base: dict[tuple[str, tuple[int, ...]], int] = {}
    if melds >= 0:
        for kind, combo in _COMBOS:
            need = _distinct(combo)
            combo_base[(kind, combo)] = len(labels)
            for code in range(_splits(need)):
                labels.append(_split_label(kind, need, code))
    by_id: list[Action | None] = [None] * len(labels)
    for action, i in fixed.items():
        by_id[i] = action
    return ActionSpace(
        profile, tuple(labels), cards, fixed, plain, table_play, melds, combo_base, tuple(by_id)
    )


@functools.lru_cache(maxsize=64)
def _space(profile: Profile) -> ActionSpace:
    return _build_space(profile)


def _profile_of(profile_or_state: Any) -> Profile:
    if isinstance(profile_or_state, GameState):
        return profile_or_state.profile
    if isinstance(profile_or_state, View):
        return profile_or_state.profile
    return get_profile(profile_or_state)


def action_space(profile: Any) -> ActionSpace:
    """The :class:`ActionSpace` of a profile (or its name, or a state's profile)."""
    return _space(_profile_of(profile))


def num_distinct_actions(profile: Any) -> int:
    """How many action ids the profile (with its options) has.

    >>> num_distinct_actions("classic"), num_distinct_actions("three-handed")
    (2519, 2522)
    """
    return action_space(profile).size


def action_labels(profile: Any) -> tuple[str, ...]:
    """What each id means, as action text (``KS/2``: the second table copy)."""
    return action_space(profile).labels


def _check_state(state: Any) -> GameState:
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"not a game state: {type(state).__name__}")
    return state


def action_id(state: GameState, action: Action | str) -> int:
    """The id of ``action`` (an action or its text) in ``state``'s action space."""
    s = _check_state(state)
    return _space(s.profile).id(s, action)


def action_from_id(state: GameState, action_id: int) -> Action:
    """The legal action that ``action_id`` stands for in ``state``.

    Raises :class:`~binocle.IllegalActionError` when the id is not legal there.
    """
    s = _check_state(state)
    return _space(s.profile).action(s, action_id)


def legal_ids(state: GameState) -> tuple[int, ...]:
    """The ids of the legal actions of the player to act, ascending (empty when nobody acts)."""
    s = _check_state(state)
    return _space(s.profile).legal_ids(s)


def legal_mask(state: GameState) -> tuple[int, ...]:
    """One 0/1 per id: 1 where the id is legal for the player to act."""
    s = _check_state(state)
    space = _space(s.profile)
    mask = [0] * space.size
    for i in space.legal_ids(s):
        mask[i] = 1
    return tuple(mask)


def _meld_table(state: GameState) -> MeldTable | None:
    """The meld table of the player to act, where the profile has one."""
    p = state.current_player
    if p is None:
        return None
    sub = getattr(state, "sub", None)
    if sub is not None:
        pair: tuple[int, ...] = state.pair  # type: ignore[attr-defined]
        tables: tuple[MeldTable, ...] = sub.tables
        return tables[pair.index(p)]
    tables = getattr(state, "tables", None)  # type: ignore[assignment]
    return None if tables is None else tables[p]


def _table_groups(table: MeldTable) -> dict[Card, list[int]]:
    # One slot per table copy with a different history, lowest slot first; the
    # same grouping the classic profile writes in its action text (KS#3).
    from binocle.profiles._classic_rules import _table_groups as groups

    return groups(table)


# ---------------------------------------------------------------------------
# Observations
# ---------------------------------------------------------------------------


@attrs.frozen(slots=True)
class TensorLayout:
    """The named parts of a tensor, in order: ``(name, shape)`` pairs."""

    parts: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def size(self) -> int:
        """The tensor's length."""
        total = 0
        for _, shape in self.parts:
            n = 1
            for d in shape:
                n *= d
            total += n
        return total

    def offsets(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Each part's start in the flat tensor, with its shape."""
        return dict(_offsets(self))


@functools.lru_cache(maxsize=128)
def _offsets(layout: TensorLayout) -> dict[str, tuple[int, tuple[int, ...]]]:
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    at = 0
    for name, shape in layout.parts:
        out[name] = (at, shape)
        n = 1
        for d in shape:
            n *= d
        at += n
    return out


_PHASES: Final = tuple(Phase)
_COMBO_KINDS: Final = tuple(k for k, _, _ in KINDS)


def _layout(profile: Profile, full: bool) -> TensorLayout:
    n = len(kinds(profile.pack_size))
    p = profile.players
    parts: list[tuple[str, tuple[int, ...]]] = [
        ("seat", (p,)),
        ("to_act", (p,)),
        ("dealer", (p,)),
        ("phase", (len(_PHASES),)),
        ("trump", (4,)),
        ("hand", (n,)),
        ("hand_sizes", (p,)),
        ("trick", (p - 1, p + n)),
        ("scores", (p,)),
    ]
    parts.append(("played", (p, n)) if full else ("gone", (n,)))
    name = profile.name
    if name == "cutthroat":
        bids = (profile.max_bid - profile.min_bid) // 10 + 1  # type: ignore[attr-defined]
        if full:
            parts.append(("bids", (bids, p)))
        parts += [
            ("passed", (p,)),
            ("bidder", (p,)),
            ("bid", (1,)),
            ("widow", (n,)),
            ("discards", (n,)),
            ("discard_count", (1,)),
            ("meld_points", (p,)),
        ]
        if full:
            parts.append(("melds", (p, n)))
    elif name == "classic":
        parts += [
            ("turn_up", (n,)),
            ("stock_size", (1,)),
            ("concealed", (n,)),
            ("tables", (p, n)),
            ("meld_points", (p,)),
            ("taken", (p,)),
            ("dixes", (1,)),
            ("targets", (p,)),
        ]
        if full:
            parts.append(("table_melds", (p, len(_COMBO_KINDS), 2)))
    elif name == "three-handed":
        parts += [
            ("turn_up", (n,)),
            ("exchanged", (1,)),
            ("dix_shown", (p,)),
            ("announced", (p,)),
            ("scored", (p,)),
            ("recorded", (p,)),
            ("taken", (p,)),
            ("targets", (p,)),
            ("retired", (p,)),
            ("overlooked", (p + 1,)),
            ("stock_size", (1,)),
            ("tables", (p, n)),
        ]
        if full:
            parts.append(("melds", (p, n)))
    else:
        raise InvalidArgumentError(f"no tensor layout is defined for the {name} profile")
    return TensorLayout(tuple(parts))


@functools.lru_cache(maxsize=128)
def _layout_cached(profile: Profile, full: bool) -> TensorLayout:
    return _layout(profile, full)


def tensor_layout(profile: Any, kind: str = "information_state") -> TensorLayout:
    """The layout of the ``"information_state"`` or the ``"observation"`` tensor.

    >>> tensor_layout("cutthroat").size, tensor_layout("cutthroat", "observation").size
    (1137, 189)
    """
    if kind not in ("information_state", "observation"):
        raise InvalidArgumentError(f"kind is 'information_state' or 'observation', not {kind!r}")
    return _layout_cached(_profile_of(profile), kind == "information_state")


def _check_view(view: Any) -> View:
    if not isinstance(view, View):
        raise InvalidArgumentError(
            f"not a view: {type(view).__name__} (use binocle.observe(state, seat))"
        )
    return view


class _Writer:
    """Fills a flat tensor part by part, following a layout."""

    __slots__ = ("at", "index", "out")

    def __init__(self, layout: TensorLayout, cards: Sequence[Card]) -> None:
        self.out = [0.0] * layout.size
        self.at = _offsets(layout)
        self.index = _kind_index(len(cards) * 2)

    def one_hot(self, part: str, i: int | None, row: int = 0) -> None:
        if i is None:
            return
        start, shape = self.at[part]
        self.out[start + row * shape[-1] + i] = 1.0

    def value(self, part: str, values: Iterable[float], row: int = 0) -> None:
        start, shape = self.at[part]
        base = start + row * shape[-1]
        for k, v in enumerate(values):
            self.out[base + k] = float(v)

    def cards(self, part: str, cards: Iterable[int] | None, row: int = 0) -> None:
        if not cards:
            return
        start, shape = self.at[part]
        base = start + row * shape[-1]
        for c in cards:
            self.out[base + self.index[c]] += 1.0


_CARD_NAMED: Final = {str(c): c for c in CARDS}


def _plays(view: View) -> list[tuple[int, Card]]:
    """The cards played this hand, with their seats: the completed tricks where the
    view lists them, else read from the view's log (``"1: play TS"``)."""
    played = view.get("played")
    if played is not None:
        out = [pc for trick in played for pc in trick]
        out.extend(view.trick)
        return out
    out = []
    pair = view.get("pair") if view.get("two_handed") is not None else None
    named = _CARD_NAMED
    for line in view.log:
        seat, sep, text = line.partition(": ")
        if sep and text.startswith("play "):
            s = int(seat)
            out.append((pair[s] if pair is not None else s, named[text[5:7]]))
    return out


def _tensor(view: View, full: bool) -> list[float]:
    profile = view.profile
    layout = _layout_cached(profile, full)
    cards = kinds(profile.pack_size)
    w = _Writer(layout, cards)
    n = len(cards)
    w.one_hot("seat", view.seat)
    w.one_hot("to_act", view.current_player)
    w.one_hot("dealer", view.dealer)
    w.one_hot("phase", _PHASES.index(view.phase))
    w.one_hot("trump", None if view.trump is None else int(view.trump))
    w.cards("hand", view.hand)
    w.value("hand_sizes", view.hand_sizes)
    for row, (seat, card) in enumerate(view.trick[: profile.players - 1]):
        w.one_hot("trick", seat, row)
        start, _ = w.at["trick"]
        w.out[start + row * (profile.players + n) + profile.players + w.index[card]] = 1.0
    w.value("scores", view.scores)
    plays = _plays(view)
    if full:
        for seat, card in plays:
            w.cards("played", (card,), seat)
    else:
        w.cards("gone", [c for _, c in plays])
    name = profile.name
    g = view.get
    if name == "cutthroat":
        calls: tuple[tuple[int, int], ...] = g("calls", ())
        passed = [0] * profile.players
        for seat, amount in calls:
            if amount:
                if full:
                    w.one_hot("bids", seat, (amount - profile.min_bid) // 10)  # type: ignore[attr-defined]
            else:
                passed[seat] = 1
        w.value("passed", passed)
        w.one_hot("bidder", g("bidder"))
        w.value("bid", [g("bid") or 0])
        w.cards("widow", g("widow"))
        w.cards("discards", g("discards"))
        w.value("discard_count", [g("discard_count", 0)])
        melds: tuple[MeldResult | None, ...] = g("melds", ())
        w.value("meld_points", [0 if m is None else m.total for m in melds])
        if full:
            for seat, m in enumerate(melds):
                if m is not None:
                    w.cards("melds", _meld_cards(m), seat)
    elif name == "classic":
        _classic_parts(w, dict(view.public), full)
    else:
        w.cards("turn_up", [g("turn_up")] if g("turn_up") is not None else None)
        w.value("exchanged", [1.0 if g("exchanged") else 0.0])
        w.value("dix_shown", g("dix_shown", ()))
        w.value("announced", g("announced", ()))
        w.value("scored", [1.0 if x else 0.0 for x in g("scored", ())])
        w.value("recorded", g("recorded", ()))
        w.value("taken", g("taken", ()))
        w.value("targets", g("targets", ()))
        w.one_hot("retired", g("retired"))
        offer = g("overlooked")
        if offer is not None:
            # Who overlooked a meld, and its points, while it is offered to the others.
            w.one_hot("overlooked", offer.seat)
            start, _ = w.at["overlooked"]
            w.out[start + profile.players] = float(offer.points)
        two = dict(g("two_handed", ()) or ())
        pair = g("pair")
        if two and pair is not None:
            w.value("stock_size", [two.get("stock_size", 0)])
            for i, table in enumerate(two.get("tables", ())):
                w.cards("tables", table, pair[i])
        if full:
            for seat, m in enumerate(g("melds", ())):
                w.cards("melds", _meld_cards(m), seat)
    return w.out


def _classic_parts(w: _Writer, public: dict[str, Any], full: bool) -> None:
    up = public.get("turn_up")
    w.cards("turn_up", [up] if up is not None else None)
    w.value("stock_size", [public.get("stock_size", 0)])
    w.cards("concealed", public.get("concealed"))
    for seat, table in enumerate(public.get("tables", ())):
        w.cards("tables", table, seat)
    w.value("meld_points", public.get("meld_points", ()))
    w.value("taken", public.get("taken", ()))
    w.value("dixes", [public.get("dixes", 0)])
    w.value("targets", public.get("targets", ()))
    if full:
        start, shape = w.at["table_melds"]
        for seat, melds in enumerate(public.get("table_melds", ())):
            for kind, _, intact in melds:
                k = _COMBO_KINDS.index(kind)
                w.out[start + (seat * shape[1] + k) * 2 + (0 if intact else 1)] += 1.0


@functools.lru_cache(maxsize=4096)
def _meld_cards(m: MeldResult) -> tuple[Card, ...]:
    """The cards a seat laid down: every card its combinations use, each copy once."""
    most: dict[Card, int] = {}
    for combo in m.melds:
        counts: dict[Card, int] = {}
        for c in combo.cards:
            counts[c] = counts.get(c, 0) + 1
        for c, k in counts.items():
            most[c] = max(most.get(c, 0), k)
    return tuple(c for c, k in sorted(most.items()) for _ in range(k))


def information_state_tensor(view: View) -> list[float]:
    """The seat's information state as a flat list of floats (see :func:`tensor_layout`).

    Cards are counts (0, 1 or 2) over the pack's card kinds in card order;
    seats, phases and suits are one-hot; points are plain numbers.
    """
    return _tensor(_check_view(view), True)


def observation_tensor(view: View) -> list[float]:
    """A smaller tensor: the present position, without the bidding history,
    who played which card, or the melds' cards (see :func:`tensor_layout`)."""
    return _tensor(_check_view(view), False)


def _public_text(view: View, full: bool) -> list[str]:
    lines = [
        f"profile {view.profile.spec()}",
        f"seat {view.seat}",
        f"phase {view.phase.value}",
        f"dealer {view.dealer}",
        f"to act {'-' if view.current_player is None else view.current_player}",
        f"trump {'-' if view.trump is None else view.trump}",
        f"hand {format_cards(view.hand)}",
        f"hand sizes {' '.join(map(str, view.hand_sizes))}",
        "trick " + " ".join(f"{s}:{c}" for s, c in view.trick),
        f"scores {' '.join(map(str, view.scores))}",
    ]
    if full:
        for r in view.results:
            lines.append(f"hand result {' '.join(map(str, r.delta))} {r.outcome}")
    for key, value in view.public:
        if not full and key in ("calls", "played", "table_melds", "last_trick"):
            continue
        lines.append(f"{key} {_text(value)}")
    if full:
        lines.extend(f"log {entry}" for entry in view.log)
    return lines


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, MeldResult):
        return str(value)
    if isinstance(value, tuple):
        if value and all(isinstance(c, Card) for c in value):
            return format_cards(value)
        return "(" + ", ".join(_text(v) for v in value) + ")"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def information_state_string(view: View) -> str:
    """The seat's information state as text: the view with this hand's log."""
    return "\n".join(_public_text(_check_view(view), True))


def observation_string(view: View) -> str:
    """The present position as the seat sees it, without the log."""
    return "\n".join(_public_text(_check_view(view), False))


# ---------------------------------------------------------------------------
# Chance and episodes
# ---------------------------------------------------------------------------

#: The largest number of points one seat can gain or lose in one hand, by profile
#: (bounds, not the exact extremes; see :meth:`Episode.utility_bounds`).
_TRICK_POINTS: Final = 250


def _classic_part(state: GameState) -> Any:
    """The classic (two-handed, with a stock) state inside ``state``, or None."""
    if state.profile.name == "classic":
        return state
    return getattr(state, "sub", None)


def _with_stock(state: GameState, stock: tuple[Card, ...]) -> GameState:
    """``state`` with the classic stock (top first) replaced by ``stock``, the same cards.

    The hand's ``deal`` is rewritten with that stock order and the game replayed
    from its start, so the state's history replays to the state itself (records,
    saved states and determinization read it).
    """
    from binocle.game import apply, start

    moves = state.moves()
    last = max(i for i, (a, _) in enumerate(moves) if a.kind is Kind.DEAL)
    cards = moves[last][0].cards
    keep = len(cards) - len(stock)
    deck = (*cards[:keep], *stock)
    s = start(state.profile, state.seed, state.first_dealer)
    for i, (action, _) in enumerate(moves):
        s = apply(s, A.deal(deck) if i == last else action)
    return s


@functools.lru_cache(maxsize=2)
def kinds(size: int) -> tuple[Card, ...]:
    """The card kinds of a pack in id order (24 or 32): a card's index among them is
    its place in every card part of the tensors and its chance outcome."""
    return _pack_kinds(size)


@functools.lru_cache(maxsize=2)
def _kind_index(size: int) -> dict[int, int]:
    return {int(c): i for i, c in enumerate(kinds(size))}


def _dealt_by_chance(state: GameState) -> int:
    """How many deck cards the pending deal reveals as chance: all but the classic stock."""
    classic = _classic_part(state)
    if classic is not None or state.profile.name == "classic":
        return 25
    return state.profile.pack_size


@attrs.frozen(slots=True, eq=False)
class Episode:
    """One episode for learning or search: a game state with chance made explicit.

    Each deal is a sequence of chance outcomes, one card at a time in deck
    order (an outcome is a card's index among the pack's card kinds,
    weighted by how many copies remain).  In the classic game only the
    hands and the turn-up are dealt so; each stock card is a chance outcome
    when it is drawn, just before the trick's winner announces.  The episode
    ends when the game is over or after ``hands`` hands.

    Returns are the change of each game score since the episode began; the
    reward of a step is the change since the previous decision, so it is
    paid at the first decision after a hand is scored, or at the end.
    """

    state: GameState
    hands: int = 1
    first_results: int = 0
    start_scores: tuple[int, ...] = ()
    deck: tuple[Card, ...] = ()
    ready: bool = False
    history: tuple[int, ...] = ()
    base: tuple[int, ...] = ()

    @classmethod
    def new(cls, profile: Any = "cutthroat", *, hands: int = 1, dealer: int = 0) -> Episode:
        """A new game at its first deal, played for ``hands`` hands at most."""
        from binocle.game import start

        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidArgumentError(f"hands must be a positive whole number, not {hands!r}")
        s = start(_profile_of(profile), 0, dealer)
        return cls(s, hands, 0, s.scores, (), False, (), s.scores)

    @classmethod
    def from_state(
        cls, state: GameState, *, hands: int = 1, like: Episode | None = None
    ) -> Episode:
        """An episode continuing from ``state`` (e.g. one sampled by :func:`binocle.determinize`).

        With ``like``, the hand count and returns continue ``like``'s.  A pending
        classic draw counts as already drawn (its cards lie on top of the stock).
        """
        s = _check_state(state)
        if like is not None:
            return cls(
                s, like.hands, like.first_results, like.start_scores, (), True, (), like.base
            )
        return cls(s, hands, len(s.results), s.scores, (), True, (), s.scores)

    def __copy__(self) -> Episode:
        return self

    def __deepcopy__(self, memo: object) -> Episode:
        return self

    # -- where the episode stands ------------------------------------------------

    @property
    def profile(self) -> Profile:
        """The profile played."""
        return self.state.profile

    def is_terminal(self) -> bool:
        """Whether the episode is over: the game ended, or its hands are played."""
        s = self.state
        if s.phase is Phase.OVER:
            return True
        return s.phase is Phase.DEAL and len(s.results) - self.first_results >= self.hands

    def is_chance(self) -> bool:
        """Whether the next step is a chance outcome (a card dealt or drawn)."""
        if self.is_terminal():
            return False
        s = self.state
        if s.phase is Phase.DEAL:
            return True
        classic = _classic_part(s)
        return classic is not None and classic.phase is Phase.ANNOUNCE and not self.ready

    @property
    def current_player(self) -> int | None:
        """The seat to decide, or None at chance and at the end."""
        if self.is_terminal() or self.is_chance():
            return None
        return self.state.current_player

    # -- chance ----------------------------------------------------------------

    def _remaining(self) -> list[int]:
        """How many copies of each card kind the next chance outcome is drawn from."""
        s = self.state
        index = _kind_index(s.profile.pack_size)
        if s.phase is Phase.DEAL:
            counts = [2] * len(index)
        else:
            counts = [0] * len(index)
            for c in _classic_part(s).stock:
                counts[index[c]] += 1
        for c in self.deck:
            counts[index[c]] -= 1
        return counts

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The possible outcomes (card indices) with their probabilities, ascending."""
        if not self.is_chance():
            return []
        counts = self._remaining()
        total = sum(counts)
        return [(i, k / total) for i, k in enumerate(counts) if k]

    # -- steps -----------------------------------------------------------------

    def legal_ids(self) -> tuple[int, ...]:
        """The legal ids of the player to decide (chance outcomes at chance)."""
        if self.is_chance():
            return tuple(i for i, _ in self.chance_outcomes())
        if self.is_terminal():
            return ()
        return _space(self.profile).legal_ids(self.state)

    def apply(self, action_id: int) -> Episode:
        """The episode after a decision or a chance outcome, by id."""
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise InvalidArgumentError(f"an id is a whole number, not {action_id!r}")
        if self.is_terminal():
            raise IllegalActionError("the episode is over", RuleCode.GAME_OVER)
        history = (*self.history, action_id)
        if self.is_chance():
            return self._chance(action_id, history)
        from binocle.game import apply

        action = _space(self.profile).action(self.state, action_id)
        s = apply(self.state, action)
        return Episode(
            s, self.hands, self.first_results, self.start_scores, (), False, history,
            self.returns(),
        )  # fmt: skip

    def _chance(self, outcome: int, history: tuple[int, ...]) -> Episode:
        cards = kinds(self.profile.pack_size)
        if not 0 <= outcome < len(cards):
            raise IllegalActionError(
                f"chance outcome {outcome} is not a card index", RuleCode.BAD_DECK
            )
        card = cards[outcome]
        counts = self._remaining()
        if not counts[outcome]:
            raise IllegalActionError(
                f"chance outcome {card}: no copy of it is left to deal", RuleCode.BAD_DECK
            )
        deck = (*self.deck, card)
        counts[outcome] -= 1
        rest = [c for c, k in zip(cards, counts, strict=True) for _ in range(k)]
        s = self.state
        if s.phase is Phase.DEAL:
            if len(deck) < _dealt_by_chance(s):
                return attrs.evolve(self, deck=deck, history=history)
            from binocle.game import apply

            s = apply(s, A.deal((*deck, *sorted(rest))))
            return attrs.evolve(self, state=s, deck=(), ready=False, history=history)
        stock = _classic_part(s).stock
        if len(deck) < min(2, len(stock)):
            return attrs.evolve(self, deck=deck, history=history)
        return attrs.evolve(
            self, state=_with_stock(s, (*deck, *sorted(rest))), deck=(), ready=True,
            history=history,
        )  # fmt: skip

    def action_label(self, action_id: int) -> str:
        """What an id means here: the action's text, or the card a chance outcome deals."""
        if self.is_chance():
            cards = kinds(self.profile.pack_size)
            what = "deal" if self.state.phase is Phase.DEAL else "draw"
            if 0 <= action_id < len(cards):
                return f"{what} {cards[action_id]}"
            return f"{what} ?{action_id}"
        space = _space(self.profile)
        try:
            return str(space.action(self.state, action_id))
        except BinocleError:
            return space.labels[action_id] if 0 <= action_id < space.size else f"?{action_id}"

    # -- returns -----------------------------------------------------------------

    def returns(self) -> tuple[int, ...]:
        """Each seat's score change since the episode began."""
        return tuple(a - b for a, b in zip(self.state.scores, self.start_scores, strict=True))

    def rewards(self) -> tuple[int, ...]:
        """Each seat's score change since the previous decision."""
        return tuple(a - b for a, b in zip(self.returns(), self.base, strict=True))

    def view(self, seat: int) -> View:
        """What ``seat`` may know now (:func:`binocle.observe`)."""
        from binocle.game import observe

        return observe(self.state, seat)


# ---------------------------------------------------------------------------
# Episode bounds
# ---------------------------------------------------------------------------


def max_decisions_per_hand(profile: Any) -> int:
    """An upper bound on the decisions (not chance outcomes) one hand can take.

    Cutthroat: every bid level once, two passes, three discards, trump, three
    melds and 45 cards.  Classic: every card played, and one announcement (or
    pass) per draw.  Three-handed: three dix turns; per seat at most sixteen
    announcements (each lays down a fresh card) and the end of his melds; 48
    cards; two wrong claims; two answers per seat to an overlooked meld.  (After
    a retirement each classic hand of the two left counts as a hand of its own.)
    """
    p = _profile_of(profile)
    if p.name == "cutthroat":
        bids = (p.max_bid - p.min_bid) // 10 + 1  # type: ignore[attr-defined]
        return int(bids) + 2 + 3 + 1 + 3 + 45
    if p.name == "classic":
        return p.pack_size + (p.pack_size - 24) // 2
    if p.name == "three-handed":
        return 3 + 3 * 17 + 48 + 2 + 6
    raise InvalidArgumentError(f"no episode bounds are defined for the {p.name} profile")


def utility_bounds(profile: Any, hands: int = 1) -> tuple[int, int]:
    """Bounds on one seat's return over ``hands`` hands: ``(lowest, highest)``.

    They hold for every episode but are not reached: cutthroat loses at most
    twice the highest bid a hand and gains at most every meld group's best
    (4740) plus the 250 trick points; classic and three-handed never lose
    points and gain at most 250 trick points plus 200 per announcement.
    """
    p = _profile_of(profile)
    if p.name == "cutthroat":
        worst = -(p.max_bid if p.single_set else 2 * p.max_bid)  # type: ignore[attr-defined]
        return worst * hands, (4740 + _TRICK_POINTS) * hands
    if p.name == "classic":
        announcements = (p.pack_size - 24) // 2
        return 0, (_TRICK_POINTS + 10 + 200 * announcements) * hands
    if p.name == "three-handed":
        # Own announcements (16 at most, and two dix) plus what the others overlooked.
        per_seat = 16 * 200 + 20
        return 0, (_TRICK_POINTS + 3 * per_seat) * hands
    raise InvalidArgumentError(f"no episode bounds are defined for the {p.name} profile")


__all__ += ["max_decisions_per_hand", "utility_bounds"]
