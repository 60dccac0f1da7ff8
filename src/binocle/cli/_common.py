"""What the ``binocle`` commands share: common options, seeds, error output."""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

from binocle._io import write_text_atomic
from binocle._json import finite_json
from binocle.core import Profile
from binocle.narrate import SUIT_STYLES
from binocle.profiles import profile_names

__all__ = [
    "COLOR_CHOICES",
    "DEFAULT_PROFILE",
    "DealsUnavailable",
    "HelpFormatter",
    "Painter",
    "Subparsers",
    "add_color_option",
    "add_command",
    "add_deal_run_options",
    "add_profile_option",
    "add_suits_option",
    "at_least_one",
    "bot_help",
    "bot_specs",
    "deal_executor",
    "fail",
    "finite_json",
    "new_seed",
    "print_deal_report",
    "search_here",
    "split_bots",
    "suit_style",
    "use_color",
    "who",
    "whole_number",
]

Subparsers = argparse._SubParsersAction  # the type of ``parser.add_subparsers()``


class HelpFormatter(argparse.HelpFormatter):
    """``--help`` that states every option's default: ``(default: X)`` is added to an
    option's help unless the help already says its default or there is none to state
    (a flag, or a default of None, whose help says what happens instead)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default is argparse.SUPPRESS
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


#: The profile of ``--profile`` left out.
DEFAULT_PROFILE = "cutthroat"


def add_command(sub: Subparsers[argparse.ArgumentParser], name: str, summary: str) -> Any:
    """A new command's parser: ``summary`` is its one line in ``binocle --help`` and the
    description of its own ``--help``, which states every default."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=summary,
        description=summary[:1].upper() + summary[1:] + ".",
        formatter_class=HelpFormatter,
    )
    return parser


def add_profile_option(parser: argparse.ArgumentParser) -> None:
    """``--profile P``: a profile by name or spec, cutthroat when not given."""
    names = ", ".join(profile_names())
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        metavar="P",
        help=f"the rule profile: {names}, options in parentheses, e.g. 'cutthroat(min_bid=300)'",
    )


def add_suits_option(parser: argparse.ArgumentParser) -> None:
    """``--suits symbols|letters``: how cards are printed (one style for all the output)."""
    parser.add_argument(
        "--suits",
        choices=SUIT_STYLES,
        default=None,
        help="print suits as symbols (T♠) or letters (TS)"
        " (default: symbols where the output can show them, else letters)",
    )


def suit_style(args: argparse.Namespace, stream: Any = None) -> str:
    """The suit style chosen with ``--suits``, else symbols where ``stream`` (standard
    output) can encode them, else letters."""
    if args.suits is not None:
        return str(args.suits)
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None)
    if encoding is None:  # an in-memory text stream holds any character
        return "symbols"
    try:
        "♠♥♦♣–→·—".encode(encoding)
    except (UnicodeError, LookupError):
        return "letters"
    return "symbols"


#: The choices of ``--color``.
COLOR_CHOICES = ("auto", "always", "never")


def add_color_option(parser: argparse.ArgumentParser) -> None:
    """``--color auto|always|never``: ANSI colours in the output (:func:`use_color`)."""
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour the cards (red suits red, trumps underlined): always, never, or auto:"
        " where standard output is a terminal and the NO_COLOR environment variable is"
        " unset or empty",
    )


