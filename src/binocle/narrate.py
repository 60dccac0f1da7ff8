"""Text that lets a person follow a game, action by action (layer 4).

Every function takes ``suits``, the one style its output prints cards in:
``"symbols"`` (``T♠``, hands as ``♠ A T K``) or ``"letters"`` (``TS``, hands as
``S A T K``; plain ASCII throughout, for terminals without the suit symbols).
"""

from __future__ import annotations

from typing import Any

from binocle.actions import Action, Kind
from binocle.cards import Card, parse_card
from binocle.core import GameState, HandResult, MeldResult, Phase
from binocle.display import SUIT_STYLES, action_text, card_text, cards_text, hand_by_suit
from binocle.display import check_style as _check_style
from binocle.errors import BinocleError
from binocle.game import end_reason, observe
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
    "plural",
]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 game"``, ``"2 games"``; ``many`` for an irregular plural."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def _arrow(suits: str) -> str:
    return "→" if suits == "symbols" else "->"


def hand_summary(result: HandResult, scores: tuple[int, ...], suits: str = "symbols") -> list[str]:
    """The lines that close a hand: each seat's meld, tricks, change and total."""
    lines = []
    head = f"  hand over ({result.outcome})"
    if result.bidder is not None:
        verdict = "made" if result.made else "set"
        head += f": seat {result.bidder} bid {result.bid} and was {verdict}"
    lines.append(head)
    for i, delta in enumerate(result.delta):
        lines.append(
            f"    seat {i}: meld {result.meld[i]:>4}  tricks {result.tricks[i]:>4}"
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


def _gain(before: GameState, after: GameState, seat: int, name: str) -> int:
    old = observe(before, seat).get(name) or ()
    new = observe(after, seat).get(name) or ()
    return int(new[seat] - old[seat]) if old and new else 0


def _offer(state: GameState) -> Any:
    """The overlooked meld offered to the player to act, or None (three-handed)."""
    return observe(state, 0).get("overlooked") if state.current_player is not None else None


def _new_cards(old: tuple[Card, ...], new: tuple[Card, ...]) -> list[Card]:
    """The cards of ``new`` that ``old`` did not hold (copies counted)."""
    gained = list(new)
    for c in old:
        if c in gained:
            gained.remove(c)
    return gained


def describe(
    before: GameState, action: Action, after: GameState, suits: str = "symbols"
) -> list[str]:
    """Lines describing ``action`` taken in ``before`` and leading to ``after``."""
    _check_style(suits)
    lines: list[str] = []
    p = before.current_player
    k = action.kind
    knock_out_of_turn = k is Kind.CLAIM and action.number is not None and action.number != p
    if k is Kind.CLAIM and action.number is not None:
        p = action.number  # a knock names its seat: the knocker, whoever was to act
    who = f"seat {p}"
    if k is Kind.DEAL:
        lines.append("")
        lines.append(f"Hand {after.hand_number}: seat {after.dealer} deals")
        for i, h in enumerate(after.hands):
            lines.append(f"  seat {i}: {hand_by_suit(h, suits)}")
        turn_up = observe(after, 0).get("turn_up")
        if turn_up is not None:
            lines.append(f"  turn-up: {card_text(turn_up, suits)}")
    elif k is Kind.PASS and before.phase is Phase.ANNOUNCE:
        lines.append(f"  {who} announces nothing")
    elif k is Kind.CLAIM_OVERLOOKED or (k is Kind.PASS and _offer(before) is not None):
        offer = _offer(before)
        what = f"the {offer.points} points of meld seat {offer.seat} overlooked" if offer else "it"
        verb = "claims" if k is Kind.CLAIM_OVERLOOKED else "lets go"
        lines.append(f"  {who} {verb} {what}")
    elif k is Kind.DIX and before.phase is Phase.DIX:
        n = action.number or 1
        swap = observe(after, 0).get("exchanged") and not observe(before, 0).get("exchanged")
        how = ", exchanging it for the turn-up" if swap else ""
        nines = "the Nine" if n == 1 else f"{n} Nines"
        lines.append(f"  {who} shows {nines} of trumps{how}: dix {10 * n} announced")
    elif k is Kind.PASS and before.phase is Phase.DIX:
        lines.append(f"  {who} does not show the Nine of trumps")
    elif k is Kind.PASS and before.phase is Phase.MELD and p is not None:
        melds = observe(after, p).get("melds")
        declared = melds[p] if melds else None
        text = _melds_text(declared, suits) if isinstance(declared, MeldResult) else "nothing"
        lines.append(f"  {who} declares {text}")
    elif k is Kind.PASS:
        lines.append(f"  {who} passes")
    elif k is Kind.DIX and before.phase is Phase.ANNOUNCE:
        turn_up = observe(before, 0).get("turn_up")
        up = card_text(turn_up, suits) if turn_up is not None else "card"
        lines.append(f"  {who} exchanges the Nine of trumps for the turn-up {up}: dix, 10")
    elif k is Kind.BID:
        lines.append(f"  {who} bids {action.number}")
    elif k is Kind.DISCARD and action.card is not None:
        lines.append(f"  {who} discards {card_text(action.card, suits)}")
    elif k is Kind.TRUMP and action.suit is not None:
        lines.append(f"  {who} names trump: {action.suit.name.lower()}")
    elif k is Kind.MELD and before.phase is Phase.ANNOUNCE and p is not None:
        gained = _gain(before, after, p, "meld_points")
        lines.append(f"  {who} announces {_announcement(action, suits)} ({gained})")
    elif k is Kind.MELD and action.name is not None and p is not None:
        gained = _gain(before, after, p, "announced")
        lines.append(f"  {who} announces {_announcement(action, suits)} ({gained})")
    elif k is Kind.MELD:
        view = observe(after, p if p is not None else 0)
        melds = view.get("melds")
        declared = melds[p] if melds is not None and p is not None else None
        if isinstance(declared, MeldResult) and action.name is None:
            lines.append(f"  {who} melds {declared.total}: {_melds_text(declared, suits)}")
        else:
            lines.append(f"  {who} declares {_announcement(action, suits)}")
    elif k is Kind.CLAIM and p is not None:
        lines.append(_knock_line(before, after, p, knock_out_of_turn))
    elif k is Kind.PLAY and action.card is not None and p is not None:
        trick = (*before.trick, (p, action.card))
        if not after.trick:
            w = trick[_trick_winner([c for _, c in trick], before.trump)][0]
            cards = "  ".join(f"{s}:{card_text(c, suits)}" for s, c in trick)
            lines.append(f"  trick {cards}  {_arrow(suits)} seat {w}")
    elif k is Kind.CONCEDE:
        lines.append(f"  {who} concedes: the bidder gives up the hand without playing it")
    else:
        lines.append(f"  {who}: {action_text(action, suits)}")
    if before.phase is Phase.ANNOUNCE and after.phase is not Phase.OVER and after.hands[0]:
        draws = []
        for i, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
            gained_cards = _new_cards(old, new)
            if k is Kind.DIX and i == p:
                gained_cards = gained_cards[-1:]
            draws.append(f"seat {i} draws {cards_text(gained_cards, suits)}")
        lines.append("  " + ", ".join(draws))
        if observe(after, 0).get("turn_up") is None:
            lines.append("  the stock is exhausted: the table cards go back to the hands")
    offer = _offer(after)
    if k is Kind.PLAY and offer is not None and offer is not _offer(before):
        lines.append(
            f"  seat {offer.seat} overlooked {offer.points} points of meld:"
            f" seat {offer.asked[0]} may claim them first"
        )
    if after.phase is Phase.DISCARD and before.phase is Phase.BIDDING:
        shown = observe(after, 0)
        lines.append(
            f"  seat {after.current_player} takes the bid at {shown.get('bid')};"
            f" widow {cards_text(shown.get('widow') or (), suits)}"
        )
    if len(after.results) > len(before.results):
        lines.extend(hand_summary(after.results[-1], after.scores, suits))
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        lines.append("")
        lines.append(game_over_line(after))
    return lines


def game_over_line(state: GameState) -> str:
    """The line that ends a game: who won, and how it ended (:func:`binocle.end_reason`)."""
    won = state.profile.winner(state)
    reason = end_reason(state)
    if reason == "limit":
        how = f"the hand limit is reached (max_hands={state.profile.max_hands})"
        if won is None:
            return f"Game over: {how}; the highest scores are tied, so nobody wins"
        return f"Game over: {how}; seat {won} wins with the highest score, {state.scores[won]}"
    why = {"claim": " (by a claim)", "target": " (target reached)"}.get(reason or "", "")
    if won is None:
        return f"Game over{why}: nobody wins"
    return f"Game over{why}: seat {won} wins with {state.scores[won]}"


def _knock_line(before: GameState, after: GameState, p: int, out_of_turn: bool) -> str:
    """A knock and its verdict: correct (he wins), wrong (he loses, or retires)."""
    how = f" out of turn (seat {before.current_player} to act)" if out_of_turn else ""
    won = after.profile.winner(after)
    if won == p:
        verdict = "correct: he wins the game"
    elif after.phase is Phase.OVER and won is not None:
        verdict = f"wrong: he loses the game to seat {won}"
    else:
        verdict = "wrong: he retires from the game"
    return f"  seat {p} knocks{how}, claiming the game: the claim is {verdict}"
