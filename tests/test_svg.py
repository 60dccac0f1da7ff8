"""Pictures (binocle.svg): well-formed, self-contained SVG with the right cards in the
right places, no card a view hides, and the documented error for anything else."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import binocle
from binocle import Card, InvalidArgumentError, Suit, parse_cards
from binocle.bots import play_game
from binocle.svg import (
    Theme,
    card_svg,
    hand_result_svg,
    hand_svg,
    melds_svg,
    picture,
    table_svg,
    trick_svg,
)

NS = "{http://www.w3.org/2000/svg}"
PROFILES = binocle.profile_names()


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def _cards(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(NS + "g") if g.get("class") == "card"]


def _x(g: ET.Element) -> float:
    found = re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", ""))
    assert found, g.get("transform")
    return float(found.group(1))


def _self_contained(svg: str) -> None:
    """No external file, font, image, script or style sheet."""
    for banned in ("href", "<image", "<script", "@import", "url(", "<foreignObject"):
        assert banned not in svg, banned


def _random_state(profile: str, seed: int, steps: int) -> binocle.GameState:
    rng = random.Random(seed)
    s = binocle.new_game(profile, seed=seed)
    for _ in range(steps):
        if binocle.is_over(s):
            break
        s = binocle.apply(s, rng.choice(binocle.legal_actions(s)))
    return s


def test_a_card_names_itself_in_its_picture() -> None:
    """A card's picture is one card group naming the card, red for hearts and diamonds,
    outlined when its suit is trump."""
    for text in ("AS", "TH", "9D", "JC"):
        c = Card(text)
        root = _parse(card_svg(c))
        (g,) = _cards(root)
        assert g.get("data-card") == text
        assert ("#c8102e" in ET.tostring(g, encoding="unicode")) == (
            c.suit in (Suit.HEARTS, Suit.DIAMONDS)
        )
    assert 'data-role="trump"' in card_svg(Card("TH"), trump=Suit.HEARTS)
    assert 'data-role="trump"' not in card_svg(Card("TH"), trump=Suit.SPADES)


def test_a_hand_is_grouped_by_suit_trump_first_strongest_first() -> None:
    """A hand's cards lie left to right by suit, trump's suit first, each suit from its
    strongest card down, and every card of the hand appears once."""
    cards = parse_cards("9S AH TS QC KH AS JD QH")
    root = _parse(hand_svg(cards, trump=Suit.HEARTS, label="North"))
    groups = sorted(_cards(root), key=_x)
    shown = [g.get("data-card") for g in groups]
    assert sorted(shown) == sorted(str(c) for c in cards)
    assert shown == ["AH", "KH", "QH", "AS", "TS", "9S", "JD", "QC"]
    assert [g.get("data-role") for g in groups[:3]] == ["trump"] * 3
    assert "North" in ET.tostring(root, encoding="unicode")
    # In the order given when by_suit is false.
    plain = [
        g.get("data-card") for g in sorted(_cards(_parse(hand_svg(cards, by_suit=False))), key=_x)
    ]
    assert plain == [str(c) for c in cards]


def test_a_trick_captions_each_card_and_marks_the_winner() -> None:
    """A trick's cards are in play order, each captioned with its player, and the card
    winning it (the highest trump, else the highest of the suit led) is marked."""
    trick = [(1, Card("KS")), (2, Card("AS")), (0, Card("9H"))]
    root = _parse(trick_svg(trick, 3, trump=Suit.HEARTS, names=["Ann", "Bob", "Cy"], seat=0))
    groups = sorted(_cards(root), key=_x)
    assert [g.get("data-card") for g in groups] == ["KS", "AS", "9H"]
    assert [g.get("data-role") for g in groups] == [None, None, "wins"]
    captions = [t.text for t in root.iter(NS + "text") if t.get("class") == "caption"]
    assert captions == ["Bob", "Cy", "you · wins"]
    no_trump = _parse(trick_svg(trick, 3, trump=Suit.CLUBS))
    assert [g.get("data-role") for g in sorted(_cards(no_trump), key=_x)] == [None, "wins", None]


def test_melds_show_each_combination_and_the_total() -> None:
    """A meld result's picture has the cards of each combination scored, its name and
    value, and the total (here a run in trump, 150, and pinochle, 40)."""
    result = binocle.meld("AC TC KC QC JC QS JD", "C", "cutthroat")
    svg = melds_svg(result, trump=Suit.CLUBS)
    root = _parse(svg)
    used = sorted(str(c) for m in result.melds for c in m.cards)
    assert sorted(g.get("data-card") or "" for g in _cards(root)) == used
    for m in result.melds:
        assert f"{m.name} · {m.value}" in svg
    assert f"total {result.total}" in svg and result.total == 190


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_a_views_picture_shows_its_hand_and_hides_the_others(
    profile: str, seed: int, steps: int
) -> None:
    """A seat's table shows its own hand face up (every card once), each other seat's hand
    as that many cards face down, the trick in play order, and no card face up that the
    view does not show: a picture leaks nothing the view hides."""
    s = _random_state(profile, seed, steps)
    seat = s.current_player if s.current_player is not None else seed % s.profile.players
    v = binocle.observe(s, seat)
    svg = table_svg(v)
    _self_contained(svg)
    root = _parse(svg)
    hands = {
        int(g.get("data-seat") or -1): g for g in root.iter(NS + "g") if g.get("class") == "hand"
    }
    assert sorted(hands) == list(range(s.profile.players))
    for other, g in hands.items():
        faces = [c.get("data-card") for c in _cards(g)]
        if other == seat:
            assert sorted(faces) == sorted(str(c) for c in v.hand)
        else:
            assert faces == ["back"] * v.hand_sizes[other]
    (trick,) = [g for g in root.iter(NS + "g") if g.get("class") == "trick"]
    assert [c.get("data-card") for c in sorted(_cards(trick), key=_x)] == [
        str(c) for _, c in v.trick
    ]
    known = {str(c) for c in v.hand} | {str(c) for _, c in v.trick}
    for value in dict(v.public).values():
        known |= set(re.findall(r"Card\('(\w\w)'\)", repr(value)))
    shown = {c.get("data-card") for c in _cards(root)} - {"back"}
    assert shown <= known
    # The whole table from the state: every hand face up.
    whole = _parse(table_svg(s))
    for g in whole.iter(NS + "g"):
        if g.get("class") == "hand":
            held = s.hands[int(g.get("data-seat") or -1)]
            assert sorted(c.get("data-card") or "" for c in _cards(g)) == sorted(
                str(c) for c in held
            )


def test_notebooks_get_pictures_from_the_values() -> None:
    """``import binocle`` gives cards, meld results, states and views a ``_repr_svg_``,
    the picture a notebook shows; other values have no picture."""
    s = _random_state("cutthroat", 4, 40)
    values: list[Any] = [
        Card("QS"),
        binocle.meld("KS QS", "S", "cutthroat"),
        s,
        binocle.observe(s, 1),
    ]
    for value in values:
        svg = value._repr_svg_()
        assert svg == picture(value)
        _parse(svg)
    assert picture(3) is None and picture("AS") is None


def test_the_theme_sizes_and_colours_the_picture() -> None:
    """A theme's card width scales the picture; its colours are used; a theme refuses
    values that are not a size, a colour or a font family list."""
    small, big = (
        card_svg(Card("AS"), theme=Theme(card_width=40)),
        card_svg(Card("AS"), theme=Theme(card_width=80)),
    )
    width = lambda svg: float(_parse(svg).get("width") or 0)  # noqa: E731
    assert width(big) > 1.8 * width(small)
    assert "#123456" in hand_svg(parse_cards("AH"), theme=Theme(red="#123456"))
    for bad in ({"card_width": 0}, {"card_width": float("nan")}, {"card_width": True},
                {"red": "x\"/><script>"}, {"font": "<b>"}, {"felt": 3}):  # fmt: skip
        with pytest.raises(InvalidArgumentError):
            Theme(**bad)


@pytest.mark.parametrize(
    "call",
    [
        lambda: card_svg("AS"),  # type: ignore[arg-type]
        lambda: card_svg(Card("AS"), trump="H"),  # type: ignore[arg-type]
        lambda: hand_svg("AS KS"),  # type: ignore[arg-type]
        lambda: hand_svg([Card("AS"), "KS"]),  # type: ignore[list-item]
        lambda: hand_svg([Card("AS")], label=3),  # type: ignore[arg-type]
        lambda: trick_svg([(5, Card("AS"))], 3),
        lambda: trick_svg([(0, Card("AS"))], 3, seat=3),
        lambda: trick_svg([(0, Card("AS"))], 3, names=["a"]),
        lambda: trick_svg([Card("AS")], 3),  # type: ignore[list-item]
        lambda: trick_svg([], True),  # type: ignore[arg-type]
        lambda: melds_svg("meld"),  # type: ignore[arg-type]
        lambda: table_svg("state"),  # type: ignore[arg-type]
        lambda: table_svg(binocle.new_game("classic", seed=1), seat=2),
        lambda: table_svg(binocle.observe(binocle.new_game("classic", seed=1), 0), seat=1),
        lambda: card_svg(Card("AS"), theme="dark"),  # type: ignore[arg-type]
        lambda: hand_result_svg("result"),  # type: ignore[arg-type]
        lambda: hand_result_svg(binocle.new_game("cutthroat", seed=1)),
        lambda: hand_result_svg(_played("classic", 1, 2), hand=2),
        lambda: hand_result_svg(_played("classic", 1, 2), hand=-3),
        lambda: hand_result_svg(_played("classic", 1, 2), hand=True),
        lambda: hand_result_svg(_played("classic", 1, 2).results[0], hand=0),
        lambda: hand_result_svg(_played("classic", 1, 2), sides=[[0], [0]]),
        lambda: hand_result_svg(_played("classic", 1, 2), sides=[[0]]),
        lambda: hand_result_svg(_played("classic", 1, 2), sides="01"),  # type: ignore[arg-type]
        lambda: hand_result_svg(_played("classic", 1, 2), sides=[[0, None], [1]]),  # type: ignore[list-item]
        lambda: hand_result_svg(_played("classic", 1, 2), sides=[[0, 1]]),
        lambda: hand_result_svg(_played("classic", 1, 2).results[0], scores=[1]),
        lambda: hand_result_svg(_played("classic", 1, 2).results[0], scores=[1, "2"]),  # type: ignore[list-item]
    ],
)
def test_anything_else_is_refused_with_the_documented_error(call: Any) -> None:
    """Every function refuses what is not its argument with InvalidArgumentError."""
    with pytest.raises(InvalidArgumentError):
        call()


def test_names_are_written_as_text_not_markup() -> None:
    """A seat's name is text in the picture, never markup."""
    svg = trick_svg([(0, Card("AS")), (1, Card("KS"))], 2, names=["<script>", "B&B"])
    _parse(svg)
    assert "<script>" not in svg and "&lt;script" in svg and "B&amp;B" in svg


