"""Bots (layer 4): programs that choose an action from what one seat may know.

A bot sees only a :class:`~binocle.core.View` (never the whole state), so it
cannot cheat.  :func:`play_game` runs a whole game between bots.

Knocking.  A bot is offered the knock two ways: at its own turn ``claim`` is
among ``view.legal_actions`` wherever it may claim; at every other moment it
may knock out of turn, a runner asking its optional ``knock(view) -> bool``
after every applied action, for each seat in :func:`binocle.claimants` but
the player to act (:func:`knocker` does the asking).

Bot specs.  Every runner (:func:`play_game`, :func:`binocle.arena`, the
``binocle`` commands, the web front end) takes its bots as *specs*, which
:func:`resolve_bot` turns into bots: a name (``"baseline"``), a name with
settings (``"ismcts(iterations=400)"``), the importable path of a bot class
(``"mypkg.mod:MyBot"``, ``"mypkg.mod:MyBot(depth=2)"``; text names no other
callable, so none runs from it), an external engine's command
(``"cmd:./mybot --level 3"``, :mod:`binocle.engine`), a bot object, or a
factory (a class or function called with the ``seed`` keyword, returning a
bot).  Names are the built-in bots, those added with :func:`register_bot` and
those other distributions declare in the entry-point group ``binocle.bots``
(:data:`ENTRY_POINT_GROUP`); :func:`bot_names` lists them.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.metadata
import inspect
import random
import re
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from binocle.actions import CLAIM_OVERLOOKED, Action, Kind, claim
from binocle.cards import Card, Suit
from binocle.core import GameState, Phase, View
from binocle.errors import BinocleError, EngineError, InvalidArgumentError, excerpt, expect
from binocle.game import apply, claimants, legal_actions, observe, start
from binocle.profiles import get_profile
from binocle.rules.classic_melds import KINDS
from binocle.rules.tricks import _trick_winner

__all__ = [
    "ENTRY_POINT_GROUP",
    "BaselineBot",
    "Bot",
    "BotError",
    "BotFactory",
    "BotNameWarning",
    "BotSpec",
    "BotTimeoutError",
    "DoubleDummyBot",  # noqa: F822
    "ISMCTSBot",  # noqa: F822  (module __getattr__: defined in binocle.ismcts)
    "KnockingBot",
    "PIMCBot",  # noqa: F822
    "RandomBot",
    "bot_label",
    "bot_names",
    "knocker",
    "make_bot",
    "play_game",
    "register_bot",
    "resolve_bot",
]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(view) -> Action`` picking one of ``view.legal_actions``.

    Optional, and asked for only where present:

    - ``knock(view) -> bool``: asked when its seat may knock (claim the game)
      while another seat is to act, it says whether it knocks.  Without it, a
      bot knocks only at its own turn, through ``choose`` (:class:`KnockingBot`).
    - ``name``: text naming the bot in reports (the arena's, the web front
      end's seats); without it the name is its class's qualified name.
    - ``game_over(view) -> None``: called by :func:`play_game` with the seat's
      final view once the game is over (an external engine is told, and stops).

    ``isinstance(x, Bot)`` tells whether ``x`` has a ``choose`` method.
    """

    def choose(self, view: View) -> Action:
        """The action to take: one of ``view.legal_actions``."""
        ...


@runtime_checkable
class KnockingBot(Bot, Protocol):
    """A :class:`Bot` that may also knock out of turn (see the module)."""

    def knock(self, view: View) -> bool:
        """Whether to knock now, another seat being to act."""
        ...


#: A factory of bots: a class or function called with the ``seed`` keyword (and
#: any settings as keywords) that returns a bot.
BotFactory = Callable[..., Bot]
#: What a runner accepts for a seat: a name or spec text, a bot, or a factory.
BotSpec = str | Bot | Callable[..., Bot]


