"""The stateless rules (binocle.rulings) say what real states say.

Every profile and every trick rule (classic: free while the stock lasts, then
follow-win-trump; three-handed and cutthroat: follow-win-trump-undertrump;
cutthroat with ``easier_tricks``: easier): random deals are set up with
``stack_deck`` and played out by random legal actions, and at every step the
stateless answers are held equal to the state's — the cards it allows, the
rule code and words of every card it refuses, the trick's winner, and the
melds it lets be announced and what they score.  Then the arguments: every
notation read, anything unreadable refused, the needs of each profile named.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Card, GameState, Kind
from binocle.cards import pack, parse_card
from binocle.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    RuleCode,
    UnknownProfileError,
)
from binocle.records import KIND_VALUES
from binocle.rules.classic_melds import MeldTable, combinations_in
from binocle.rules.tricks import Obligation
from binocle.rulings import Declared, allowed_plays, check_meld, check_play, trick_winner

#: Each profile (as text, read by name like a program would) with the trick rules it plays.
PROFILES = {
    "classic": {Obligation.FREE, Obligation.FOLLOW_WIN_TRUMP},
    "three-handed": {Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP},
    "cutthroat": {Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP},
    "cutthroat(easier_tricks=true)": {Obligation.EASIER},
    "partnership(passing=3)": {Obligation.FOLLOW_WIN_TRUMP_UNDERTRUMP},
    "partnership(easier_tricks=true)": {Obligation.EASIER},
}
#: The positions after a retirement the checks have met, by kind (see the knock tests).
REACHED: Counter[str] = Counter()
#: How many seeded knock games reach every position kind of REACHED.
SEEDED_KNOCK_GAMES = 6
#: What a refused announcement can be refused for, once its cards make a combination in its
#: suit: the cards are not there, none is concealed, or the same class rule.
ANNOUNCEMENT_CODES = {RuleCode.MELD_NOT_HELD, RuleCode.FRESH_CARD, RuleCode.SAME_CLASS}


def _stacked_game(spec: str, rng: random.Random) -> GameState:
    """A new game whose deck ``stack_deck`` sets up from a random split of the pack into
    the hands and piles of the deal."""
    p = binocle.profile(spec)
    cards = list(pack(p.pack_size))
    rng.shuffle(cards)
    dealer = rng.randrange(p.players)
    hands, piles = p.split_deck(tuple(cards), dealer)
    deck = binocle.stack_deck(p, [" ".join(map(str, h)) for h in hands], dealer, **piles)
    assert sorted(deck) == sorted(cards)
    return binocle.new_game(p, deck=deck, dealer=dealer)


def _concealed(s: GameState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` holds that are not laid down on his table."""
    tables = getattr(s, "tables", None)
    laid = Counter(tables[seat].cards) if tables else Counter()
    return tuple(sorted((Counter(s.hands[seat]) - laid).elements()))


def _asked(s: GameState) -> dict[str, object]:
    """What the stateless rules ask beyond the hand, the trick and the trump, as a
    program keeping its own data knows it: the classic stock, the dead cards of a
    retired three-handed player, the two-handed game after a retirement."""
    sub = getattr(s, "sub", None)
    if sub is not None:
        classic = s.profile.classic  # type: ignore[attr-defined]
        return {"two_handed": True, "stock_exhausted": not classic.stock_phase(sub)}
    if s.profile.name == "classic":
        return {"stock_exhausted": not s.profile.stock_phase(s)}  # type: ignore[attr-defined]
    retired = getattr(s, "retired", None)
    if retired is not None:
        return {"dead": [i for i, (seat, _) in enumerate(s.trick) if seat == retired]}
    return {}


