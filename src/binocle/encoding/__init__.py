"""Numbers for learning and search: actions as ids, views as tensors, deals as chance.

Everything a game-AI framework needs, in the core and with no dependency, so
that the OpenSpiel and PettingZoo adapters (and any training code) stay thin:

- **A fixed action space per profile** (and its options): :func:`num_distinct_actions`,
  :func:`action_id`, :func:`action_from_id`, :func:`legal_ids`, :func:`legal_mask`.
  An id means the same thing in every state: a bid id is always that bid, a
  card id always that card.  :func:`action_labels` lists them; the docs page
  "Binocle for AI research" prints the table of every profile.
- **Observations from a view alone**: :func:`information_state_string`,
  :func:`information_state_tensor`, :func:`observation_string` and
  :func:`observation_tensor` read nothing but :func:`binocle.observe`'s
  :class:`~binocle.View`, so they cannot show a card the seat may not see.
  :func:`tensor_layout` names the parts of each tensor.
- **Chance and episodes**: an :class:`Episode` deals card by card as chance
  outcomes (the classic stock's cards are drawn as chance when they are
  drawn), plays one hand or several, and keeps the returns.

>>> import binocle
>>> from binocle import encoding
>>> encoding.num_distinct_actions("cutthroat")
332
>>> s = binocle.new_game("cutthroat", seed=7)
>>> ids = encoding.legal_ids(s)
>>> ids[:3], encoding.action_from_id(s, ids[1])
((0, 1, 2), Action(kind=<Kind.BID: 'bid'>, card=None, number=250, suit=None, cards=(), name=None, source=None))
>>> encoding.action_id(s, "bid 260")
2
"""

from __future__ import annotations

from binocle.encoding._actions import (
    ActionSpace,
    action_from_id,
    action_id,
    action_labels,
    action_space,
    legal_ids,
    legal_mask,
    num_distinct_actions,
)
from binocle.encoding._bounds import max_decisions_per_hand, utility_bounds
from binocle.encoding._common import kinds
from binocle.encoding._episode import Episode
from binocle.encoding._policy import PolicyBot
from binocle.encoding._recall import (
    perfect_recall_string,
    perfect_recall_tensor,
    tensor_bounds,
    tensor_layout,
    tensor_scale,
)
from binocle.encoding._rewards import REWARDS, check_reward, episode_returns, reward_bounds
from binocle.encoding._strings import information_state_string, observation_string
from binocle.encoding._tensors import TensorLayout, information_state_tensor, observation_tensor

__all__ = [
    "ActionSpace",
    "Episode",
    "PolicyBot",
    "TensorLayout",
    "action_from_id",
    "action_id",
    "action_labels",
    "action_space",
    "information_state_string",
    "information_state_tensor",
    "kinds",
    "legal_ids",
    "legal_mask",
    "num_distinct_actions",
    "observation_string",
    "observation_tensor",
    "perfect_recall_string",
    "perfect_recall_tensor",
    "tensor_bounds",
    "tensor_layout",
    "tensor_scale",
]
__all__ += [
    "check_reward",
    "episode_returns",
    "max_decisions_per_hand",
    "reward_bounds",
    "utility_bounds",
]

# The public names are this package's: their pages, reprs and pickles name binocle.encoding.
for _name in __all__:
    globals()[_name].__module__ = __name__
del _name
__all__ += ["REWARDS"]