def use_color(choice: str, stream: Any = None, environ: Any = None) -> bool:
    """Whether to colour the output: ``always``, ``never``, or ``auto``: only where
    ``stream`` (standard output) is a terminal that is not ``TERM=dumb`` and the
    ``NO_COLOR`` environment variable is unset or empty (no-color.org)."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    out = stream if stream is not None else sys.stdout
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError, OSError):  # no stream, or a closed one
        return False


_RED = "31"
_TRUMP = "1;4"  # bold, underlined
_BOLD = "1"
_SYMBOL_CARD = re.compile(r"(?:10|[AKQJT987])?[♠♥♦♣]")
_LETTER_CARD = re.compile(r"\b[AKQJT987][SHDC]\b")
_SUIT_OF = {"♠": 0, "♥": 1, "♦": 2, "♣": 3, "S": 0, "H": 1, "D": 2, "C": 3}
_RED_SUITS = (1, 2)  # hearts and diamonds (binocle.Suit order: S H D C)


class Painter:
    """ANSI colours for a person's terminal, or none (``on=False``: text unchanged).

    Red suits are printed red, cards of the trump suit bold and underlined,
    headings bold.  Only the SGR codes every terminal knows are used."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _sgr(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on and code else text

    def bold(self, text: str) -> str:
        """A heading: bold."""
        return self._sgr(text, _BOLD)

    def suit(self, text: str, suit: int, trump: int | None) -> str:
        """``text`` (a card, or a suit's group of a hand) in the colour of ``suit``."""
        codes = []
        if suit in _RED_SUITS:
            codes.append(_RED)
        if trump is not None and suit == trump:
            codes.append(_TRUMP)
        return self._sgr(text, ";".join(codes))

    def cards(self, line: str, trump: int | None) -> str:
        """``line`` with every card (``T♥``, ``TH``) and suit symbol in its colours."""
        if not self.on:
            return line

        def paint(m: re.Match[str]) -> str:
            token = m.group(0)
            return self.suit(token, _SUIT_OF[token[-1]], trump)

        line = _SYMBOL_CARD.sub(paint, line)
        return _LETTER_CARD.sub(paint, line)


