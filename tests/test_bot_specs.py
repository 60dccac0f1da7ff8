"""Bot specs: one protocol, one resolver, one registry, accepted by every runner.

Docs: the bots page ("The Bot protocol", "Bot specs", "Settings", "The
registry and entry points", "Bots in other processes").  A spec is a name, a
name with settings, an importable path (with or without settings), a bot
object or a factory called with ``seed``; anything else is refused with
InvalidArgumentError.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

import binocle
from binocle import Action, InvalidArgumentError, View
from binocle import bots as bots_module
from binocle.bots import (
    BaselineBot,
    Bot,
    BotNameWarning,
    ISMCTSBot,
    KnockingBot,
    RandomBot,
    bot_label,
    bot_names,
    make_bot,
    play_game,
    register_bot,
    resolve_bot,
)
from binocle.cli import main
from binocle.duplicate import play_deal

# -- bots defined at module level, so that worker processes can receive them --------------


class FirstBot:
    """Always the first legal action that neither knocks nor gives up."""

    def __init__(self, seed: int | None = None, *, skip_claims: bool = True) -> None:
        self.seed = seed
        self.skip_claims = skip_claims

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if self.skip_claims:
            calm = [a for a in legal if a.kind not in (binocle.Kind.CLAIM, binocle.Kind.CONCEDE)]
            return (calm or list(legal))[0]
        return legal[0]


class NamedBot(FirstBot):
    name = "first-named"


def random_factory(seed: int | None = None) -> RandomBot:
    """A factory: a random bot from the seed the runner gives."""
    return RandomBot(seed)


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots registered in a test stay in that test; plugins load afresh."""
    monkeypatch.setattr(bots_module, "_REGISTERED", {})
    monkeypatch.setattr(bots_module, "_PLUGINS", {})


# -- the protocol ----------------------------------------------------------------------------


def test_the_bot_protocol_is_runtime_checkable() -> None:
    """A bot is anything with choose(view); knock(view) is the optional knocking hook."""
    assert isinstance(BaselineBot(1), Bot) and isinstance(FirstBot(), Bot)
    assert isinstance(BaselineBot(1), KnockingBot) and isinstance(ISMCTSBot(1), KnockingBot)
    assert not isinstance(RandomBot(1), KnockingBot) and not isinstance(FirstBot(), KnockingBot)
    assert not isinstance("baseline", Bot) and not isinstance(3, Bot)


# -- resolving a spec ------------------------------------------------------------------------


def test_every_kind_of_spec_resolves_to_a_bot() -> None:
    """Name, name with settings, importable path with and without settings, object
    (returned as it is, or copied when fresh), factory (called with the seed)."""
    assert type(resolve_bot("baseline", 1)) is BaselineBot
    bot = resolve_bot("ismcts(iterations=40, exploration=0.5, auction=search)", 3)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.exploration, bot.auction, bot.seed) == (40, 0.5, "search", 3)
    assert resolve_bot("pimc(iterations=none, time_limit=0.5)").iterations is None
    path = resolve_bot(f"{__name__}:FirstBot")
    assert type(path) is FirstBot and path.skip_claims
    with_settings = resolve_bot(f"{__name__}:FirstBot(skip_claims=false)", seed=9)
    assert with_settings.skip_claims is False and with_settings.seed == 9  # type: ignore[attr-defined]
    obj = FirstBot(4)
    assert resolve_bot(obj) is obj
    copied = resolve_bot(obj, fresh=True)
    assert copied is not obj and type(copied) is FirstBot and copied.seed == 4  # type: ignore[attr-defined]
    made = resolve_bot(random_factory, seed=11)
    assert isinstance(made, RandomBot) and made.rng.random() == RandomBot(11).rng.random()
    assert type(resolve_bot(FirstBot, seed=2)) is FirstBot


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown bot 'nobody'"),
        ("ismcts(speed=1)", r"not a setting of the ismcts bot: speed \(its settings: iterations"),
        ("baseline(x=1)", "the baseline bot has no settings"),
        ("random(seed=3)", "seed of the random bot is not a setting"),
        ("ismcts(1)", "cannot read the settings"),
        ("ismcts(iterations=0)", "iterations is a whole number"),
        ("two words", "not a bot spec"),
        ("no_such_module_xyz:Bot", "cannot import 'no_such_module_xyz'"),
        ("binocle.bots:Nothing", "no 'Nothing' in 'binocle.bots'"),
        ("binocle.bots:ENTRY_POINT_GROUP", "not a bot class"),
        (f"{__name__}:random_factory(x=2)", "not a bot class"),
        (42, "not a bot spec: int"),
        (None, "not a bot spec: NoneType"),
        (lambda seed=None: "not a bot", "made str, not a bot"),
    ],
)
def test_bad_specs_are_refused_clearly(spec: Any, message: str) -> None:
    """Anything that is not a bot spec, and a spec that names no bot or a setting the
    bot does not take, is InvalidArgumentError saying what is wrong."""
    with pytest.raises(InvalidArgumentError, match=message):
        resolve_bot(spec)


