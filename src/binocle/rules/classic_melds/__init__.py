"""Classic Binocle melds: the three classes, announcements and the "plenty of time" optimum.

Layer 2, pure functions.  The classic rules, Announcements, give the
combinations and the four legality rules (fresh card, same class, other
classes, one score per announcement); the three-handed rules, Melds, ask for
the best total reachable by a sequence of such announcements with unlimited
tricks and nothing played.

Which physical copy of a card lies on the table matters, so the table
(:class:`MeldTable`) names each table card by a small-int *slot*.  The optimum
(:func:`best_meld`) works on card counts; see its docstring for the method.
"""

# The kinds' names by code, which the records, encodings and bots read.
from binocle.rules.classic_melds._announcements import KINDS as KINDS
from binocle.rules.classic_melds._announcements import (
    Announcement,
    Combination,
    MeldTable,
    TableMeld,
    announce,
    announcements_of,
    combinations_in,
    fresh_announcement,
    lay_down,
    legal_announcements,
    play_from_table,
    table_after,
    table_copies,
)
from binocle.rules.classic_melds._best import best_meld, best_meld_of, check_announcements

__all__ = [
    "Announcement",
    "Combination",
    "MeldTable",
    "TableMeld",
    "announce",
    "announcements_of",
    "best_meld",
    "best_meld_of",
    "check_announcements",
    "combinations_in",
    "fresh_announcement",
    "lay_down",
    "legal_announcements",
    "play_from_table",
    "table_after",
    "table_copies",
]
