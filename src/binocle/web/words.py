"""A seat's table in the words a player uses: what the web page shows beside the cards.

:func:`seat_table` turns ``observe(state, seat)`` into sentences and small
records: the public facts ("Trump: ♣ clubs", "Stock: 23 cards"), each seat's
marks and lines, the bidding as a row per player, the trick's winner and the
last trick, the widow in the bidder's hand, what burying asks, what a knock or a
concession would count, the meld of the hand while bidding, and the score
sheet's explanation of the last hand.  It reads the seat's view alone (and the
view of the moment before a hand ended, for its sheet), so no hidden card is in
it.  :data:`OPTION_HELP` is the one-line help of every profile option.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any, Final

from binocle.actions import Kind
from binocle.cards import Card, Suit, parse_card
from binocle.core import GameState, HandResult, Phase, View
from binocle.display import card_text, cards_text, suit_text
from binocle.errors import BinocleError
from binocle.game import claimants, meld, observe
from binocle.rulings import trick_winner
from binocle.timeline import undo

__all__ = ["OPTION_HELP", "PHASE_WORDS", "in_names", "knock_figures", "seat_table"]

#: Each phase as a player says it.
PHASE_WORDS: Final = {
    "deal": "between hands: the next deal is due",
    "bidding": "bidding",
    "discard": "the bidder buries cards (partnership: the partners pass cards)",
    "trump": "the bidder names trump",
    "dix": "showing the Nine of trumps (dix)",
    "announce": "announcing melds",
    "meld": "showing melds",
    "play": "playing tricks",
    "over": "the game is over",
}

#: The one-line help of every profile option, by name (the rules pages say more).
OPTION_HELP: Final = {
    "max_hands": "End the game after this many hands (empty: play to the target).",
    "target": "The score that wins the game.",
    "min_bid": "The lowest opening bid; bids rise by 10.",
    "max_bid": "The highest bid allowed.",
    "single_set": "A bidder who fails loses his bid once, not twice.",
    "settlement": "Points to the target, or chips settled after each hand (give max_hands).",
    "easier_tricks": "Follow suit, but beat the trick only when trump was led.",
    "bunched_hands": "A hand with five Nines and no meld may be thrown in for a new deal.",
    "widow_after_round": "Which round of the deal the three widow cards follow (0 to 4).",
    "grand_binocle": "Score grand binocle: K♠ Q♠ J♦ for 80.",
    "pack": "48 cards, or 64 with the Eights and Sevens.",
    "claim_overlooked": "The others may claim meld a player forgot to announce.",
    "lowest_pays": "The game ends at the first retirement; the lowest score pays.",
    "meld_until_first_card": "Melds may be announced until your first card is played.",
    "passing": "Cards the bidder's partner passes to the bidder, and back (0, 3 or 4).",
    "all_pass": "When all four pass: redeal, or the dealer must bid.",
    "double_set": "A side that fails loses twice its bid.",
}

_SUIT_NAMES: Final = {Suit.SPADES: "spades", Suit.HEARTS: "hearts",
                      Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}  # fmt: skip


def _suit(s: Suit | None) -> str:
    return "not named yet" if s is None else f"{suit_text(s)} {_SUIT_NAMES[s]}"


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _fact(name: str, label: str, text: str, cards: Sequence[Card] = ()) -> dict[str, Any]:
    return {"name": name, "label": label, "text": text, "cards": _cards(cards)}


def _is(who: str) -> str:
    return "you are" if who == "you" else f"{who} is"


def _verb(who: str, verb: str) -> str:
    """``verb`` as ``who`` says it: "you lose", "ann loses"."""
    return verb if who == "you" else f"{verb}s"


def _have(who: str) -> str:
    return "you have" if who == "you" else f"{who} has"


#: The two-handed game's facts given by its two players, in the order of ``pair``.
_BY_PAIR: Final = ("tables", "table_melds", "meld_points", "taken")


def _public(view: View) -> dict[str, Any]:
    """The view's public facts.  After a retirement in the three-handed game, the
    two-handed game's facts are merged over them, each given by seat."""
    pub = dict(view.public)
    inner = pub.pop("two_handed", None)
    pair = pub.get("pair")
    if inner and pair:
        facts = dict(inner)
        n = len(view.hand_sizes)
        for name in _BY_PAIR:
            if name in facts:
                empty: Any = 0 if name in ("meld_points", "taken") else ()
                values = [empty] * n
                for i, seat in enumerate(pair):
                    values[seat] = facts[name][i]
                facts[name] = tuple(values)
        if facts.get("last_trick"):
            facts["last_trick"] = tuple((pair[i], c) for i, c in facts["last_trick"])
        for name in ("claim_totals", "targets"):
            facts.pop(name, None)  # the three-handed view's own are by seat already
        pub.update(facts)
        pub["in_two_handed"] = True
    return pub