def _check_plays(s: GameState, legal: tuple[binocle.Action, ...], seen: set[Obligation]) -> None:
    p = s.current_player
    assert p is not None
    hand = s.hands[p]
    trick = [c for _, c in s.trick]
    asked = _asked(s)
    check = allowed_plays(s.profile.spec(), hand, trick, s.trump, **asked)  # type: ignore[arg-type]
    seen.add(check.obligation)
    for i in asked.get("dead", ()):  # type: ignore[attr-defined]
        REACHED["dead lead" if i == 0 else "dead card after the lead"] += 1
    if asked.get("two_handed"):
        REACHED[f"two-handed {check.obligation.value}"] += 1
    # The cards the state lets be played are exactly those the stateless rules allow.
    assert set(check.allowed) == {a.card for a in legal if a.kind is Kind.PLAY}, (s.trick, asked)
    assert set(check.allowed) | {r.card for r in check.refused} == set(hand)
    for r in check.refused:
        # The state refuses each other card for the same rule, in the same words.
        with pytest.raises(IllegalActionError) as e:
            binocle.apply(s, f"play {r.card}")
        assert (e.value.rule, str(e.value)) == (r.rule, r.reason)
        assert e.value.seat == p
    absent = [c for c in pack(s.profile.pack_size) if c not in hand]
    if absent:
        c = absent[len(trick) % len(absent)]
        assert check.ruling(c).rule is RuleCode.NOT_HELD
        with pytest.raises(IllegalActionError) as e:
            binocle.apply(s, f"play {c}")
        assert e.value.rule is RuleCode.NOT_HELD


def _check_winner(s: GameState, after: GameState, action: binocle.Action) -> None:
    """Once a trick is complete, the seat the stateless trick winner names leads next
    (announces first, in the classic game)."""
    trick = [*s.trick, (s.current_player, action.card)]
    if after.trick or not any(after.hands) or after.hand_number != s.hand_number:
        return
    asked = {k: v for k, v in _asked(s).items() if k != "stock_exhausted"}
    w = trick_winner(s.profile, [c for _, c in trick], s.trump, **asked)  # type: ignore[arg-type]
    assert after.current_player == trick[w][0]


def _named_meld_cards(action: binocle.Action) -> tuple[Card, ...]:
    """Every card an announcement shows: its fresh cards and the table cards after ``+``."""
    table = [parse_card(w.partition("#")[0]) for w in (action.source or "").split()]
    return tuple(sorted((*action.cards, *table)))


def _check_announcements(s: GameState, legal: tuple[binocle.Action, ...]) -> int:
    p = s.current_player
    assert p is not None and s.trump is not None
    named = [a for a in legal if a.kind is Kind.MELD and a.name is not None]
    if not named:
        return 0
    sub = getattr(s, "sub", None)
    asked: dict[str, bool] = {}
    if sub is None:
        table: MeldTable = s.tables[p]  # type: ignore[attr-defined]
        concealed = _concealed(s, p)
    else:  # the two-handed game after a retirement: its own tables, seats renumbered
        i = s.pair.index(p)  # type: ignore[attr-defined]
        table, concealed, asked = sub.tables[i], _concealed(sub, i), {"two_handed": True}
    legal_keys = set()
    for a in named:
        cards = _named_meld_cards(a)
        legal_keys.add((a.name, cards))
        m = check_meld(s.profile, concealed, s.trump, [(a.name, cards)], table=table, **asked)
        # Every announcement the state allows stands, at its value of the meld table.
        assert m.ok, (a, m)
        assert m.worth == KIND_VALUES[a.name]
    for combo in combinations_in(s.hands[p], s.trump, grand_binocle=True):
        key = (combo.kind, tuple(combo.cards))
        if key in legal_keys:
            continue
        m = check_meld(s.profile, concealed, s.trump, [key], table=table, **asked)
        # Every other combination of his cards is refused, for a rule of announcements.
        assert not m.ok and m.worth == 0, (combo, m)
        code = m.rulings[0].rule
        if combo.kind == "grand binocle" and not s.profile.grand_binocle:  # type: ignore[attr-defined]
            assert code is RuleCode.OPTION_OFF
        else:
            assert code in ANNOUNCEMENT_CODES, (combo, m)
    return len(named)


