"""Train a policy that beats the baseline bot, then play it as a bot.

Needs the ``sb3`` extra (Stable-Baselines3, sb3-contrib, PyTorch on the CPU):
sb3-contrib's masked PPO learns one seat of the classic game against the
baseline bot (never claiming: a claim ends the game at once), in many games at once (:class:`binocle.sb3.BinocleVecEnv`), from
the seat's normalised observation tensor, with the zero-sum reward
``"margin"`` (its score change less the other player's).  The dealer moves on
every episode, so the policy plays both positions.  The trained model is saved
to ``--out`` (a zip of PyTorch weights), then :class:`TrainedBot` loads it and
the arena plays it against the baseline bot over ``--deals`` duplicate deals
(each deal played with the seats swapped, so the cards' luck cancels).

    python examples/train_ppo.py                      # about 25 minutes of CPU
    python examples/train_ppo.py --evaluate classic_ppo.zip --deals 500
    python examples/train_ppo.py --smoke              # a minute: it runs, no claim

The trained bot plays anywhere a bot spec is read once this folder is on the
import path: ``binocle arena --bots "train_ppo:TrainedBot(path='classic_ppo.zip'),baseline"``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

import binocle
from binocle.encoding import PolicyBot, action_labels
from binocle.sb3 import BinocleVecEnv

PROFILE = "classic"
#: The ids the policy may choose: all but claims and concessions, which end the game at
#: once (a wrong claim loses it, with no score change an episode's reward would see).
CALM = np.array([not label.startswith(("claim", "concede")) for label in action_labels(PROFILE)])


def calm(masks: Any) -> Any:
    """The masks without claims and concessions, where another id is legal."""
    masks = np.asarray(masks, np.bool_)
    kept = masks & CALM
    stuck = ~kept.any(axis=-1, keepdims=True)
    return np.where(stuck, masks, kept)


class CalmGames(BinocleVecEnv):
    """The learner's games, its masks without claims and concessions (:func:`calm`)."""

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
        rows = super().env_method(method_name, *args, indices=indices, **kwargs)
        return list(calm(np.stack(rows))) if method_name == "action_masks" else rows


class TrainedBot(PolicyBot):
    """The trained policy as a bot: the model at ``path`` choosing its most likely legal id."""

    def __init__(self, seed: int | None = None, *, path: str = "classic_ppo.zip") -> None:
        torch.set_num_threads(1)
        model = MaskablePPO.load(path, device="cpu")

        def policy(observation: Any, mask: Any) -> int:
            action, _ = model.predict(observation, action_masks=calm(mask), deterministic=True)
            return int(action)

        super().__init__(policy, observation="observation", normalised=True, name="ppo")


def train(steps: int, envs: int, seed: int, out: Path) -> float:
    """Train for ``steps`` learner decisions; save the model; return the CPU seconds."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    started = time.process_time()
    games = CalmGames(
        PROFILE, num_envs=envs, opponents="baseline", reward="margin", normalised=True, seed=seed
    )
    venv = VecNormalize(VecMonitor(games), norm_obs=False, norm_reward=True, gamma=1.0)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=128,
        batch_size=1024,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    done = 0
    chunk = max(envs * 128, steps // 10)
    while done < steps:
        model.learn(min(chunk, steps - done), reset_num_timesteps=False)
        done = model.num_timesteps
        recent = [e["r"] for e in model.ep_info_buffer or ()]
        mean = float(np.mean(recent)) if recent else float("nan")
        print(
            f"{done:>9,} steps  {time.process_time() - started:7.0f} s CPU"
            f"  margin a hand against baseline (last {len(recent)}): {mean:+.1f}",
            flush=True,
        )
        model.save(out)
    return time.process_time() - started


def evaluate(path: Path, deals: int, seed: int) -> dict[str, Any]:
    """The trained bot against the baseline bot over ``deals`` duplicate deals."""
    report = binocle.arena(
        PROFILE, [TrainedBot(path=str(path)), "baseline"], deals=deals, seed=seed
    )
    out: dict[str, Any] = {}
    for bot in ("ppo", "baseline"):
        stats = report.get(bot)
        out[bot] = {
            "points a hand": round(stats.mean_points, 1),
            "points ci95": [round(x, 1) for x in stats.points_ci],
            "advantage": round(stats.advantage, 1),
            "advantage ci95": [round(x, 1) for x in stats.advantage_ci],
            "deals won": stats.deal_wins,
            "deal win rate": round(stats.deal_win_rate, 3),
            "deal win ci95": [round(x, 3) for x in stats.deal_win_ci],
        }
    out["deals"] = deals
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=1_200_000, help="learner decisions")
    parser.add_argument("--envs", type=int, default=32, help="games at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("classic_ppo.zip"))
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals to evaluate")
    parser.add_argument("--evaluate", type=Path, help="evaluate this model, do not train")
    parser.add_argument("--smoke", action="store_true", help="a short run: it runs, no claim")
    args = parser.parse_args(argv)
    if args.smoke:
        args.steps, args.envs, args.deals = 2048, 8, 2
    path = args.evaluate
    if path is None:
        seconds = train(args.steps, args.envs, args.seed, args.out)
        print(f"trained in {seconds:,.0f} s of CPU; saved to {args.out}")
        path = args.out
    result = evaluate(path, args.deals, seed=args.seed + 1000)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
