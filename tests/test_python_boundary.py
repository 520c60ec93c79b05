"""Faults at the Python boundary (issue 22, item 7): every refusal is of the package's own
family, whatever Python hands over, and threads may share one state.

- An integer of any width where an action or a seat belongs gets the engine's own
  rejection naming the valid range, not a bare ``ValueError`` about machine words.
- Text with a lone surrogate (which a Python ``str`` may hold and UTF-8 cannot) is a
  ``SpielwerkError`` of the family that fits what was read, not ``UnicodeEncodeError``.
- Threads that share one state (or one ``RandomBot``) never see ``RuntimeError: Already
  borrowed``: each call has the state to itself while it runs.
- A compact record re-encoded by ``json.dumps`` (other spacing, any indent) reads back.
"""

from __future__ import annotations

import contextlib
import json
import threading
from typing import Any

import pytest
import spielwerk
from spielwerk.errors import (
    IllegalActionError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidStateError,
    SpielwerkError,
)

GAMES = ("caravan", "dog", "schotten_totten", "the_game")
LONE = "\ud800"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("huge", [2**63, 2**70, -(2**70), 10**30, 2**200])
def test_an_action_of_any_width_gets_the_rejection_naming_the_range(name: str, huge: int) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(1)
    before = state.serialize()
    last = game.num_distinct_actions() - 1
    with pytest.raises(SpielwerkError) as info:
        state.apply_action(huge)
    if abs(huge) < 2**127:
        assert isinstance(info.value, IllegalActionError)
        assert info.value.code == "no_such_action"
        assert f"actions are 0-{last}" in str(info.value)
        assert str(huge) in str(info.value)
    else:
        assert "out of range" in str(info.value)
    for call in (state.action_to_string, state.action_to_json):
        with pytest.raises(SpielwerkError):
            call(huge)
    assert state.serialize() == before


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_of_any_width_names_the_seats_there_are(name: str) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(1)
    for huge in (2**64, 2**70, -(2**70)):
        with pytest.raises(SpielwerkError, match=f"players are 0-{game.num_players() - 1}"):
            state.view(huge)
        with pytest.raises(SpielwerkError, match="players are"):
            state.legal_actions(huge)


def test_seeds_and_counts_out_of_range_are_of_the_family() -> None:
    game = spielwerk.load_game("the_game")
    for bad in (2**64, -1, 2**70):
        with pytest.raises(SpielwerkError, match="seed"):
            game.new_initial_state(bad)
    with pytest.raises(SpielwerkError, match="n_games"):
        spielwerk.simulate(game, 2**70)
    with pytest.raises(SpielwerkError, match="n_games"):
        spielwerk.simulate(game, -1)


@pytest.mark.parametrize("name", GAMES)
def test_lone_surrogates_are_refused_by_the_family_that_fits(name: str) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(2)
    before = state.serialize()
    cases: list[tuple[type[SpielwerkError], Any]] = [
        (InvalidMoveError, lambda: state.check_move({"type": LONE})),
        (InvalidMoveError, lambda: state.action_from_json({LONE: "play"})),
        (InvalidStateError, lambda: game.deserialize_state(LONE)),
        (InvalidStateError, lambda: game.deserialize_state('{"compact":1,"game":"' + LONE + '"}')),
        (InvalidStateError, lambda: game.state_from_view({LONE: 1})),
        (InvalidOptionError, lambda: spielwerk.load_game(name, **{LONE: True})),
        (SpielwerkError, lambda: spielwerk.load_game(LONE)),
        (SpielwerkError, lambda: state.match_ending(LONE)),
        (SpielwerkError, lambda: spielwerk.bots.make(LONE, game)),
        (SpielwerkError, lambda: spielwerk.bots.make("ismcts", game, rollout=LONE)),
        (SpielwerkError, lambda: spielwerk.evaluate(game, [LONE], 1)),
    ]
    for family, call in cases:
        with pytest.raises(family) as info:
            call()
        assert "lone surrogate" in str(info.value)
        assert not isinstance(info.value, UnicodeError)
    assert state.serialize() == before


def test_lone_surrogates_in_the_helpers_of_single_games() -> None:
    from spielwerk import schotten_totten, the_game

    with pytest.raises(SpielwerkError, match="lone surrogate"):
        the_game.mentions_number(LONE)
    with pytest.raises(SpielwerkError, match="lone surrogate"):
        the_game.check_talk("ich habe die " + LONE)
    with pytest.raises(SpielwerkError, match="lone surrogate"):
        schotten_totten.formation([LONE, "B2", "B3"])