def _check_whole_meld(s: GameState, seat: int) -> None:
    """The profile's best meld of a hand, declared meld by meld in its order, stands
    whole and scores what the engine scores."""
    assert s.trump is not None
    hand = _concealed(s, seat)
    best = s.profile.meld(hand, s.trump)
    declared = [Declared(m.name, m.cards, m.value) for m in best.melds]
    table = None if _counted(s) else MeldTable()
    check = check_meld(s.profile.spec(), hand, s.trump, declared, table=table)
    assert check.ok, (hand, best, check)
    assert check.worth == check.best == best.total == check.claimed
    if _counted(s):
        for m in best.melds:
            if Counter(m.cards * 2) - Counter(hand):
                # A card counts once in a group: a meld declared twice, its cards held
                # once, is refused the second time.
                twice = check_meld(s.profile, hand, s.trump, [(m.name, m.cards)] * 2)
                assert twice.rulings[0].ok
                assert twice.rulings[1].rule is RuleCode.CARDS_REUSED


def _wrong_knock(s: GameState, rng: random.Random) -> GameState | None:
    """Now and then in the three-handed play, a knock short of the target by a seat
    that has just played (his card stays on the trick, dead) or is to play: he retires
    (three-handed rules, Claiming (knocking)).  None where none is made."""
    if (
        s.profile.name != "three-handed"
        or s.phase.value != "play"
        or _retired_or_after(s)
        or rng.random() > 0.06
    ):
        return None
    seat = s.trick[-1][0] if s.trick and rng.random() < 0.7 else s.current_player
    totals = binocle.observe(s, 0).get("claim_totals")
    if seat not in binocle.claimants(s) or totals[seat] >= 1000:
        return None
    return binocle.apply(s, f"claim {seat}")


def _retired_or_after(s: GameState) -> bool:
    return getattr(s, "retired", None) is not None or getattr(s, "sub", None) is not None


def _counted(s: GameState) -> bool:
    """Whether the profile counts melds by the cutthroat groups, laid down at once."""
    return s.profile.name in ("cutthroat", "partnership")


def _play_hand(spec: str, seed: int, seen: set[Obligation], knock: bool = False) -> int:
    """A random hand of ``spec``, checked at every step; with ``knock``, three-handed
    games with wrong knocks, played on into the two-handed game that may follow."""
    rng = random.Random(seed)
    s = _stacked_game(spec, rng)
    checked_melds = 0
    for _ in range(700 if knock else 400):
        phase = s.phase.value
        if phase == "over" or (phase == "deal" and not (knock and _retired_or_after(s))):
            break
        legal = binocle.legal_actions(s)
        if phase == "deal":
            s = binocle.apply(s, legal[0])
            continue
        if phase == "meld" and s.current_player is not None:
            _check_whole_meld(s, s.current_player)
        if s.current_player is not None and not _counted(s):
            checked_melds += _check_announcements(s, legal)
        if any(a.kind is Kind.PLAY for a in legal):
            _check_plays(s, legal, seen)
        knocked = _wrong_knock(s, rng) if knock else None
        if knocked is not None:
            s = knocked
            continue
        action = rng.choice(legal)
        if action.kind is Kind.CLAIM:
            action = next((a for a in legal if a.kind is not Kind.CLAIM), action)
        after = binocle.apply(s, action)
        if action.kind is Kind.PLAY:
            _check_winner(s, after, action)
        s = after
    return checked_melds