class BotError(BinocleError):
    """A bot failed during a game: its ``choose`` or ``knock`` raised (the exception
    is the ``__cause__``), or it took longer than the time limit per move
    (:class:`BotTimeoutError`).

    Attributes: ``bot`` (its label, :func:`bot_label`), ``seat``, ``hand`` (the
    hand of the game, from 1), ``seed`` (the game's seed, or None) and ``deal``
    (the arena's deal, from 0, or None outside :func:`binocle.arena`).  In the
    arena, ``report`` is the report of the deals played before that one (None
    when there are none): the record is kept up to the failure.
    """

    bot: str
    seat: int
    hand: int
    seed: int | None
    deal: int | None
    report: Any

    def __init__(
        self,
        message: str,
        bot: str = "",
        seat: int = 0,
        hand: int = 1,
        seed: int | None = None,
        deal: int | None = None,
        report: Any = None,
    ) -> None:
        super().__init__(message)
        self.bot, self.seat, self.hand, self.seed, self.deal = bot, seat, hand, seed, deal
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a worker process raising it) with its attributes.
        return (
            type(self),
            (str(self), self.bot, self.seat, self.hand, self.seed, self.deal, self.report),
        )


class BotTimeoutError(BotError):
    """A bot took longer than the time limit per move (wall clock) to choose: the
    game stops there.  Python cannot stop a thread, so the bot's call is left to
    end on its own in the background."""


class BotNameWarning(UserWarning):
    """Two bots share a name: an entry point named like a built-in bot, or two
    entry points of one name (the built-in, or the first, is the one used)."""


class RandomBot:
    """Chooses uniformly at random among the legal actions.

    Claims (knocking) and giving up end a hand or the game at once, so by
    default the bot makes them only when nothing else is legal; with
    ``sudden=True`` every legal action is equally likely.
    """

    def __init__(self, seed: int | None = None, *, sudden: bool = False) -> None:
        self.rng = random.Random(seed)
        self.sudden = sudden

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if not self.sudden:
            calm = [a for a in legal if a.kind is not Kind.CLAIM and a.kind is not Kind.CONCEDE]
            if calm:
                return self.rng.choice(calm)
        return self.rng.choice(legal)


