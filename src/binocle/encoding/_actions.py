"""The fixed action space of each profile: ids, their labels, legal ids and masks."""

from __future__ import annotations

import functools
from typing import Any, Final

import attrs

from binocle import actions as A
from binocle.actions import Action, Kind, parse_action_text
from binocle.cards import CARDS, Card
from binocle.core import GameState, Phase, Profile, View, _rules_entry
from binocle.encoding._common import _check_state, _profile_of, kinds
from binocle.errors import IllegalActionError, InvalidArgumentError, RuleCode, excerpt
from binocle.notation import sample_view
from binocle.profiles._classic_rules import ClassicRules
from binocle.profiles._three_handed_rules import ThreeHandedRules
from binocle.rules.classic_melds import KINDS, MeldTable

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
            return self._table_play_id(_meld_table(state), action)
        if kind is Kind.MELD and action.name is not None and self._melds >= 0:
            return self._meld_id(_meld_table(state), action)
        raise InvalidArgumentError(f"{action} has no id in the {self.profile.name} action space")

    def _card_index(self, c: Card | None) -> int:
        if c is None or c not in self.cards:
            raise InvalidArgumentError(f"not a card of the {len(self.cards) * 2}-card pack: {c}")
        return self.cards.index(c)

    def _table_play_id(self, table: MeldTable | None, action: Action) -> int:
        """The id of ``action``, a play from ``table`` (the player's meld table)."""
        i = self._card_index(action.card)
        card = self.cards[i]
        copy = 0
        if action.number is not None:
            groups = _table_groups(table).get(card, []) if table is not None else []
            if action.number not in groups:
                raise InvalidArgumentError(f"{action}: no such table copy now")
            copy = groups.index(action.number)
        return self._table_play + 2 * i + copy

    def _meld_id(self, table: MeldTable | None, action: Action) -> int:
        """The id of ``action``, an announcement with ``table`` (the player's meld
        table, read only where the action names a table copy: ``KS#3``)."""
        table_words = (action.source or "").split()
        table_cards = [parse_action_text(f"play {w.partition('#')[0]}").card for w in table_words]
        everything = tuple(sorted(int(c) for c in (*action.cards, *table_cards) if c is not None))
        base = self._combo_base.get((action.name or "", everything))
        if base is None:
            raise InvalidArgumentError(f"{action}: not a combination of the meld table")
        groups: dict[Card, list[int]] = {}
        if any("#" in w for w in table_words):
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
        # Most actions are interned and have a fixed id: one dictionary read each.
        get = self._fixed.get
        ids: list[int] = []
        for a in legal_actions(state):
            i = get(a)
            if i is None:
                i = self.id(state, a)
            ids.append(i)
        ids.sort()
        return tuple(ids)

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
            raise InvalidArgumentError(f"an action id is a whole number, not {excerpt(action_id)}")
        if not 0 <= action_id < self.size:
            raise InvalidArgumentError(
                f"action id {excerpt(action_id)} is outside 0..{self.size - 1} ({self.profile})"
            )
        from binocle.game import legal_actions

        fixed = self._by_id[action_id]
        if fixed is not None and state.current_player is not None:
            # The legal actions are interned: found by identity, no comparison of values.
            legal = legal_actions(state)
            for a in legal:
                if a is fixed:
                    return fixed
            if fixed in legal:
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


#: The rules whose melds are announcements of cards from hand and table (classic,
#: three-handed), by rules class (a profile takes its nearest base's): the actions
#: that come first in their action space, with their labels.  The plays from hand and
#: from the table and the announcements (a combination and how its cards are split
#: between hand and table) follow.  A profile that lists its actions
#: (``fixed_actions``, those on the cutthroat rules) needs no entry.
_ANNOUNCING: Final[dict[type, tuple[tuple[str, Action], ...]]] = {
    ClassicRules: (("pass", A.PASS), ("dix", A.DIX), ("claim", A.CLAIM)),
    ThreeHandedRules: (
        ("pass", A.PASS),
        ("dix", A.DIX),
        ("dix 2", Action(Kind.DIX, number=2)),
        ("meld", A.MELD),
        ("claim", A.CLAIM),
        ("claim overlooked", A.CLAIM_OVERLOOKED),
    ),
}


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
    fixed_actions = getattr(profile, "fixed_actions", None)
    leading = _rules_entry(profile, _ANNOUNCING)
    if fixed_actions is not None:
        # A profile that lists its actions (those built on the cutthroat rules): one id each.
        for action in fixed_actions():
            add(str(action), action)
    elif leading is not None:
        for label, action in leading:
            add(label, action)
        for c in cards:
            add(f"play {c}", A.PLAY[c])
        table_play = len(labels)
        for c in cards:
            add(f"play {c} table", A.PLAY_TABLE[c])
            add(f"play {c} table/2")
        melds = len(labels)
    else:
        raise InvalidArgumentError(f"no action space is defined for the {profile.name} profile")
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


def action_id(state: GameState | View, action: Action | str) -> int:
    """The id of ``action`` (an action or its text) in ``state``'s action space.

    ``state`` may be a :class:`~binocle.core.View` (what a bot receives): the id is
    then the one the seat's state gives.
    """
    if isinstance(state, View):
        return _ViewIds.of(state).id(action)
    s = _check_state(state)
    return _space(s.profile).id(s, action)


