"""pytest-benchmark: `spielwerk.VectorEnv` with 1,024 envs, every game, actions chosen
uniformly from the masks by a numpy step in the loop. Figures: benches/README.md.

Run: ``python -m pytest benches/test_bench_vector_env.py --benchmark-only``. One round is
``STEPS`` calls of ``step`` (each 1,024 env steps) with the numpy choice before each;
steps/s = 1,024 * STEPS / (time per round). In the test command these run once, untimed.

Three numpy choices, all exactly uniform among each env's legal actions: ``mask`` from
the ``action_mask`` array (packed into bits by numpy first, a pass over all 1,024 x
num_distinct_actions bytes; then as from the bits), ``bits`` from the packed masks ``action_mask_bits``
(``VectorEnv(..., action_mask=False, action_mask_bits=True)``: an eighth of the bytes),
``lists`` from ``legal_actions`` / ``legal_counts`` (``VectorEnv(..., legal_actions=True,
action_mask=False)``: one index per env, a few operations on 1,024 elements).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import spielwerk

GAMES = ["schotten_totten", "caravan", "the_game", "dog"]
N_ENVS = 1024
STEPS = 20


def uniform_legal_flat(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """As `uniform_legal`, the second formulation (until 2026-12-03, second session), one
    pass over the masks: every legal
    (row, action) in row-major order, and where each row's run of them starts found by
    a binary search instead of a second pass counting per row."""
    n, width = masks.shape
    flat = np.flatnonzero(masks.view(np.bool_))  # row * width + action, ascending
    bounds = np.searchsorted(flat, np.arange(n + 1) * width)
    counts = np.diff(bounds)
    picked = flat[bounds[:-1] + (rng.random(n) * counts).astype(np.int64)]
    actions: npt.NDArray[np.int64] = picked - np.arange(n) * width
    return actions


def uniform_legal_counted(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """As `uniform_legal`, the first formulation (until 2026-12-03): a second pass
    counting each row (`count_nonzero(axis=1)`) costs as much as the first."""
    n, width = masks.shape
    legal = masks.view(np.bool_)
    flat = np.flatnonzero(legal)
    counts = np.count_nonzero(legal, axis=1)
    starts = np.cumsum(counts) - counts
    picked = flat[starts + (rng.random(n) * counts).astype(np.int64)]
    actions: npt.NDArray[np.int64] = picked - np.arange(n) * width
    return actions


# SELECT[b, j]: where the j-th set bit (from 0, lowest first) of the byte b is.
SELECT = np.array(
    [[j for j in range(8) if b >> j & 1] + [0] * (8 - bin(b).count("1")) for b in range(256)], dtype=np.int64
)
ONES = np.uint64(0x0101010101010101)  # 1 in every byte of a word
HIGH = np.uint64(0x8080808080808080)  # the top bit of every byte


def bit_of_rank(
    words: npt.NDArray[np.uint64], before: npt.NDArray[np.int64], rank: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Where the `rank`-th set bit (from 0) of the words stands, counted in bits from the
    first word: `before[w]` is the number of set bits before word w. The word by a binary
    search in those sums, then the byte within it by the word's byte-wise prefix counts
    (one multiplication: every byte of `counts * ONES` holds the count up to and
    including it), then the bit by a table for the byte."""
    word = np.searchsorted(before, rank, side="right") - 1
    k = (rank - before[word]).astype(np.uint64)  # the k-th set bit of the word, from 0
    value = words[word]
    up_to = np.bitwise_count(value.view(np.uint8)).view("<u8") * ONES
    # The byte holding it: the bytes whose count up to and including them is at most k.
    byte = np.bitwise_count(((k * ONES) | HIGH) - up_to & HIGH).astype(np.uint64) * np.uint64(8)
    k -= (up_to << np.uint64(8)) >> byte & np.uint64(0xFF)  # less the bytes before it
    in_byte = SELECT[(value >> byte & np.uint64(0xFF)).astype(np.int64), k.astype(np.int64)]
    bit: npt.NDArray[np.int64] = word * 64 + byte.astype(np.int64) + in_byte
    return bit


