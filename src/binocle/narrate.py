"""Text that lets a person follow a game, action by action (layer 4).

:func:`narrate` tells one seat what happened as that seat may know it, from its
views alone (or from states and the seat): its own cards and draws, the others'
draws as "a card", everything shown on the table.  :func:`narrate_all` tells
everything, every hand and every draw, for those who may see it all (a demo
between bots, the replay of a finished game).  :func:`label` is the words of a
button or menu entry for one action.

Every function takes ``suits``, the one style its output prints cards in:
``"symbols"`` (``T♠``, hands as ``♠ A T K``) or ``"letters"`` (``TS``, hands as
``S A T K``; plain ASCII throughout, for terminals without the suit symbols).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from typing import Any, Final

import attrs

from binocle.actions import Action, Kind
from binocle.cards import Card, parse_card
from binocle.core import GameState, HandResult, MeldResult, Phase, View
from binocle.display import SUIT_STYLES, action_text, card_text, cards_text, hand_by_suit, suit_text
from binocle.display import check_style as _check_style
from binocle.errors import BinocleError, InvalidArgumentError, excerpt, expect, is_whole
from binocle.game import observe
from binocle.records import meld_value
from binocle.rules.tricks import _trick_winner

__all__ = [
    "SUIT_STYLES",
    "action_text",
    "card_text",
    "cards_text",
    "describe",
    "game_over_line",
    "hand_by_suit",
    "hand_summary",
    "label",
    "narrate",
    "narrate_all",
    "plural",
]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 game"``, ``"2 games"``; ``many`` for an irregular plural."""
    if not is_whole(n):
        raise InvalidArgumentError(f"n is a whole number, not {excerpt(n)}")
    expect(word, str, "word is text")
    expect(many, (str, type(None)), "many is text or None")
    if n.bit_length() > 14_000:  # more digits than Python writes out (4,300)
        raise InvalidArgumentError(f"n is too large to write out: {excerpt(n)}")
    return f"{n} {word if n == 1 else many or word + 's'}"


#: Verbs whose form with "you" is not the third person's without its final s.
_IRREGULAR: dict[str, str] = {"does": "do", "was": "were", "has": "have", "is": "are"}


def _you_form(verb: str) -> str:
    """A verb phrase in the third person (``"bids"``, ``"does not show"``, ``"lets go"``)
    as said to "you": its first word loses its s."""
    first, _, rest = verb.partition(" ")
    if first in _IRREGULAR:
        first = _IRREGULAR[first]
    elif first.endswith(("sses", "shes", "ches", "xes")):
        first = first[:-2]
    elif first.endswith("s"):
        first = first[:-1]
    return f"{first} {rest}" if rest else first


@attrs.frozen
class _Words:
    """How a narration names the seats: ``you`` is the seat told (None: nobody is),
    ``names`` the names the caller gave, one a seat (None or empty: ``seat n``)."""

    you: int | None = None
    names: tuple[str | None, ...] = ()

    def who(self, seat: int | None) -> str:
        """The seat as the subject of a sentence: ``you``, its name, or ``seat n``."""
        if seat is not None and seat == self.you:
            return "you"
        return self.listed(seat, mark_you=False)

    def listed(self, seat: int | None, mark_you: bool = True) -> str:
        """The seat in a list of seats: ``seat 1 (you)``, ``seat 1 (Anna)``, ``seat 1``."""
        if seat is None:
            return "nobody"
        name = self.names[seat] if 0 <= seat < len(self.names) else None
        if name:
            return name if not mark_you else f"seat {seat} ({name})"
        return f"seat {seat} (you)" if mark_you and seat == self.you else f"seat {seat}"

    def says(self, seat: int | None, verb: str) -> str:
        """``seat 1 bids``, ``Anna bids`` or ``you bid``: the subject and its verb."""
        if seat is not None and seat == self.you:
            return f"you {_you_form(verb)}"
        return f"{self.who(seat)} {verb}"


_NOBODY: Final = _Words()