# -- the narration in names --------------------------------------------------------------

#: The verbs of the narration (:mod:`binocle.narrate`) as "you" says them.
_YOU_SAY: Final = {
    "announces": "announce", "draws": "draw", "bids": "bid", "passes": "pass",
    "declares": "declare", "melds": "meld", "discards": "discard", "names": "name",
    "shows": "show", "does": "do", "exchanges": "exchange", "claims": "claim",
    "lets": "let", "concedes": "concede", "takes": "take", "deals": "deal",
    "knocks": "knock", "wins": "win", "overlooked": "overlooked", "is": "are", "has": "have",
}  # fmt: skip
_TRICK: Final = re.compile(r"^(\s*)trick (.*?)\s+\S+ (?:seat (\d+)|you)$")
_PLAY: Final = re.compile(r"(\d+):(\S+)")
_SEAT: Final = re.compile(r"\bseat (\d+)(?: \(you\))?( [a-z]+)?")


def in_names(lines: Sequence[str], names: Sequence[str], seat: int) -> list[str]:
    """The narration's ``lines`` (:func:`binocle.narrate.narrate`, which names seats by
    number) told with the seats' ``names``, ``seat`` as "you" with its verbs to
    match: "trick 1:K♠ 0:A♠ → seat 0" becomes "Bob plays K♠, you play A♠: you take
    the trick"."""

    def who(i: str) -> str:
        n = int(i)
        if n == seat:
            return "you"
        return names[n] if 0 <= n < len(names) else f"seat {i}"

    out = []
    for line in lines:
        trick = _TRICK.match(line)
        if trick is not None:
            plays = [f"{who(i)} {_verb(who(i), 'play')} {card}"
                     for i, card in _PLAY.findall(trick[2])]  # fmt: skip
            w = who(trick[3]) if trick[3] is not None else "you"
            out.append(f"{trick[1]}{', '.join(plays)}: {w} {_verb(w, 'take')} the trick")
            continue

        def name(m: re.Match[str]) -> str:
            person, word = who(m[1]), m[2] or ""
            if person == "you" and word.strip() in _YOU_SAY:
                word = " " + _YOU_SAY[word.strip()]
            return person + word

        text = _SEAT.sub(name, line)
        out.append(text[:1].upper() + text[1:] if line.startswith("seat ") else text)
    return out


# -- knocking -------------------------------------------------------------------------