class BaselineBot:
    """A simple, sensible player: a yardstick for other bots, not a strong one.

    Cutthroat: bids up to its best meld plus a fair estimate of its tricks,
    discards cards that neither meld nor win, names the suit that gives the
    most, gives up a hopeless contract, leads winners and wins tricks cheaply.
    Three-handed: declares its best meld and claims any overlooked meld offered.
    Partnership (any profile whose :attr:`~binocle.core.Profile.sides` pair seats):
    does not bid over its partner without a clearly better hand, passes its partner
    the bidder its trumps and Aces, passes back what neither melds nor wins, and gives
    up by its side's meld.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if CLAIM_OVERLOOKED in legal:
            return CLAIM_OVERLOOKED  # another player's overlooked meld: free points
        phase = view.phase
        if phase is Phase.BIDDING:
            return self._bid(view, legal)
        if phase is Phase.DISCARD:
            if any(a.kind is Kind.GIVE for a in legal) and view.seat != view.get("bidder"):
                return self._give_to_bidder(view, legal)
            return self._discard(view, legal)
        if phase is Phase.TRUMP:
            best = max(Suit, key=lambda t: self._suit_value(view, view.hand, t))
            return next(a for a in legal if a.suit is best)
        if phase is Phase.PLAY:
            return self._play(view, legal)
        if phase is Phase.ANNOUNCE:
            return self._announce(view, legal)
        if phase is Phase.DIX:
            return max(legal, key=lambda a: a.number or (1 if a.kind is Kind.DIX else 0))
        for a in legal:
            if a.kind is Kind.MELD:
                return a
        return next((a for a in legal if a.kind is not Kind.CLAIM), legal[0])

    def _announce(self, view: View, legal: tuple[Action, ...]) -> Action:
        """Classic: the most valuable announcement, else dix, else nothing."""
        if self._sure_claim(view, legal):
            return next(a for a in legal if a.kind is Kind.CLAIM)
        melds = [a for a in legal if a.kind is Kind.MELD and a.name in _KIND_VALUES]
        if melds:
            return max(melds, key=lambda a: _KIND_VALUES[a.name or ""])
        return next((a for a in legal if a.kind is Kind.DIX), legal[0])

    def _sure_claim(self, view: View, legal: tuple[Action, ...]) -> bool:
        """Claim at its turn exactly when the claim is correct."""
        return any(a.kind is Kind.CLAIM for a in legal) and self.knock(view)

    def knock(self, view: View) -> bool:
        """Knock (out of turn too) exactly when the claim is correct: its score, the
        points recorded this hand and the cards it has won reach its target."""
        totals = view.get("claim_totals")
        targets = view.get("targets")
        if not totals or not targets:
            return False
        return bool(totals[view.seat] >= targets[view.seat])

    # -- bidding -----------------------------------------------------------

    def _estimate(self, view: View, hand: Sequence[Card]) -> int:
        """Best meld over the four trumps plus an estimate of trick points."""
        return max(self._suit_value(view, hand, t) for t in Suit)

    def _suit_value(self, view: View, hand: Sequence[Card], t: Suit) -> int:
        meld = view.profile.meld(tuple(sorted(hand)), t).total
        trumps = sum(1 for c in hand if c >> 3 == t)
        aces = sum(1 for c in hand if c & 7 == 0)
        tens = sum(1 for c in hand if c & 7 == 1)
        return meld + 15 * aces + 8 * tens + 10 * max(trumps - 3, 0) + 70

    def _partners(self, view: View) -> tuple[int, ...]:
        """The other seats of this seat's side."""
        return tuple(i for i in view.profile.side_of(view.seat) if i != view.seat)

    def _give_to_bidder(self, view: View, legal: tuple[Action, ...]) -> Action:
        """The bidder's partner passes what helps the bidder most: his trumps, high
        first, then Aces, then Tens."""
        trump = view.trump

        def worth(a: Action) -> tuple[int, int]:
            c = a.card
            assert c is not None
            return (2 if c >> 3 == trump else 1 if c & 7 == 0 else 0, -(c & 7))

        return max(legal, key=worth)

    def _bid(self, view: View, legal: tuple[Action, ...]) -> Action:
        limit = self._estimate(view, view.hand)
        if self._partners(view):
            limit += 50  # a partner's meld and tricks count for the side's bid too
        calls = view.get("calls") or ()
        high = max(calls, key=lambda c: c[1], default=None)
        if high is not None and high[1] and high[0] in self._partners(view):
            limit -= 60  # the partner holds the bid: raise him only with a clearly better hand
        bids = [a for a in legal if a.kind is Kind.BID and (a.number or 0) <= limit]
        if bids:
            return bids[0]
        return next(a for a in legal if a.kind is Kind.PASS)

    # -- widow and discards ----------------------------------------------------

    def _discard(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = list(view.hand)
        t = max(Suit, key=lambda s: self._suit_value(view, hand, s))

        def keep_value(a: Action) -> int:
            c = a.card
            assert c is not None
            rest = list(hand)
            rest.remove(c)
            loss = (
                view.profile.meld(tuple(sorted(hand)), t).total
                - view.profile.meld(tuple(sorted(rest)), t).total
            )
            power = 30 if c >> 3 == t else (15 if c & 7 == 0 else 0)
            counter = 5 if c & 7 in (1, 2) else 0  # a discarded counter still counts
            return loss * 4 + power - counter

        return min(legal, key=keep_value)

    # -- play ----------------------------------------------------------------

    def _play(self, view: View, legal: tuple[Action, ...]) -> Action:
        if self._sure_claim(view, legal):
            return next(a for a in legal if a.kind is Kind.CLAIM)
        plays = [a for a in legal if a.kind is Kind.PLAY]
        if any(a.kind is Kind.CONCEDE for a in legal):
            bid = view.get("bid") or 0
            melds = view.get("melds") or ()
            mine = sum(
                m.total
                for i, m in enumerate(melds)
                if m is not None and (i == view.seat or i in self._partners(view))
            )
            # The trick points hoped for: a side of two takes more of the 250 than one
            # player alone (the figures keep the baseline's hands mostly played and made).
            hoped = 170 if self._partners(view) else 120
            if mine + hoped < bid:
                return next(a for a in legal if a.kind is Kind.CONCEDE)
        trump = view.trump
        if not view.trick:
            # Lead: an Ace if any, else the lowest card of the longest plain suit.
            aces = [a for a in plays if a.card is not None and a.card & 7 == 0]
            if aces:
                return aces[0]
            return max(plays, key=lambda a: (a.card or 0) & 7)
        played = [c for _, c in view.trick]
        winners = []
        for a in plays:
            c = a.card
            assert c is not None
            if _trick_winner([*played, c], trump) == len(played):
                winners.append(a)
        if winners:
            return max(winners, key=lambda a: (a.card or 0) & 7)  # cheapest winner
        return max(plays, key=lambda a: ((a.card or 0) & 7, (a.card or 0) >> 3 != trump))


_KIND_VALUES: dict[str, int] = {name: value for name, _, value in KINDS}

#: The entry-point group in which other distributions declare bots: each entry's
#: name is the bot's name, its value a factory or bot (``"mypkg.mod:MyBot"``).
ENTRY_POINT_GROUP = "binocle.bots"

#: The built-in bots by name: a factory, or the importable path of one defined in a
#: module that builds on this one (the search bots of :mod:`binocle.ismcts`), loaded
#: when first asked for.
_BUILTIN: dict[str, Callable[..., Bot] | str] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "ismcts": "binocle.ismcts:ISMCTSBot",
    "pimc": "binocle.ismcts:PIMCBot",
    "ddpimc": "binocle.ismcts:DoubleDummyBot",
}
#: Names this module offers that :mod:`binocle.ismcts` defines, with their paths.
#: The factory of the bots of ``cmd:`` specs (external engines), loaded when first asked for.
_COMMAND_BOT = "binocle.engine:command_bot"
_SEARCH_BOTS: dict[str, str] = {
    "ISMCTSBot": "binocle.ismcts:ISMCTSBot",
    "PIMCBot": "binocle.ismcts:PIMCBot",
    "DoubleDummyBot": "binocle.ismcts:DoubleDummyBot",
}