def _words(names: object, seats: int, you: int | None = None) -> _Words:
    """The caller's ``names`` checked: a sequence of text or None, one a seat, or empty."""
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise InvalidArgumentError(
            f"names are a sequence of the seats' names (text or None), not {excerpt(names)}"
        )
    if names and len(names) != seats:
        raise InvalidArgumentError(f"names give one name a seat, {seats}, not {len(names)}")
    for n in names:
        if n is not None and (not isinstance(n, str) or len(n) > 200):
            raise InvalidArgumentError(
                f"a seat's name is text of at most 200 characters or None, not {excerpt(n)}"
            )
    return _Words(you, tuple(names))


def _arrow(suits: str) -> str:
    return "→" if suits == "symbols" else "->"


def hand_summary(
    result: HandResult,
    scores: tuple[int, ...],
    suits: str = "symbols",
    *,
    names: Sequence[str | None] = (),
    you: int | None = None,
) -> list[str]:
    """The lines that close a hand: each seat's meld, tricks, change and total.

    ``names`` (one a seat, text or None) name the seats; ``you`` is the seat the
    lines are told to, called "you" (None: nobody).
    """
    _check_style(suits)
    expect(result, HandResult, "result is a HandResult")
    words = _words(names, len(result.delta), _seat_or_none(you, len(result.delta)))
    return _hand_summary(result, scores, suits, words)


def _seat_or_none(seat: object, seats: int) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise InvalidArgumentError(f"a seat is 0..{seats - 1} or None, not {excerpt(seat)}")
    return seat


def _hand_summary(
    result: HandResult, scores: tuple[int, ...], suits: str, words: _Words
) -> list[str]:
    if (
        not isinstance(scores, (tuple, list))
        or len(scores) != len(result.delta)
        or not all(is_whole(x) for x in scores)
    ):
        raise InvalidArgumentError(
            f"scores are {len(result.delta)} whole numbers, one a seat, not {excerpt(scores)}"
        )
    lines = []
    head = f"  hand over ({result.outcome})"
    if result.bidder is not None:
        verdict = "made" if result.made else "set"
        was = "were" if result.bidder == words.you else "was"
        head += f": {words.who(result.bidder)} bid {result.bid} and {was} {verdict}"
    lines.append(head)
    for i, delta in enumerate(result.delta):
        lines.append(
            f"    {words.listed(i)}: meld {result.meld[i]:>4}  tricks {result.tricks[i]:>4}"
            f"  {delta:+5d}  {_arrow(suits)} {scores[i]}"
        )
    return lines


def _melds_text(result: MeldResult, suits: str) -> str:
    if not result.melds:
        return "no meld (0)"
    parts = [f"{m.name} {cards_text(m.cards, suits)} ({m.value})" for m in result.melds]
    return ", ".join(parts) + f" = {result.total}"


def _table_cards(source: str, suits: str) -> str:
    """The table cards of a classic announcement (``"QH KS#3"``), in the style."""
    out = []
    for word in source.split():
        try:
            out.append(card_text(parse_card(word.partition("#")[0]), suits))
        except BinocleError:
            out.append(word)
    return " ".join(out)


def _announcement(action: Action, suits: str) -> str:
    """``marriage K♠, with Q♠ already on the table``: a classic announcement explained.

    In the notation ``meld marriage KS + QS`` the cards after ``+`` are on the
    table already (melded earlier); only the cards before it are new.
    """
    name = action.name or "meld"
    fresh = cards_text(action.cards, suits) if action.cards else ""
    if not action.source:
        return f"{name} {fresh}".rstrip()
    table = _table_cards(action.source, suits)
    if not fresh:
        return f"{name} {table} (all on the table already)"
    return f"{name} {fresh}, with {table} already on the table"


#: A draw as a view's log shows it: ``"0: draw TS"``, or ``"1: draw"`` for a hidden card.
_DRAW_ENTRY = re.compile(r"^(\d+): draw(?: (\S+))?$")


def _to_view(position: View | GameState, seat: int | None) -> View:
    """``position`` as ``seat`` sees it: a view as it is, a state observed."""
    if isinstance(position, View):
        if seat is not None and seat != position.seat:
            raise InvalidArgumentError(
                f"the view is seat {position.seat}'s, not seat {excerpt(seat)}'s"
            )
        return position
    if not isinstance(position, GameState):
        raise InvalidArgumentError(f"a view or a state, not {type(position).__name__}")
    if seat is None:
        raise InvalidArgumentError("a state is narrated for a seat: give seat=...")
    return observe(position, seat)