def whole_number(text: str) -> int:
    """argparse type: a whole number (the error quotes at most 40 characters of the text)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None


def at_least_one(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def new_seed() -> int:
    """A fresh seed for a command run without ``--seed`` (printed so the run can be repeated)."""
    return random.SystemRandom().randrange(10**6)


def fail(command: str, message: str) -> int:
    """Print ``binocle COMMAND: message`` on standard error; return the bad-input status 2."""
    print(f"binocle {command}: {message}", file=sys.stderr)
    return 2


def add_deal_run_options(
    cmd: argparse.ArgumentParser, *, what: str, seed: str, output: str, bar: str
) -> None:
    """The options of a command that plays many deals (``arena``, ``ratings``): where
    they run (``--jobs``, ``--scheduler``), ``--seed`` (``seed``: what follows from
    it), ``--json`` (``what`` it prints, else ``output``) and ``--no-progress`` (else
    ``bar``)."""
    cmd.add_argument(
        "--jobs", type=at_least_one, default=1, metavar="J", help="worker processes on this machine"
    )
    cmd.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the deals on a Dask cluster, e.g. tcp://10.0.0.5:8786 (extra binocle[distributed];"
        " default: this machine)",
    )
    cmd.add_argument(
        "--seed",
        type=whole_number,
        default=None,
        metavar="S",
        help=f"the seed {seed} from (default: a random seed, printed)",
    )
    cmd.add_argument(
        "--json", action="store_true", help=f"print {what} as JSON (default: {output})"
    )
    cmd.add_argument("--no-progress", action="store_true", help=f"no progress bar (default: {bar})")


class DealsUnavailable(Exception):
    """Dask or the ``--scheduler`` named cannot be had: the message says which."""


@contextlib.contextmanager
def deal_executor(scheduler: str | None) -> Iterator[Any]:
    """The executor the deals run on: None (this machine's processes), or the Dask
    cluster's at ``scheduler``, closed on the way out.  Raises DealsUnavailable."""
    if scheduler is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise DealsUnavailable(
            "--scheduler needs Dask: pip install 'binocle[distributed]'"
        ) from None
    try:
        client: Any = Client(scheduler, timeout="20s")  # type: ignore[no-untyped-call,unused-ignore]
    except (OSError, TimeoutError) as exc:
        raise DealsUnavailable(f"cannot reach the scheduler {scheduler}: {exc}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()


def print_deal_report(report: Any, args: argparse.Namespace, seed: int) -> int:
    """Print an arena report or ratings table (``--json``: strict JSON, an undefined
    figure ``null`` (:func:`finite_json`); else its text table, with the seed that
    repeats the run when none was given); return the status 0."""
    if args.json:
        print(finite_json(report.as_dict()))
    else:
        print(report.table())
        if args.seed is None:
            print(f"(seed {seed}: --seed {seed} repeats this run)")
    return 0


def who(seat: int, me: int | None, profile: Profile | None = None) -> str:
    """A seat's name as a person at seat ``me`` reads it: ``seat 1 (you)`` for his own,
    ``seat 2 (your partner)`` for a partner's (one of ``me``'s side in ``profile``)."""
    if seat == me:
        return f"seat {seat} (you)"
    if me is not None and profile is not None and seat in profile.side_of(me):
        return f"seat {seat} (your partner)"
    return f"seat {seat}"


def partner_names(profile: Profile, me: int) -> list[str | None]:
    """Names for :func:`binocle.narrate.narrate` as the person at ``me`` reads them:
    "your partner" for a partner's seat, else None (``seat n``)."""
    mine = profile.side_of(me)
    return ["your partner" if i in mine and i != me else None for i in range(profile.players)]


def bot_help() -> str:
    """What a ``--bots`` option's help says of a bot spec."""
    from binocle.bots import bot_names

    return (
        f"a bot is a name ({', '.join(bot_names())}), a name with settings"
        " ('ismcts(iterations=400)') or an importable path ('mypkg.mod:MyBot',"
        " 'mypkg.mod:MyBot(depth=2)'; the current directory is searched too) or an"
        " external engine's command ('cmd:./my-engine --level 2', the engine protocol)"
    )


def split_bots(text: str) -> list[str]:
    """The bot specs of ``--bots``: commas inside parentheses belong to a bot's settings."""
    out: list[str] = []
    depth = 0
    part = ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(part.strip())
            part = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        part += ch
    out.append(part.strip())
    return out


def search_here() -> None:
    """Put the current directory on the module search path, as ``python -m`` does, so
    that a bot's importable path ``module:Class`` finds a module there."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)


def bot_specs(text: str, seats: int, option: str = "--bots") -> list[str]:
    """The bot specs of ``text`` for ``seats`` seats, one spec standing for every seat;
    each spec is checked (:func:`binocle.bots.resolve_bot`) before any game starts.
    The current directory is searched for modules too (:func:`search_here`)."""
    from binocle.bots import resolve_bot
    from binocle.errors import InvalidArgumentError

    search_here()
    specs = [b for b in split_bots(text) if b]
    if len(specs) == 1:
        specs = specs * seats
    if len(specs) != seats:
        raise InvalidArgumentError(
            f"{option} names one bot for every seat or {seats} bots, not {len(specs)}"
        )
    for spec in dict.fromkeys(specs):
        resolve_bot(spec, 0)
    return specs


def add_svg_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--svg FILE``: write ``what`` as an SVG picture to FILE (``-`` for standard output)."""
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help=f"write {what} as an SVG picture to FILE (- for standard output) instead of"
        " text (default: text)",
    )


def write_svg(command: str, target: str, picture: str) -> int:
    """Write ``picture`` to ``target`` (``-``: standard output; a file: replaced whole or
    not at all); the status, 2 with a message when the file cannot be written."""
    if target == "-":
        sys.stdout.write(picture + "\n")
        return 0
    try:
        write_text_atomic(target, picture + "\n")
    except OSError as exc:
        return fail(command, f"cannot write {target}: {exc.strerror or exc}")
    return 0


def read_input(command: str, name: str) -> str | int:
    """The text of the file ``name`` (``-``: standard input), or the bad-input status 2
    with a one-line message when it cannot be read or is not UTF-8 text."""
    try:
        if name == "-":
            return sys.stdin.read()
        with open(name, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        return fail(command, f"cannot read {name}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return fail(command, f"{name} is not UTF-8 text: {exc}")
