"""Uvicorn's HTTP/1.1 protocol (httptools) with bounds on the head and on slow clients.

Uvicorn limits neither: its httptools protocol parses a request head of any size (a 5 MB
header is read, parsed and handed to the app), and no timer runs while a request's headers
or body arrive (its keep-alive timeout ends with the first byte), so a client sending a
byte every few seconds holds a connection for ever. ``h11_max_incomplete_event_size``
bounds the head of the slower h11 protocol only, and ``limit_concurrency`` answers a
plain-text 503 to everyone once that many connections are open. Here, on the fast protocol:

- the request line and headers are counted as they arrive, before the parser sees them:
  a head over ``Settings.max_header_bytes`` is answered 431 and the connection closed;
- a request's head must be complete within ``head_timeout_s`` of the connection opening
  (or of its first byte, on a kept-alive connection), its body within ``body_timeout_s`` of
  its head; else 408 (when no answer has begun) and the connection is closed.

``spielwerk serve`` runs it (``cli.py``); the limits come from the environment, as the
app's settings do (``Settings.from_env``), since uvicorn starts each worker afresh.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .app import Settings
from .front_door import problem_message
from .problems import LANGUAGE_BYTES, PROBLEM_JSON, chosen_language, german, query_language

END_OF_HEAD = b"\r\n\r\n"
# How long a refused head's connection drops what still arrives before it closes.
LINGER_S = 1.0


# How much of a head is kept for the language of a refusal sent before it was parsed: the
# request line and the first headers (Accept-Language is read only at its start anyway).
HEAD_SAMPLE = 4 * LANGUAGE_BYTES


def head_language(head: bytes) -> str:
    """``"de"`` or ``"en"`` for a refusal sent before the head was parsed, as the app's
    ``language()`` decides: the request line's ``lang`` query, else ``Accept-Language``
    among the header lines read so far (English if neither)."""
    request_line, _, headers = head.partition(b"\r\n")
    parts = request_line.split(b" ")
    target = parts[1].decode("latin-1") if len(parts) >= 2 else ""
    asked = query_language(urlsplit(target).query)
    accept = ""
    for line in headers.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == b"accept-language":
            accept = value.decode("latin-1")
            break
    return chosen_language(asked, accept)


def refusal(status: int, phrase: str, code: str, detail: str) -> bytes:
    body = problem_message(status, code, phrase, detail)
    return (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: {PROBLEM_JSON}\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    settings: Settings | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cls = type(self)
        if cls.settings is None:
            cls.settings = Settings.from_env()
        self.max_head = cls.settings.max_header_bytes
        self.head_timeout = cls.settings.head_timeout_s
        self.body_timeout = cls.settings.body_timeout_s
        # Whether the bytes arriving belong to a request's head, and how many did so far
        # (with the last three, for an end of the head split between two reads).
        self.reading_head = True
        self.head_bytes = 0
        self.head_tail = b""
        # The head's first bytes, for the language of a 408 or 431 (HEAD_SAMPLE).
        self.head_sample = b""
        self.deadline: asyncio.TimerHandle | None = None
        self.refused = False

    # -- timers ---------------------------------------------------------------------

    def _arm(self, seconds: float, phase: str) -> None:
        self._disarm()
        if seconds > 0:
            self.deadline = self.loop.call_later(seconds, self._expired, phase)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expired(self, phase: str) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            if cycle is not None and not cycle.response_complete:
                # The app waits for the body: it hears that the client is gone, and an
                # answer it may still send goes nowhere.
                cycle.disconnected = True
                cycle.message_event.set()
            limit = self.head_timeout if phase == "head" else self.body_timeout
            if head_language(self.head_sample) == "de":
                part = "Kopfzeilen" if phase == "head" else "der Rumpf"
                title = german("request_timeout", 408)[0]
                detail = f"die Anfrage kam nicht binnen {limit:g} s an ({part})"
            else:
                part = "headers" if phase == "head" else "body"
                title, detail = "Request Timeout", f"the request's {part} did not arrive within {limit:g} s"
            self.transport.write(refusal(408, title, "request_timeout", detail))
        self.transport.close()

    # -- the protocol ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.head_timeout, "head")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # the head was refused: what follows is dropped unread until the close
        if self.reading_head:
            if self.deadline is None:
                # The next request's first byte (the time between requests is uvicorn's
                # keep-alive timeout).
                self._arm(self.head_timeout, "head")
            part = self._head_part(data)
            if len(self.head_sample) < HEAD_SAMPLE:
                self.head_sample += data[: min(part, HEAD_SAMPLE - len(self.head_sample))]
            self.head_bytes += part
            if self.head_bytes > self.max_head:
                self._refuse_head()
                return
        super().data_received(data)

    def _head_part(self, data: bytes) -> int:
        """How many of these bytes belong to the head being read (all, until its end)."""
        tail = self.head_tail
        if tail:
            end = (tail + data[:3]).find(END_OF_HEAD)
            if end >= 0:
                self.head_tail = b""
                return end + 4 - len(tail)
        end = data.find(END_OF_HEAD)
        if end >= 0:
            self.head_tail = b""
            return end + 4
        self.head_tail = (tail + data)[-3:]
        return len(data)

    def _refuse_head(self) -> None:
        self._disarm()
        self.reading_head = False
        if self.cycle is not None and not self.cycle.response_complete:
            self.transport.close()  # a pipelined head while an answer is being written
            return
        if head_language(self.head_sample) == "de":
            title = german("headers_too_large", 431)[0]
            detail = f"Anfragezeile und Kopfzeilen sind höchstens {self.max_head} Bytes groß"
        else:
            title = "Request Header Fields Too Large"
            detail = f"the request line and headers are at most {self.max_head} bytes"
        self.transport.write(refusal(431, title, "headers_too_large", detail))
        # A close with unread bytes would reset the connection, and the client might lose
        # the answer: it is sent in full, and what the client still sends is dropped for a
        # moment (never parsed) before the connection closes.
        self.refused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_S, self.transport.close)

    def on_headers_complete(self) -> None:
        self.reading_head = False
        self.head_bytes = 0
        self.head_tail = b""
        self._arm(self.body_timeout, "body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()
        # What arrives next is the next request's head; its time runs from its first byte.
        self.reading_head = True
        self.head_sample = b""