@pytest.mark.parametrize("spec", PROFILES)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_stateless_answers_equal_the_states(spec: str, seed: int) -> None:
    """At every step of a random hand of every profile, the stateless plays, trick
    winner and melds agree with the state's legal actions and refusals."""
    seen: set[Obligation] = set()
    _play_hand(spec, seed, seen)
    assert seen <= PROFILES[spec]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_stateless_answers_equal_the_states_after_a_retirement(seed: int) -> None:
    """Three-handed rules, Claiming (knocking) and The two-handed game after a
    retirement: with wrong knocks (a retired player's card left dead on the trick)
    and the classic game that may follow, the stateless plays (given ``dead`` and
    ``two_handed``), trick winner and announcements agree with the state's."""
    seen: set[Obligation] = set()
    _play_hand("three-handed", seed, seen, knock=True)
    assert seen <= PROFILES["three-handed"] | PROFILES["classic"]


def test_seeded_knocks_reach_dead_cards_and_the_two_handed_game() -> None:
    """Seeded games of the knock test reach a dead lead, a dead card played after the
    lead, and both trick rules of the two-handed game that follows a retirement."""
    REACHED.clear()
    for seed in range(SEEDED_KNOCK_GAMES):
        _play_hand("three-handed", seed, set(), knock=True)
    assert set(REACHED) == {
        "dead lead",
        "dead card after the lead",
        "two-handed free",
        "two-handed follow-win-trump",
    }, REACHED


@pytest.mark.parametrize("spec", PROFILES)
def test_every_trick_rule_of_every_profile_is_met(spec: str) -> None:
    """Seeded hands reach every trick rule of the profile (the classic game both
    before and after the stock), and announcements where the profile has them."""
    seen: set[Obligation] = set()
    melds = sum(_play_hand(spec, seed, seen) for seed in range(6))
    assert seen == PROFILES[spec]
    if spec in ("classic", "three-handed"):
        assert melds > 0


# -- reading the arguments ---------------------------------------------------------------


def test_cards_suits_and_profiles_in_every_form() -> None:
    """Cards as objects, numbers or text (``10♠``, ``TS``), suits as Suit, number or
    text, profiles by name, alias, text with options or object: one answer."""
    p = binocle.profile("cutthroat")
    base = allowed_plays("cutthroat", "AS KS QH TH 9C", ["TD"], "H")
    forms = [
        allowed_plays(p, binocle.parse_cards("AS KS QH TH 9C"), "TD", binocle.Suit.HEARTS),
        allowed_plays("cutthroat", ["A♠", "K♠", "Q♥", "10♥", "9♣"], ["10♦"], "hearts"),
        allowed_plays("cutthroat", [int(c) for c in binocle.parse_cards("AS KS QH TH 9C")],
                      [int(parse_card("TD"))], 1),
        allowed_plays("Cutthroat", "as ks qh th 9c", "td", "♥"),
    ]  # fmt: skip
    for f in forms:
        assert (f.allowed, f.refused) == (base.allowed, base.refused)
    assert base.allowed == binocle.parse_cards("QH TH")