@pytest.mark.parametrize("name", GAMES)
def test_threads_sharing_one_state_never_find_it_borrowed(name: str) -> None:
    """Movers apply the first legal action while searchers run a bot on the same state
    (the search runs without the GIL, so the others get to call in the meantime)."""
    game = spielwerk.load_game(name)
    state = game.new_initial_state(3)
    search = spielwerk.bots.make("ismcts", game, seed=1, iterations=30)
    random = spielwerk.RandomBot(7)
    faults: list[BaseException] = []
    stop = threading.Event()

    def mover() -> None:
        for _ in range(60):
            actions = state.legal_actions()
            if not actions:
                break
            # Another thread may have moved first: then the state is unchanged.
            with contextlib.suppress(IllegalActionError):
                state.apply_action(actions[0])

    def searcher() -> None:
        while not stop.is_set():
            try:
                search.step(state)
                random.step(state)
                state.view(0)
                state.serialize_snapshot()
                _ = state == state
                state.clone()
            except SpielwerkError:
                pass  # the game ended, or the seat to move changed: a refusal, not a fault

    def guarded(work: Any) -> Any:
        def run() -> None:
            try:
                work()
            except BaseException as e:  # every fault is collected
                faults.append(e)

        return run

    searchers = [threading.Thread(target=guarded(searcher)) for _ in range(2)]
    movers = [threading.Thread(target=guarded(mover)) for _ in range(2)]
    for t in searchers + movers:
        t.start()
    for t in movers:
        t.join()
    stop.set()
    for t in searchers:
        t.join()
    assert faults == []
    # What the threads left is a position of the game: it reads back whole.
    assert game.deserialize_state(state.serialize()) == state


def test_one_random_bot_shared_by_threads_draws_one_stream() -> None:
    """Threads drawing from one RandomBot together draw, between them, exactly the
    numbers one thread would: the stream is never torn."""
    state = spielwerk.load_game("schotten_totten").new_initial_state(8)
    shared = spielwerk.RandomBot(5)
    drawn: list[int] = []
    lock = threading.Lock()

    def draw() -> None:
        for _ in range(100):
            a = shared.step(state)
            with lock:
                drawn.append(a)

    threads = [threading.Thread(target=draw) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(drawn) == 400
    # All four threads stepped the same state: the draws are the stream's among its
    # legal actions, so the same multiset as one thread drawing 400 times there.
    alone = spielwerk.RandomBot(5)
    assert sorted(drawn) == sorted(alone.step(state) for _ in range(400))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("indent", [None, 2])
def test_a_compact_record_reencoded_by_json_dumps_reads_back(name: str, indent: int | None) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(4)
    bot = spielwerk.RandomBot(4)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
    record = state.serialize_compact()
    again = json.dumps(json.loads(record), indent=indent)
    assert again != record
    read = game.deserialize_state(again)
    assert read == state
    assert read.serialize_compact() == record
    # Reordered fields are a record too, read by serde; a state's own JSON is not one.
    fields = json.loads(record)
    shuffled = json.dumps({"compact": fields.pop("compact"), **dict(reversed(list(fields.items())))})
    assert game.deserialize_state(shuffled) == state
    assert game.deserialize_state(" \n" + again) == state
    assert game.deserialize_state(json.dumps(json.loads(record), sort_keys=True)) == state
    assert game.deserialize_state(state.serialize()) == state


@pytest.mark.parametrize("name", GAMES)
def test_a_move_as_the_json_text_a_server_received_reads_as_the_move(name: str) -> None:
    """``action_from_json`` and ``check_move`` take a move's JSON text as ``bytes`` too (a
    server's request body, parsed once in the engine): the same action and the same check
    as the object; text that is no JSON, or no move, is an ``InvalidMoveError``."""
    state = spielwerk.load_game(name).new_initial_state(3)
    seat = state.seats_to_move()[0]
    for legal in state.legal_moves(seat)[:20]:
        text = json.dumps(legal["move"]).encode()
        assert state.action_from_json(text) == state.action_from_json(legal["move"]) == legal["action"]
        assert state.check_move(text, seat) is None
    for bad in (b"{", b"5", b'"play"', b"[]", b"\xff", b'{"type": "fly"}'):
        with pytest.raises(InvalidMoveError):
            state.action_from_json(bad)
        with pytest.raises(InvalidMoveError):
            state.check_move(bad, seat)
