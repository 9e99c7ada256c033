"""Train a tiny euchre policy with NumPy alone, and plot its learning curve.

The learner sits in a random seat of ``euchre.env.single_agent`` with a medium computer
partner against two medium computer opponents, one hand per episode, rewarded the hand's
points (its side's minus theirs). The policy is a one-hidden-layer network over the
416-value observation, with a masked softmax over the 120 actions; it learns by REINFORCE
with a learned linear baseline and Adam, all written out below in NumPy.

Every ``--eval-every`` hands the greedy policy (its most likely legal action) plays the same
``--eval-hands`` evaluation deals, seats and computer players; so do a random player (any
legal action) and our medium computer player in the learner's seat, once, for comparison.
The curve goes to ``--out`` (a PNG), and the figures are printed.

    pip install -e '.[rl]'
    python examples/train_env_policy.py          # about 2.5 minutes of CPU (docs/env.md)
    python examples/train_env_policy.py --hands 20000 --eval-hands 300   # a quick look
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from euchre.bots import make
from euchre.env import NUM_ACTIONS, SIZE, SingleAgentEnv, action_index, single_agent

Array = npt.NDArray[np.float64]
Chooser = Callable[[SingleAgentEnv, npt.NDArray[np.int8], npt.NDArray[np.int8]], int]


class Policy:
    """A masked-softmax policy: observation -> ReLU hidden layer -> 120 logits, plus a
    linear value of the observation as the baseline."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.params: dict[str, Array] = {
            "w1": rng.normal(0, 1 / np.sqrt(SIZE), (SIZE, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (hidden, NUM_ACTIONS)),
            "b2": np.zeros(NUM_ACTIONS),
            "wv": np.zeros(SIZE),
            "bv": np.zeros(1),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0

    def logits(self, x: Array, mask: Array) -> tuple[Array, Array]:
        """Hidden activations and masked logits for a batch of observations."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        z = h @ p["w2"] + p["b2"]
        return h, np.where(mask > 0, z, -1e9)

    def probabilities(self, x: Array, mask: Array) -> tuple[Array, Array]:
        """Hidden activations and action probabilities."""
        h, z = self.logits(x, mask)
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return h, e / e.sum(axis=-1, keepdims=True)

    def update(self, x: Array, mask: Array, actions: npt.NDArray[np.int64], returns: Array,
               lr: float, entropy: float) -> None:
        """One REINFORCE step with the value baseline, and one regression step of the value."""
        p = self.params
        n = len(actions)
        h, probs = self.probabilities(x, mask)
        value = x @ p["wv"] + p["bv"][0]
        advantage = returns - value
        advantage = advantage / (advantage.std() + 1e-6)
        # d(-adv * log p(a)) / d logits = adv * (p - onehot(a)); entropy bonus gradient too.
        grad_z = probs.copy()
        grad_z[np.arange(n), actions] -= 1.0
        grad_z *= advantage[:, None]
        logp = np.log(probs + 1e-12)
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        grad_z += entropy * probs * (logp + ent)
        grad_z /= n
        grads = {
            "w2": h.T @ grad_z,
            "b2": grad_z.sum(axis=0),
        }
        grad_h = (grad_z @ p["w2"].T) * (h > 0)
        grads["w1"] = x.T @ grad_h
        grads["b1"] = grad_h.sum(axis=0)
        grad_v = 2 * (value - returns) / n
        grads["wv"] = x.T @ grad_v
        grads["bv"] = np.array([grad_v.sum()])
        self._adam(grads, lr)

    def _adam(self, grads: dict[str, Array], lr: float) -> None:
        self.steps += 1
        for k, g in grads.items():
            m, v = self.moments[k]
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            m_hat = m / (1 - 0.9**self.steps)
            v_hat = v / (1 - 0.999**self.steps)
            self.params[k] -= lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def evaluate(env: SingleAgentEnv, choose: Chooser, seeds: list[int]) -> float:
    """Average points per hand of ``choose`` in the learner's seat over fixed deals."""
    total = 0.0
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(choose(env, obs, info["action_mask"]))
            total += reward
    return total / len(seeds)


def main() -> None:
    """Train, evaluate along the way, print the figures and draw the curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40_000, help="training hands")
    parser.add_argument("--batch", type=int, default=100, help="hands per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=5e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=5_000)
    parser.add_argument("--eval-hands", type=int, default=1_000)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="learning-curve.png")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    policy = Policy(args.hidden, rng)
    train_env = single_agent(args.preset, seat=None, partner="medium", opponents="medium")
    eval_env = single_agent(args.preset, seat=None, partner="medium", opponents="medium")
    eval_seeds = [10_000_000 + i for i in range(args.eval_hands)]
    medium = make("medium", seed=args.seed)
    pick = random.Random(args.seed)

    def greedy(_env: SingleAgentEnv, obs: npt.NDArray[np.int8],
               mask: npt.NDArray[np.int8]) -> int:
        _, z = policy.logits(obs[None, :].astype(np.float64), mask[None, :])
        return int(z[0].argmax())

    def random_player(_env: SingleAgentEnv, _obs: npt.NDArray[np.int8],
                      mask: npt.NDArray[np.int8]) -> int:
        return int(pick.choice(np.flatnonzero(mask)))

    def medium_player(env: SingleAgentEnv, _obs: npt.NDArray[np.int8],
                      _mask: npt.NDArray[np.int8]) -> int:
        return action_index(medium.choose(env.view()))

    started = time.perf_counter()
    baseline_random = evaluate(eval_env, random_player, eval_seeds)
    baseline_medium = evaluate(eval_env, medium_player, eval_seeds)
    print(f"over {args.eval_hands} evaluation hands: random {baseline_random:+.3f}, "
          f"medium {baseline_medium:+.3f} points per hand")
    curve: list[tuple[int, float]] = [(0, evaluate(eval_env, greedy, eval_seeds))]
    print(f"hands {0:7d}  policy {curve[-1][1]:+.3f}")
    train_seed = args.seed * 1_000_003
    hands = 0
    while hands < args.hands:
        xs: list[npt.NDArray[np.int8]] = []
        masks: list[npt.NDArray[np.int8]] = []
        acts: list[int] = []
        rets: list[float] = []
        for _ in range(args.batch):
            obs, info = train_env.reset(seed=train_seed + hands)
            hands += 1
            start = len(acts)
            total = 0.0
            done = False
            while not done:
                mask = info["action_mask"]
                _, probs = policy.probabilities(obs[None, :].astype(np.float64), mask[None, :])
                action = int(rng.choice(NUM_ACTIONS, p=probs[0]))
                xs.append(obs)
                masks.append(mask)
                acts.append(action)
                obs, reward, done, _, info = train_env.step(action)
                total += reward
            rets.extend([total] * (len(acts) - start))
        policy.update(np.array(xs, dtype=np.float64), np.array(masks), np.array(acts),
                      np.array(rets), args.lr, args.entropy)
        if hands % args.eval_every < args.batch or hands >= args.hands:
            curve.append((hands, evaluate(eval_env, greedy, eval_seeds)))
            print(f"hands {hands:7d}  policy {curve[-1][1]:+.3f}  "
                  f"({time.perf_counter() - started:.0f} s)")
    print(f"done in {time.perf_counter() - started:.0f} s: policy {curve[-1][1]:+.3f}, "
          f"random {baseline_random:+.3f}, medium {baseline_medium:+.3f} points per hand")
    plot(curve, baseline_random, baseline_medium, args)


def plot(curve: list[tuple[int, float]], random_points: float, medium_points: float,
         args: argparse.Namespace) -> None:
    """Draw the learning curve against the two baselines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.plot([h for h, _ in curve], [p for _, p in curve], marker="o", label="tiny policy (greedy)")
    ax.axhline(medium_points, color="tab:green", linestyle="--", label="medium computer player")
    ax.axhline(random_points, color="tab:red", linestyle=":", label="random legal actions")
    ax.set_xlabel("training hands")
    ax.set_ylabel(f"points per hand ({args.eval_hands} fixed hands)")
    ax.set_title("Learner with a medium partner against two medium opponents", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"curve written to {args.out}")


if __name__ == "__main__":
    main()