@pytest.mark.parametrize(
    "call",
    [
        lambda: allowed_plays("cutthroat", "AS KS", "TD", 1.5),
        lambda: allowed_plays("cutthroat", "AS XS", "TD", "H"),
        lambda: allowed_plays("cutthroat", "AS KS", [object()], "H"),
        lambda: allowed_plays("cutthroat", 7, "TD", "H"),
        lambda: check_play("cutthroat", "ZZ", "AS", "", "H"),
        lambda: check_play("cutthroat", True, "AS", "", "H"),
        lambda: trick_winner("cutthroat", "AS", "Q"),
        lambda: trick_winner("cutthroat", "AS", 4),
        lambda: check_meld("cutthroat", "AS", "H", "aces around AS"),
        lambda: check_meld("cutthroat", "AS", "H", [("aces around",)]),
        lambda: check_meld("cutthroat", "AS", "H", [(7, "AS")]),
        lambda: check_meld("cutthroat", "AS", "H", [("dix", "9H", "10")]),
        lambda: check_meld("cutthroat", "AS", "H", [("dix", "9H", True)]),
        lambda: check_meld("cutthroat", "AS", "H", [{"name": "dix", "cards": "9H", "x": 1}]),
        lambda: check_meld("cutthroat", "AS", "H", [("dix", "")]),
    ],
)
def test_what_cannot_be_read_is_refused(call: object) -> None:
    """No argument is guessed at: what cannot be read raises InvalidNotationError (a
    number that is a float, a suit 4, a card text that does not parse …)."""
    with pytest.raises(InvalidNotationError):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: allowed_plays("classic", "AS", "TS", "H"), "stock_exhausted"),
        (lambda: allowed_plays("cutthroat", "AS AS AS", "", "H"), "two of each"),
        (lambda: allowed_plays("cutthroat", "AS AS", "AS", "H"), "two of each"),
        (lambda: allowed_plays("classic(pack=48)", "7S", "", "H", stock_exhausted=True), "pack"),
        (lambda: allowed_plays("cutthroat", "AS", "TS KS QS", "H"), "at most 2"),
        (lambda: allowed_plays("cutthroat", "AS", "TS", "H", stock_exhausted=1), "stock_exhausted"),
        (lambda: trick_winner("classic", "AS TS KS", "H"), "at most 2"),
        (lambda: trick_winner("classic", "", "H"), "at least one"),
        (lambda: check_meld("cutthroat", "AS", None, [("dix", "9H")]), "trump"),
        (lambda: check_meld("cutthroat", "AS", "H", [("dix", "9H")], table=MeldTable()), "table"),
        (lambda: check_meld("classic", "AS", "H", [("dix", "9H")], table="KS"), "MeldTable"),
    ],
)
def test_what_a_profile_needs_is_asked_for(call: object, words: str) -> None:
    """Where a rule needs more than the hand, the trick and the trump (the classic
    stock), the function asks for it by name; impossible cards are refused."""
    with pytest.raises(InvalidArgumentError, match=words):
        call()  # type: ignore[operator]


def test_unknown_profiles_are_refused() -> None:
    """A profile name that is not one raises UnknownProfileError."""
    with pytest.raises(UnknownProfileError):
        allowed_plays("skat", "AS", "", "H")
    with pytest.raises(UnknownProfileError):
        check_meld(3, "AS", "H", [])


# -- the rules, stated -------------------------------------------------------------------


def test_each_trick_obligation_has_its_code() -> None:
    """Must follow, must beat, must trump, must over-trump and must under-trump are
    told apart by their codes (three-handed rules, Play)."""
    r = allowed_plays("three-handed", "AS KS QH TH 9C", ["TS"], "H")
    assert r.allowed == binocle.parse_cards("AS")
    assert {x.card: x.rule for x in r.refused} == {
        parse_card("KS"): RuleCode.MUST_BEAT,
        parse_card("QH"): RuleCode.MUST_FOLLOW,
        parse_card("TH"): RuleCode.MUST_FOLLOW,
        parse_card("9C"): RuleCode.MUST_FOLLOW,
    }
    r = allowed_plays("three-handed", "KH QH 9C", ["TD", "AH"], "H")
    assert r.allowed == binocle.parse_cards("KH QH")
    assert r.ruling("9C").rule is RuleCode.MUST_UNDERTRUMP
    r = allowed_plays("three-handed", "AH QH 9C", ["TD", "KH"], "H")
    assert r.allowed == binocle.parse_cards("AH")
    assert r.ruling("QH").rule is RuleCode.MUST_OVERTRUMP
    assert r.ruling("9C").rule is RuleCode.MUST_TRUMP
    # Easier (cutthroat option): void, any trump; no under-trump is asked for.
    r = allowed_plays("cutthroat(easier_tricks=true)", "KH QH 9C", ["TD", "AH"], "H")
    assert r.allowed == binocle.parse_cards("KH QH")
    assert r.ruling("9C").rule is RuleCode.MUST_TRUMP


