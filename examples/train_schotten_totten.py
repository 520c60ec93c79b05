"""Train a small policy on Schotten Totten against the random bot and watch it win more.

numpy only: a linear softmax policy over the observation tensor of seat 0, masked by the
legal actions, trained by REINFORCE with a running-mean baseline on
``spielwerk.VectorEnv("schotten_totten", n_envs, seed, opponents="random")``. Every
``--eval-every`` seconds the policy plays a fixed set of seeded games against
``random``; the win rates are printed as a table and, with ``--plot``, saved as a PNG.

    python examples/train_schotten_totten.py --seconds 120 --plot win_rate.png
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import spielwerk

GAME = "schotten_totten"

FloatArray = npt.NDArray[np.float32]


@dataclass
class Policy:
    """Logits = observation @ weights + bias; illegal actions get -inf before the softmax."""

    weights: FloatArray
    bias: FloatArray

    @classmethod
    def zeros(cls, obs_len: int, n_actions: int) -> Policy:
        return cls(np.zeros((obs_len, n_actions), np.float32), np.zeros(n_actions, np.float32))

    def probabilities(self, obs: FloatArray, mask: npt.NDArray[np.uint8]) -> FloatArray:
        logits: FloatArray = np.where(mask != 0, obs @ self.weights + self.bias, np.float32(-np.inf))
        expd: FloatArray = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs: FloatArray = (expd / expd.sum(axis=1, keepdims=True)).astype(np.float32)
        return probs

    def sample(
        self, obs: FloatArray, mask: npt.NDArray[np.uint8], rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """One action per row drawn from the policy, and the probabilities it was drawn from."""
        probs = self.probabilities(obs, mask)
        cumulative = probs.cumsum(axis=1)
        draws = rng.random((len(probs), 1)) * cumulative[:, -1:]
        actions = (cumulative < draws).sum(axis=1)
        # Rounding can push a draw past the last legal action: fall back to the likeliest one.
        rows = np.arange(len(probs))
        actions = np.where(mask[rows, actions] != 0, actions, probs.argmax(axis=1))
        return actions.astype(np.int64), probs


@dataclass
class Evaluation:
    seconds: float
    episodes: int
    win_rate: float


def win_rate(policy: Policy, n_games: int, seed: int) -> float:
    """The policy's win rate over the first game of each of ``n_games`` seeded envs.

    The same deals, the same bot moves (the envs' episode seeds) and the same random draws
    for the policy's own sampling every call, so two evaluations differ only by the policy.
    """
    rng = np.random.default_rng(seed)
    env = spielwerk.VectorEnv(GAME, n_games, seed=seed, opponents="random")
    obs, infos = env.reset()
    result = np.zeros(n_games, np.float32)
    finished = np.zeros(n_games, np.bool_)
    while not finished.all():
        actions, _probs = policy.sample(obs, infos["action_mask"], rng)
        obs, rewards, terminations, _truncations, infos = env.step(actions)
        newly = terminations & ~finished
        result[newly] = rewards[newly]
        finished |= terminations
    return float((result > 0).mean())


@dataclass
class Trainer:
    policy: Policy
    n_envs: int
    seed: int
    learning_rate: float = 1.0
    batch_episodes: int = 64
    episodes: int = 0
    baseline: float = 0.0
    # Per env, the current game's observations and (one-hot(action) - probabilities) rows.
    _obs: list[list[FloatArray]] = field(default_factory=list)
    _score: list[list[FloatArray]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.env = spielwerk.VectorEnv(GAME, self.n_envs, seed=self.seed, opponents="random")
        self.rng = np.random.default_rng(self.seed)
        self._obs = [[] for _ in range(self.n_envs)]
        self._score = [[] for _ in range(self.n_envs)]
        self._grad_w = np.zeros_like(self.policy.weights)
        self._grad_b = np.zeros_like(self.policy.bias)
        self._batch = 0
        self.obs, self.infos = self.env.reset()

    def step(self) -> None:
        """One step of every env: sample actions, remember them, learn from finished games."""
        actions, probs = self.policy.sample(self.obs, self.infos["action_mask"], self.rng)
        score = -probs
        score[np.arange(self.n_envs), actions] += 1.0
        for i in range(self.n_envs):
            # The env reuses its buffers: keep copies.
            self._obs[i].append(self.obs[i].copy())
            self._score[i].append(score[i])
        self.obs, rewards, terminations, _truncations, self.infos = self.env.step(actions)
        for finished in np.flatnonzero(terminations).tolist():
            self._finish(finished, float(rewards[finished]))

    def _finish(self, i: int, episode_return: float) -> None:
        advantage = episode_return - self.baseline
        obs = np.stack(self._obs[i])
        score = np.stack(self._score[i]) * np.float32(advantage)
        self._grad_w += obs.T @ score
        self._grad_b += score.sum(axis=0)
        self._obs[i].clear()
        self._score[i].clear()
        self.episodes += 1
        self.baseline += 0.01 * (episode_return - self.baseline)
        self._batch += 1
        if self._batch == self.batch_episodes:
            self.policy.weights += self.learning_rate / self._batch * self._grad_w
            self.policy.bias += self.learning_rate / self._batch * self._grad_b
            self._grad_w[:] = 0.0
            self._grad_b[:] = 0.0
            self._batch = 0


def train(
    seconds: float,
    n_envs: int = 128,
    seed: int = 0,
    eval_games: int = 500,
    eval_every: float = 10.0,
    eval_seed: int = 1_000_000,
    learning_rate: float = 1.0,
    quiet: bool = False,
) -> tuple[Policy, list[Evaluation]]:
    """Train for about ``seconds`` of wall time; evaluations at the start, every ``eval_every``
    seconds of training (evaluation time not counted) and at the end."""
    game = spielwerk.load_game(GAME)
    policy = Policy.zeros(game.observation_tensor_shape()[0], game.num_distinct_actions())
    trainer = Trainer(policy, n_envs, seed, learning_rate=learning_rate)
    evaluations: list[Evaluation] = []

    def evaluate(trained: float) -> None:
        evaluation = Evaluation(trained, trainer.episodes, win_rate(policy, eval_games, eval_seed))
        evaluations.append(evaluation)
        if not quiet:
            print(
                f"{evaluation.seconds:8.1f} {evaluation.episodes:10d} {evaluation.win_rate:9.3f}", flush=True
            )

    if not quiet:
        print(f"{'seconds':>8} {'episodes':>10} {'win rate':>9}   (sampling vs random, {eval_games} games)")
    evaluate(0.0)
    trained = 0.0
    next_eval = eval_every
    while trained < seconds:
        start = time.perf_counter()
        for _ in range(20):
            trainer.step()
        trained += time.perf_counter() - start
        if trained >= next_eval and trained < seconds:
            evaluate(trained)
            next_eval += eval_every
    evaluate(trained)
    return policy, evaluations


def save_plot(evaluations: list[Evaluation], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib: pip install 'matplotlib>=3.8,<4'")
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot([e.seconds for e in evaluations], [e.win_rate for e in evaluations], marker="o")
    axes.set_xlabel("training seconds")
    axes.set_ylabel("win rate against random")
    axes.set_ylim(0.0, 1.0)
    axes.set_title("Schotten Totten: linear softmax policy, REINFORCE")
    axes.grid(True)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=120.0, help="training time (default 120)")
    parser.add_argument("--n-envs", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument(
        "--eval-every", type=float, default=10.0, help="seconds of training between evaluations"
    )
    parser.add_argument("--learning-rate", type=float, default=1.0)
    parser.add_argument("--plot", metavar="PATH", help="save the win rate curve as a PNG (needs matplotlib)")
    args = parser.parse_args(argv)
    _policy, evaluations = train(
        args.seconds,
        n_envs=args.n_envs,
        seed=args.seed,
        eval_games=args.eval_games,
        eval_every=args.eval_every,
        learning_rate=args.learning_rate,
    )
    if args.plot:
        save_plot(evaluations, args.plot)
        print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