def _fact(view: View, name: str) -> Any:
    """A public fact of the game in progress: the two-handed game's after a retirement
    (three-handed rules, The two-handed game after a retirement), else the view's own."""
    inner = view.get("two_handed")
    if inner is not None:
        for key, value in inner:
            if key == name:
                return value
    return view.get(name)


def _seat_fact(view: View, name: str, seat: int) -> Any:
    """A per-seat public fact for ``seat``, mapped into the two-handed game where one runs."""
    inner = view.get("two_handed")
    values = _fact(view, name)
    if not values:
        return None
    if inner is not None and any(key == name for key, _ in inner):
        pair = view.get("pair")
        if pair is None or seat not in pair:
            return None
        return values[pair.index(seat)]
    return values[seat] if seat < len(values) else None


def _gain(before: View, after: View, seat: int, name: str) -> int:
    old = _seat_fact(before, name, seat)
    new = _seat_fact(after, name, seat)
    return int(new - old) if old is not None and new is not None else 0


def _offer(view: View) -> Any:
    """The overlooked meld offered to the player to act, or None (three-handed)."""
    return view.get("overlooked") if view.current_player is not None else None


def _new_cards(old: tuple[Card, ...], new: tuple[Card, ...]) -> list[Card]:
    """The cards of ``new`` that ``old`` did not hold (copies counted)."""
    gained = list(new)
    for c in old:
        if c in gained:
            gained.remove(c)
    return gained


def _logged_draws(view: View) -> list[tuple[int, Card | None]]:
    """The draws that end the view's log (those of its last announcement), in order:
    each seat with its card, None where the card is hidden from the view's seat."""
    found: list[tuple[int, Card | None]] = []
    pair = view.get("pair") if view.get("two_handed") is not None else None
    for entry in reversed(view.log):
        m = _DRAW_ENTRY.match(entry)
        if m is None:
            break
        seat = int(m.group(1))
        found.append((pair[seat] if pair else seat, parse_card(m.group(2)) if m.group(2) else None))
    found.reverse()
    return found


def _deal_lines(
    after: View, hands: tuple[tuple[Card, ...], ...] | None, suits: str, words: _Words
) -> list[str]:
    """The deal: every hand where ``hands`` is given, else the seat's own and the
    others' card counts; the turn-up."""
    number = len(after.results) + 1
    lines = ["", f"Hand {number}: {words.says(after.dealer, 'deals')}"]
    for i, size in enumerate(after.hand_sizes):
        if hands is not None:
            lines.append(f"  {words.listed(i)}: {hand_by_suit(hands[i], suits)}")
        elif i == after.seat:
            lines.append(f"  {words.listed(i)}: {hand_by_suit(after.hand, suits)}")
        elif size:
            lines.append(f"  {words.listed(i)}: {plural(size, 'card')}")
    turn_up = _fact(after, "turn_up")
    if turn_up is not None:
        lines.append(f"  turn-up: {card_text(turn_up, suits)}")
    return lines