def test_labels_name_bots_stably() -> None:
    """The spec text; a bot's or factory's ``name``; else the qualified class name."""
    assert bot_label(" ismcts(iterations=40) ") == "ismcts(iterations=40)"
    assert bot_label(FirstBot()) == "FirstBot" and bot_label(FirstBot) == "FirstBot"
    assert bot_label(random_factory) == "random_factory"
    assert bot_label(NamedBot()) == "first-named" and bot_label(NamedBot) == "first-named"


# -- make_bot's settings ----------------------------------------------------------------------


def test_make_bot_passes_settings_to_the_constructor() -> None:
    """make_bot(name, seed, **settings): the settings reach the bot's constructor."""
    bot = make_bot("ismcts", 5, iterations=40, samples=3)
    assert isinstance(bot, ISMCTSBot) and (bot.iterations, bot.samples, bot.seed) == (40, 3, 5)
    assert make_bot("random", 1, sudden=True).sudden  # type: ignore[attr-defined]


def test_make_bot_refuses_unknown_settings_naming_the_accepted_ones() -> None:
    """An unknown setting is InvalidArgumentError listing the bot's settings."""
    with pytest.raises(InvalidArgumentError, match="its settings: sudden"):
        make_bot("random", 1, speed=2)
    with pytest.raises(InvalidArgumentError, match="iterations, time_limit, exploration"):
        make_bot("pimc", depth=2)
    with pytest.raises(InvalidArgumentError, match="no settings"):
        make_bot("baseline", depth=2)
    with pytest.raises(InvalidArgumentError, match="resolve_bot reads specs"):
        make_bot("ismcts(iterations=4)")


# -- the registry and entry points -----------------------------------------------------------


@pytest.mark.usefixtures("registry")
def test_a_registered_bot_is_known_to_every_runner() -> None:
    """register_bot(name, factory): make_bot, bot_names, specs with settings and the arena."""
    register_bot("first", FirstBot)
    assert bot_names()[:4] == ("random", "baseline", "ismcts", "pimc") and "first" in bot_names()
    assert type(make_bot("first")) is FirstBot
    assert resolve_bot("first(skip_claims=false)").skip_claims is False  # type: ignore[attr-defined]
    r = binocle.arena("classic", ["first", "random"], deals=1, seed=1)
    assert r.bots == ("first", "random") and r.get("first").hands == 2
    with pytest.raises(InvalidArgumentError, match="registered already"):
        register_bot("first", RandomBot)
    register_bot("first", RandomBot, replace=True)
    assert type(make_bot("first")) is RandomBot
    with pytest.raises(InvalidArgumentError, match="built-in"):
        register_bot("baseline", FirstBot)
    with pytest.raises(InvalidArgumentError, match="a bot's name"):
        register_bot("has space", FirstBot)
    with pytest.raises(InvalidArgumentError, match="takes a factory"):
        register_bot("obj", FirstBot())  # type: ignore[arg-type]