def action_from_id(state: GameState | View, action_id: int) -> Action:
    """The legal action that ``action_id`` stands for in ``state`` (a state, or the
    :class:`~binocle.core.View` of the seat to act).

    Raises :class:`~binocle.IllegalActionError` when the id is not legal there.
    """
    if isinstance(state, View):
        return _ViewIds.of(state).action(action_id)
    s = _check_state(state)
    return _space(s.profile).action(s, action_id)


def legal_ids(state: GameState | View) -> tuple[int, ...]:
    """The ids of the legal actions of the player to act, ascending (empty when nobody acts).

    Of a :class:`~binocle.core.View`: the ids of its seat's legal actions
    (``view.legal_actions``: empty when the seat is not to act), the same as the
    state gives when the seat is to act.
    """
    if isinstance(state, View):
        return _ViewIds.of(state).legal_ids()
    s = _check_state(state)
    return _space(s.profile).legal_ids(s)


def legal_mask(state: GameState | View) -> tuple[int, ...]:
    """One 0/1 per id: 1 where the id is legal for the player to act (of a
    :class:`~binocle.core.View`, for its seat)."""
    if isinstance(state, View):
        space = _space(state.profile)
        ids = _ViewIds.of(state).legal_ids()
    else:
        s = _check_state(state)
        space = _space(s.profile)
        ids = space.legal_ids(s)
    mask = [0] * space.size
    for i in ids:
        mask[i] = 1
    return tuple(mask)


class _ViewIds:
    """The ids of a view's legal actions.  Most actions have a fixed id, read from
    the view alone; a play from the meld table from the copies its legal plays
    show; an announcement naming a table copy (``KS#3``) from a state the seat
    cannot tell from its own (:func:`binocle.determinize`, which must then have
    been imported): the seat's table is the same in every such state, so the id
    is too."""

    _last: tuple[View, _ViewIds] | None = None

    def __init__(self, view: View) -> None:
        self.view = view
        self.space = _space(view.profile)
        self._state: GameState | None = None
        self._map: dict[int, Action] | None = None

    @classmethod
    def of(cls, view: View) -> _ViewIds:
        last = cls._last
        if last is not None and last[0] is view:
            return last[1]
        made = cls(view)
        cls._last = (view, made)
        return made

    def _sampled(self) -> GameState:
        if self._state is None:
            self._state = sample_view(self.view)
        return self._state

    def _groups(self) -> dict[Card, list[int]]:
        """The seat's table copies by card, read from its legal plays from the table:
        one play per copy with a distinct history, all legal or none (a rule of the
        trick bars a card, never one copy of it)."""
        groups: dict[Card, list[int]] = {}
        for a in self.view.legal_actions:
            if a.kind is Kind.PLAY and a.source == "table" and a.card is not None:
                groups.setdefault(a.card, []).append(-1 if a.number is None else a.number)
        return {c: sorted(g) for c, g in groups.items()}

    def id(self, action: Action | str) -> int:
        if isinstance(action, str):
            action = parse_action_text(action)
        fixed = self.space._fixed.get(action) if isinstance(action, Action) else None
        if fixed is not None:
            return fixed
        if not isinstance(action, Action):
            raise InvalidArgumentError(f"not an action: {type(action).__name__}")
        kind = action.kind
        space = self.space
        if kind is Kind.PLAY and action.source == "table" and space._table_play >= 0:
            i = space._card_index(action.card)
            copy = 0
            if action.number is not None:
                slots = self._groups().get(space.cards[i], [])
                if action.number not in slots:
                    raise InvalidArgumentError(f"{action}: no such table copy now")
                copy = slots.index(action.number)
            return space._table_play + 2 * i + copy
        if kind is Kind.MELD and "#" in (action.source or "") and self.view.legal_actions:
            # An announcement naming a table copy: the copies' histories are read from
            # a state the seat cannot tell from its own (the same table in every one).
            return space.id(self._sampled(), action)
        # Nothing else reads the meld table: the state's answer (or refusal).
        return space.id(_NoTable(self.view), action)  # type: ignore[arg-type]

    def legal_map(self) -> dict[int, Action]:
        if self._map is None:
            view = self.view
            out: dict[int, Action] = {}
            for a in view.legal_actions:
                out[self.id(a)] = a
            self._map = out
        return self._map

    def legal_ids(self) -> tuple[int, ...]:
        return tuple(sorted(self.legal_map()))

    def action(self, action_id: int) -> Action:
        space = self.space
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise InvalidArgumentError(f"an action id is a whole number, not {excerpt(action_id)}")
        if not 0 <= action_id < space.size:
            raise InvalidArgumentError(
                f"action id {excerpt(action_id)} is outside 0..{space.size - 1} ({space.profile})"
            )
        found = self.legal_map().get(action_id)
        if found is None:
            view = self.view
            rule = RuleCode.GAME_OVER if view.phase is Phase.OVER else RuleCode.NOT_LEGAL
            raise IllegalActionError(
                f"action id {action_id} ({space.labels[action_id]}) is not legal now"
                f" for seat {view.seat}",
                rule,
                space._by_id[action_id],
                view.current_player,
            )
        return found


class _NoTable:
    """What :meth:`ActionSpace.id` reads of a state for an action that needs no meld
    table: the player to act."""

    def __init__(self, view: View) -> None:
        self.current_player = view.current_player
        self.sub = None
        self.tables = None


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