def _tell(
    before: View,
    action: Action,
    actor: int | None,
    after: View,
    suits: str,
    full: tuple[GameState, GameState] | None = None,
    words: _Words = _NOBODY,
) -> list[str]:
    """The lines of one action from the position ``before`` to ``after`` (both as one
    seat sees them); ``full``: the two states, for a narration that shows every hand;
    ``words``: how the seats are named."""
    lines: list[str] = []
    p = actor
    k = action.kind
    knock_out_of_turn = (
        k is Kind.CLAIM and action.number is not None and action.number != before.current_player
    )
    if k is Kind.CLAIM and action.number is not None:
        p = action.number  # a knock names its seat: the knocker, whoever was to act
    w = words

    def says(verb: str) -> str:
        return w.says(p, verb)

    phase = before.phase
    if k is Kind.DEAL:
        lines.extend(_deal_lines(after, full[1].hands if full is not None else None, suits, w))
    elif k is Kind.PASS and phase is Phase.ANNOUNCE:
        lines.append(f"  {says('announces')} nothing")
    elif k is Kind.CLAIM_OVERLOOKED or (k is Kind.PASS and _offer(before) is not None):
        offer = _offer(before)
        what = (
            f"the {offer.points} points of meld {w.who(offer.seat)} overlooked" if offer else "it"
        )
        verb = "claims" if k is Kind.CLAIM_OVERLOOKED else "lets go"
        lines.append(f"  {says(verb)} {what}")
    elif k is Kind.DIX and phase is Phase.DIX:
        n = action.number or 1
        swap = after.get("exchanged") and not before.get("exchanged")
        how = ", exchanging it for the turn-up" if swap else ""
        nines = "the Nine" if n == 1 else f"{n} Nines"
        lines.append(f"  {says('shows')} {nines} of trumps{how}: dix {10 * n} announced")
    elif k is Kind.PASS and phase is Phase.DIX:
        lines.append(f"  {says('does not show')} the Nine of trumps")
    elif k is Kind.PASS and phase is Phase.MELD and p is not None:
        declared = _seat_fact(after, "melds", p)
        text = _melds_text(declared, suits) if isinstance(declared, MeldResult) else "nothing"
        lines.append(f"  {says('declares')} {text}")
    elif k is Kind.PASS:
        lines.append(f"  {says('passes')}")
    elif k is Kind.DIX and phase is Phase.ANNOUNCE:
        turn_up = _fact(before, "turn_up")
        up = card_text(turn_up, suits) if turn_up is not None else "card"
        lines.append(f"  {says('exchanges')} the Nine of trumps for the turn-up {up}: dix, 10")
    elif k is Kind.BID:
        lines.append(f"  {says('bids')} {action.number}")
    elif k is Kind.DISCARD:
        what = card_text(action.card, suits) if action.card is not None else "a card"
        lines.append(f"  {says('discards')} {what}")
    elif k is Kind.GIVE:
        what = card_text(action.card, suits) if action.card is not None else "a card"
        whose = "your" if p is not None and p == w.you else "his"
        lines.append(f"  {says('passes')} {what} to {whose} partner")
    elif k is Kind.TRUMP and action.suit is not None:
        lines.append(f"  {says('names')} trump: {action.suit.name.lower()}")
    elif k is Kind.MELD and phase is Phase.ANNOUNCE and p is not None:
        gained = _gain(before, after, p, "meld_points")
        lines.append(f"  {says('announces')} {_announcement(action, suits)} ({gained})")
    elif k is Kind.MELD and action.name is not None and p is not None:
        gained = _gain(before, after, p, "announced")
        lines.append(f"  {says('announces')} {_announcement(action, suits)} ({gained})")
    elif k is Kind.MELD:
        declared = _seat_fact(after, "melds", p) if p is not None else None
        if isinstance(declared, MeldResult) and action.name is None:
            lines.append(f"  {says('melds')} {declared.total}: {_melds_text(declared, suits)}")
        else:
            lines.append(f"  {says('declares')} {_announcement(action, suits)}")
    elif k is Kind.CLAIM and p is not None:
        lines.append(_knock_line(before, after, p, knock_out_of_turn, w))
    elif k is Kind.PLAY and action.card is not None and p is not None:
        trick = (*before.trick, (p, action.card))
        if not after.trick:
            won = trick[_trick_winner([c for _, c in trick], before.trump)][0]
            cards = "  ".join(f"{s}:{card_text(c, suits)}" for s, c in trick)
            lines.append(f"  trick {cards}  {_arrow(suits)} {w.who(won)}")
    elif k is Kind.CONCEDE:
        lines.append(f"  {says('concedes')}: the bidder gives up the hand without playing it")
    else:
        lines.append(f"  {w.who(p)}: {action_text(action, suits)}")
    if phase is Phase.ANNOUNCE and after.phase is not Phase.OVER and any(after.hand_sizes):
        lines.extend(_draw_lines(before, action, p, after, suits, full, w))
    offer = _offer(after)
    if k is Kind.PLAY and offer is not None and offer != _offer(before):
        lines.append(
            f"  {w.says(offer.seat, 'overlooked')} {offer.points} points of meld:"
            f" {w.who(offer.asked[0])} may claim them first"
        )
    if after.phase is Phase.DISCARD and phase is Phase.BIDDING:
        lines.append(
            f"  {w.says(after.current_player, 'takes')} the bid at {after.get('bid')};"
            f" widow {cards_text(after.get('widow') or (), suits)}"
        )
    if len(after.results) > len(before.results):
        lines.extend(_hand_summary(after.results[-1], after.scores, suits, w))
    if after.phase is Phase.OVER and phase is not Phase.OVER:
        lines.append("")
        lines.append(_game_over_line(after, w))
    return lines