def test_classic_plays_depend_on_the_stock() -> None:
    """Classic rules, Play: any card while the stock lasts; after, follow and win."""
    free = allowed_plays("classic", "AS KS QH", ["TH"], "S", stock_exhausted=False)
    assert free.obligation is Obligation.FREE and free.refused == ()
    strict = allowed_plays("classic", "AS KS QH", ["TH"], "S", stock_exhausted=True)
    assert strict.allowed == binocle.parse_cards("QH")
    assert strict.ruling("AS").rule is RuleCode.MUST_FOLLOW


def test_cutthroat_meld_groups() -> None:
    """Cutthroat rules, Melds: a card counts in melds of different groups, not twice in
    one; a run's K and Q make a royal marriage only with an extra trump K or Q."""
    hand = "AH TH KH QH JH KH QS JD AS AD AC 9H"
    m = check_meld(
        "cutthroat",
        hand,
        "H",
        [
            ("run", "AH TH KH QH JH", 150),
            ("royal marriage", "KH QH", 40),
            ("royal marriage", "KH QH"),
            ("pinochle", "QS JD", 40),
            ("aces around", "AS AH AD AC", 100),
            ("marriage", "KH QH"),
            ("dix", "9H"),
            ("dix", "9H"),
            ("four kings", "KS KH KD KC"),
            ("double pinochle", "QS QS JD JD", 300),
        ],
    )
    codes = [r.rule for r in m.rulings]
    assert codes == [
        None,
        None,
        RuleCode.CARDS_REUSED,
        None,
        None,
        RuleCode.MELD_SUIT,
        None,
        RuleCode.CARDS_REUSED,
        RuleCode.NOT_A_COMBINATION,
        RuleCode.MELD_NOT_HELD,
    ]
    assert m.worth == 150 + 40 + 40 + 100 + 10 == binocle.meld(hand, "H", "cutthroat").total
    no_extra = check_meld("cutthroat", "AH TH KH QH JH", "H", [("run", "AH TH KH QH JH"),
                                                               ("royal marriage", "KH QH")])  # fmt: skip
    assert no_extra.rulings[1].rule is RuleCode.CARDS_REUSED


def test_an_over_claimed_meld_is_taken_down() -> None:
    """A value announced above the meld table's is refused with WRONG_VALUE, and the
    meld scores its real value (classic rules, Over-scored melds)."""
    m = check_meld("classic", "KS KH KD KC QS", "H", [("four kings", "KS KH KD KC", 100)])
    assert m.rulings[0].rule is RuleCode.WRONG_VALUE
    assert (m.claimed, m.worth, m.over_claimed) == (100, 80, 20)


def test_classic_announcements_follow_the_table() -> None:
    """Classic rules, Announcements: a card already on the table serves again only in
    another class or a more valuable combination of its class; an announcement needs
    a card from the concealed hand."""
    # Binocle, then double binocle re-using it: the same class in a more valuable one.
    m = check_meld("classic", "QS QS JD JD", "H", [("binocle", "QS JD"),
                                                   ("double binocle", "QS QS JD JD")])  # fmt: skip
    assert m.ok and m.worth == 120
    # Double binocle first: the binocle inside it can't be announced after.
    m = check_meld("classic", "QS QS JD JD", "H", [("double binocle", "QS QS JD JD"),
                                                   ("binocle", "QS JD")])  # fmt: skip
    assert m.rulings[1].rule is RuleCode.FRESH_CARD
    # Four queens, then the binocle with a queen from the table and a fresh jack.
    m = check_meld("classic", "QS QH QD QC JD", "H", [("four queens", "QS QH QD QC"),
                                                      ("binocle", "QS JD")])  # fmt: skip
    assert m.ok and m.worth == 100
    # A marriage, then the same marriage again from the table with nothing fresh.
    m = check_meld("classic", "KS QS KS", "H", [("marriage", "KS QS"), ("marriage", "KS QS")])
    assert m.rulings[1].rule is RuleCode.SAME_CLASS
    m = check_meld("classic", "QS", "H", [("binocle", "QS JD")])
    assert m.rulings[0].rule is RuleCode.MELD_NOT_HELD


