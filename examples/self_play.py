"""Self-play: one policy holds every seat of many games at once, and learns from them all.

Needs the ``pettingzoo`` extra (numpy, and librt for the vectorized environment):
a linear softmax policy over the legal ids, trained by REINFORCE on
the vectorized environment (:class:`binocle.vector.VectorEnv`), where every
decision of every seat is the same policy's.  A seat's result in an episode is
its score change less the mean of the others'; each decision learns from its
own seat's result.  Every few updates the policy plays seat 0 against random
bots (a fixed yardstick) and the result is printed; at the end the margin over
the random bot in the same seat, with its 95% interval.

    python examples/self_play.py [--profile classic] [--iterations 150]
    python examples/self_play.py --smoke     # a few seconds: it runs, no claim
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numpy.typing import NDArray

from binocle.encoding import action_labels
from binocle.vector import VectorEnv

Floats = NDArray[np.float64]
Bools = NDArray[np.bool_]
Ints = NDArray[np.int64]


def features(obs: NDArray[np.float32]) -> Floats:
    """The observation squashed (points run to thousands, flags are 0 or 1)."""
    x = obs.astype(np.float64)
    return np.sign(x) * np.log1p(np.abs(x))


class Policy:
    """A linear softmax policy over the legal ids, trained with Adam."""

    def __init__(self, size: int, actions: int, lr: float = 0.01) -> None:
        self.w = np.zeros((size + 1, actions))
        self.m = np.zeros_like(self.w)
        self.v = np.zeros_like(self.w)
        self.t = 0
        self.lr = lr

    def probs(self, x: Floats, mask: Bools) -> Floats:
        logits = np.where(mask, x @ self.w[:-1] + self.w[-1], -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        out: Floats = p / p.sum(axis=1, keepdims=True)
        return out

    def sample(self, x: Floats, mask: Bools, rng: np.random.Generator) -> Ints:
        # Gumbel-max: the argmax of log-probabilities plus Gumbel noise is a sample.
        noisy = np.log(self.probs(x, mask) + 1e-300) + rng.gumbel(size=mask.shape)
        ids: Ints = np.where(mask, noisy, -np.inf).argmax(axis=1)
        return ids

    def update(self, x: Floats, mask: Bools, actions: Ints, advantage: Floats) -> None:
        """One Adam step up the policy gradient of the batch."""
        p = self.probs(x, mask)
        p[np.arange(len(actions)), actions] -= 1.0  # d(-log p[a]) / d logits
        g = p * advantage[:, None] / len(actions)
        grad = np.vstack([x.T @ g, g.sum(axis=0)])
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        step = (self.m / (1 - 0.9**self.t)) / (np.sqrt(self.v / (1 - 0.999**self.t)) + 1e-8)
        self.w -= self.lr * step


def relative(returns: NDArray[np.float32]) -> Floats:
    """Each seat's score change less the mean of the others', per game and seat."""
    r = returns.astype(np.float64)
    n = r.shape[1]
    out: Floats = (r * n - r.sum(axis=1, keepdims=True)) / (n - 1)
    return out


def random_ids(mask: Bools, calm: Bools, rng: np.random.Generator) -> Ints:
    """The random bot: uniform among the legal ids, claims only when nothing else is legal."""
    allowed = mask & calm
    allowed = np.where(allowed.any(axis=1, keepdims=True), allowed, mask)
    ids: Ints = (rng.random(mask.shape) * allowed).argmax(axis=1)
    return ids


def self_play(
    env: VectorEnv, policy: Policy, iterations: int, steps: int, seed: int, check: int
) -> None:
    """Every seat plays the policy; each update learns from the episodes finished;
    every fifth of the way, ``check`` episodes against random bots show the progress."""
    rng = np.random.default_rng(seed)
    obs, mask = env.reset(seed=seed)
    n = env.num_envs
    episode = np.arange(n)
    next_episode = n
    pending: list[tuple[Floats, Bools, Ints, Ints, Ints]] = []
    results: dict[tuple[int, int], float] = {}
    for it in range(iterations):
        for _ in range(steps):
            x = features(obs)
            actions = policy.sample(x, mask, rng)
            pending.append((x, mask.copy(), actions, episode.copy(), env.current_player.copy()))
            obs, mask, _, dones = env.step(actions)
            ended = np.flatnonzero(dones)
            rel = relative(env.final_returns[ended])
            for row, i in enumerate(ended):
                for seat in range(env.num_players):
                    results[(int(episode[i]), seat)] = float(rel[row, seat])
            episode[ended] = np.arange(next_episode, next_episode + len(ended))
            next_episode += len(ended)
        x = np.concatenate([p[0] for p in pending])
        m = np.concatenate([p[1] for p in pending])
        a = np.concatenate([p[2] for p in pending])
        e = np.concatenate([p[3] for p in pending])
        s = np.concatenate([p[4] for p in pending])
        keys = list(zip(e.tolist(), s.tolist(), strict=True))
        done = np.array([k in results for k in keys], dtype=bool)
        if done.any():
            r = np.array([results[k] for k, d in zip(keys, done, strict=True) if d])
            policy.update(x[done], m[done], a[done], (r - r.mean()) / (r.std() + 1e-6))
        for k in {k for k, d in zip(keys, done, strict=True) if d}:
            results.pop(k, None)
        pending = [(x[~done], m[~done], a[~done], e[~done], s[~done])]
        if (it + 1) % max(1, iterations // 5) == 0:
            mean, se = against_random(env.profile, policy, check, seed + it, env.num_envs)
            print(
                f"  update {it + 1}/{iterations}: seat 0 against random bots {mean:+.1f} ± {1.96 * se:.1f}"
            )


def against_random(
    profile: object, policy: Policy | None, episodes: int, seed: int, envs: int
) -> tuple[float, float]:
    """Seat 0's mean result (and standard error) against random bots over ``episodes``
    episodes; ``policy`` None: the random bot in seat 0 too."""
    env = VectorEnv(profile, num_envs=envs)
    rng = np.random.default_rng(seed)
    calm = np.array([label not in ("claim", "concede") for label in action_labels(env.profile)])
    obs, mask = env.reset(seed=seed)
    found: list[float] = []
    while len(found) < episodes:
        actions = random_ids(mask, calm, rng)
        mine = np.flatnonzero(env.current_player == 0)
        if policy is not None and len(mine):
            actions[mine] = policy.sample(features(obs[mine]), mask[mine], rng)
        obs, mask, _, dones = env.step(actions)
        found.extend(relative(env.final_returns[dones])[:, 0].tolist())
    r = np.array(found[:episodes])
    return float(r.mean()), float(r.std(ddof=1) / np.sqrt(len(r)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--steps", type=int, default=32, help="steps of every game per update")
    parser.add_argument("--episodes", type=int, default=3000, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a few seconds' run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.envs, args.iterations, args.steps, args.episodes = 16, 5, 8, 20
    env = VectorEnv(args.profile, num_envs=args.envs)
    policy = Policy(env.observation_size, env.num_actions)
    start = time.process_time()
    print(f"self-play on {args.profile}: {args.envs} games, every seat one policy")
    self_play(env, policy, args.iterations, args.steps, args.seed, min(400, args.episodes))
    print(f"trained in {time.process_time() - start:.0f} s of CPU")
    seed = args.seed + 1000
    learned, learned_se = against_random(args.profile, policy, args.episodes, seed, args.envs)
    rand, rand_se = against_random(args.profile, None, args.episodes, seed, args.envs)
    margin = learned - rand
    half = 1.96 * float(np.hypot(learned_se, rand_se))
    print(f"self-play policy in seat 0: {learned:+.1f} ± {1.96 * learned_se:.1f} points a hand")
    print(f"random bot in seat 0:       {rand:+.1f} ± {1.96 * rand_se:.1f} points a hand")
    print(
        f"margin: {margin:+.1f} [{margin - half:+.1f}, {margin + half:+.1f}] over {args.episodes} episodes each"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