def knock_figures(view: View, names: Sequence[str]) -> dict[str, Any] | None:
    """What a knock by the view's seat would count now: its total, its target, whether
    the claim is correct, and what it would do, in a sentence; None where the profile
    has no knock."""
    pub = dict(view.public)
    totals, targets = pub.get("claim_totals"), pub.get("targets")
    if totals is None or targets is None:
        return None
    seat = view.seat
    total, target = int(totals[seat]), int(targets[seat])
    correct = total >= target
    who = names[seat]
    if correct:
        outcome = "knocking now wins the game"
    elif view.profile.wrong_claim_loses:
        outcome = "knocking now loses the game"
    elif getattr(view.profile, "lowest_pays", False):
        outcome = "knocking now retires you, the game ends and you pay"
    elif pub.get("retired") is not None:
        outcome = "knocking now loses the game"
    else:
        outcome = "knocking now retires you from the hand: your cards are dead"
    if correct:
        text = (f"{_have(who).capitalize()} {total} points, and {target} win: a knock now claims"
                f" the game, and {outcome[len('knocking now '):]}.")  # fmt: skip
    else:
        text = (f"{_have(who).capitalize()} {total} of the {target} points needed to win. A knock"
                f" claims you have them: {outcome}. Knock only once you count {target}.")  # fmt: skip
    return {"total": total, "target": target, "correct": correct, "danger": not correct,
            "text": text}  # fmt: skip


def _concede(view: View, pub: dict[str, Any]) -> dict[str, Any] | None:
    if not any(a.kind is Kind.CONCEDE for a in view.legal_actions):
        return None
    bid = int(pub["bid"])
    set_cost = bid if getattr(view.profile, "single_set", False) else 2 * bid
    text = (
        f"Conceding gives up the hand: you lose your bid, {bid} (played and set you would"
        f" lose {set_cost}), and the others score their meld."
    )
    return {"cost": bid, "set_cost": set_cost, "text": text}


# -- tricks ----------------------------------------------------------------------------


def _trick_json(
    view: View, trick: Sequence[tuple[int, Card]], names: Sequence[str], retired: int | None
) -> dict[str, Any] | None:
    """A finished trick with its winner (a retired player's card wins nothing)."""
    if not trick or view.trump is None:
        return None
    live = [(s, c) for s, c in trick if s != retired] or list(trick)
    won = live[trick_winner(view.profile, [c for _, c in live], view.trump)][0]
    return {"cards": [[s, str(c)] for s, c in trick], "winner": won,
            "text": f"{names[won]} took the trick"}  # fmt: skip


def _plays(view: View) -> list[tuple[int, Card]]:
    """The cards played this hand, from the seat's log (``"2: play JC"``)."""
    out = []
    for line in view.log:
        seat, _, rest = line.partition(": ")
        words = rest.split()
        if seat.isdigit() and len(words) >= 2 and words[0] == "play":
            with contextlib.suppress(BinocleError, ValueError):
                out.append((int(seat), parse_card(words[1])))
    return out


