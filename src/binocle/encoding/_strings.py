"""Information-state and observation strings, read from a view alone."""

from __future__ import annotations

from typing import Any

from binocle.cards import Card, format_cards
from binocle.core import MeldResult, View
from binocle.encoding._common import _check_view


def _public_text(view: View, full: bool) -> list[str]:
    lines = [
        f"profile {view.profile.spec()}",
        f"seat {view.seat}",
        f"phase {view.phase.value}",
        f"dealer {view.dealer}",
        f"to act {'-' if view.current_player is None else view.current_player}",
        f"trump {'-' if view.trump is None else view.trump}",
        f"hand {format_cards(view.hand)}",
        f"hand sizes {' '.join(map(str, view.hand_sizes))}",
        "trick " + " ".join(f"{s}:{c}" for s, c in view.trick),
        f"scores {' '.join(map(str, view.scores))}",
    ]
    if full:
        for r in view.results:
            lines.append(f"hand result {' '.join(map(str, r.delta))} {r.outcome}")
    for key, value in view.public:
        if not full and key in ("calls", "played", "table_melds", "last_trick"):
            continue
        lines.append(f"{key} {_text(value)}")
    if full:
        lines.extend(f"log {entry}" for entry in view.log)
    return lines


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, MeldResult):
        return str(value)
    if isinstance(value, tuple):
        if value and all(isinstance(c, Card) for c in value):
            return format_cards(value)
        return "(" + ", ".join(_text(v) for v in value) + ")"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def information_state_string(view: View) -> str:
    """The seat's information state as text: the view with this hand's log."""
    return "\n".join(_public_text(_check_view(view), True))


def observation_string(view: View) -> str:
    """The present position as the seat sees it, without the log."""
    return "\n".join(_public_text(_check_view(view), False))