def __getattr__(name: str) -> Any:
    """:class:`~binocle.ismcts.ISMCTSBot` and :class:`~binocle.ismcts.PIMCBot`, read
    from here too (their module builds on this one, so it is loaded when asked for)."""
    path = _SEARCH_BOTS.get(name)
    if path is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _import(path, own=True)


def __dir__() -> list[str]:
    return sorted({*globals(), *_SEARCH_BOTS})


_REGISTERED: dict[str, Callable[..., Bot]] = {}
#: Entry points already loaded in this process, by name.
_PLUGINS: dict[str, object] = {}
#: The name clashes of entry points already warned of, as (name, value).
_WARNED: set[tuple[str, str]] = set()
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_SPEC = re.compile(
    r"\s*(?P<target>[A-Za-z_][\w-]*|[A-Za-z_][\w.]*:[A-Za-z_][\w.]*)\s*(?:\((?P<args>.*)\))?\s*\Z",
    re.DOTALL,
)
_WORDS: dict[str, object] = {"none": None, "true": True, "false": False}


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    """The bots other distributions declare, by name (the first of a name wins); none
    when the installation's metadata cannot be read."""
    try:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # unreadable metadata of some distribution: no plugins, no crash
        return {}
    out: dict[str, importlib.metadata.EntryPoint] = {}
    for ep in found:
        if ep.name in _BUILTIN or ep.name in out:
            first = "a built-in bot" if ep.name in _BUILTIN else f"entry point {out[ep.name].value}"
            key = (ep.name, ep.value)
            if key not in _WARNED:
                _WARNED.add(key)
                warnings.warn(
                    f"the entry point {ep.name!r} ({ep.value}) is ignored: {first} has that name",
                    BotNameWarning,
                    stacklevel=3,
                )
            continue
        out[ep.name] = ep
    return out


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` knows: the built-in bots, then those added with
    :func:`register_bot`, then those of the entry-point group ``binocle.bots``
    (listed without being loaded)."""
    names = dict.fromkeys([*_BUILTIN, *_REGISTERED, *_entry_points()])
    return tuple(names)


def register_bot(name: str, factory: Callable[..., Bot], *, replace: bool = False) -> None:
    """Make ``factory`` known by ``name`` to :func:`make_bot` and every runner.

    ``factory`` is a class or function called with the ``seed`` keyword (when it
    takes one) and the settings given, returning a bot.  A name already registered,
    or declared by an entry point (:data:`ENTRY_POINT_GROUP`), is refused unless
    ``replace``; a built-in bot's name is always refused.  A name
    is letters, digits, ``_`` and ``-``, not starting with a digit or ``-``.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidArgumentError(
            f"a bot's name is letters, digits, _ and -, such as 'greedy', not {name!r}"
        )
    if isinstance(factory, str) or not callable(factory) or _is_bot(factory):
        raise InvalidArgumentError(
            f"register_bot takes a factory (a class or function returning a bot),"
            f" not {type(factory).__name__}"
        )
    if name in _BUILTIN:
        raise InvalidArgumentError(f"{excerpt(name)} is a built-in bot's name: choose another")
    if name in _REGISTERED and not replace:
        raise InvalidArgumentError(
            f"a bot {name!r} is registered already (replace=True replaces it)"
        )
    if name not in _REGISTERED and not replace and name in _entry_points():
        raise InvalidArgumentError(
            f"{name!r} is the name of an entry-point bot ({_entry_points()[name].value}):"
            " choose another, or replace=True to shadow it"
        )
    _REGISTERED[name] = factory


def _is_bot(x: object) -> bool:
    """Whether ``x`` is a bot object (a class with ``choose`` is a factory, not a bot)."""
    return not isinstance(x, type) and callable(getattr(x, "choose", None))


def _is_factory(x: object) -> bool:
    return isinstance(x, type) or (callable(x) and not _is_bot(x))


def _target(name: str) -> object:
    """What a name stands for: a built-in, registered or entry-point bot (loaded now)."""
    if name in _BUILTIN:
        found = _BUILTIN[name]
        return _import(found, own=True) if isinstance(found, str) else found
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _PLUGINS:
        return _PLUGINS[name]
    ep = _entry_points().get(name)
    if ep is None:
        raise InvalidArgumentError(f"unknown bot {excerpt(name)} (known: {', '.join(bot_names())})")
    dist = getattr(getattr(ep, "dist", None), "name", None) or "an unnamed distribution"
    where = f"the bot plugin {name!r} ({ep.value}, entry point of {dist})"
    try:
        target: object = ep.load()
    except Exception as exc:
        raise InvalidArgumentError(
            f"{where} cannot be loaded: {type(exc).__name__}: {exc}"
        ) from exc
    if not _is_factory(target) and not _is_bot(target):
        raise InvalidArgumentError(
            f"{where} is {type(target).__name__}: neither a bot nor a factory of bots"
        )
    _PLUGINS[name] = target
    return target


def _import(path: str, own: bool = False) -> object:
    """The object an importable path ``module:attribute`` names: a bot class, or
    with ``own`` (the library's own paths, never text from outside) a factory."""
    module, _, attr = path.partition(":")
    try:
        obj: object = importlib.import_module(module)
    except Exception as exc:
        raise InvalidArgumentError(
            f"cannot import {module!r} for the bot {path!r}: {type(exc).__name__}: {exc}"
        ) from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidArgumentError(
                f"no {excerpt(attr)} in {excerpt(module)} (the bot {excerpt(path)})"
            ) from None
    if own and _is_factory(obj):
        return obj
    if not (isinstance(obj, type) and callable(getattr(obj, "choose", None))):
        raise InvalidArgumentError(
            f"{path!r} is {type(obj).__name__}, not a bot class (a class with a choose"
            " method): spec text names only bot classes, built-in, registered and"
            " entry-point bots (register_bot gives a factory a name)"
        )
    return obj


def _value(node: ast.expr, key: str, spec: str) -> object:
    """A setting's value in spec text: a Python literal, or a bare word (``none``,
    ``true`` and ``false`` in any case, else the word as text)."""
    if isinstance(node, ast.Name):
        return _WORDS.get(node.id.lower(), node.id)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise InvalidArgumentError(
            f"the setting {key} of {spec!r} is a number, text, true, false or none"
        ) from None


def _settings(text: str | None, spec: str) -> dict[str, Any]:
    """The settings of spec text: ``name=value`` pairs separated by commas."""
    if text is None or not text.strip():
        return {}
    problem = f"cannot read the settings of {spec!r}: write name=value, separated by commas"
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise InvalidArgumentError(problem) from None
    if not isinstance(call, ast.Call) or call.args or any(k.arg is None for k in call.keywords):
        raise InvalidArgumentError(problem)
    return {k.arg: _value(k.value, k.arg, spec) for k in call.keywords if k.arg is not None}


def _keywords(
    factory: Callable[..., object], what: str, seed: int | None, settings: Mapping[str, Any]
) -> dict[str, Any]:
    """The keywords to call ``factory`` with: the settings, all of which it must
    accept, and ``seed`` when it takes one."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # no signature to read: pass everything
        return {**settings, "seed": seed}
    open_ = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    accepted = [
        n
        for n, p in params.items()
        if n != "seed"
        and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    unknown = [k for k in settings if k == "seed" or (k not in accepted and not open_)]
    if unknown:
        given = ", ".join(unknown)
        if "seed" in unknown:
            raise InvalidArgumentError(
                f"the seed of the {what} bot is not a setting: the runner gives it"
            )
        if not accepted:
            raise InvalidArgumentError(f"the {what} bot has no settings (given: {given})")
        raise InvalidArgumentError(
            f"not a setting of the {what} bot: {given} (its settings: {', '.join(accepted)})"
        )
    out = dict(settings)
    if "seed" in params or open_:
        out["seed"] = seed
    return out


def _build(target: object, what: str, seed: int | None, settings: Mapping[str, Any]) -> Bot:
    """A new bot from a factory (called with the seed and settings), or a copy of a bot."""
    if _is_factory(target):
        factory: Callable[..., object] = target  # type: ignore[assignment]
        kwargs = _keywords(factory, what, seed, settings)
        try:
            bot = factory(**kwargs)
        except BinocleError:
            raise
        except (TypeError, ValueError) as exc:
            raise InvalidArgumentError(
                f"the {what} bot cannot be made with {kwargs}: {type(exc).__name__}: {exc}"
            ) from exc
        if not _is_bot(bot):
            raise InvalidArgumentError(
                f"the {what} bot's factory made {type(bot).__name__}, not a bot"
                " (no choose(view) method)"
            )
        made: Bot = bot  # type: ignore[assignment]
        return made
    if settings:
        raise InvalidArgumentError(
            f"the {what} bot is an object, made already: it takes no settings"
        )
    return _copy(target, what)


def _copy(bot: object, what: str) -> Bot:
    try:
        made: Bot = copy.deepcopy(bot)  # type: ignore[assignment]
    except Exception as exc:
        raise InvalidArgumentError(
            f"the bot {what} cannot be copied for a new game: {type(exc).__name__}: {exc}"
        ) from exc
    return made


def make_bot(name: str, seed: int | None = None, **settings: Any) -> Bot:
    """A new bot by name (:func:`bot_names`), its constructor given ``seed`` and ``settings``.

    ``"random"`` (:class:`RandomBot`, setting ``sudden``), ``"baseline"``
    (:class:`BaselineBot`), ``"ismcts"`` (:class:`ISMCTSBot`) and ``"pimc"``
    (:class:`PIMCBot`), whose settings are ``iterations``, ``time_limit``,
    ``exploration``, ``samples``, ``auction`` and ``endgame``; ``"ddpimc"``
    (:class:`DoubleDummyBot`: those and ``nodes``); then the registered and
    entry-point bots.  A setting the bot does not take is refused with
    :class:`~binocle.errors.InvalidArgumentError` naming those it takes.

    >>> make_bot("ismcts", 1, iterations=40).iterations
    40
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidArgumentError(
            f"make_bot takes a bot's name such as 'baseline', not {name!r}"
            " (resolve_bot reads specs with settings and importable paths)"
        )
    return _build(_target(name), name, seed, settings)


def resolve_bot(spec: BotSpec, seed: int | None = None, *, fresh: bool = False) -> Bot:
    """The bot a spec stands for (see the module), made with ``seed`` where it is made.

    - a name, ``"baseline"``, or a name with settings, ``"ismcts(iterations=400,
      exploration=0.5)"``: :func:`make_bot` with those settings (values are
      Python literals, or the words none, true, false and other bare words as
      text: ``auction=search``);
    - an importable path ``"module:Class"``, optionally with settings,
      ``"mypkg.bots:MyBot(depth=2)"``: a bot class (one with a ``choose``
      method), called as for a name.  Nothing else is called from text: a
      path naming a function or any other object is refused before anything
      is called (give a factory a name with :func:`register_bot`);
    - ``"cmd:<command>"``: an external engine, a program speaking the engine
      protocol (:class:`binocle.engine.ExternalBot`), ``"cmd:./mybot --level 3"``;
    - a factory (a class, or a function taking the ``seed`` keyword): called;
    - a bot object: returned as it is, or a deep copy of it when ``fresh`` (each
      game then starts from the bot as it was given).

    Anything else is refused with :class:`~binocle.errors.InvalidArgumentError`.

    >>> resolve_bot("ismcts(iterations=40, samples=5)", seed=1).samples
    5
    >>> type(resolve_bot("binocle.bots:RandomBot(sudden=true)")).__name__
    'RandomBot'
    """
    if isinstance(spec, str) and spec.lstrip().startswith("cmd:"):
        command = spec.lstrip()[4:].strip()
        if not command:
            raise InvalidArgumentError("a cmd: bot spec names a command: 'cmd:./mybot --level 3'")
        return _build(_import(_COMMAND_BOT, own=True), "cmd", seed, {"command": command})
    if isinstance(spec, str):
        m = _SPEC.match(spec)
        if m is None:
            raise InvalidArgumentError(
                f"not a bot spec: {spec[:80]!r} (a name such as baseline, a name with"
                " settings such as ismcts(iterations=400), or module:Class)"
            )
        name = m.group("target")
        settings = _settings(m.group("args"), spec.strip())
        target = _import(name) if ":" in name else _target(name)
        return _build(target, name, seed, settings)
    if _is_factory(spec):
        return _build(spec, bot_label(spec), seed, {})
    if _is_bot(spec):
        bot: Bot = spec  # type: ignore[assignment]
        return _copy(bot, bot_label(bot)) if fresh else bot
    raise InvalidArgumentError(
        f"not a bot spec: {type(spec).__name__} (a bot's name or spec text, a bot, or a"
        " factory called with seed=... that returns one)"
    )


def bot_label(spec: BotSpec) -> str:
    """How reports name the bot of ``spec``: the spec text, else the bot's (or the
    factory's) ``name`` attribute when it is text, else the qualified name of the bot's
    class or of the factory."""
    if isinstance(spec, str):
        return spec.strip()
    name = getattr(spec, "name", None)
    if isinstance(name, str) and name:
        return name
    if _is_factory(spec):
        qual = getattr(spec, "__qualname__", None)
        if isinstance(qual, str):
            return qual
    return type(spec).__qualname__


def knocker(state: GameState, bots: Sequence[object]) -> int | None:
    """The first seat whose bot knocks out of turn now, or None.

    Each seat in :func:`binocle.claimants` but the player to act is asked, in
    turn from the left of the player to act, through its bot's optional
    ``knock(view)``; bots without one are not asked (and no view is built).
    """
    expect(state, GameState, "state is a GameState")
    players = state.profile.players
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or len(bots) != players:
        raise InvalidArgumentError(f"bots are {players}, one a seat, not {excerpt(bots)}")
    hooks: dict[int, Callable[[View], object]] = {}
    for i, bot in enumerate(bots):
        hook = getattr(bot, "knock", None)
        if callable(hook):
            hooks[i] = hook
    seats = claimants(state) if hooks else ()
    if not seats:
        return None
    p = state.current_player
    n = len(bots)
    start_at = 0 if p is None else p + 1
    for k in range(n):
        seat = (start_at + k) % n
        if seat != p and seat in seats and seat in hooks and hooks[seat](observe(state, seat)):
            return seat
    return None


def play_game(
    profile: object = "cutthroat",
    bots: Sequence[BotSpec] | None = None,
    seed: int | None = None,
    *,
    max_hands: int | None = None,
    on_step: Callable[[GameState, Action, GameState], None] | None = None,
    time_limit: float | None = None,
) -> GameState:
    """Play a game between ``bots`` (baseline bots by default) from ``seed``, to its end.

    ``bots`` holds one bot spec per seat (:func:`resolve_bot`): a bot object is
    played as it is; a name, spec text or factory is made with the seed
    ``seed * 7 + seat`` (None without a seed).

    ``max_hands`` bounds the game: it is played under the profile option
    ``max_hands`` (the lower of the two when the profile has one), so a game
    the rules have not ended by then is over at the end of that hand, and
    :func:`binocle.end_reason` of the final state says ``"limit"``.  After
    every action, the bots of the seats that may knock out of turn are asked
    (:func:`knocker`).  ``on_step(before, action, after)`` is called for every
    action.  Once the game is over, each bot with a ``game_over(view)`` method is
    told.  An :class:`~binocle.errors.EngineError` of a bot (an external engine
    that failed) is raised as it is, with its ``state`` set to the state it was
    to act in: the game up to there.

    Bots are held to a contract.  A bot whose ``choose`` or ``knock`` raises
    stops the game with :class:`BotError` naming the bot, its seat, the hand and
    the seed (the bot's exception is its ``__cause__``).  ``time_limit``
    (seconds, wall clock; None: none) bounds each call: a bot that has not
    answered by then stops the game with :class:`BotTimeoutError` (each call
    then runs in a thread of its own, left to end by itself, as Python cannot
    stop it).  An action a bot chooses that is not legal raises
    :class:`~binocle.errors.IllegalActionError` as ``apply`` does.
    """
    p = get_profile(profile)
    if max_hands is not None:
        if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
            raise InvalidArgumentError(
                f"max_hands is a whole number from 1, not {excerpt(max_hands)}"
            )
        if p.max_hands is None or p.max_hands > max_hands:
            p = get_profile(p, max_hands=max_hands)
    s = start(p, seed=seed)
    n = p.players
    if bots is None:
        bots = ["baseline"] * n
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidArgumentError("bots is a list of bot specs, one per seat")
    if len(bots) != n:
        raise InvalidArgumentError(f"{p.name} needs {n} bots, not {len(bots)}")
    limit = _check_limit(time_limit)
    players = [resolve_bot(b, None if seed is None else seed * 7 + i) for i, b in enumerate(bots)]
    labels = [bot_label(b) for b in bots]
    knocks = any(callable(getattr(bot, "knock", None)) for bot in players)
    guarded = [
        _Guarded(bot, label, i, seed, limit)
        for i, (bot, label) in enumerate(zip(players, labels, strict=True))
    ]
    while s.phase is not Phase.OVER:
        cur = s.current_player
        if cur is None:
            action = legal_actions(s)[0]
        else:
            hand = len(s.results) + 1
            seat = knocker(s, [g.for_hand(hand) for g in guarded]) if knocks else None
            try:
                action = (
                    claim(seat)
                    if seat is not None
                    else guarded[cur].for_hand(hand).choose(observe(s, cur))
                )
            except EngineError as exc:
                if exc.state is None:
                    exc.state = s
                raise
        after = apply(s, action)
        if on_step is not None:
            on_step(s, action, after)
        s = after
    for i, bot in enumerate(players):
        over = getattr(bot, "game_over", None)
        if callable(over):
            over(observe(s, i))
    return s


def _check_limit(time_limit: object) -> float | None:
    """A time limit per move: None, or a positive finite number of seconds."""
    if time_limit is None:
        return None
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not 0 < time_limit < float("inf")
    ):
        raise InvalidArgumentError(
            f"time_limit is None or a positive number of seconds, not {excerpt(time_limit)}"
        )
    return float(time_limit)


class _Guarded:
    """A seat's bot as a runner calls it: what it raises becomes a :class:`BotError`
    naming it, and each call is bounded by the time limit per move."""

    def __init__(
        self, bot: Bot, label: str, seat: int, seed: int | None, limit: float | None
    ) -> None:
        self.bot, self.label, self.seat, self.seed, self.limit = bot, label, seat, seed, limit
        self.hand = 1
        hook = getattr(bot, "knock", None)
        if callable(hook):
            self.knock = self._knock

    def for_hand(self, hand: int) -> _Guarded:
        self.hand = hand
        return self

    def choose(self, view: View) -> Action:
        action: Action = self._call(self.bot.choose, view, "choose")
        return action

    def _knock(self, view: View) -> bool:
        return bool(self._call(self.bot.knock, view, "knock"))  # type: ignore[attr-defined]

    def _where(self) -> str:
        seed = "" if self.seed is None else f", seed {self.seed}"
        return f"the bot {self.label!r} (seat {self.seat}, hand {self.hand}{seed})"

    def _call(self, fn: Callable[[View], Any], view: View, what: str) -> Any:
        if self.limit is None:
            try:
                return fn(view)
            except EngineError:
                raise  # an external engine's failure says so itself
            except Exception as exc:
                raise self._error(
                    f"{self._where()} failed in {what}: {type(exc).__name__}: {exc}"
                ) from exc
        box: list[tuple[bool, Any]] = []

        def run() -> None:
            try:
                box.append((True, fn(view)))
            except BaseException as exc:  # handed to the runner's thread
                box.append((False, exc))

        worker = threading.Thread(target=run, name=f"bot seat {self.seat}", daemon=True)
        worker.start()
        worker.join(self.limit)
        if not box:
            raise self._error(
                f"{self._where()} did not answer {what} within {self.limit:g} s",
                BotTimeoutError,
            )
        ok, value = box[0]
        if ok:
            return value
        if isinstance(value, EngineError):
            raise value
        raise self._error(
            f"{self._where()} failed in {what}: {type(value).__name__}: {value}"
        ) from value

    def _error(self, message: str, kind: type[BotError] = BotError) -> BotError:
        return kind(message, self.label, self.seat, self.hand, self.seed)
