"""The check every game's move parser shares: how a malformed JSON move is refused."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest
import spielwerk


def assert_malformed_move_refused(
    state: spielwerk.State, move: Any, needles: Iterable[str], forms: Iterable[str] = ()
) -> None:
    """`check_move` and `action_from_json` refuse `move` with a ValueError that is no
    IllegalActionError (the move is malformed, not against the rules), whose message names
    every needle (what is wrong) and every form (what is allowed); the state is unchanged."""
    before = state.serialize()
    for call in (state.check_move, state.action_from_json):
        with pytest.raises(ValueError) as error:
            call(move)
        assert not isinstance(error.value, spielwerk.IllegalActionError), "malformed, not illegal"
        message = str(error.value)
        for needle in needles:
            assert needle in message, f"{message!r} does not mention {needle!r}"
        for form in forms:
            assert form in message, f"{message!r} does not say what a move is ({form})"
    assert state.serialize() == before


CODE = re.compile(r"^[a-z][a-z0-9_]*$")


def check_text(state: spielwerk.State, move: Any, seat: int | None = None) -> str | None:
    """`state.check_move(move, seat)` as text: None if legal, else ``"{rule}: {reason}"``.

    Every rejection is checked on the way: an `IllegalActionError` (not raised) whose rule,
    stable code, params and English and German reasons are all there, and whose text is
    made of the rule and the English reason."""
    rejection = state.check_move(move, seat)
    if rejection is None:
        return None
    assert isinstance(rejection, spielwerk.IllegalActionError), rejection
    assert rejection.rule, rejection
    assert CODE.match(rejection.code), rejection.code
    assert isinstance(rejection.params, dict)
    assert rejection.reason and rejection.reason_de, rejection
    assert str(rejection) == f"{rejection.rule}: {rejection.reason}"
    return str(rejection)
