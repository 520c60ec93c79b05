"""The exceptions of spielwerk: one family under ``SpielwerkError`` (a ``ValueError``).

Every error says what was wrong and what is allowed, in English (``str()``) and in German
(``message_de``; ``detail(lang)`` picks one). Each carries a stable ``code`` a client can
branch on; a rejected move (``IllegalActionError``) also names the ruling that forbids it
(``rule``, e.g. ``"S5"``), the values the reason refers to (``params``) and the reason in
English (``reason``) and German (``reason_de``). ``str()`` of a rejection is
``"{rule}: {reason}"``.

    >>> import spielwerk
    >>> state = spielwerk.load_game("schotten_totten").new_initial_state(seed=1)
    >>> rejection = state.check_move({"type": "claim", "stone": 3})
    >>> rejection.rule, rejection.code
    ('S3b', 'claim_not_now')
    >>> try:
    ...     state.apply_action(0, 7)
    ... except spielwerk.SpielwerkError as error:
    ...     print(error.detail("en"))
    ...     print(error.detail("de"))
    invalid argument: player 7 does not exist: players are 0-1
    ungültige Angabe: Spieler 7 gibt es nicht: die Spieler sind 0-1
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "IllegalActionError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidStateError",
    "SpielwerkError",
    "UnknownGameError",
]


class SpielwerkError(ValueError):
    """Anything the engine refuses: the message says what was wrong and what is allowed,
    in English (``str()``) and in German (``message_de``)."""

    code: str
    rule: str | None
    params: dict[str, Any]
    reason: str
    reason_de: str | None
    message_de: str | None

    def __init__(
        self,
        message: str,
        *,
        code: str = "error",
        rule: str | None = None,
        params: dict[str, Any] | None = None,
        reason: str | None = None,
        reason_de: str | None = None,
        message_de: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.params = params if params is not None else {}
        self.reason = reason if reason is not None else message
        self.reason_de = reason_de
        # Every error the engine raises has it; one raised by hand may not (then English).
        self.message_de = message_de

    def detail(self, lang: str | None = "en") -> str:
        """The message in ``lang``: ``"de"`` the German one (``message_de``, English where
        an error raised by hand has none), anything else ``str()``."""
        if lang == "de" and self.message_de:
            return self.message_de
        return str(self)

    def as_dict(self) -> dict[str, Any]:
        """The error as JSON-ready data (for a web API's problem details)."""
        return {
            "type": type(self).__name__,
            "code": self.code,
            "rule": self.rule,
            "params": self.params,
            "reason": self.reason,
            "reason_de": self.reason_de,
            "message": str(self),
            "message_de": self.message_de,
        }


class UnknownGameError(SpielwerkError):
    """A game name the registry does not know; the message lists the games."""


class InvalidOptionError(SpielwerkError):
    """An option the game does not take, or a value out of its range."""


class InvalidStateError(SpielwerkError):
    """A serialized state or a view that cannot be read or is inconsistent."""


class InvalidMoveError(SpielwerkError):
    """A move that is malformed: not a move of this game at all (unknown type, bad card, ...)."""


class IllegalActionError(SpielwerkError):
    """A well-formed move or action that the rules forbid here; names the ruling."""