def _draw_lines(
    before: View,
    action: Action,
    p: int | None,
    after: View,
    suits: str,
    full: tuple[GameState, GameState] | None,
    words: _Words,
) -> list[str]:
    """The draws after an announcement (classic rules, Announcements): every card where
    ``full`` gives the states, else as the view's log shows them."""
    draws: list[str] = []
    if full is not None:
        for i, (old, new) in enumerate(zip(full[0].hands, full[1].hands, strict=True)):
            gained_cards = _new_cards(old, new)
            if action.kind is Kind.DIX and i == p:
                turn_up = _fact(before, "turn_up")
                if turn_up in gained_cards:
                    gained_cards.remove(turn_up)  # the exchange, not a draw
            draws.append(f"{words.says(i, 'draws')} {cards_text(gained_cards, suits)}")
    else:
        for seat, card in _logged_draws(after):
            what = card_text(card, suits) if card is not None else "a card"
            draws.append(f"{words.says(seat, 'draws')} {what}")
    lines = ["  " + ", ".join(draws)] if draws else []
    if _fact(after, "turn_up") is None:
        lines.append("  the stock is exhausted: the table cards go back to the hands")
    return lines


def _brief(action: Action, actor: int | None, suits: str, words: _Words) -> list[str]:
    """An action told from itself alone (where the position before it is not known)."""
    if action.kind is Kind.DEAL:
        return ["", "a new hand is dealt"]
    p = action.number if action.kind is Kind.CLAIM and action.number is not None else actor
    return [f"  {words.who(p)}: {label(action, suits=suits)}"]


def narrate(
    before: View | GameState,
    after: View | GameState,
    seat: int | None = None,
    suits: str = "symbols",
    *,
    names: Sequence[str | None] = (),
) -> list[str]:
    """What happened from ``before`` to ``after``, told to one seat: no card it may not see.

    ``before`` and ``after`` are two views of the seat (:func:`binocle.observe`), the
    later one taken after the earlier; or two states and ``seat``.  The lines tell
    the actions between them as the seat's views show them: its own hand at a deal
    and the others' card counts, its own draws by card and the others' as "a card",
    another bidder's face-down discards as "a card", and everything shown on the
    table (the turn-up, bids, trump, melds with their values, tricks and their
    winners, overlooked meld, knocks, hand scores, the end of the game).  Exact when
    the views are one action apart, as when a front end observes after every
    action; where more actions lie between them, each but the last is told from
    the action alone.

    The seat told is "you" (``you bid 250``), as in ``str(view)``; ``names``, one
    a seat (text, or None for ``seat n``), name the others (``Anna bids 250``).

    >>> import binocle
    >>> from binocle.narrate import narrate
    >>> s = binocle.new_game("cutthroat", seed=1)
    >>> t = binocle.apply(s, "bid 250")
    >>> narrate(binocle.observe(s, 2), binocle.observe(t, 2))
    ['  seat 1 bids 250']
    >>> narrate(s, t, seat=1), narrate(s, t, seat=2, names=["Anna", "Ben", "Carla"])
    (['  you bid 250'], ['  Ben bids 250'])

    Raises InvalidArgumentError for two views of different seats, a state
    without ``seat``, or an ``after`` that does not follow ``before``.
    """
    _check_style(suits)
    b = _to_view(before, seat)
    a = _to_view(after, b.seat)
    words = _words(names, len(b.hand_sizes), b.seat)
    done = len(b.history)
    if a.profile != b.profile or len(a.history) < done or a.history[:done] != b.history:
        raise InvalidArgumentError("'after' is not a later view of the same game as 'before'")
    new = a.history[done:]
    lines: list[str] = []
    for action, actor in new[:-1]:
        lines.extend(_brief(action, actor, suits, words))
    if new:
        action, actor = new[-1]
        if len(new) == 1:
            lines.extend(_tell(b, action, actor, a, suits, words=words))
        else:
            lines.extend(_brief(action, actor, suits, words))
            if len(a.results) > len(b.results):
                lines.extend(_hand_summary(a.results[-1], a.scores, suits, words))
            if a.phase is Phase.OVER and b.phase is not Phase.OVER:
                lines.extend(["", _game_over_line(a, words)])
    return lines


