"""Determinization: a full state sampled among those consistent with a view (layer 4).

:func:`determinize` answers "what could the others hold?": given what one seat
may know (:func:`binocle.observe`) and a random generator, it returns a
complete :class:`~binocle.core.GameState` that agrees with everything that seat
knows and that the rules reveal, chosen at random among such states.  It is
the basis of search bots (:class:`binocle.bots.ISMCTSBot`) and of queries such
as "how often does the bidder hold the other Ace of trumps?".

What the sampled state keeps (its ``observe(state, seat)`` equals the view):

- the seat's own cards, every card played and who played it, the widow once
  shown, the turn-up, dix shown, melds shown (cards that went back into a hand
  stay with that player), the stock's size, the seat's own discards and draws;
- what the rules reveal: a player who did not follow suit holds none of it; a
  player who did not beat, trump or overtrump when the trick rule made him
  holds no card that could have (cutthroat, three-handed, and the classic
  game once the stock is exhausted); a cutthroat bidder's discards are known
  only to him.

The sampled state is a real game: its history (every earlier hand included,
each with a deal consistent with what was seen of it) replays under the rules,
and :func:`binocle.dumps` / :func:`binocle.loads` accept it.

**The distribution.**  The hidden cards' present whereabouts (each other
seat's hidden cards, the bidder's face-down discards, the widow before it is
shown, the stock and its order) are drawn uniformly among all placements
consistent with the view, counting the two copies of a card as two cards, as a
shuffle does.  The sampler proposes placements uniformly among those that
respect card counts, voids, cards known to be held and cards shown, and keeps
a proposal only if the whole history replays to exactly the view; rejection
from a uniform proposal keeps the result uniform.  In the cutthroat and
three-handed games this is the uniform distribution over consistent deals.
One exception: a cutthroat meld shown is the whole meld of its hand, and
where the melds shown pin the hidden hands so tightly that 200 uniform
proposals all fail, the sampler mends proposals by exchanging hidden cards
until every meld fits (a hill climb): the sample is then consistent but no
longer exactly uniform.

After a wrong claim in the three-handed game, the two players left go on with
the classic game (see three-handed rules, The two-handed game after a retirement).
The three-handed hands are then sampled as earlier hands, and the two-handed
game as the classic game is, seen from the seat's place in it.  The retired
player takes no part in it and knows none of its cards: his view of it is
refused (:class:`~binocle.errors.InvalidArgumentError`).

In the classic game, which cards the opponent drew from the stock *and has
since played* is filled in by one fixed rule (earliest draw first); this
never changes what he holds or what the stock holds, but deals are then not
weighted by how many past orders of the stock lead to the same present.  The
hidden cards of earlier hands (which no longer bear on the play) are filled
in the same way, from what anyone saw of them.  No inference is drawn from a
player's choices (a bid, a lead): only from the rules.
"""

from __future__ import annotations

from binocle.determinize._proposal import REPAIR_STEPS as REPAIR_STEPS
from binocle.determinize._sampler import EXACT_ATTEMPTS as EXACT_ATTEMPTS
from binocle.determinize._sampler import MAX_ATTEMPTS as MAX_ATTEMPTS
from binocle.determinize._sampler import Determinizer, determinize
from binocle.notation import set_sampler

__all__ = ["Determinizer", "determinize"]

# The public names are this package's: their pages, reprs and pickles name binocle.determinize.
for _name in __all__:
    globals()[_name].__module__ = __name__
del _name

set_sampler(determinize)
