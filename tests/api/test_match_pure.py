"""The match itself, without a database or an event loop (``matches/match.py``): its
clocks, the first-move rule (C11) and the server's outages, and one apply per ply on a
fork that leaves the match as it was when the engine refuses."""

from __future__ import annotations

import pytest
import spielwerk
from spielwerk_api.matches import Match, Ply

PERSONS = [{"kind": "person"}, {"kind": "person"}]
RULES = {"first_move_s": 60.0, "leave_s": 0.0, "untimed_move_s": 0.0, "playing_time_s": 0.0, "open_s": 0.0}


def new_match(
    clock: dict[str, float] | None = None, pauses: list[tuple[float, float]] | None = None
) -> Match:
    game = spielwerk.load_game("schotten_totten")
    m = Match(
        id="m",
        game=game,
        seed=5,
        seats=PERSONS,
        token_hashes=[None, None],
        clock=clock,
        rules=RULES,
        created_at=100.0,
        state=game.new_initial_state(5),
        pauses=pauses or [],
    )
    m.start()
    return m


def first_move(m: Match, at: float) -> Ply:
    return Ply("move", 0, m.state.legal_actions()[0], at)


def test_a_move_runs_on_the_movers_clock_and_adds_the_increment() -> None:
    m = new_match(clock={"initial_s": 60.0, "increment_s": 2.0})
    played = m.after([first_move(m, 110.0)])
    assert played.clocks == [52.0, 60.0]  # 10 s spent, 2 s back
    assert played.clocks_at(115.0) == [52.0, 55.0]  # now seat 1's time runs
    assert m.version == 0 and m.clocks == [60.0, 60.0]  # the fork alone moved


def test_the_first_move_rule_aborts_a_match_whose_first_move_never_came() -> None:
    m = new_match()
    assert m.ended_by(159.0) is None
    assert m.ended_by(160.0) == ("aborted", 0)  # C11: a minute for the first move
    played = m.after([first_move(m, 130.0)])
    assert played.ended_by(189.0) is None and played.ended_by(190.0) == ("aborted", 1)


def test_an_outage_runs_on_nobodys_clock() -> None:
    m = new_match(pauses=[(120.0, 150.0)])
    # The 30 s the server was down do not count towards the first move's minute.
    assert m.ended_by(189.0) is None and m.ended_by(190.0) == ("aborted", 0)


def test_an_illegal_move_is_refused_by_the_engine_and_changes_nothing() -> None:
    m = new_match(clock={"initial_s": 60.0, "increment_s": 0.0})
    legal = set(m.state.legal_actions())
    illegal = next(a for a in range(m.game.num_distinct_actions()) if a not in legal)
    before = (m.version, list(m.clocks or []), m.state.serialize())
    with pytest.raises(spielwerk.IllegalActionError):
        m.after([Ply("move", 0, illegal, 120.0)])
    assert (m.version, list(m.clocks or []), m.state.serialize()) == before


def test_adopting_a_fork_takes_its_plies_once() -> None:
    m = new_match()
    fork = m.after([first_move(m, 101.0)])
    m.adopt(fork)
    assert m.version == 1 and len(m.plies) == 1 and m.state == fork.state
    assert m.last_move is not None and set(m.last_move) == {"de", "en"}


def test_a_search_bot_is_charged_its_search_never_its_wait_for_a_thread() -> None:
    """Issue 34, item 1: a bot's 10 s clock ran out while its search waited in the queue."""
    game = spielwerk.load_game("schotten_totten")
    m = Match(
        id="b",
        game=game,
        seed=5,
        seats=[{"kind": "bot", "bot": "strong"}, {"kind": "person"}],
        token_hashes=[None, None],
        clock={"initial_s": 10.0, "increment_s": 0.0},
        rules=RULES,
        created_at=100.0,
        state=game.new_initial_state(5),
    )
    m.start()
    # Seat 0 (the bot) is to move; however long it waits, no clock rule ends the match...
    assert m.to_move() == [0] and m.ended_by(500.0) is None
    # ...and its move, made 40 s later after 0.3 s of search, costs it 0.3 s.
    played = m.after([Ply("move", 0, m.state.legal_actions()[0], 140.0, thought=0.3)])
    assert played.clocks == [pytest.approx(9.7), 10.0]
    # A person's clock runs as before.
    assert played.ended_by(150.0) == ("time", 1)


def test_a_long_match_replayed_at_once_is_the_match_replayed_ply_by_ply() -> None:
    """``replay_all`` (a match read anew) keeps only the latest versions' states and texts:
    everything a seat can see is as if every ply had been replayed and kept."""
    one = new_match(clock={"initial_s": 900.0, "increment_s": 1.0})
    plies: list[Ply] = []
    at = 100.0
    probe = one.fork()
    while not probe.state.is_terminal():
        at += 1.5
        legal = probe.state.legal_actions()
        ply = Ply("move", probe.state.current_player(), legal[len(plies) % len(legal)], at)
        probe.replay(ply)
        plies.append(ply)
    for ply in plies:
        one.replay(ply)
    many = new_match(clock={"initial_s": 900.0, "increment_s": 1.0})
    many.replay_all(plies)
    assert len(plies) > 64, len(plies)  # some plies replayed without keeping their state
    assert (many.version, many.plies, many.clocks, many.to_move_since, many.moved) == (
        one.version,
        one.plies,
        one.clocks,
        one.to_move_since,
        one.moved,
    )
    assert (many.last_move, many.last_is_action, many.status, many.result) == (
        one.last_move,
        one.last_is_action,
        one.status,
        one.result,
    )
    assert list(many.recent) == list(one.recent) == list(range(one.version - 63, one.version + 1))
    for version in many.recent:
        assert (
            many.recent[version][0] == one.recent[version][0]
            and many.recent[version][1:] == one.recent[version][1:]
        )
    assert [v for v, _ in many.past(0)] == list(range(one.version + 1))
    assert [s[1] for _, s in many.past(1)] == [s[1] for _, s in one.past(1)]