def uniform_from_bits(bits: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """As `uniform_legal`, from the packed masks (`action_mask_bits`: action a is bit
    a % 8 of byte a // 8, rows of whole 64-bit words): legal actions counted per word and
    summed up over the whole array (n * words per row numbers, a 64th of the masks), a
    uniform rank within each row's run of them, and where that bit stands (`bit_of_rank`)."""
    n, row = bits.shape
    words = bits.view("<u8").reshape(-1)
    before = np.zeros(words.size + 1, dtype=np.int64)  # legal actions before each word
    np.cumsum(np.bitwise_count(words), out=before[1:])
    starts = before[: -1 : row // 8]
    rank = starts + (rng.random(n) * (before[row // 8 :: row // 8] - starts)).astype(np.int64)
    actions: npt.NDArray[np.int64] = bit_of_rank(words, before, rank) - np.arange(n) * (row * 8)
    return actions


class UniformLegal:
    """One action per row of the masks, uniformly among the row's legal ones (exact: the
    k-th legal action of the row for a uniform k). The masks are packed into bits first,
    all rows as one stream (`packbits` over the flat array: bit p is row p // width,
    action p % width, a pass numpy does eight bytes at a time), then chosen from as
    `uniform_from_bits` does: legal actions counted per 64-bit word and summed up, each
    row's count the difference of those sums at its first bit and at the next row's (a
    row need not start on a word), and where the row's k-th legal bit stands
    (`bit_of_rank`). `flatnonzero` over the bytes
    (`uniform_legal_flat`) writes an index per legal action and costs about twice as much
    in Schotten Totten. The buffers are made once, as a training loop would keep them:
    made and freed every call, the wide games' (Caravan's 1,024 x 4,142 bits) go back to
    the system and cost their page faults again each time."""

    def __init__(self, n: int, width: int) -> None:
        self.n, self.width = n, width
        self.packed_len = (n * width + 7) // 8
        # Whole words, and one zero word more for the bit just past the last row.
        self.stream = np.zeros((self.packed_len + 15) // 8 * 8, dtype=np.uint8)
        self.words = self.stream.view("<u8")
        self.per_word = np.zeros(self.words.size, dtype=np.uint8)
        self.before = np.zeros(self.words.size + 1, dtype=np.int64)  # legal actions before each word
        edge = np.arange(n + 1, dtype=np.uint64) * np.uint64(width)  # each row's first bit
        self.word_of_edge = (edge >> np.uint64(6)).astype(np.int64)
        self.below_edge = (np.uint64(1) << (edge & np.uint64(63))) - np.uint64(1)
        self.row_start = np.arange(n, dtype=np.int64) * width

    def __call__(self, masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
        assert masks.shape == (self.n, self.width)
        self.stream[: self.packed_len] = np.packbits(masks.view(np.bool_).reshape(-1), bitorder="little")
        words, before = self.words, self.before
        np.bitwise_count(words, out=self.per_word)
        np.cumsum(self.per_word, out=before[1:])
        at_edge = before[self.word_of_edge] + np.bitwise_count(words[self.word_of_edge] & self.below_edge)
        counts = np.diff(at_edge)
        rank = at_edge[:-1] + (rng.random(self.n) * counts).astype(np.int64)
        actions: npt.NDArray[np.int64] = bit_of_rank(words, before, rank) - self.row_start
        return actions


def uniform_legal(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """`UniformLegal` for one call (its buffers made for it)."""
    return UniformLegal(*masks.shape)(masks, rng)


def uniform_from_lists(
    legal: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One action per row, uniformly among the row's legal ones: entry k of row i's list
    for a uniform k in 0..counts[i]."""
    n = len(counts)
    actions: npt.NDArray[np.int64] = legal[np.arange(n), (rng.random(n) * counts).astype(np.int64)]
    return actions


@pytest.mark.parametrize("choice", ["mask", "bits", "lists"])
@pytest.mark.parametrize("opponents", [None, "random"])
@pytest.mark.parametrize("name", GAMES)
def test_vector_env_steps(benchmark: Any, name: str, opponents: str | None, choice: str) -> None:
    lists = choice == "lists"
    env = spielwerk.VectorEnv(
        name,
        N_ENVS,
        seed=0,
        opponents=opponents,
        action_mask=choice == "mask",
        action_mask_bits=choice == "bits",
        legal_actions=lists,
    )
    rng = np.random.default_rng(0)
    _, info = env.reset()
    benchmark.extra_info["env_steps_per_round"] = N_ENVS * STEPS
    if lists:
        legal, counts = info["legal_actions"], info["legal_counts"]

        def run() -> None:
            for _ in range(STEPS):
                env.step(uniform_from_lists(legal, counts, rng))

        benchmark(run)
        # The arrays are reused: `legal` is the current one after every step.
        assert (uniform_from_lists(legal, counts, rng) >= 0).all()
    elif choice == "bits":
        bits = info["action_mask_bits"]

        def run() -> None:
            for _ in range(STEPS):
                env.step(uniform_from_bits(bits, rng))

        benchmark(run)
        actions = uniform_from_bits(bits, rng)
        assert (bits[np.arange(N_ENVS), actions // 8] >> (actions % 8) & 1).all()
    else:
        masks = info["action_mask"]
        choose = UniformLegal(*masks.shape)

        def run() -> None:
            for _ in range(STEPS):
                env.step(choose(masks, rng))

        benchmark(run)
        # The arrays are reused: `masks` is the current one after every step.
        assert masks[np.arange(N_ENVS), choose(masks, rng)].all()


def from_bits(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """`uniform_from_bits` of the masks packed as the vector env packs them."""
    row = -(-masks.shape[1] // 64) * 8
    bits = np.zeros((len(masks), row), dtype=np.uint8)
    bits[:, : -(-masks.shape[1] // 8)] = np.packbits(masks, axis=1, bitorder="little")
    return uniform_from_bits(bits, rng)


KEPT: dict[tuple[int, ...], UniformLegal] = {}


def kept_uniform_legal(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One `UniformLegal` per shape, its buffers reused from call to call as in the loop."""
    return KEPT.setdefault(masks.shape, UniformLegal(*masks.shape))(masks, rng)


@pytest.mark.parametrize(
    "choose", [uniform_legal, kept_uniform_legal, uniform_legal_flat, uniform_legal_counted, from_bits]
)
def test_the_choice_is_the_kth_legal_action_for_a_uniform_k(choose: Any) -> None:
    """The formulations against the slow obvious one, row by row with the same uniform
    numbers: rows with one legal action, all legal, the first or the last only, random;
    every width twice (a kept chooser's buffers hold the last masks' bits)."""
    rng = np.random.default_rng(24)
    for width in [1, 7, 8, 63, 64, 65, 497, 1810] * 2:
        masks = (rng.random((300, width)) < rng.random((300, 1))).astype(np.uint8)
        masks[0] = 1
        masks[1] = 0
        masks[1, 0] = 1
        masks[2] = 0
        masks[2, -1] = 1
        masks[np.flatnonzero(masks.sum(axis=1) == 0), rng.integers(width)] = 1
        seed = int(rng.integers(1 << 30))
        uniforms = np.random.default_rng(seed).random(len(masks))
        expected = [np.flatnonzero(row)[int(u * row.sum())] for row, u in zip(masks, uniforms, strict=True)]
        assert choose(masks, np.random.default_rng(seed)).tolist() == expected