def _fake_distribution(root: Path, entries: dict[str, str]) -> None:
    """A distribution on ``root`` declaring ``entries`` in the group binocle.bots, and
    the module its good entries name."""
    info = root / "fakebots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fakebots\nVersion: 1.0\n", encoding="utf-8"
    )
    lines = "\n".join(f"{name} = {value}" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[binocle.bots]\n{lines}\n", encoding="utf-8")
    (root / "fakebots_mod.py").write_text(
        textwrap.dedent(
            """
            from binocle.bots import RandomBot

            LEVEL = 3

            class Careful(RandomBot):
                def __init__(self, seed=None, *, caution=1):
                    super().__init__(seed)
                    self.caution = caution
            """
        ),
        encoding="utf-8",
    )


@pytest.mark.usefixtures("registry")
def test_entry_point_bots_are_listed_and_loaded_lazily(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A distribution's entry points in the group binocle.bots are bot names: listed by
    bot_names without being imported, loaded when first used, settings included."""
    _fake_distribution(tmp_path, {"careful": "fakebots_mod:Careful"})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "fakebots_mod", raising=False)
    assert "careful" in bot_names()
    assert "fakebots_mod" not in __import__("sys").modules  # listed, not loaded
    bot = make_bot("careful", 3, caution=2)
    assert type(bot).__name__ == "Careful" and bot.caution == 2  # type: ignore[attr-defined]
    r = binocle.arena("classic", ["careful(caution=5)", "baseline"], deals=1, seed=2)
    assert r.get("careful(caution=5)").hands == 2


@pytest.mark.usefixtures("registry")
def test_a_broken_plugin_is_named_and_never_breaks_the_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin that cannot be imported is listed; using it is InvalidArgumentError naming
    the plugin and its distribution; the other bots still work."""
    _fake_distribution(
        tmp_path,
        {"broken": "no_such_plugin_module:Bot", "careful": "fakebots_mod:Careful",
         "junk": "fakebots_mod:LEVEL"},
    )  # fmt: skip
    monkeypatch.syspath_prepend(str(tmp_path))
    names = bot_names()
    assert {"broken", "careful", "junk", "baseline"} <= set(names)
    with pytest.raises(InvalidArgumentError, match=r"plugin 'broken' .*fakebots.*cannot be loaded"):
        make_bot("broken")
    with pytest.raises(InvalidArgumentError, match=r"plugin 'junk'.*neither a bot nor a factory"):
        resolve_bot("junk")
    assert type(make_bot("careful")).__name__ == "Careful"
    assert main(["simulate", "--profile", "classic", "--games", "1", "--bots", "broken"]) == 2


# -- every runner takes specs ------------------------------------------------------------------


def test_the_arena_takes_objects_factories_and_paths() -> None:
    """Objects, factories and importable paths sit at the arena's seats, named by label."""
    r = binocle.arena(
        "cutthroat", [FirstBot(), random_factory, "binocle.bots:BaselineBot"], deals=1, seed=3
    )
    assert r.bots == ("FirstBot", "random_factory", "binocle.bots:BaselineBot")
    assert r.get("FirstBot").hands == 3 and r.get("random_factory").hands == 3
    assert (
        binocle.arena("classic", [NamedBot(), "random"], deals=1, seed=1).bots[0] == "first-named"
    )


def test_two_different_bots_with_one_label_are_refused() -> None:
    """Statistics are kept by label: two different bots may not share one."""
    with pytest.raises(InvalidArgumentError, match="both named 'FirstBot'"):
        binocle.arena("classic", [FirstBot(1), FirstBot(2)], deals=1)
    same = FirstBot()
    assert binocle.arena("classic", [same, same], deals=1, seed=1).get("FirstBot").hands == 4


def test_play_game_takes_specs() -> None:
    """play_game's bots are specs too: names with settings, paths, objects, factories."""
    s = play_game(
        "cutthroat",
        ["ismcts(iterations=8, samples=2)", f"{__name__}:FirstBot", random_factory],
        seed=2,
        max_hands=1,
    )
    assert len(s.results) == 1
    with pytest.raises(InvalidArgumentError, match="unknown bot"):
        play_game("classic", ["baseline", "nobody"], seed=1)


def test_simulate_takes_specs_with_settings_and_paths(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle simulate --bots``: commas inside a spec's parentheses belong to it."""
    bots = "ismcts(iterations=4,samples=2),binocle.bots:RandomBot(sudden=false),baseline"
    argv = ["simulate", "--profile", "cutthroat", "--games", "1", "--seed", "1"]
    assert main([*argv, "--max-hands", "1", "--bots", bots, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bots"] == [
        "ismcts(iterations=4,samples=2)",
        "binocle.bots:RandomBot(sudden=false)",
        "baseline",
    ]
    assert main([*argv, "--bots", "ismcts(speed=2)"]) == 2
    assert "not a setting of the ismcts bot: speed" in capsys.readouterr().err


def test_play_takes_opponents_by_spec(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``binocle play --bots``: the opponents, one spec for all or one per other seat."""
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "--profile", "cutthroat", "--seed", "1", "--bots", "random"]) == 0
    assert "against 2 random bots" in capsys.readouterr().out
    assert main(["play", "--profile", "cutthroat", "--seed", "1", "--seat", "2",
                 "--bots", f"{__name__}:NamedBot,ismcts(iterations=4)"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert f"against {__name__}:NamedBot (seat 0), ismcts(iterations=4) (seat 1)" in out
    assert main(["play", "--profile", "classic", "--bots", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_demo_takes_a_spec(capsys: pytest.CaptureFixture[str]) -> None:
    """``binocle demo --bot`` reads a spec with settings."""
    assert main(["demo", "--profile", "classic", "--max-hands", "1",
                 "--bot", "random(sudden=false)"]) == 0  # fmt: skip
    assert "random(sudden=false) bots play" in capsys.readouterr().out


def test_the_web_server_seats_the_bots_it_offers() -> None:
    """The web front end's bot seats: the server offers bot specs (objects, factories,
    spec text) by label; a client picks a label, never a spec of its own."""
    pytest.importorskip("starlette")
    from binocle.web import protocol

    offer = [NamedBot(), random_factory, "ismcts(iterations=4)"]
    assert protocol.available_bots(offer) == (
        "first-named",
        "random_factory",
        "ismcts(iterations=4)",
    )
    table = protocol.new_table(
        {"profile": "cutthroat", "seed": 3, "opponents": ["first-named", "random_factory"]}, offer
    )
    assert type(table.bots[1]) is NamedBot and table.bots[1] is not offer[0]
    assert isinstance(table.bots[2], RandomBot)
    with pytest.raises(protocol.MessageError, match="unknown bot"):
        protocol.new_table({"opponents": ["baseline", "binocle.bots:RandomBot"]}, offer)


# -- process pools and Dask ----------------------------------------------------------------


class _Counting(cf.Executor):
    """An executor (not a thread pool) that counts what it is given and runs nothing."""

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        self.submitted += 1
        raise AssertionError("no work may start")


def test_an_unpicklable_bot_is_refused_before_any_work() -> None:
    """Work sent to other processes carries the bots pickled: a lambda or a class made
    inside a function is InvalidArgumentError before any deal is played."""

    class Local(FirstBot):
        pass

    done: list[int] = []
    with pytest.raises(InvalidArgumentError, match="cannot be sent to worker processes"):
        binocle.arena("classic", [lambda seed=None: RandomBot(seed), "baseline"], deals=2,
                      jobs=2, progress=lambda d, t: done.append(d))  # fmt: skip
    ex = _Counting()
    with pytest.raises(InvalidArgumentError, match=r"<locals>\.Local' cannot be sent"):
        binocle.arena("classic", [Local(), "baseline"], deals=2, executor=ex)
    assert done == [] and ex.submitted == 0
    # In this process, or on threads, nothing is pickled: the same bots play.
    with cf.ThreadPoolExecutor(2) as threads:
        r = binocle.arena("classic", [Local(), "baseline"], deals=1, seed=1, executor=threads)
    assert r.get(bot_label(Local())).hands == 2


def test_a_bot_object_starts_every_deal_afresh_however_the_work_is_split() -> None:
    """An object is deep-copied for every hand: serial, threads and processes agree, and
    the object given is left as it was."""
    bot = RandomBot(5)
    state = bot.rng.getstate()
    line = [bot, "baseline"]
    serial = binocle.arena("classic", line, deals=3, seed=4)
    with cf.ThreadPoolExecutor(2) as ex:
        threads = binocle.arena("classic", line, deals=3, seed=4, executor=ex)
    procs = binocle.arena("classic", line, deals=3, seed=4, jobs=2)
    assert serial == threads == procs
    assert bot.rng.getstate() == state
    # The deals played one by one in the other order, with the one object, agree too.
    backwards = [play_deal("classic", (bot, "baseline"), 4, d) for d in (2, 1, 0)]
    assert tuple(reversed(backwards)) == serial.points
    factories = binocle.arena("classic", [random_factory, "baseline"], deals=2, seed=4, jobs=2)
    assert factories == binocle.arena("classic", [random_factory, "baseline"], deals=2, seed=4)


def test_build_bot_still_works_with_a_deprecation_warning() -> None:
    """binocle.duplicate.build_bot, replaced by resolve_bot, warns and still resolves."""
    from binocle.duplicate import build_bot

    with pytest.warns(DeprecationWarning, match="resolve_bot"):
        bot = build_bot("ismcts(iterations=9)", 1)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 9


CALLED: list[object] = []


def record_call(**kwargs: object) -> RandomBot:
    """A function a spec text must never call."""
    CALLED.append(kwargs)
    return RandomBot(0)


@pytest.mark.parametrize(
    "spec",
    ["os:system(command='exit 3')", f"{__name__}:record_call(x=1)", f"{__name__}:record_call"],
)
def test_spec_text_calls_no_function(spec: str) -> None:
    """Bots page, "Bot specs": spec text names only built-in, registered and entry-point
    bots and bot classes; a path to any other callable is refused before it is called."""
    with pytest.raises(InvalidArgumentError, match="not a bot class"):
        resolve_bot(spec)
    with pytest.raises(InvalidArgumentError, match="not a bot class"):
        binocle.arena("classic", [spec, "baseline"], deals=1)
    assert CALLED == []


@pytest.mark.usefixtures("registry")
def test_name_clashes_are_refused_or_warned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots page, "Bot specs": an entry point named like a built-in bot is ignored with a
    BotNameWarning (the built-in is used); register_bot refuses an entry point's name
    unless replace=True."""
    _fake_distribution(
        tmp_path, {"baseline": "fakebots_mod:Careful", "good": "fakebots_mod:Careful"}
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(bots_module, "_WARNED", set())
    with pytest.warns(BotNameWarning, match="'baseline'"):
        names = bot_names()
    assert "good" in names and type(make_bot("baseline")) is BaselineBot
    with pytest.raises(InvalidArgumentError, match="entry-point bot"):
        register_bot("good", RandomBot)
    register_bot("good", RandomBot, replace=True)
    assert type(make_bot("good")) is RandomBot