def narrate_all(
    before: GameState,
    action: Action,
    after: GameState,
    suits: str = "symbols",
    *,
    names: Sequence[str | None] = (),
) -> list[str]:
    """Lines describing ``action`` taken in ``before`` and leading to ``after``, every
    card shown: every hand at a deal, every draw.  For those who may see everything
    (a game between bots, the replay of a finished game); :func:`narrate` tells one
    seat what it may know.  ``names``, one a seat (text, or None for ``seat n``),
    name the seats."""
    _check_style(suits)
    expect(before, GameState, "before is a GameState")
    expect(action, Action, "action is an Action")
    expect(after, GameState, "after is a GameState")
    words = _words(names, len(before.hands))
    seat = before.current_player
    if action.kind is Kind.CLAIM and action.number is not None:
        seat = action.number
    at = seat if seat is not None else 0
    return _tell(
        observe(before, at), action, before.current_player, observe(after, at), suits,
        (before, after), words,
    )  # fmt: skip


def describe(
    before: GameState, action: Action, after: GameState, suits: str = "symbols"
) -> list[str]:
    """Deprecated name of :func:`narrate_all` (every card shown)."""
    warnings.warn(
        "binocle.narrate.describe is deprecated: use narrate_all (every card shown) or"
        " narrate (what one seat may know)",
        DeprecationWarning,
        stacklevel=2,
    )
    return narrate_all(before, action, after, suits)


# -- labels ---------------------------------------------------------------------------


#: What a pass means, by the phase it is made in.
_PASS_LABELS: dict[Phase | None, str] = {
    Phase.ANNOUNCE: "Announce nothing",
    Phase.DIX: "Do not show the Nine of trumps",
    Phase.MELD: "Announce nothing more",
}


def _nines(n: int) -> str:
    return "the Nine of trumps" if n == 1 else f"{n} Nines of trumps"


def label(action: Action, position: View | GameState | None = None, suits: str = "symbols") -> str:
    """The words of a button or menu entry for ``action``: ``"Bid 260"``,
    ``"Announce royal marriage K♠ Q♠ (40)"``, ``"Play T♠ from the table"``.

    ``position`` is the view of the player to act (or the state) in which the action
    is offered: with it a pass is named for its phase ("Announce nothing", "Let the
    overlooked meld go"), ``meld`` alone shows what the hand's best meld scores and
    a claim of overlooked meld its points.  Meld values are the rules' own
    (:func:`binocle.records.meld_value`).

    >>> from binocle.actions import parse_action_text
    >>> from binocle.narrate import label
    >>> label(parse_action_text("meld royal marriage KS QS"))
    'Announce royal marriage K♠ Q♠ (40)'
    >>> label(parse_action_text("play TS table"), suits="letters")
    'Play TS from the table'
    """
    _check_style(suits)
    expect(action, Action, "action is an Action")
    expect(position, (View, GameState, type(None)), "position is a View, a GameState or None")
    k = action.kind
    view = position if isinstance(position, View) or position is None else None
    if isinstance(position, GameState):
        at = position.current_player
        view = observe(position, at if at is not None else 0)
    phase = view.phase if view is not None else None
    if k is Kind.DEAL:
        return "Deal the next hand"
    if k is Kind.BID:
        return f"Bid {action.number}"
    if k is Kind.PASS:
        if view is not None and _offer(view) is not None:
            return "Let the overlooked meld go"
        return _PASS_LABELS.get(phase, "Pass")
    if k is Kind.BUNCH:
        return "Bunch the hand: throw it in for a new deal"
    if k is Kind.DISCARD:
        return (
            f"Discard {card_text(action.card, suits)}"
            if action.card is not None
            else "Discard a card"
        )
    if k is Kind.GIVE:
        what = card_text(action.card, suits) if action.card is not None else "a card"
        return f"Pass {what} to your partner"
    if k is Kind.TRUMP and action.suit is not None:
        return f"Name trump {suit_text(action.suit, suits)} ({action.suit.name.lower()})"
    if k is Kind.DIX:
        n = action.number or 1
        if phase is Phase.ANNOUNCE:
            return f"Exchange {_nines(n)} for the turn-up (dix, {10 * n})"
        return f"Show {_nines(n)} (dix, {10 * n})"
    if k is Kind.MELD:
        value = None
        if action.name is not None or (view is not None and view.seat == view.current_player):
            try:
                value = meld_value(view if view is not None else None, action)
            except BinocleError:
                value = None
        worth = f" ({value})" if value is not None else ""
        if action.name is None:
            return f"Declare your best meld{worth}"
        return f"Announce {_announcement(action, suits)}{worth}"
    if k is Kind.PLAY and action.card is not None:
        where = " from the table" if action.source == "table" else ""
        copy = f" (copy {action.number})" if action.source == "table" and action.number else ""
        return f"Play {card_text(action.card, suits)}{where}{copy}"
    if k is Kind.CLAIM:
        if action.number is not None:
            return f"Seat {action.number} knocks: claims the game"
        return "Knock: claim the game"
    if k is Kind.CLAIM_OVERLOOKED:
        offer = _offer(view) if view is not None else None
        points = f" ({offer.points})" if offer is not None else ""
        return (
            f"Claim the meld seat {offer.seat} overlooked{points}"
            if offer
            else "Claim the overlooked meld"
        )
    if k is Kind.CONCEDE:
        return "Concede the hand"
    return action_text(action, suits)