# -- dead cards, the two-handed game after a retirement, the trump ---------------------------

#: Three-handed deals, dealer 0, spades trump (the turn-up KS, seat 0's): seat 1 leads a
#: heart, seat 2 follows, then seat 1 knocks wrongly and retires; seat 0 is to play.
DEAD_DEALS = {
    "AH 9S": (
        "9H JH QH KS 9D 9D AC AC TC TC KC KC QC QC JC JC",
        "AH AH TH TH KH KH QH JH 9H AS AS TS TS KS AD AD",
        "QS QS JS JS 9S 9S TD TD KD KD QD QD JD JD 9C 9C",
    ),
    "QH 9H": (
        "JH 9H KS 9D 9D AC AC TC TC KC KC QC QC JC JC 9C",
        "AH AH TH TH KH KH QH QH JH AS AS TS TS KS AD AD",
        "9H QS QS JS JS 9S 9S TD TD KD KD QD QD JD JD 9C",
    ),
}


def _dead_lead(trick: str) -> GameState:
    hands = DEAD_DEALS[trick]
    deck = binocle.stack_deck("three-handed", list(hands), dealer=0, turn_up="KS")
    s = binocle.new_game("three-handed", deck=deck, dealer=0)
    while s.phase is not binocle.Phase.PLAY:
        s = binocle.apply(s, "pass")
    lead, follow = trick.split()
    s = binocle.apply(binocle.apply(s, f"play {lead}"), f"play {follow}")
    s = binocle.apply(s, "claim 1")
    assert s.retired == 1 and s.current_player == 0
    return s


@pytest.mark.parametrize(
    ("trick", "allowed", "before"), [("AH 9S", "9H JH QH", "KS"), ("QH 9H", "JH", "JH 9H")]
)
def test_a_dead_lead_keeps_its_suit_and_wins_nothing(trick: str, allowed: str, before: str) -> None:
    """Three-handed rules, Claiming (knocking): the card of a player who retired after
    it was played stays on the trick, keeps the suit it led and wins nothing.  With
    ``dead=[0]`` the rulings allow what the engine allows: after AH led dead and 9S
    trumped, any heart (before, the card left out: KS alone); after QH led dead and 9H
    followed, what beats 9H (before, the card kept: JH and 9H)."""
    s = _dead_lead(trick)
    engine = {a.card for a in binocle.legal_actions(s) if a.kind is Kind.PLAY}
    assert engine == set(binocle.parse_cards(allowed))
    check = allowed_plays("three-handed", s.hands[0], trick, "S", dead=[0])
    assert set(check.allowed) == engine
    for r in check.refused:
        with pytest.raises(IllegalActionError) as e:
            binocle.apply(s, f"play {r.card}")
        assert (e.value.rule, str(e.value)) == (r.rule, r.reason)
    # Without ``dead`` one of the two ways the page advised answers otherwise.
    left_out = allowed_plays("three-handed", s.hands[0], trick.split()[1:], "S").allowed
    kept = allowed_plays("three-handed", s.hands[0], trick, "S").allowed
    assert set(binocle.parse_cards(before)) in (set(left_out), set(kept))


