"""Cards as pictures: self-contained SVG text for a card, a hand, a trick, melds and a
seat's whole table.

Every function returns the text of one ``<svg>`` element: no external font, image or
style sheet, so it can be written to a file, put in a web page or shown by a notebook as
it is.  Each card is a group ``<g class="card" data-card="TS">`` (a card face down is
``data-card="back"``) with a ``<title>`` that names it, so a program or a screen reader
can find the cards in the picture.  Sizes follow the :class:`Theme`'s card width; colours and
the font family are the :class:`Theme`'s.

>>> from binocle import parse_cards, Suit
>>> from binocle.svg import hand_svg
>>> picture = hand_svg(parse_cards("AS TS KH QH 9C"), trump=Suit.HEARTS)
>>> picture.startswith("<svg") and picture.count('class="card"')
5

A notebook shows states, views, cards and meld results as these pictures by itself:
``import binocle`` gives them a ``_repr_svg_`` (:func:`picture`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from binocle.cards import Card, Rank, Suit, set_picture
from binocle.core import GameState, HandResult, MeldResult, View
from binocle.errors import InvalidArgumentError, excerpt, expect

__all__ = [
    "DEFAULT_THEME",
    "Theme",
    "card_svg",
    "hand_result_svg",
    "hand_svg",
    "melds_svg",
    "picture",
    "table_svg",
    "trick_svg",
]


def _colour(instance: Any, attribute: Any, value: object) -> None:
    if (
        not isinstance(value, str)
        or not value
        or not all(ch.isalnum() or ch in "#(),.% -" for ch in value)
    ):
        raise InvalidArgumentError(f"{attribute.name} is a CSS colour, not {excerpt(value)}")


def _width(instance: Any, attribute: Any, value: object) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 8 <= value <= 1000
    ):
        raise InvalidArgumentError(
            f"card_width is a number of pixels from 8 to 1000, not {excerpt(value)}"
        )


def _font(instance: Any, attribute: Any, value: object) -> None:
    if not isinstance(value, str) or not value or any(ch in value for ch in '<>&"\n'):
        raise InvalidArgumentError(f"font is a CSS font family list, not {excerpt(value)}")


@attrs.frozen
class Theme:
    """The look of the pictures: the card size in pixels, the colours (any CSS colour) and
    the font family (a list of installed families; generic names keep the picture
    self-contained).  The height of a card is 1.4 times its width.

    >>> Theme(card_width=80, felt="#203040").card_width
    80
    """

    card_width: float = attrs.field(default=56, validator=_width)
    #: The table's background.
    felt: str = attrs.field(default="#1d6b42", validator=_colour)
    #: Text written on the felt: names, scores, captions.
    ink: str = attrs.field(default="#f4f4ef", validator=_colour)
    face: str = attrs.field(default="#ffffff", validator=_colour)
    edge: str = attrs.field(default="#4a4a4a", validator=_colour)
    red: str = attrs.field(default="#c8102e", validator=_colour)
    black: str = attrs.field(default="#1b1b1b", validator=_colour)
    back: str = attrs.field(default="#2c4f91", validator=_colour)
    #: The outline of a trump card.
    mark: str = attrs.field(default="#e8a400", validator=_colour)
    #: The outline of the card winning a trick.
    win: str = attrs.field(default="#38b6ff", validator=_colour)
    font: str = attrs.field(
        default="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", validator=_font
    )


#: The theme every function uses unless given another.
DEFAULT_THEME = Theme()

_RANK_SHOWN = {
    Rank.ACE: "A",
    Rank.TEN: "10",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.JACK: "J",
    Rank.NINE: "9",
    Rank.EIGHT: "8",
    Rank.SEVEN: "7",
}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_NAME = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _n(x: float) -> str:
    """A coordinate, short: whole numbers without a point, others to two places."""
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _theme(theme: object) -> Theme:
    expect(theme, Theme, "theme is a binocle.svg.Theme")
    assert isinstance(theme, Theme)
    return theme


def _trump(trump: object) -> Suit | None:
    if trump is None or isinstance(trump, Suit):
        return trump
    raise InvalidArgumentError(f"trump is a Suit or None, not {excerpt(trump)}")


def _cards(cards: object) -> tuple[Card, ...]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise InvalidArgumentError(
            f"cards are a collection of Card objects, not {excerpt(cards)} (binocle.parse_cards reads text)"
        )
    held = tuple(cards)
    for c in held:
        expect(c, Card, "a card is a Card")
    return held


class _Canvas:
    """The elements of one picture, and its extent."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.w = theme.card_width
        self.h = theme.card_width * 1.4
        self.parts: list[str] = []
        self.width = 0.0
        self.height = 0.0

    def grow(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def text(
        self,
        x: float,
        y: float,
        words: str,
        *,
        size: float,
        anchor: str = "start",
        bold: bool = False,
        fill: str | None = None,
        cls: str = "caption",
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(
            f'<text class="{cls}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"'
            f' text-anchor="{anchor}" fill="{fill or self.theme.ink}"{weight}>{_escape(words)}</text>'
        )
        # A rough extent: enough for the picture's width (0.6 em a character).
        if anchor == "start":
            self.grow(x + 0.6 * size * len(words), y + 0.3 * size)
        elif anchor == "middle":
            self.grow(x + 0.3 * size * len(words), y + 0.3 * size)
        else:
            self.grow(x, y + 0.3 * size)

    def card(
        self,
        x: float,
        y: float,
        c: Card | None,
        *,
        marked: bool = False,
        role: str = "",
        outline: str | None = None,
        playable: bool | None = None,
    ) -> None:
        """A card face up at (x, y), or face down when ``c`` is None; ``marked`` outlines
        it in ``outline`` (the theme's trump mark unless given)."""
        t, w, h = self.theme, self.w, self.h
        radius = _n(w * 0.08)
        extra = f' data-role="{role}"' if role else ""
        if playable is not None:
            extra += f' data-playable="{str(playable).lower()}"'
            if not playable:
                extra += ' opacity="0.5"'
        if c is None:
            inset = w * 0.09
            self.parts.append(
                f'<g class="card" data-card="back"{extra} transform="translate({_n(x)} {_n(y)})">'
                "<title>a card face down</title>"
                f'<rect width="{_n(w)}" height="{_n(h)}" rx="{radius}" fill="{t.back}"'
                f' stroke="{t.edge}" stroke-width="1"/>'
                f'<rect x="{_n(inset)}" y="{_n(inset)}" width="{_n(w - 2 * inset)}"'
                f' height="{_n(h - 2 * inset)}" rx="{_n(w * 0.05)}" fill="none"'
                f' stroke="{t.face}" stroke-opacity="0.55" stroke-width="1.5"/></g>'
            )
            self.grow(x + w, y + h)
            return
        suit, rank = c.suit, c.rank
        ink = t.red if suit in (Suit.HEARTS, Suit.DIAMONDS) else t.black
        shown, symbol = _RANK_SHOWN[rank], _SUIT_SYMBOL[suit]
        name = f"{rank.name.lower()} of {_SUIT_NAME[suit]}"
        stroke = (
            f'stroke="{outline or t.mark}" stroke-width="{_n(max(2.0, w * 0.05))}"'
            if marked
            else (f'stroke="{t.edge}" stroke-width="1"')
        )
        corner = w * 0.26
        self.parts.append(
            f'<g class="card" data-card="{c}"{extra} transform="translate({_n(x)} {_n(y)})">'
            f"<title>{name}{' (trump)' if role == 'trump' else ''}</title>"
            f'<rect width="{_n(w)}" height="{_n(h)}" rx="{radius}" fill="{t.face}" {stroke}/>'
            f'<g fill="{ink}" font-weight="bold">'
            f'<text x="{_n(w * 0.08)}" y="{_n(corner)}" font-size="{_n(corner)}">{shown}</text>'
            f'<text x="{_n(w * 0.08)}" y="{_n(corner * 1.95)}" font-size="{_n(corner * 0.9)}">{symbol}</text>'
            f'<text x="{_n(w / 2)}" y="{_n(h * 0.68)}" font-size="{_n(w * 0.55)}"'
            f' text-anchor="middle">{symbol}</text>'
            f'<g transform="rotate(180 {_n(w / 2)} {_n(h / 2)})">'
            f'<text x="{_n(w * 0.08)}" y="{_n(corner)}" font-size="{_n(corner)}">{shown}</text>'
            f'<text x="{_n(w * 0.08)}" y="{_n(corner * 1.95)}" font-size="{_n(corner * 0.9)}">{symbol}</text>'
            "</g></g></g>"
        )
        self.grow(x + w, y + h)

    def row(
        self,
        x: float,
        y: float,
        cards: Sequence[Card | None],
        *,
        trump: Suit | None = None,
        by_suit: bool = True,
        step: float = 0.5,
        playable: set[int] | None = None,
    ) -> float:
        """Cards overlapping left to right from (x, y), a gap between suits; the x after.
        With ``playable``, those cards stand raised and the others are dimmed."""
        w = self.w
        last: Suit | None = None
        for i, c in enumerate(cards):
            if i:
                x += w * (step if c is not None else min(step, 0.28))
                if by_suit and c is not None and last is not None and c.suit != last:
                    x += w * 0.3
            is_trump = c is not None and trump is not None and c.suit == trump
            lift = None if playable is None or c is None else int(c) in playable
            self.card(
                x,
                y - (self.h * 0.15 if lift else 0),
                c,
                marked=is_trump,
                role="trump" if is_trump else "",
                playable=lift,
            )
            last = c.suit if c is not None else last
        return x + (w if cards else 0)

    def svg(self, title: str, *, background: bool = True, pad: float = 6) -> str:
        t = self.theme
        width, height = self.width + pad, self.height + pad
        felt = (
            f'<rect class="felt" width="{_n(width)}" height="{_n(height)}" fill="{t.felt}"/>'
            if background
            else ""
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}"'
            f' viewBox="0 0 {_n(width)} {_n(height)}" role="img"'
            f' font-family="{_escape(t.font)}"><title>{_escape(title)}</title>{felt}'
            + "".join(self.parts)
            + "</svg>"
        )


def _sorted_by_suit(cards: Sequence[Card], trump: Suit | None) -> list[Card]:
    """Grouped by suit (trump first), strongest first within a suit."""
    order = {s: i + 1 for i, s in enumerate(Suit)}
    if trump is not None:
        order[trump] = 0
    return sorted(cards, key=lambda c: (order[c.suit], int(c)))


def card_svg(card: Card, *, trump: Suit | None = None, theme: Theme = DEFAULT_THEME) -> str:
    """One card, face up; outlined in the theme's mark colour if its suit is ``trump``.

    >>> from binocle import Card
    >>> 'data-card="TS"' in card_svg(Card("TS"))
    True
    """
    expect(card, Card, "a card is a Card")
    canvas = _Canvas(_theme(theme))
    trump = _trump(trump)
    canvas.card(3, 3, card, marked=card.suit == trump, role="trump" if card.suit == trump else "")
    return canvas.svg(card.symbol, background=False)


def hand_svg(
    cards: Iterable[Card],
    *,
    trump: Suit | None = None,
    by_suit: bool = True,
    label: str | None = None,
    playable: Iterable[Card] | None = None,
    theme: Theme = DEFAULT_THEME,
) -> str:
    """A hand: the cards overlapping, grouped by suit (trump first) unless ``by_suit`` is
    false (then in the order given), trump cards outlined, with an optional ``label``
    above them.  With ``playable`` given (the cards that may be played, e.g. from
    :func:`binocle.rulings.allowed_plays`), those cards stand raised
    (``data-playable="true"``) and the others are dimmed.

    >>> from binocle import parse_cards
    >>> picture = hand_svg(parse_cards("AS QS KH"), playable=parse_cards("AS QS"))
    >>> picture.count('data-playable="true"')
    2
    """
    held, trump = _cards(cards), _trump(trump)
    allowed = None if playable is None else {int(c) for c in _cards(playable)}
    if label is not None:
        expect(label, str, "label is text")
    canvas = _Canvas(_theme(theme))
    y = 3.0
    if label:
        canvas.text(6, 3 + canvas.w * 0.26, label, size=canvas.w * 0.26, bold=True)
        y += canvas.w * 0.4
    if allowed is not None:
        y += canvas.h * 0.15
    shown = _sorted_by_suit(held, trump) if by_suit else list(held)
    canvas.row(6, y, shown, trump=trump, by_suit=by_suit, playable=allowed)
    return canvas.svg(label or f"a hand of {len(held)} cards")


def _seat_names(players: int, names: object, seat: int | None) -> list[str]:
    if names is None:
        out = [f"seat {i}" for i in range(players)]
    else:
        if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
            raise InvalidArgumentError(f"names are one text a seat, not {excerpt(names)}")
        if len(names) != players or not all(isinstance(n, str) for n in names):
            raise InvalidArgumentError(f"names are one text for each of the {players} seats")
        out = list(names)
    if seat is not None:
        out[seat] = "you"
    return out


def _check_seat(seat: object, players: int, what: str = "seat") -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidArgumentError(f"{what} is a seat from 0 to {players - 1}, not {excerpt(seat)}")
    return seat


def _winning(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> int | None:
    """The index in ``trick`` of the card now winning it."""
    best: int | None = None
    for i, (_, c) in enumerate(trick):
        if best is None or c.beats(trick[best][1], trump):
            best = i
    return best


def _trick(trick: object, players: int) -> tuple[tuple[int, Card], ...]:
    if isinstance(trick, (str, bytes)) or not isinstance(trick, Iterable):
        raise InvalidArgumentError(f"a trick is (seat, Card) pairs, not {excerpt(trick)}")
    out = []
    for entry in trick:
        if not isinstance(entry, tuple) or len(entry) != 2:
            raise InvalidArgumentError(f"a trick is (seat, Card) pairs, not {excerpt(entry)}")
        seat, c = entry
        _check_seat(seat, players, "a trick's seat")
        expect(c, Card, "a card is a Card")
        out.append((seat, c))
    return tuple(out)


def trick_svg(
    trick: Iterable[tuple[int, Card]],
    players: int,
    *,
    trump: Suit | None = None,
    names: Sequence[str] | None = None,
    seat: int | None = None,
    theme: Theme = DEFAULT_THEME,
) -> str:
    """A trick in play order, each card captioned with who played it (``names``, one a
    seat, else "seat N"; the seat ``seat`` is "you"); the card now winning the trick is
    outlined and captioned "wins" (by the common rule: the highest of the suit led, or
    the highest trump).

    >>> from binocle import Card, Suit
    >>> picture = trick_svg([(1, Card("KS")), (2, Card("9H"))], 3, trump=Suit.HEARTS, seat=2)
    >>> "you" in picture and 'data-role="wins"' in picture
    True
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise InvalidArgumentError(f"players is the number of seats, not {excerpt(players)}")
    played, trump = _trick(trick, players), _trump(trump)
    seat = _check_seat(seat, players)
    who = _seat_names(players, names, seat)
    canvas = _Canvas(_theme(theme))
    _draw_trick(canvas, 6, 3, played, trump, who)
    if not played:
        canvas.text(6, 3 + canvas.w * 0.3, "no card played", size=canvas.w * 0.24)
    return canvas.svg("the trick: " + ", ".join(f"{who[s]} {c.symbol}" for s, c in played))


def _draw_trick(
    canvas: _Canvas,
    x: float,
    y: float,
    played: Sequence[tuple[int, Card]],
    trump: Suit | None,
    who: Sequence[str],
) -> None:
    w, h = canvas.w, canvas.h
    wins = _winning(played, trump)
    x += w * 0.25  # room for a caption wider than its card
    for i, (s, c) in enumerate(played):
        cx = x + i * w * 1.25
        canvas.card(
            cx, y, c, marked=i == wins, role="wins" if i == wins else "", outline=canvas.theme.win
        )
        caption = _short(who[s], 10) + (" · wins" if i == wins else "")
        canvas.text(cx + w / 2, y + h + w * 0.3, caption, size=w * 0.2, anchor="middle")


def _short(name: str, most: int) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def melds_svg(
    result: MeldResult, *, trump: Suit | None = None, theme: Theme = DEFAULT_THEME
) -> str:
    """A meld result: each combination scored, its cards and its name and value on a row
    of its own, then the total.

    >>> import binocle
    >>> r = binocle.meld("KH QH JD QS", "H", "cutthroat")
    >>> picture = melds_svg(r, trump=binocle.Suit.HEARTS)
    >>> picture.count('class="card"'), "total 80" in picture
    (4, True)
    """
    expect(result, MeldResult, "result is a MeldResult (binocle.meld gives one)")
    trump = _trump(trump)
    canvas = _Canvas(_theme(theme))
    _draw_melds(canvas, 6, 3, result, trump)
    return canvas.svg(str(result))


def _draw_melds(
    canvas: _Canvas, x: float, y: float, result: MeldResult, trump: Suit | None
) -> float:
    w, h = canvas.w, canvas.h
    for m in result.melds:
        end = canvas.row(x, y, m.cards, trump=trump, by_suit=False, step=0.42)
        canvas.text(end + w * 0.2, y + h * 0.55, f"{m.name} · {m.value}", size=w * 0.24)
        y += h + w * 0.15
    canvas.text(x, y + w * 0.3, f"total {result.total}", size=w * 0.26, bold=True)
    return y + w * 0.45


_OUTCOME = {
    "conceded": "the bidder gave up",
    "thrown-in": "everyone passed: thrown in",
    "redeal": "a bunched hand: dealt again",
    "claimed": "a claim ended the hand",
    "retired": "a wrong claim retired a player",
}

_GAME_END = {"target": "a target reached", "claim": "a claim", "limit": "the last hand played"}


def _sides(sides: object, players: int) -> tuple[tuple[int, ...], ...]:
    """``sides`` checked: groups of seats, each seat in exactly one."""
    if sides is None:
        return tuple((s,) for s in range(players))
    if isinstance(sides, (str, bytes)) or not isinstance(sides, Sequence):
        raise InvalidArgumentError(f"sides are groups of seats, not {excerpt(sides)}")
    out: list[tuple[int, ...]] = []
    for side in sides:
        if isinstance(side, (str, bytes)) or not isinstance(side, Sequence) or not side:
            raise InvalidArgumentError(f"a side is a group of seats, not {excerpt(side)}")
        seats = []
        for s in side:
            checked = _check_seat(s, players, "a side's seat")
            if checked is None:
                raise InvalidArgumentError("a side's seat is a seat, not None")
            seats.append(checked)
        out.append(tuple(seats))
    if sorted(s for side in out for s in side) != list(range(players)):
        raise InvalidArgumentError(f"sides hold each of the {players} seats once")
    return tuple(out)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def hand_result_svg(
    game: GameState | HandResult,
    *,
    hand: int | None = None,
    sides: Sequence[Sequence[int]] | None = None,
    scores: Sequence[int] | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = DEFAULT_THEME,
) -> str:
    """A scored hand as a score sheet: a row for each side (each seat alone, or partners
    together), giving its meld and trick points, the bid in the bidder's row with
    "made" or "set" (where the hand had a bidder), the change of its game score (chips
    where the hand was settled in chips) and, where known, its game score after the
    hand; above them the hand's trump, dealer and outcome.  Every figure comes from the
    :class:`~binocle.core.HandResult`: a column the result has nothing for is left out.

    ``game`` is a state (its ``results[hand]``, the last hand by default: the sides are
    its profile's :attr:`~binocle.core.Profile.sides`, the game scores after that hand
    its scores less the later hands' changes) or a :class:`~binocle.core.HandResult`
    (then ``sides`` may group the seats, one seat a side by default, and ``scores``
    gives the game scores after the hand, by seat).  ``names`` gives one name a seat.
    Each row is a group ``<g class="side" data-seats="0 2">`` whose figures are texts
    ``class="cell"`` with ``data-column`` (``meld``, ``tricks``, ``bid``, ``change``,
    ``score``) and ``data-value``.

    >>> from binocle.bots import play_game
    >>> s = play_game("partnership", seed=1, max_hands=1)
    >>> picture = hand_result_svg(s)
    >>> picture.count('class="side"'), 'data-seats="0 2"' in picture
    (2, True)
    """
    number: int | None = None
    if isinstance(game, GameState):
        results = game.results
        if not results:
            raise InvalidArgumentError("no hand of this game has been scored yet")
        if hand is None:
            hand = len(results) - 1
        if isinstance(hand, bool) or not isinstance(hand, int):
            raise InvalidArgumentError(f"hand is a whole number, not {excerpt(hand)}")
        if not -len(results) <= hand < len(results):
            raise InvalidArgumentError(
                f"hand is one of the {len(results)} hands scored (0 to {len(results) - 1}),"
                f" not {hand}"
            )
        hand %= len(results)
        number = hand + 1
        result = results[hand]
        if sides is None:
            sides = game.profile.sides
        if scores is None:
            later = results[hand + 1 :]
            scores = [
                game.scores[s] - sum(r.delta[s] for r in later) for s in range(len(game.scores))
            ]
    elif isinstance(game, HandResult):
        if hand is not None:
            raise InvalidArgumentError("hand picks a hand of a state; a HandResult is one hand")
        result = game
    else:
        raise InvalidArgumentError(f"game is a GameState or a HandResult, not {excerpt(game)}")
    players = len(result.delta)
    groups = _sides(sides, players)
    if scores is not None and (
        isinstance(scores, (str, bytes))
        or not isinstance(scores, Sequence)
        or len(scores) != players
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in scores)
    ):
        raise InvalidArgumentError(f"scores are one whole number for each of the {players} seats")
    who = _seat_names(players, names, None)
    columns: list[tuple[str, str]] = [("meld", "meld"), ("tricks", "tricks")]
    if result.bidder is not None:
        columns.append(("bid", "bid"))
    columns.append(("change", "chips" if result.chips is not None else "hand"))
    if scores is not None:
        columns.append(("score", "score"))
    rows: list[tuple[tuple[int, ...], str, dict[str, tuple[str, int | None]]]] = []
    for side in groups:
        first = side[0]
        for field in ("meld", "tricks", "delta"):
            figures = getattr(result, field)
            if len({figures[s] for s in side}) != 1:
                raise InvalidArgumentError(
                    f"the seats of a side have one {field} figure: seats"
                    f" {', '.join(map(str, side))} differ"
                )
        cells: dict[str, tuple[str, int | None]] = {
            "meld": (str(result.meld[first]), result.meld[first]),
            "tricks": (str(result.tricks[first]), result.tricks[first]),
            "change": (_signed(result.delta[first]), result.delta[first]),
        }
        if result.bidder is not None and result.bidder in side:
            bid = result.bid if result.bid is not None else 0
            verdict = "made" if result.made else "set"
            if result.outcome == "conceded":
                verdict = "gave up"
            cells["bid"] = (f"{bid} {verdict}", bid)
        if scores is not None:
            cells["score"] = (str(scores[first]), scores[first])
        rows.append((side, " & ".join(_short(who[s], 12) for s in side), cells))
    canvas = _Canvas(_theme(theme))
    w = canvas.w
    size = w * 0.25
    em = 0.6 * size  # the rough width of a character, as the canvas reckons it
    facts = [f"hand {number}" if number is not None else "a hand"]
    facts.append(f"trump {_SUIT_SYMBOL[result.trump]}" if result.trump is not None else "no trump")
    facts.append(f"dealer {who[result.dealer]}")
    canvas.text(6, w * 0.34, " · ".join(facts), size=w * 0.28, bold=True, cls="heading")
    said = _OUTCOME.get(result.outcome, "")
    if result.outcome == "played" and result.bidder is not None:
        said = f"{who[result.bidder]} bid {result.bid}: " + ("made" if result.made else "set")
    elif result.outcome == "played":
        said = "played to the last trick"
    if result.chips is not None:
        said += f" · the hand is worth {result.chips} chips"
    if result.game_end is not None:
        said += " · game over: " + _GAME_END.get(result.game_end, result.game_end)
    canvas.text(6, w * 0.34 + size * 1.5, said, size=size, cls="outcome")
    # Column edges: names left-aligned, figures right-aligned under their headings.
    name_width = max(len(name) for _, name, _ in rows) * em
    x = 6 + max(name_width, 5 * em) + 1.5 * em
    placed: list[tuple[str, str, float]] = []  # each column's key, heading and right edge
    for key, title in columns:
        widest = max([len(title), *(len(c[key][0]) for _, _, c in rows if key in c)])
        x += widest * em
        placed.append((key, title, x))
        x += 2.2 * em
    right_edge = placed[-1][2]
    y = w * 0.34 + size * 3.3
    for _, title, right in placed:
        canvas.text(right, y, title, size=size, anchor="end", cls="column")
    canvas.parts.append(
        f'<line x1="6" y1="{_n(y + size * 0.45)}" x2="{_n(right_edge)}" y2="{_n(y + size * 0.45)}"'
        f' stroke="{canvas.theme.ink}" stroke-opacity="0.6" stroke-width="1"/>'
    )
    for side, name, cells in rows:
        y += size * 1.6
        bidding = result.bidder is not None and result.bidder in side
        weight = ' font-weight="bold"' if bidding else ""
        seats = " ".join(map(str, side))
        canvas.parts.append(f'<g class="side" data-seats="{seats}">')
        canvas.text(6, y, name, size=size, bold=bidding, cls="name")
        for key, _, right in placed:
            if key not in cells:
                continue
            text, value = cells[key]
            canvas.parts.append(
                f'<text class="cell" data-column="{key}" data-value="{value}" x="{_n(right)}"'
                f' y="{_n(y)}" font-size="{_n(size)}" text-anchor="end"'
                f' fill="{canvas.theme.ink}"{weight}>'
                f"{_escape(text)}</text>"
            )
        canvas.parts.append("</g>")
    canvas.grow(right_edge + em, y + size * 0.6)
    title = (
        " · ".join(facts)
        + ": "
        + "; ".join(f"{name} {cells['change'][0]}" for _, name, cells in rows)
    )
    return canvas.svg(title)


def _public(view: View) -> dict[str, Any]:
    return dict(view.public)


def table_svg(
    game: GameState | View,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    theme: Theme = DEFAULT_THEME,
) -> str:
    """A seat's whole table: the game and phase, trump, each seat with its name, score
    and hand (the other seats' hands face down in a view), the melds shown and cards on
    the table, and the trick.

    ``game`` is a :class:`~binocle.View` (what its seat may know), or a state: the whole
    table with every hand face up, or with ``seat`` given, that seat's view of it.
    ``names`` gives one name a seat; the view's own seat is "you".
    """
    if isinstance(game, GameState):
        players = game.profile.players
        seat = _check_seat(seat, players)
        if seat is not None:
            from binocle.game import observe

            return table_svg(observe(game, seat), names=names, theme=theme)
        hands: list[Sequence[Card | None]] = [list(h) for h in game.hands]
        view: View | None = None
        trump, trick, scores = game.trump, game.trick, game.scores
        dealer, to_act, phase = game.dealer, game.current_player, game.phase
        profile = game.profile
    elif isinstance(game, View):
        if seat is not None and seat != game.seat:
            raise InvalidArgumentError(
                f"a view is seat {game.seat}'s: seat {excerpt(seat)} is not it"
            )
        view = game
        players = game.profile.players
        hands = [
            list(game.hand) if s == game.seat else [None] * game.hand_sizes[s]
            for s in range(players)
        ]
        trump, trick, scores = game.trump, game.trick, game.scores
        dealer, to_act, phase = game.dealer, game.current_player, game.phase
        profile = game.profile
        seat = game.seat
    else:
        raise InvalidArgumentError(f"game is a GameState or a View, not {excerpt(game)}")
    who = _seat_names(players, names, seat)
    canvas = _Canvas(_theme(theme))
    w, h = canvas.w, canvas.h
    facts = [profile.name, phase.value.replace("_", " ")]
    facts.append(f"trump {_SUIT_SYMBOL[trump]}" if trump is not None else "trump not named")
    canvas.text(6, w * 0.34, " · ".join(facts), size=w * 0.28, bold=True, cls="heading")
    y = w * 0.6
    public = _public(view) if view is not None else {}
    melds = public.get("melds")
    tables = public.get("tables")
    order = list(range(players))
    if seat is not None:  # the seat itself last, nearest the reader
        order = order[seat + 1 :] + order[: seat + 1]
    mine = profile.side_of(seat) if seat is not None else ()
    bidder = public.get("bidder")
    for s in order:
        tags = [who[s], f"score {scores[s]}"]
        if s != seat and s in mine:
            tags.append("partner")
        if s == bidder:
            tags.append("bidder")
        if s == dealer:
            tags.append("dealer")
        if s == to_act:
            tags.append("to act")
        canvas.text(6, y + w * 0.26, " · ".join(tags), size=w * 0.24, bold=s == to_act)
        y += w * 0.4
        shown = hands[s]
        if shown and shown[0] is not None:
            shown = _sorted_by_suit([c for c in shown if c is not None], trump)
        canvas.parts.append(f'<g class="hand" data-seat="{s}">')
        end = canvas.row(6, y, shown, trump=trump)
        canvas.parts.append("</g>")
        if not shown:
            canvas.text(6, y + h * 0.5, "no card", size=w * 0.22)
            end = 6 + w
        extra_x = end + w * 0.5
        if isinstance(tables, tuple) and len(tables) == players and tables[s]:
            canvas.text(extra_x, y - w * 0.1, "on the table", size=w * 0.2)
            canvas.parts.append(f'<g class="table-melds" data-seat="{s}">')
            canvas.row(extra_x, y, list(tables[s]), trump=trump)
            canvas.parts.append("</g>")
        elif (
            isinstance(melds, tuple) and len(melds) == players and isinstance(melds[s], MeldResult)
        ):
            shown_meld = melds[s]
            canvas.text(extra_x, y - w * 0.1, f"meld {shown_meld.total}", size=w * 0.2)
            canvas.parts.append(f'<g class="melds" data-seat="{s}">')
            cards = [c for m in shown_meld.melds for c in m.cards]
            canvas.row(extra_x, y, cards, trump=trump, by_suit=False, step=0.35)
            canvas.parts.append("</g>")
        y += h + w * 0.35
    canvas.text(6, y + w * 0.26, "trick", size=w * 0.24, bold=True)
    y += w * 0.4
    canvas.parts.append('<g class="trick">')
    _draw_trick(canvas, 6, y, trick, trump, who)
    canvas.parts.append("</g>")
    if not trick:
        canvas.text(6, y + w * 0.3, "no card played", size=w * 0.22)
    canvas.grow(6 + w * 4, y + h + w * 0.4)
    title = f"{profile.name}, {phase.value}" + (
        f", seen by {who[seat]}" if seat is not None else ""
    )
    return canvas.svg(title)


def picture(value: object) -> str | None:
    """The picture of a card, a meld result, a state or a view (what a notebook shows as
    their ``_repr_svg_``), or None for anything else."""
    if isinstance(value, Card):
        return card_svg(value)
    if isinstance(value, MeldResult):
        return melds_svg(value)
    if isinstance(value, (GameState, View)):
        return table_svg(value)
    return None


set_picture(picture)
