"""A match as replayed from its stored plies: the engine state, the clocks and the match
rules (C11, D13). Pure: no database, no event loop; the service (``service.py``) stores what
a fork of it made, and this module is tested without either.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec
import spielwerk

from .. import schemas
from ..problems import Problem

# The languages of texts for people; a match keeps its last move in each.
LANGUAGES = ("de", "en")


def result_out(result: dict[str, Any], text: str) -> schemas.MatchResult:
    """A stored result as it is sent: its line ``text`` in the asked language (the stored
    ``texts`` hold the line in each language, for lists that have no state to ask)."""
    return schemas.MatchResult(**{**{k: v for k, v in result.items() if k != "texts"}, "text": text})


Texts = dict[str, str]
# A match's status in German, for texts.
STATUS_DE = {"running": "im Gange", "finished": "beendet", "aborted": "abgebrochen"}

# Which rule counts where several end a match at the same moment: a match whose first
# move never came is aborted rather than lost.
PRECEDENCE = {"bot": -1, "withdrawn": 0, "aborted": 0, "time": 1, "no_move": 2, "left": 3, "playing_time": 4}
# How many past versions each worker keeps per match, so an event stream that falls a few
# versions behind (bots answering at once) still sends every version's own view; a stream
# further behind skips to the oldest version kept.
RECENT_STATES = 64
# A bot's turn is due for the sweep (of any worker) only once no ply came for this long: the
# worker that drives the match is searching meanwhile, and a second one would search twice.
BOT_STALLED_S = 10.0


@dataclass
class Ply:
    kind: str
    seat: int | None
    action: int | None
    at: float
    # A search bot's move: the seconds it searched. Its clock is charged that, not the time
    # its search waited on the server for a thread (issue 34: no seat pays for the queue).
    thought: float | None = None


@dataclass
class Match:
    """A match as replayed from its record: the engine state and the clocks."""

    id: str
    game: spielwerk.Game
    seed: int
    seats: list[dict[str, Any]]
    token_hashes: list[str | None]
    clock: dict[str, float] | None
    rules: dict[str, float]
    created_at: float
    state: spielwerk.State
    version: int = 0
    status: str = "running"
    result: dict[str, Any] | None = None
    plies: list[Ply] = field(default_factory=list)
    # Remaining time of each seat at `last_at` (with a clock).
    clocks: list[float] | None = None
    last_at: float = 0.0
    # Since when each seat to move has been to move (its turn or its last action).
    to_move_since: dict[int, float] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)
    # The state and the last move's text of the latest versions.
    recent: OrderedDict[int, tuple[spielwerk.State, Texts | None, bool]] = field(default_factory=OrderedDict)
    # The text of the last ply, and whether it was an action of the game (whose text some
    # seats may not see: Dog's exchange picks) rather than how the match ended.
    # The last move's text by language ("de", "en"), from the engine.
    last_move: Texts | None = None
    last_is_action: bool = False
    # The server's outages since the match began, (start, end) in order: time that runs on
    # nobody's clock and counts for no rule (C11, D13).
    pauses: list[tuple[float, float]] = field(default_factory=list)
    # The last version this worker stored itself (its bots move on only from their own plies).
    stored_here: int = -1
    # When the match began: at its creation, or, with open seats, once the last of them was
    # taken (``None`` while one is free: the match waits, and no rule's time runs).
    started_at: float | None = None
    # Who sits where, as people read it: per seat ``{"name", "player"}`` (a registered
    # player's name, or a guest's as chosen) or ``None`` (a bot, or no name given).
    names: list[dict[str, Any] | None] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.seats)

    def named(self, seat: int, name: str, *, player: bool) -> None:
        if len(self.names) < self.n:
            self.names = [*self.names, *([None] * (self.n - len(self.names)))]
        self.names[seat] = {"name": name, "player": player}

    def persons(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec["kind"] == "person"]

    def free_seats(self) -> list[int]:
        """Open person seats nobody has taken yet (as far as this worker knows)."""
        return [s for s, spec in enumerate(self.seats) if spec.get("open") and self.token_hashes[s] is None]

    def waiting(self) -> bool:
        """Whether the match still waits for a person to take an open seat: no seat moves
        and no rule's time runs (clocks, first and untimed moves, leaving, Dog's playing
        time) until every person seat is taken."""
        if self.started_at is None and not self.free_seats():
            self.started_at = self.created_at  # (taken as this worker learnt: not earlier)
        return self.started_at is None

    def seats_taken(self, joined: dict[int, float]) -> None:
        """Open seats taken (seat: when); the match begins when the last of them is."""
        if self.started_at is None and not self.free_seats():
            self.started_at = max([self.created_at, *joined.values()])

    def since(self, at: float) -> float:
        """``at``, or the match's start if that came later (time before it runs for no rule)."""
        return max(at, self.started_at if self.started_at is not None else at)

    def to_move(self) -> list[int]:
        return [] if self.state.is_terminal() or self.status != "running" else self.state.seats_to_move()

    # -- replay ---------------------------------------------------------------------

    def start(self) -> None:
        self.last_at = self.created_at
        if not any(spec.get("open") for spec in self.seats):
            self.started_at = self.created_at
        if self.clock is not None:
            self.clocks = [self.clock["initial_s"]] * self.n
        self.to_move_since = dict.fromkeys(self.to_move(), self.created_at)
        self.remember()

    def replay(self, ply: Ply, *, kept: bool = True) -> None:
        """Apply one stored ply (they were checked when stored). ``kept=False``: a ply far
        behind the latest (``replay_all``), whose state and text no version keeps."""
        if ply.kind == "move":
            assert ply.action is not None and ply.seat is not None
            before = set(self.to_move())
            self.charge(ply.at, ply.seat, ply.thought)
            self.last_move = action_texts(self.state, ply.action) if kept else None
            self.last_is_action = True
            self.state.apply_action(ply.action, ply.seat)
            self.moved.add(ply.seat)
            if self.clocks is not None and self.clock is not None:
                self.clocks[ply.seat] += self.clock["increment_s"]
            after = set(self.to_move())
            self.to_move_since = {
                s: (ply.at if s == ply.seat or s not in before else self.to_move_since.get(s, ply.at))
                for s in after
            }
            if self.state.is_terminal():
                self.status = "finished"
                self.result = {
                    "returns": self.state.returns(),
                    "reason": "end",
                    "text": self.state.result_text("en", **self.who()) or "",
                }
                # Dog's team points (D13), as the engine counts them for the result text.
                points = self.state.public_view().get("outcome", {}).get("points")
                if points is not None:
                    self.result["points"] = points
                self.result["texts"] = {lang: self.result_text(lang) for lang in LANGUAGES}
        else:
            self.charge(ply.at)
            # Nobody wins a match whose first move never came (C11) or that never began.
            self.status = "aborted" if ply.kind in ("aborted", "withdrawn") else "finished"
            self.result = self.ending(ply.kind, ply.seat)
            self.to_move_since = {}
            self.last_move = {lang: self.result_text(lang) for lang in LANGUAGES}
            self.result["texts"] = dict(self.last_move)
            self.last_is_action = False
        self.plies.append(ply)
        self.version += 1
        if kept:
            self.remember()

    def replay_all(self, plies: list[Ply]) -> None:
        """Apply stored plies in order; only the latest ``RECENT_STATES`` are kept with their
        state and text (a long match read anew replays its earlier plies at half the cost)."""
        quiet = len(plies) - RECENT_STATES
        for i, ply in enumerate(plies):
            self.replay(ply, kept=i >= quiet)

    def charge(self, at: float, seat: int | None = None, thought: float | None = None) -> None:
        """The time since the last ply runs on the clock of every seat to move; a search bot's
        seat (``thought``: its move's search) is charged only the seconds it searched."""
        if self.clocks is not None and not self.waiting():
            spent = self.elapsed(self.since(self.last_at), at)
            for s in self.to_move():
                self.clocks[s] -= thought if s == seat and thought is not None else spent
        self.last_at = max(self.last_at, at)

    def elapsed(self, start: float, end: float) -> float:
        """Seconds from ``start`` to ``end`` the server was up."""
        out = end - start
        if out <= 0:
            return 0.0
        for began, ended in self.pauses:
            out -= max(0.0, min(end, ended) - max(start, began))
        return max(0.0, out)

    def later(self, start: float, span: float) -> float:
        """The moment ``span`` seconds of the server's uptime after ``start``."""
        at = start + span
        for began, ended in self.pauses:
            if ended <= start:
                continue
            if began >= at:
                break
            at += ended - max(began, start)
        return at

    def fork(self) -> Match:
        """A copy to try a ply on before it is stored (the past versions stay behind)."""
        return replace(
            self,
            state=self.state.clone(),
            plies=list(self.plies),
            clocks=list(self.clocks) if self.clocks is not None else None,
            to_move_since=dict(self.to_move_since),
            moved=set(self.moved),
            recent=OrderedDict(),
        )

    def after(self, plies: list[Ply]) -> Match:
        """A fork with ``plies`` applied: the engine refuses an illegal move (with its
        reason) and this match stays as it was. What the service stores is this fork's."""
        probe = self.fork()
        for ply in plies:
            probe.replay(ply)
        return probe

    def adopt(self, fork: Match) -> None:
        """Take over a fork's plies once they are stored."""
        recent = self.recent
        recent.update(fork.recent)
        # A seat taken while the fork was out (its start) stays known.
        started_at = self.started_at if fork.started_at is None else fork.started_at
        self.__dict__.update(fork.__dict__)
        self.recent = recent
        self.started_at = started_at
        self.trim()

    def remember(self) -> None:
        self.recent[self.version] = (self.state.clone(), self.last_move, self.last_is_action)
        self.trim()

    def trim(self) -> None:
        while len(self.recent) > RECENT_STATES:
            self.recent.popitem(last=False)

    def at(self, version: int) -> tuple[spielwerk.State, Texts | None, bool]:
        """The state and last move of a recent version (the latest if it is no longer kept)."""
        return self.recent.get(version, (self.state, self.last_move, self.last_is_action))

    def past(self, first: int) -> Iterator[tuple[int, tuple[spielwerk.State, Texts | None, bool]]]:
        """Every version from ``first`` to the latest with its state and last move: from the
        versions kept (``recent``), else rebuilt from the stored plies, in one pass."""
        first = max(first, 0)
        if all(v in self.recent for v in range(first, self.version + 1)):
            for v in range(first, self.version + 1):
                yield v, self.recent[v]
            return
        state = self.game.new_initial_state(self.seed)
        last: tuple[Texts | None, bool] = (None, False)
        if first == 0:
            yield 0, (state.clone(), None, False)
        for v, ply in enumerate(self.plies, start=1):
            if v == self.version:
                break  # the latest version is the match's own (with how it ended)
            assert ply.kind == "move" and ply.action is not None and ply.seat is not None
            last = (action_texts(state, ply.action), True)
            state.apply_action(ply.action, ply.seat)
            if v >= first:
                yield v, (self.recent.get(v) or (state.clone(), *last))
        if self.version >= max(first, 1):
            yield self.version, (self.state, self.last_move, self.last_is_action)

    # -- results --------------------------------------------------------------------

    def result_text(self, lang: str) -> str:
        """The result line in ``lang``, from the engine: the game's own end, or the match
        rule's (the state is the one the match ended at)."""
        if self.result is None:
            return ""
        if self.result["reason"] == "end":
            return self.state.result_text(lang, **self.who()) or ""
        ending = self.state.match_ending(self.result["reason"], self.result.get("seat"), lang, **self.who())
        return str(ending["text"])

    def who(self) -> dict[str, list[str | None]]:
        """Who sits where, for the engine's texts: each seat's name (a player's or guest's)
        and bot (its level), so a result reads "Anna gewinnt" or "Bot stark gewinnt"."""
        return {
            "names": [n["name"] if n else None for n in self.seat_names()],
            "bots": [spec.get("bot") if spec["kind"] == "bot" else None for spec in self.seats],
        }

    def ending(self, kind: str, seat: int | None) -> dict[str, Any]:
        """The result of a match ended by a match rule instead of the game: the engine's
        (R1, C11, D13), with the rule and the seat it concerns."""
        ending = self.state.match_ending(kind, seat, "en", **self.who())
        out = {"returns": ending["returns"], "reason": kind, "text": ending["text"]}
        if seat is not None:
            out["seat"] = seat
        if ending["rule"] is not None:
            out["rule"] = ending["rule"]
        if ending["points"] is not None:
            out["points"] = ending["points"]
        return out

    def seed_chosen(self) -> bool:
        """Whether the creator chose the deal (``seed``)."""
        return bool(self.rules.get("seed_chosen", False))

    def ranked(self) -> bool:
        """Whether the match counts: no variant (C10) and a deal the server chose."""
        return self.game.ranked() and not self.seed_chosen()

    # -- match rules ----------------------------------------------------------------

    def first_move_rule(self) -> bool:
        """C11: against a person, each player has a minute for their first move."""
        return self.rules["first_move_s"] > 0 and len(self.persons()) >= 2

    def due(self) -> list[tuple[float, str, int | None]]:
        """Every moment a match rule ends the match, with the rule and the seat."""
        if self.status != "running":
            return []
        out: list[tuple[float, str, int | None]] = []
        if self.waiting():
            # Nobody took the open seat in time: the match never began, and it is withdrawn
            # (the engine's ending names no seat, nobody missed a first move; listed no
            # longer). 0 (or a match stored before this rule): it waits on.
            open_s = self.rules.get("open_s", 0)
            if open_s > 0:
                out.append((self.later(self.created_at, open_s), "withdrawn", None))
            return out
        persons = set(self.persons())
        last = self.since(self.last_at)
        for s in self.to_move():
            if s not in persons:
                # A bot moves at once; it is due here only if its worker stopped before it did.
                out.append((last + BOT_STALLED_S, "bot", s))
            if self.clocks is not None and s in persons:
                # (A bot's clock runs only while it searches: it is charged after its move.)
                out.append((self.later(last, max(self.clocks[s], 0.0)), "time", s))
            elif self.clocks is not None and self.clocks[s] <= 0:
                out.append((last, "time", s))  # a bot whose search overran its clock
            if s not in persons:
                continue
            if s not in self.moved and self.first_move_rule():
                since = self.since(self.to_move_since.get(s, self.last_at))
                out.append((self.later(since, self.rules["first_move_s"]), "aborted", s))
            if self.clocks is None and self.rules["untimed_move_s"] > 0:
                since = self.since(self.to_move_since.get(s, self.last_at))
                out.append((self.later(since, self.rules["untimed_move_s"]), "no_move", s))
        if self.rules.get("playing_time_s", 0) > 0:
            start = self.since(self.created_at)
            out.append((self.later(start, self.rules["playing_time_s"]), "playing_time", None))
        return out

    def deadline(self) -> float | None:
        due = self.due()
        return min(d[0] for d in due) if due else None

    def ended_by(self, now: float) -> tuple[str, int | None] | None:
        """The rule that has ended the match by ``now`` (not counting leaving, which needs
        the presence rows), with the seat it concerns; ``None`` if none has."""
        due = [d for d in self.due() if d[0] <= now and d[1] != "bot"]
        if not due:
            return None
        _, kind, seat = min(due, key=lambda d: (d[0], PRECEDENCE[d[1]]))
        return kind, seat

    def bots_to_move(self) -> list[int]:
        if self.waiting():
            return []  # bots too wait for the match to begin
        return [s for s in self.to_move() if self.seats[s]["kind"] == "bot"]

    def clocks_at(self, now: float) -> list[float] | None:
        if self.clocks is None:
            return None
        running = set(self.to_move()) if not self.waiting() else set()
        spent = self.elapsed(self.since(self.last_at), now)
        return [round(max(0.0, c - (spent if s in running else 0.0)), 3) for s, c in enumerate(self.clocks)]

    # -- what a seat sees -------------------------------------------------------------

    def out(
        self,
        seat: int | None,
        now: float,
        version: int | None = None,
        snapshot: tuple[spielwerk.State, Texts | None, bool] | None = None,
        lang: str = "en",
        absent: list[tuple[float, str, int | None]] | None = None,
    ) -> schemas.MatchOut:
        """What ``seat`` sees at ``version`` (the latest by default); ``snapshot`` is that
        version's state and last move where the caller has it (``past``). The last move and
        the result line are in ``lang`` ("de" or "en"); ``absent``: the seats the leave rule
        counts down (``Seats.absent``, read from the presence rows)."""
        latest = version is None or version == self.version
        if snapshot is not None:
            state, last_move, is_action = snapshot
        elif version is None:
            state, last_move, is_action = self.state, self.last_move, self.last_is_action
        else:
            state, last_move, is_action = self.at(version)
        if is_action and not sees_last_action(state, seat):
            last_move = None  # e.g. the card a Dog player gave the partner (D4)
        status = self.status if latest else "running"
        # The engine's bytes, as they are: no Python dict built and encoded again.
        view = msgspec.Raw(state.view_json(seat))
        result = (
            result_out(self.result, self.result_text(lang))
            if self.result is not None and status != "running"
            else None
        )
        waiting = latest and status == "running" and self.waiting()
        # A match waiting for a person moves nobody (its moves are refused): none to move.
        to_move = [] if status != "running" or waiting or state.is_terminal() else state.seats_to_move()
        return schemas.MatchOut(
            id=self.id,
            game=self.game.name,
            options=self.game.options(),
            version=self.version if version is None else version,
            status=status,  # type: ignore[arg-type]
            seat=seat,
            # The engine's terminal marker whenever the match is over, however it ended.
            current_player=state.current_player() if status == "running" else spielwerk.TERMINAL,
            seats_to_move=to_move,
            view=view,
            clocks=self.clocks_at(now),
            result=result,
            last_move=last_move.get(lang, last_move["en"]) if last_move is not None else None,
            open_seats=self.free_seats() if waiting else [],
            ranked=self.ranked(),
            seed_chosen=self.seed_chosen(),
            names=[n["name"] if n else None for n in self.seat_names()],
            players=[bool(n and n.get("player")) for n in self.seat_names()],
            bots=[spec.get("bot") if spec["kind"] == "bot" else None for spec in self.seats],
            last_seat=self.seat_of_ply(self.version if version is None else version),
            clock=schemas.ClockSpec(**self.clock) if self.clock is not None else None,
            rules_due=self.rules_due(now, absent or []) if latest and status == "running" else [],
        )

    def rules_due(self, now: float, absent: list[tuple[float, str, int | None]]) -> list[schemas.RuleDue]:
        """The match rules a page counts down (``due``, and leaving for the seats in
        ``absent``), earliest first: the page warns before one ends the match."""
        shown = ("aborted", "no_move", "withdrawn", "left")
        return [
            schemas.RuleDue(rule=kind, seat=seat, in_s=round(max(0.0, at - now), 1))  # type: ignore[arg-type]
            for at, kind, seat in sorted([*self.due(), *absent], key=lambda d: d[0])
            if kind in shown
        ]

    def seat_of_ply(self, version: int) -> int | None:
        """The seat whose ply made ``version`` (``None`` for the deal)."""
        return self.plies[version - 1].seat if 0 < version <= len(self.plies) else None

    def log(self, seat: int | None, lang: str, limit: int) -> schemas.MatchLog:
        """The latest ``limit`` plies with their texts in ``lang`` as ``seat`` may read them
        (an action it did not see has no text). Rebuilt from the plies where the versions are
        no longer kept: at most ``limit`` of them."""
        entries = []
        for version, (state, texts, is_action) in self.past(max(1, self.version - limit + 1)):
            if version == 0:
                continue
            seen = texts is not None and (not is_action or sees_last_action(state, seat))
            text = texts.get(lang, texts["en"]) if seen and texts is not None else None
            entries.append(schemas.LogEntry(version=version, seat=self.seat_of_ply(version), text=text))
        return schemas.MatchLog(entries=entries)

    def seat_names(self) -> list[dict[str, Any] | None]:
        return [self.names[s] if s < len(self.names) else None for s in range(self.n)]