def _last_trick(view: View, pub: dict[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    """The last finished trick of the hand in progress, in every profile."""
    played = pub.get("played")
    if played:  # cutthroat: every trick of the hand
        return _trick_json(view, played[-1], names, None)
    last = pub.get("last_trick")
    if last:  # classic, and the two-handed game after a retirement
        return _trick_json(view, last, names, None)
    if pub.get("in_two_handed") or "tricks" not in pub or not pub["tricks"]:
        return None
    plays = _plays(view)
    done = plays[: len(plays) - len(view.trick)]
    retired = pub.get("retired")
    size = 3
    # A trick holds three cards, or two once a player has retired (his card left in a
    # trick in progress at his retirement counts among them).
    if retired is not None and len(done) % 3:
        size = 2
    return _trick_json(view, done[-size:], names, retired)


def _tricks_won(view: View, played: Sequence[Sequence[tuple[int, Card]]]) -> list[int]:
    won = [0] * len(view.hand_sizes)
    if view.trump is None:
        return won
    for trick in played:
        won[trick[trick_winner(view.profile, [c for _, c in trick], view.trump)][0]] += 1
    return won


# -- the public facts ------------------------------------------------------------------


def _facts(view: View, pub: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    hand_no = len(view.results) + (0 if view.phase in (Phase.DEAL, Phase.OVER) else 1)
    facts = [
        _fact("hand", "Hand", str(max(hand_no, 1))),
        _fact("phase", "Now", PHASE_WORDS.get(view.phase.value, view.phase.value)),
    ]
    if view.phase is not Phase.OVER:  # the facts of a hand in play, not of a game over
        facts.append(_fact("dealer", "Dealer", names[view.dealer]))
        if view.trump is not None or view.phase is not Phase.DEAL:
            facts.append(_fact("trump", "Trump", _suit(view.trump)))
    if pub.get("bid") is not None:
        by = pub.get("bidder")
        if by is None:
            top = max(pub.get("calls") or ((0, 0),), key=lambda c: c[1])
            facts.append(_fact("bid", "Highest bid", f"{pub['bid']} by {names[top[0]]}"))
        else:
            facts.append(_fact("bid", "Contract", f"{names[by]} bid {pub['bid']}"))
    if pub.get("widow"):
        facts.append(_fact("widow", "Widow", "taken by the bidder", pub["widow"]))
    if pub.get("turn_up") is not None:
        facts.append(_fact("turn_up", "Turn-up", card_text(pub["turn_up"]), [pub["turn_up"]]))
    if pub.get("exchanged"):
        facts.append(
            _fact("exchanged", "Dix", "the dealer took the turn-up for the Nine of trumps")
        )
    if "stock_size" in pub and view.phase not in (Phase.DEAL, Phase.OVER):
        facts.append(_fact("stock", "Stock", f"{pub['stock_size']} cards"))
    if pub.get("discards"):
        facts.append(
            _fact("buried", "You buried", f"{len(pub['discards'])} cards", pub["discards"])
        )
    elif pub.get("discard_count"):
        facts.append(_fact("buried", "Buried", f"{pub['discard_count']} cards, face down"))
    if pub.get("played") is not None and view.phase is Phase.PLAY:
        facts.append(_fact("tricks", "Tricks", f"{len(pub['played'])} of 15 played"))
    elif isinstance(pub.get("tricks"), int) and view.phase is Phase.PLAY:
        facts.append(_fact("tricks", "Tricks", f"{pub['tricks']} played"))
    offer = pub.get("overlooked")
    if offer is not None:
        facts.append(_fact("overlooked", "Overlooked meld",
                           f"{names[offer.seat]} forgot {offer.points} points of meld"))  # fmt: skip
    if pub.get("retired") is not None:
        facts.append(_fact("retired", "Retired", f"{names[pub['retired']]}, after a wrong knock"))
    pair = pub.get("pair")
    if pair:
        two = " and ".join(names[i] for i in pair)
        facts.append(_fact("pair", "Two-handed game", f"{two} play it out"))
    if pub.get("payers"):
        facts.append(_fact("payers", "Pays", ", ".join(names[i] for i in pub["payers"])))
    return facts


def _seat_lines(view: View, pub: dict[str, Any], seat: int, won: list[int]) -> list[str]:
    lines = []
    targets = pub.get("targets")
    goal = f" of {targets[seat]}" if targets is not None else ""
    lines.append(f"score {view.scores[seat]}{goal}")
    if view.phase in (Phase.DEAL, Phase.OVER):
        return lines
    n = view.hand_sizes[seat]
    lines.append(f"{n} card{'' if n == 1 else 's'} in hand")
    melds = pub.get("melds")
    if melds is not None and len(melds) > seat and melds[seat] is not None:
        result = melds[seat]
        if result.melds:
            shown = ", ".join(f"{m.name} {cards_text(m.cards)} ({m.value})" for m in result.melds)
            lines.append(f"meld {result.total}: {shown}")
        elif "announced" not in pub or view.phase is Phase.PLAY:
            lines.append("no meld")
    dix = pub.get("dix_shown")
    if dix and dix[seat]:
        lines.append(f"showed the Nine of trumps{'' if dix[seat] == 1 else f' ×{dix[seat]}'}")
    scored = pub.get("scored")
    if scored is not None and len(scored) > seat and not pub.get("in_two_handed"):
        announced = pub.get("announced", (0,) * 3)[seat]
        if scored[seat]:
            lines.append("melds scored with a trick")
        elif announced and view.phase is Phase.PLAY:
            lines.append(f"meld {announced} scores when a trick is won")
    points = pub.get("meld_points")
    if points is not None and len(points) > seat and points[seat]:
        lines.append(f"meld scored {points[seat]}")
    taken = pub.get("taken")
    if taken is not None and len(taken) > seat:
        lines.append(f"trick points {taken[seat]}")
    if pub.get("played") is not None and view.phase is Phase.PLAY:
        lines.append(f"tricks won {won[seat]}")
    totals = pub.get("claim_totals")
    if totals is not None and targets is not None and len(totals) > seat:
        # What a knock now would count (score, meld recorded, cards won), in words.
        lines.append(f"a knock now would count {totals[seat]} of the {targets[seat]} needed")
    return lines


def _seats(view: View, pub: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    won = _tricks_won(view, pub.get("played") or ())
    mine = view.profile.side_of(view.seat)
    out = []
    for seat in range(len(view.hand_sizes)):
        tags = [
            word
            for word, yes in (
                ("you", seat == view.seat),
                ("partner", seat != view.seat and seat in mine),
                ("dealer", seat == view.dealer and view.phase is not Phase.OVER),
                ("bidder", pub.get("bidder") == seat),
                ("to act", seat == view.current_player),
                ("retired", pub.get("retired") == seat),
            )
            if yes
        ]
        tables = pub.get("tables")
        table_melds = pub.get("table_melds")
        on_table: list[dict[str, Any]] = []
        if table_melds is not None and len(table_melds) > seat:
            for name, cards, intact in table_melds[seat]:
                on_table.append({"name": name, "cards": _cards(cards), "intact": bool(intact)})
        out.append({
            "seat": seat,
            "name": names[seat],
            "tags": tags,
            "lines": _seat_lines(view, pub, seat, won),
            "table": _cards(tables[seat]) if tables is not None and len(tables) > seat else [],
            "table_melds": on_table,
        })  # fmt: skip
    return out


def _bidding(view: View, pub: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]] | None:
    calls = pub.get("calls")
    if calls is None or view.phase not in (Phase.BIDDING, Phase.DISCARD, Phase.TRUMP, Phase.MELD):
        return None
    rows: list[dict[str, Any]] = [
        {"seat": i, "name": names[i], "calls": [], "passed": False}
        for i in range(len(view.hand_sizes))
    ]
    for seat, amount in calls:
        row = rows[seat]
        row["calls"].append("pass" if amount == 0 else str(amount))
        row["passed"] = row["passed"] or amount == 0
    return rows


def _hand_meld(view: View) -> dict[str, Any] | None:
    """The meld of the seat's hand in each trump, while it bids (the widow unknown)."""
    if view.phase is not Phase.BIDDING or not view.hand:
        return None
    totals = {s: meld(view.hand, s, view.profile).total for s in Suit}
    best = max(Suit, key=lambda s: totals[s])
    text = f"Your meld: {totals[best]} with {_suit(best)} as trump"
    others = ", ".join(f"{suit_text(s)} {totals[s]}" for s in Suit if s is not best)
    by_suit = [{"trump": str(s), "total": totals[s]} for s in Suit]
    # Cards dealt to no hand while bidding: a widow the bidder takes (not in every game).
    undealt = view.profile.pack_size - sum(view.hand_sizes)
    widow = "; the widow may add to it" if undealt > 0 else ""
    return {"by_suit": by_suit, "best": totals[best],
            "text": f"{text} ({others}){widow}."}  # fmt: skip


def _widow_in_hand(view: View, pub: dict[str, Any]) -> list[str]:
    widow = pub.get("widow")
    if not widow or pub.get("bidder") != view.seat or view.phase is not Phase.DISCARD:
        return []
    hand = list(view.hand)
    out = []
    for c in widow:
        if c in hand:
            hand.remove(c)
            out.append(str(c))
    return out


def _discard(view: View, pub: dict[str, Any]) -> dict[str, Any] | None:
    if view.phase is Phase.DISCARD and "given_count" in pub:
        return _passing(view, pub)
    if view.phase is not Phase.DISCARD or "discard_count" not in pub:
        return None
    left = 3 - int(pub["discard_count"])
    if view.current_player != view.seat:
        return {"count": left, "text": "The bidder buries 3 cards, face down."}
    return {"count": left, "text": (
        f"Bury {left} card{'s' if left != 1 else ''}: choose them, then confirm. Buried cards"
        " can't be melded; the counters (A, 10, K) among them count for you at the end of the"
        " hand.")}  # fmt: skip


def _passing(view: View, pub: dict[str, Any]) -> dict[str, Any]:
    """Cards passed face down between partners (partnership rules, Trump and passing)."""
    n = int(view.profile.options().get("passing", 0))
    given = int(pub["given_count"])
    back = given >= n  # the bidder passes back
    left = (2 * n if back else n) - given
    if view.current_player != view.seat:
        who = "The bidder passes" if back else "The bidder's partner passes"
        to = "back to his partner" if back else "to the bidder"
        return {"count": left, "confirm": "", "text": f"{who} {n} cards {to}, face down."}
    return {"count": left, "confirm": f"Pass the {left} chosen cards", "text": (
        f"Pass {left} card{'s' if left != 1 else ''} face down to your partner: choose them,"
        " then confirm. Only your side sees them.")}  # fmt: skip


# -- the score sheet -------------------------------------------------------------------


def _before_end(state: GameState) -> GameState | None:
    """The state just before the action that ended the last hand (its melds, its last
    trick), or None."""
    if state.phase not in (Phase.DEAL, Phase.OVER) or not state.results:
        return None
    try:
        return undo(state)
    except BinocleError:
        return None


def _sheet(state: GameState, view: View, names: Sequence[str]) -> dict[str, Any] | None:
    if not view.results:
        return None
    result: HandResult = view.results[-1]
    before = _before_end(state) if len(state.results) == len(view.results) else None
    declared: list[int | None] = [None] * len(view.scores)
    if before is not None and before.results == state.results[:-1]:
        pub = _public(observe(before, view.seat))
        for i, m in enumerate(pub.get("melds") or ()):
            if m is not None:
                declared[i] = m.total
    pub_now = dict(view.public)
    targets = pub_now.get("targets") or (getattr(view.profile, "target", None),) * len(names)
    notes: list[str] = []
    rows = []
    # Partners score together: a side's meld is its players' melds, and a bid is the
    # side's (each seat alone where the profile has no partnerships).
    side_of = view.profile.side_of

    def side_meld(i: int) -> int | None:
        shown = [declared[j] for j in side_of(i) if declared[j] is not None]
        return sum(x for x in shown if x is not None) if shown else None

    def side_name(i: int) -> str:
        side = side_of(i)
        if len(side) == 1:
            return names[i]
        return (
            "your side"
            if "you" in (names[j] for j in side)
            else " and ".join(names[j] for j in side)
        )

    def loses(i: int) -> str:
        who = side_name(i)
        return f"{who} {_verb(who, 'lose') if len(side_of(i)) == 1 else 'lose'}"

    bidder_side = side_of(result.bidder) if result.bidder is not None else ()
    for i in range(len(view.scores)):
        note = []
        if i in bidder_side:
            if result.outcome == "conceded":
                note.append(f"conceded: loses the bid once ({result.bid}); the meld does not count")
            elif result.made:
                note.append(
                    f"made the bid: meld {result.meld[i]} + tricks {result.tricks[i]} ="
                    f" {result.meld[i] + result.tricks[i]}, at least {result.bid}"
                )
            else:
                shown = side_meld(i)
                meld_part = f"meld {shown}" if shown is not None else "meld"
                reached = (shown or 0) + result.tricks[i]
                double = -result.delta[i] == 2 * (result.bid or 0)
                note.append(
                    f"{'double set' if double else 'set'}: {meld_part} + tricks"
                    f" {result.tricks[i]} = {reached}, short of the bid {result.bid}:"
                    f" the meld does not count and {loses(i)}"
                    f" {'twice the bid' if double else 'the bid'} ({result.delta[i]})"
                )
        elif result.bidder is not None and result.outcome == "played":
            shown = side_meld(i)
            if shown and result.meld[i] == 0:
                note.append(f"meld {shown} forfeited: no counter won in tricks")
        target = targets[i] if i < len(targets) else None
        if target:
            progress = f"{view.scores[i]} of {target}"
            note.append(f"{progress} ({max(target - view.scores[i], 0)} to go)"
                        if view.scores[i] < target else f"{progress}: target reached")  # fmt: skip
        rows.append({"seat": i, "declared": declared[i], "note": "; ".join(note)})
    if result.bidder is not None:
        verdict = ("conceded" if result.outcome == "conceded"
                   else "made it" if result.made
                   else "were set" if names[result.bidder] == "you" else "was set")  # fmt: skip
        notes.append(f"{names[result.bidder]} bid {result.bid} and {verdict}.")
    elif result.outcome == "claimed":
        notes.append("A knock ended the hand.")
    elif result.outcome == "retired":
        notes.append("A wrong knock retired a player.")
    elif result.outcome == "thrown-in":
        notes.append("Everyone passed: the hand was thrown in.")
    elif result.outcome == "redeal":
        notes.append("A bunched hand was thrown in for a new deal.")
    else:
        notes.append("The hand was played out: each player scores his meld and trick points.")
    last = None
    if before is not None and before.trick and len(before.trick) < len(view.scores):
        moves = state.moves()
        if moves:
            action, seat = moves[-1]
            if action.kind is Kind.PLAY and action.card is not None and seat is not None:
                bview = observe(before, view.seat)
                last = _trick_json(bview, (*before.trick, (seat, action.card)), names, None)
    return {"hand": len(view.results), "summary": " ".join(notes), "rows": rows,
            "last_trick": last}  # fmt: skip


# -- the whole table ---------------------------------------------------------------------


def seat_table(state: GameState, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """Everything public at ``seat``'s table in words, with the seat's own aids (see the
    module's docstring); ``names`` names the seats (``"you"`` for the seat itself)."""
    view = observe(state, seat)
    pub = _public(view)
    current = None
    if view.trick and view.trump is not None:
        retired = pub.get("retired")
        live = [(s, c) for s, c in view.trick if s != retired]
        if live:
            w = live[trick_winner(view.profile, [c for _, c in live], view.trump)]
            current = {"seat": w[0], "card": str(w[1]),
                       "text": f"{_is(names[w[0]])} winning the trick with {card_text(w[1])}"}  # fmt: skip
    sheet = _sheet(state, view, names)
    last = _last_trick(view, pub, names)
    if last is None and sheet is not None and view.phase in (Phase.DEAL, Phase.OVER):
        last = sheet["last_trick"]
    knock = None
    if view.phase is not Phase.OVER and seat in claimants(state):
        knock = knock_figures(view, names)
    return {
        "facts": _facts(view, pub, names),
        "seats": _seats(view, pub, names),
        "bidding": _bidding(view, pub, names),
        "trick_winner": current,
        "last_trick": last,
        "widow": _widow_in_hand(view, pub),
        "discard": _discard(view, pub),
        "knock": knock,
        "concede": _concede(view, pub) if view.current_player == seat else None,
        "hand_meld": _hand_meld(view) if view.current_player == seat else None,
        "sheet": sheet,
    }
