"""Text that lets a person follow a game, action by action (layer 4)."""

from __future__ import annotations

from typing import Any

from binocle.actions import Action, Kind
from binocle.cards import Card, Suit, format_cards
from binocle.core import GameState, HandResult, Phase
from binocle.game import end_reason, observe
from binocle.rules.tricks import trick_winner

__all__ = ["describe", "game_over_line", "hand_by_suit", "hand_summary"]


def hand_by_suit(cards: tuple[Card, ...]) -> str:
    """A hand grouped by suit: ``"♠ A T K  ♥ Q 9  ♦ –  ♣ A"``."""
    parts = []
    for s in Suit:
        ranks = [c.rank.letter for c in cards if c.suit is s]
        parts.append(f"{s.symbol} {' '.join(ranks) if ranks else '–'}")
    return "  ".join(parts)


def hand_summary(result: HandResult, scores: tuple[int, ...]) -> list[str]:
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
            f"  {delta:+5d}  → {scores[i]}"
        )
    return lines


def _gain(before: GameState, after: GameState, seat: int, name: str) -> int:
    old = observe(before, seat).get(name) or ()
    new = observe(after, seat).get(name) or ()
    return int(new[seat] - old[seat]) if old and new else 0


def _offer(state: GameState) -> Any:
    """The overlooked meld offered to the player to act, or None (three-handed)."""
    return observe(state, 0).get("overlooked") if state.current_player is not None else None


def describe(before: GameState, action: Action, after: GameState) -> list[str]:
    """Lines describing ``action`` taken in ``before`` and leading to ``after``."""
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
            lines.append(f"  seat {i}: {hand_by_suit(h)}")
        turn_up = observe(after, 0).get("turn_up")
        if turn_up is not None:
            lines.append(f"  turn-up: {turn_up}")
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
        lines.append(f"  {who} shows {n} Nine(s) of trumps{how}: dix {10 * n} announced")
    elif k is Kind.PASS and before.phase is Phase.DIX:
        lines.append(f"  {who} does not show the Nine of trumps")
    elif k is Kind.PASS and before.phase is Phase.MELD and p is not None:
        melds = observe(after, p).get("melds")
        lines.append(f"  {who} declares {melds[p] if melds else 'nothing'}")
    elif k is Kind.PASS:
        lines.append(f"  {who} passes")
    elif k is Kind.DIX and before.phase is Phase.ANNOUNCE:
        turn_up = observe(before, 0).get("turn_up")
        lines.append(f"  {who} exchanges the Nine of trumps for the turn-up {turn_up}: dix, 10")
    elif k is Kind.BID:
        lines.append(f"  {who} bids {action.number}")
    elif k is Kind.DISCARD:
        lines.append(f"  {who} discards {action.card}")
    elif k is Kind.TRUMP:
        assert action.suit is not None
        lines.append(f"  {who} names trump: {action.suit.name.lower()}")
    elif k is Kind.MELD and before.phase is Phase.ANNOUNCE and p is not None:
        gained = _gain(before, after, p, "meld_points")
        lines.append(f"  {who} announces {str(action)[5:]} ({gained})")
    elif k is Kind.MELD and action.name is not None and p is not None:
        gained = _gain(before, after, p, "announced")
        lines.append(f"  {who} announces {str(action)[5:]} ({gained})")
    elif k is Kind.MELD:
        view = observe(after, p if p is not None else 0)
        melds = view.get("melds")
        if melds is not None and p is not None and melds[p] is not None and action.name is None:
            lines.append(f"  {who} melds {melds[p].total}: {melds[p]}")
        else:
            lines.append(f"  {who}: {action}")
    elif k is Kind.CLAIM and p is not None:
        lines.append(_knock_line(before, after, p, knock_out_of_turn))
    elif k is Kind.PLAY:
        assert action.card is not None and p is not None
        trick = (*before.trick, (p, action.card))
        if not after.trick:
            w = trick[trick_winner([c for _, c in trick], before.trump)][0]
            cards = "  ".join(f"{s}:{c}" for s, c in trick)
            lines.append(f"  trick {cards}  → seat {w}")
    else:
        lines.append(f"  {who}: {action}")
    if before.phase is Phase.ANNOUNCE and after.phase is not Phase.OVER and after.hands[0]:
        draws = []
        for i, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
            gained_cards = list(new)
            for c in old:
                if c in gained_cards:
                    gained_cards.remove(c)
            draws.append(
                f"seat {i} draws {format_cards(gained_cards[-1:] if k is Kind.DIX and i == p else gained_cards)}"
            )
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
            f" widow {format_cards(shown.get('widow') or ())}"
        )
    if len(after.results) > len(before.results):
        lines.extend(hand_summary(after.results[-1], after.scores))
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