def test_a_dead_card_wins_nothing() -> None:
    """Three-handed rules, Claiming (knocking): a dead card wins nothing; where it would
    have won, the first live card takes the trick; a dead card played after the lead
    counts for no obligation."""
    assert trick_winner("three-handed", "AH 9H KH", "S", dead=[0]) == 2
    assert trick_winner("three-handed", "AH 9C QD", "S", dead=[0]) == 1
    assert trick_winner("three-handed", "9H AH KH", "S", dead=[1]) == 2
    assert trick_winner("three-handed", "9H AS", "S", dead=[1]) == 0
    assert allowed_plays("three-handed", "KH 9H", "9H AH", "S", dead=[1]).allowed == (
        binocle.parse_cards("KH")
    )
    with pytest.raises(InvalidArgumentError, match="no winner"):
        trick_winner("three-handed", "AH", "S", dead=[0])


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: allowed_plays("cutthroat", "AS", "TS", "H", dead=[0]), "no dead cards"),
        (lambda: allowed_plays("three-handed", "AS", "TS", "H", dead=[1]), "position"),
        (lambda: allowed_plays("three-handed", "AS", "TS", "H", dead=0), "collection"),
        (lambda: allowed_plays("three-handed", "AS", "TS", "H", dead=[True]), "position"),
        (lambda: trick_winner("classic", "AS TS", "H", dead=[0]), "no dead cards"),
        (lambda: allowed_plays("cutthroat", "AS", "TS", "H", two_handed=True), "has none"),
        (lambda: allowed_plays("three-handed", "AS", "TS", "H", two_handed=1), "two_handed"),
        (lambda: allowed_plays("three-handed", "AS", "TS", "H", two_handed=True), "stock"),
        (lambda: check_meld("classic", "KS QS", "H", [], two_handed=True), "has none"),
        (lambda: allowed_plays("cutthroat", "AS KS QH TH 9C", "TD", None), "name the trump"),
        (lambda: check_play("classic", "AS", "AS", "", None, stock_exhausted=True), "trump"),
    ],
)
def test_dead_cards_two_handed_and_trump_are_checked(call: object, words: str) -> None:
    """``dead`` names positions of the trick in a game that has dead cards (three-handed);
    ``two_handed`` is the three-handed game's; every trick is played with a trump, so
    ``trump=None`` is refused where a card is ruled on (before, T♦ led to ``AS KS QH TH
    9C`` with no trump allowed all five)."""
    with pytest.raises(InvalidArgumentError, match=words):
        call()  # type: ignore[operator]


def test_the_two_handed_game_after_a_retirement_is_asked_for() -> None:
    """Three-handed rules, The two-handed game after a retirement: the two players left
    play the classic game with a stock; ``two_handed=True`` asks for its rules: any card
    while the stock lasts, then follow and win (before, the three-handed rule answered:
    follow, beat, trump)."""
    free = allowed_plays("three-handed", "AS KS QH", "TH", "S", two_handed=True,
                         stock_exhausted=False)  # fmt: skip
    assert free.obligation is Obligation.FREE and len(free.allowed) == 3
    strict = allowed_plays("three-handed", "AS KS QH", "TH", "S", two_handed=True,
                           stock_exhausted=True)  # fmt: skip
    assert strict.obligation is Obligation.FOLLOW_WIN_TRUMP
    assert strict.ruling("AS").reason == (
        "two-handed game after a retirement: must follow suit H: holds QH"
    )
    assert allowed_plays("three-handed", "AS KS QH", "TH", "S").allowed == (
        binocle.parse_cards("QH")
    )
    m = check_meld("three-handed", "KS QS JD", "S", [("sequence", "AS TS KS QS JS")],
                   two_handed=True, table=MeldTable())  # fmt: skip
    assert m.rulings[0].rule is RuleCode.MELD_NOT_HELD


def test_the_profile_texts_the_module_cites_are_profiles() -> None:
    """Every profile text the module's docstring gives as an example reads as a profile
    (it cited ``"cutthroat(obligation=easier)"``, which raised UnknownProfileError)."""
    import re

    import binocle.rulings

    cited = re.findall(r'``"([a-z-]+\([^)]*\))"``', binocle.rulings.__doc__ or "")
    assert cited
    for text in cited:
        assert binocle.profile(text).spec() == text