def test_the_command_line_writes_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``binocle meld --svg FILE`` writes the meld's picture, ``--svg -`` prints it;
    ``binocle show POSITION`` prints the position as text or writes its table with
    ``--svg``, a seat's with ``--seat``; a bad position or seat exits 2 with a message."""
    from binocle.cli import main

    target = tmp_path / "meld.svg"
    assert main(["meld", "AC", "TC", "KC", "QC", "JC", "--trump", "C", "--svg", str(target)]) == 0
    root = _parse(target.read_text())
    assert sorted(g.get("data-card") or "" for g in _cards(root)) == ["AC", "JC", "KC", "QC", "TC"]
    assert main(["meld", "KS", "QS", "--trump", "S", "--svg", "-"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    position = "classic seed=3 first=0 | | *,play TS,play AS"
    assert main(["show", position, "--suits", "letters"]) == 0
    assert "seat 0" in capsys.readouterr().out
    table = tmp_path / "table.svg"
    assert main(["show", position, "--seat", "1", "--names", "Ann, Bob", "--svg", str(table)]) == 0
    svg = table.read_text()
    assert "Ann" in svg and "you" in svg and 'data-card="back"' in svg
    assert main(["show", "junk"]) == 2
    assert main(["show", position, "--seat", "7"]) == 2
    assert main(["show", position, "--names", "just one", "--svg", "-"]) == 2
    assert "binocle show:" in capsys.readouterr().err


def test_a_seats_partner_and_the_bidder_are_marked_on_its_table() -> None:
    """Partnership rules, Players and pack: seat 0's table marks seat 2, opposite, as its
    partner (no other seat), and the bidder once the bidding is over."""
    s = binocle.new_game("partnership", seed=23)
    while s.phase is binocle.Phase.BIDDING:
        s = binocle.apply(s, "bid 250" if not s.bid else "pass")
    svg = table_svg(binocle.observe(s, 0))
    assert "seat 2 · score 0 · partner" in svg
    assert svg.count("· partner") == 1
    bidder = binocle.observe(s, 0).get("bidder")
    assert bidder is not None and svg.count("· bidder") == 1
    cut = table_svg(binocle.observe(binocle.new_game("cutthroat", seed=1), 0))
    assert "· partner" not in cut


def _played(profile: str, seed: int, hands: int) -> binocle.GameState:
    """A game between the baseline bots, over after ``hands`` hands."""
    return play_game(profile, seed=seed, max_hands=hands)


def _rows(root: ET.Element) -> dict[str, dict[str, str]]:
    """Each side's row of a score sheet: its name and its cells' values, by its seats."""
    rows = {}
    for g in root.iter(NS + "g"):
        if g.get("class") != "side":
            continue
        texts = list(g.iter(NS + "text"))
        row = {"name": texts[0].text or ""}
        for t in texts[1:]:
            assert t.get("class") == "cell"
            row[t.get("data-column") or ""] = t.get("data-value") or ""
            row[(t.get("data-column") or "") + " text"] = t.text or ""
        rows[g.get("data-seats") or ""] = row
    return rows


# Seeds whose last hand has a bidder who made the bid (cutthroat) and a bidding side
# that was set (partnership); classic and three-handed have no bidding.
SCORED = {"cutthroat": 3, "classic": 6, "three-handed": 3, "partnership": 3}


@pytest.mark.parametrize("profile", PROFILES)
def test_a_scored_hand_shows_each_sides_figures_from_its_result(profile: str) -> None:
    """A scored hand's picture has a row for each side of the profile (partners
    together), giving exactly its HandResult's meld, trick points and score change, the
    bid with made or set in the bidder's row only (no bid column where the hand has no
    bidder), and the game score after the hand; of an earlier hand, the score then."""
    s = _played(profile, SCORED[profile], 2)
    assert len(s.results) == 2
    names = [f"Player{i}" for i in range(s.profile.players)]
    svg = hand_result_svg(s, names=names)
    _self_contained(svg)
    root = _parse(svg)
    rows = _rows(root)
    result = s.results[-1]
    assert list(rows) == [" ".join(map(str, side)) for side in s.profile.sides]
    for side in s.profile.sides:
        row, first = rows[" ".join(map(str, side))], side[0]
        assert row["name"] == " & ".join(names[i] for i in side)
        assert int(row["meld"]) == result.meld[first]
        assert int(row["tricks"]) == result.tricks[first]
        assert int(row["change"]) == result.delta[first]
        assert row["change text"].lstrip("+") == str(result.delta[first])
        assert int(row["score"]) == s.scores[first]
        if result.bidder is not None and result.bidder in side:
            assert int(row["bid"]) == result.bid
            assert row["bid text"].endswith(" made" if result.made else " set")
        else:
            assert "bid" not in row
    headings = [t.text for t in root.iter(NS + "text") if t.get("class") == "column"]
    assert ("bid" in headings) == (result.bidder is not None)
    assert f"hand 2 · trump {binocle.svg._SUIT_SYMBOL[result.trump]}" in svg
    assert f"dealer {names[result.dealer]}" in svg
    if profile in ("cutthroat", "partnership"):
        assert result.bidder is not None and result.made is (profile == "cutthroat")
    first_hand = _rows(_parse(hand_result_svg(s, hand=0)))
    for side in s.profile.sides:
        assert int(first_hand[" ".join(map(str, side))]["score"]) == s.results[0].delta[side[0]]


def test_a_hand_result_alone_is_drawn_by_seat_or_as_grouped() -> None:
    """A HandResult on its own: one row a seat and no score column, unless sides and
    scores are given; a hand settled in chips heads its change column "chips" and says
    the hand's worth; seats grouped as a side must share their figures; the theme's
    ink, felt and font are the picture's."""
    s = play_game("cutthroat(settlement=chips,max_hands=2)", seed=3)
    result = s.results[-1]
    assert result.chips is not None
    root = _parse(hand_result_svg(result))
    rows = _rows(root)
    assert list(rows) == ["0", "1", "2"] and all("score" not in r for r in rows.values())
    headings = [t.text for t in root.iter(NS + "text") if t.get("class") == "column"]
    assert headings == ["meld", "tricks", "bid", "chips"]
    assert f"the hand is worth {result.chips} chips" in hand_result_svg(result)
    assert [int(rows[str(i)]["change"]) for i in range(3)] == list(result.delta)
    p = _played("partnership", 3, 1)
    alone = _rows(_parse(hand_result_svg(p.results[0], sides=[(0, 2), (1, 3)], scores=p.scores)))
    assert list(alone) == ["0 2", "1 3"] and int(alone["1 3"]["score"]) == p.scores[1]
    with pytest.raises(InvalidArgumentError):
        hand_result_svg(result, sides=[(0, 1), (2,)])
    themed = hand_result_svg(result, theme=Theme(ink="#123456", felt="#0a0b0c", font="serif"))
    assert 'fill="#123456"' in themed and 'fill="#0a0b0c"' in themed
    assert 'font-family="serif"' in themed and "#f4f4ef" not in themed


def test_every_rules_page_draws_melds_each_trick_obligation_and_a_scored_hand() -> None:
    """Rule (docs): each rules page shows, as pictures made by binocle.svg while the
    docs are built, melds, a trick under each obligation its profile can play under
    (its options included) and a scored hand in its scoring section."""
    from binocle.rules.tricks import Obligation

    docs = Path(__file__).resolve().parent.parent / "docs" / "profiles"
    for name in PROFILES:
        text = (docs / f"{name}.rst").read_text(encoding="utf-8")
        blocks = re.findall(r"^\.\. binocle-picture::.*\n\n((?:   .*\n|\n)+)", text, re.M)
        code = "\n".join(blocks)
        assert "melds_svg(" in code, name
        assert "trick_svg(" in code, name
        p = binocle.profile(name)
        variants = [p]
        if "easier_tricks" in p.options():
            variants.append(binocle.profile(f"{name}(easier_tricks=true)"))
        needed = {v.play_obligation(done) for v in variants for done in (False, True)}
        shown = {o for o in Obligation if f"Obligation.{o.name})" in code}
        assert needed <= shown, (name, needed - shown)
        scoring = text.split("-scoring:", 1)[-1] if "-scoring:" in text else text
        if name == "classic":
            scoring = text.split(".. _classic-end:", 1)[1]
        section = scoring.split("\n.. _", 1)[0]
        assert "hand_result_svg(play_game(" in section, name