def action_texts(state: spielwerk.State, action: int) -> Texts:
    """The action's text in every language, from the engine (before it is applied)."""
    return {lang: state.action_to_string(action, lang) for lang in LANGUAGES}


def sees_last_action(state: spielwerk.State, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: every seat, for spectators) saw the last action.

    The engine's ``history_for`` marks the actions a seat did not see.
    """
    seats = range(state.game.num_players()) if seat is None else (seat,)
    for p in seats:
        history = state.history_for(p)
        if history and history[-1] is None:
            return False
    return True


def replay_of(m: Match, lang: str = "en") -> schemas.Replay:
    """Every ply of a match over, its texts in ``lang``."""
    if m.status == "running":
        raise Problem(
            409,
            "match_running",
            "the replay shows every hidden card: it opens after the end",
            de="die Wiederholung zeigt jede verdeckte Karte: sie öffnet erst nach dem Ende",
        )
    state = m.game.new_initial_state(m.seed)
    initial = state.serialize()
    actions = []
    for i, p in enumerate(m.plies, start=1):
        if p.kind == "move":
            assert p.action is not None
            text = state.action_to_string(p.action, lang)
            move = state.action_to_json(p.action)
            state.apply_action(p.action, p.seat)
            actions.append(schemas.ReplayAction(i, p.seat, p.kind, p.action, move, text, p.at))
        else:
            text = m.result_text(lang) if m.result else p.kind
            actions.append(schemas.ReplayAction(i, p.seat, p.kind, None, None, text, p.at))
    result = result_out(m.result, m.result_text(lang)) if m.result else None
    return schemas.Replay(
        id=m.id,
        game=m.game.name,
        options=m.game.options(),
        seed=str(m.seed),
        initial_state=json.loads(initial),
        final_state=json.loads(state.serialize()),
        actions=actions,
        result=result,
    )


def require_running(m: Match) -> None:
    """Refuses (409 ``match_over``) anything but reading once the match is over."""
    if m.status != "running":
        raise Problem(
            409,
            "match_over",
            f"the match is {m.status}; no more moves",
            de=f"die Partie ist {STATUS_DE.get(m.status, m.status)}; es gibt keine Züge mehr",
        )


def require_begun(m: Match) -> None:
    """Refuses (409 ``waiting_for_players``) a move while an open seat waits for a person."""
    if m.waiting():
        free = ", ".join(str(s) for s in m.free_seats())
        raise Problem(
            409,
            "waiting_for_players",
            f"the match begins once every person seat is taken; open seats: {free}",
            de=f"die Partie beginnt, sobald jeder Platz für Personen vergeben ist; offene Plätze: {free}",
        )


def require_version(m: Match, version: int) -> None:
    """Refuses (409 ``stale_version``) a move made against another version than the match's."""
    if version != m.version:
        raise Problem(
            409,
            "stale_version",
            f"the move was made against version {version}; the match is at version {m.version}",
            de=f"der Zug galt Version {version}; die Partie ist bei Version {m.version}",
            version=m.version,
        )


def event_data(kind: str, payload: dict[str, Any]) -> str:
    """An event of a match's stream as its ``data`` line (compact JSON)."""
    return json.dumps({"kind": kind, **payload}, separators=(",", ":"))
