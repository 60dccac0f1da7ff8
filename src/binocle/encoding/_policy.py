"""A policy (a function from an observation and a mask to an id) played as a bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from binocle.actions import Action
from binocle.core import View
from binocle.encoding._actions import _space, _ViewIds
from binocle.encoding._recall import tensor_scale
from binocle.encoding._tensors import information_state_tensor, observation_tensor
from binocle.errors import InvalidArgumentError, excerpt

#: The observations a policy can be given.
_KINDS = ("information_state", "observation")


class PolicyBot:
    """A trained policy played as a bot: what :func:`binocle.arena`,
    :mod:`binocle.ratings` and ``binocle serve`` take.

    ``policy(observation, mask)`` returns an action id.  ``observation`` is the
    seat's tensor, ``"information_state"`` (the default) or ``"observation"``
    (:func:`information_state_tensor`, :func:`observation_tensor` of the view),
    divided by :func:`tensor_scale` when ``normalised``; ``mask`` holds one
    entry per id, 1 where legal (:func:`legal_mask`).  Both are NumPy arrays
    (float32 and int8, as the PettingZoo environment gives them) when NumPy is
    installed, else lists.  An id that is not legal raises
    :class:`~binocle.IllegalActionError`.

    The arena sends bots to other processes pickled: there the policy must be
    a module-level function or a picklable object.  For ``binocle serve`` and
    spec text, name a subclass that loads its policy::

        class MyBot(PolicyBot):
            def __init__(self, seed=None):
                super().__init__(load_my_policy(), name="mine")
    """

    def __init__(
        self,
        policy: Callable[[Any, Any], Any],
        *,
        observation: str = "information_state",
        normalised: bool = False,
        name: str | None = None,
    ) -> None:
        if not callable(policy):
            raise InvalidArgumentError(
                f"policy is a function of (observation, mask), not {excerpt(policy)}"
            )
        if observation not in _KINDS:
            raise InvalidArgumentError(
                f"observation is one of {', '.join(_KINDS)}, not {excerpt(observation)}"
            )
        if not isinstance(normalised, bool):
            raise InvalidArgumentError(f"normalised is True or False, not {excerpt(normalised)}")
        if name is not None and not isinstance(name, str):
            raise InvalidArgumentError(f"name is text or None, not {excerpt(name)}")
        self.policy = policy
        self.observation = observation
        self.normalised = normalised
        if name is not None:
            self.name = name

    def arrays(self, view: View) -> tuple[Any, Any]:
        """The observation and the mask ``policy`` is given for ``view``."""
        if not isinstance(view, View):
            raise InvalidArgumentError(f"not a view: {type(view).__name__}")
        full = self.observation == "information_state"
        tensor = information_state_tensor(view) if full else observation_tensor(view)
        size = _space(view.profile).size
        mask = [0] * size
        for i in _ViewIds.of(view).legal_ids():
            mask[i] = 1
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - numpy comes with every learning extra
            if self.normalised:
                scale = tensor_scale(view.profile, self.observation)
                tensor = [x / d for x, d in zip(tensor, scale, strict=True)]
            return tensor, mask
        obs = np.asarray(tensor, np.float32)
        if self.normalised:
            obs /= np.asarray(tensor_scale(view.profile, self.observation), np.float32)
        return obs, np.asarray(mask, np.int8)

    def choose(self, view: View) -> Action:
        """The action the policy's id stands for."""
        obs, mask = self.arrays(view)
        chosen = self.policy(obs, mask)
        try:
            action_id = int(chosen)
        except (TypeError, ValueError, OverflowError):
            raise InvalidArgumentError(
                f"the policy gave {excerpt(chosen)}, not an action id"
            ) from None
        return _ViewIds.of(view).action(action_id)
