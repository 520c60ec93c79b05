"""The check every game's move parser shares: how a malformed JSON move is refused."""

from __future__ import annotations

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