def game_over_line(
    position: View | GameState, *, names: Sequence[str | None] = (), you: int | None = None
) -> str:
    """The line that ends a game: who won, and how it ended (:func:`binocle.end_reason`),
    from a state or any seat's view of it.  ``names`` (one a seat, text or None)
    name the seats; ``you`` is the seat told, called "you" (None: nobody)."""
    expect(position, (View, GameState), "position is a View or a GameState")
    n = len(position.hand_sizes) if isinstance(position, View) else len(position.hands)
    return _game_over_line(position, _words(names, n, _seat_or_none(you, n)))


def _game_over_line(position: View | GameState, words: _Words) -> str:
    if isinstance(position, View):
        won, results, scores = position.winner, position.results, position.scores
        over = position.phase is Phase.OVER
    else:
        won = position.profile.winner(position)
        results, scores = position.results, position.scores
        over = position.phase is Phase.OVER
    reason = results[-1].game_end if over and results else None
    winners = words.says(won, "wins")
    side = position.profile.side_of(won) if won is not None else ()
    if len(side) > 1:  # partners win together: "seats 1 and 3 win", "you and Bob win"
        parts = [words.who(s) for s in side]
        if all(part.startswith("seat ") for part in parts):
            winners = f"seats {' and '.join(part[5:] for part in parts)} win"
        else:
            winners = f"{' and '.join(parts)} win"
    if reason == "limit":
        how = f"the hand limit is reached (max_hands={position.profile.max_hands})"
        if won is None:
            return f"Game over: {how}; the highest scores are tied, so nobody wins"
        return f"Game over: {how}; {winners} with the highest score, {scores[won]}"
    why = {"claim": " (by a claim)", "target": " (target reached)"}.get(reason or "", "")
    if won is None:
        return f"Game over{why}: nobody wins"
    return f"Game over{why}: {winners} with {scores[won]}"


def _knock_line(before: View, after: View, p: int, out_of_turn: bool, words: _Words) -> str:
    """A knock and its verdict: correct (he wins), wrong (he loses, or retires)."""
    how = f" out of turn ({words.who(before.current_player)} to act)" if out_of_turn else ""
    he = "you" if p == words.you else "he"
    won = after.winner
    if won == p:
        verdict = f"correct: {words.says(p, 'wins') if he == 'you' else 'he wins'} the game"
    elif after.phase is Phase.OVER and won is not None:
        lose = "you lose" if he == "you" else "he loses"
        verdict = f"wrong: {lose} the game to {words.who(won)}"
    else:
        retire = "you retire" if he == "you" else "he retires"
        verdict = f"wrong: {retire} from the game"
    return f"  {words.says(p, 'knocks')}{how}, claiming the game: the claim is {verdict}"
