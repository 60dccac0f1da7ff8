"""Learn to play against random bots with REINFORCE on the vectorized environment.

Needs the ``pettingzoo`` extra (numpy, and librt for the vectorized environment):
a linear softmax policy over the legal ids, trained by the policy
gradient (REINFORCE with a batch baseline) in seat 0 of many games at once
(:class:`binocle.vector.VectorEnv`); the other seats play as the random bot
does (uniformly among the legal ids, claims and concessions only when nothing
else is legal).  The dealer moves on every episode, so the learner plays every
position at the table.  A seat's result in an episode is its score change less
the mean of the others' (how far it gained on the table).  At the end the
learned policy and the random policy each play the same number of fresh
episodes in seat 0, and the margin is printed with its 95% interval.

    python examples/reinforce_vector.py [--profile cutthroat] [--iterations 150]
    python examples/reinforce_vector.py --smoke     # a few seconds: it runs, no claim
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numpy.typing import NDArray

from binocle.encoding import action_labels
from binocle.vector import VectorEnv

LEARNER = 0
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
        logits = x @ self.w[:-1] + self.w[-1]
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        out: Floats = p / p.sum(axis=1, keepdims=True)
        return out

    def sample(self, x: Floats, mask: Bools, rng: np.random.Generator) -> Ints:
        p = self.probs(x, mask)
        u = rng.random((len(p), 1))
        picked: Ints = (p.cumsum(axis=1) < u).sum(axis=1)
        # Rounding may step past the last legal id: fall back to the likeliest one.
        bad = ~mask[np.arange(len(p)), np.minimum(picked, mask.shape[1] - 1)]
        picked = np.minimum(picked, mask.shape[1] - 1)
        picked[bad] = p[bad].argmax(axis=1)
        return picked

    def update(self, x: Floats, mask: Bools, actions: Ints, advantage: Floats) -> None:
        """One Adam step up the policy gradient of the batch."""
        p = self.probs(x, mask)
        p[np.arange(len(actions)), actions] -= 1.0  # d(-log p[a]) / d logits
        g_logits = p * advantage[:, None] / len(actions)
        grad = np.vstack([x.T @ g_logits, g_logits.sum(axis=0)])
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        self.w -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def random_ids(mask: Bools, calm: Bools, rng: np.random.Generator) -> Ints:
    """The random bot's choice in each game: uniform among the legal ids, claims and
    concessions only where nothing else is legal."""
    allowed = mask & calm
    allowed = np.where(allowed.any(axis=1, keepdims=True), allowed, mask)
    ids: Ints = (rng.random(mask.shape) * allowed).argmax(axis=1)
    return ids


def relative(returns: NDArray[np.float32]) -> Floats:
    """The learner's score change less the mean of the others', per game."""
    r = returns.astype(np.float64)
    others = np.delete(r, LEARNER, axis=1).mean(axis=1)
    out: Floats = r[:, LEARNER] - others
    return out


def train(env: VectorEnv, policy: Policy, iterations: int, steps: int, seed: int) -> None:
    """REINFORCE: play ``steps`` steps of every game, learn from the finished episodes."""
    rng = np.random.default_rng(seed)
    calm = _calm(env)
    obs, mask = env.reset(seed=seed)
    episode = np.arange(env.num_envs)  # each game's running episode number
    next_episode = env.num_envs
    pending: list[tuple[Floats, Bools, Ints, Ints]] = []
    results: dict[int, float] = {}
    for it in range(iterations):
        for _ in range(steps):
            actions = random_ids(mask, calm, rng)
            mine = np.flatnonzero(env.current_player == LEARNER)
            if len(mine):
                x = features(obs[mine])
                m = mask[mine].copy()
                actions[mine] = policy.sample(x, m, rng)
                pending.append((x, m, actions[mine].copy(), episode[mine].copy()))
            obs, mask, _, dones = env.step(actions)
            ended = np.flatnonzero(dones)
            for i, r in zip(ended, relative(env.final_returns[ended]), strict=True):
                results[int(episode[i])] = float(r)
            episode[ended] = np.arange(next_episode, next_episode + len(ended))
            next_episode += len(ended)
        x = np.concatenate([p[0] for p in pending])
        m = np.concatenate([p[1] for p in pending])
        a = np.concatenate([p[2] for p in pending])
        e = np.concatenate([p[3] for p in pending])
        done = np.array([int(k) in results for k in e], dtype=bool)
        if done.any():
            r = np.array([results[int(k)] for k in e[done]])
            policy.update(x[done], m[done], a[done], (r - r.mean()) / (r.std() + 1e-6))
        pending = [(x[~done], m[~done], a[~done], e[~done])]
        for k in {int(k) for k in e[done]}:
            results.pop(k, None)
        if (it + 1) % max(1, iterations // 10) == 0:
            print(f"  iteration {it + 1}/{iterations}")


def _calm(env: VectorEnv) -> Bools:
    labels = action_labels(env.profile)
    return np.array([label not in ("claim", "concede") for label in labels])


def evaluate(
    env: VectorEnv, policy: Policy | None, episodes: int, seed: int
) -> tuple[float, float, int]:
    """Mean result of seat 0 over ``episodes`` finished episodes, its standard error, and
    the hands played to their last trick; ``policy`` None: the random bot in seat 0."""
    rng = np.random.default_rng(seed)
    calm = _calm(env)
    obs, mask = env.reset(seed=seed)
    played_before = env.hands_played_out
    found: list[float] = []
    while len(found) < episodes:
        actions = random_ids(mask, calm, rng)
        if policy is not None:
            mine = np.flatnonzero(env.current_player == LEARNER)
            if len(mine):
                actions[mine] = policy.sample(features(obs[mine]), mask[mine], rng)
        obs, mask, _, dones = env.step(actions)
        found.extend(relative(env.final_returns[dones]).tolist())
    r = np.array(found[:episodes])
    return (
        float(r.mean()),
        float(r.std(ddof=1) / np.sqrt(len(r))),
        env.hands_played_out - played_before,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="cutthroat")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--steps", type=int, default=48, help="steps of every game per update")
    parser.add_argument("--episodes", type=int, default=3000, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="a few seconds' run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.envs, args.iterations, args.steps, args.episodes = 16, 3, 8, 20
    env = VectorEnv(args.profile, num_envs=args.envs)
    policy = Policy(env.observation_size, env.num_actions)
    start = time.process_time()
    print(f"training on {args.profile}: {args.envs} games, {args.iterations} updates")
    train(env, policy, args.iterations, args.steps, args.seed)
    print(f"trained in {time.process_time() - start:.0f} s of CPU")
    learned, learned_se, played = evaluate(env, policy, args.episodes, args.seed + 1000)
    rand, rand_se, _ = evaluate(env, None, args.episodes, args.seed + 1000)
    margin = learned - rand
    half = 1.96 * float(np.hypot(learned_se, rand_se))
    print(f"learned policy in seat 0: {learned:+.1f} ± {1.96 * learned_se:.1f} points a hand")
    print(f"random bot in seat 0:     {rand:+.1f} ± {1.96 * rand_se:.1f} points a hand")
    print(
        f"margin: {margin:+.1f} [{margin - half:+.1f}, {margin + half:+.1f}] over {args.episodes} episodes each"
    )
    print(f"(hands played to their last trick by the learned policy's games: {played})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
