"""What the sync and the asyncio client decide alike: which calls may be repeated, how long to wait before the
next attempt, where a resumed stream starts."""

from __future__ import annotations

import random
import secrets
from typing import Optional

from .errors import MancalaError, is_transport_code


def safe_to_repeat(service: str, method: str) -> bool:
    """Calls whose repetition changes nothing: every Rules call and the reads of the other services."""
    return service == "mancala.v1.Rules" or method.startswith(("Get", "List", "Describe", "WhoAmI"))


def backoff(attempt: int) -> float:
    """The pause (seconds) before attempt ``attempt + 1`` after a transport failure: 0.25 s doubling to 8 s, ±25 %
    jitter, so that clients cut off together do not all come back in the same instant."""
    return min(8.0, 0.25 * 2**attempt) * (0.75 + random.random() * 0.5)


def unary_retry_delay(error: MancalaError, attempt: int, repeatable: bool, rate_limit_retries: int,
                      transport_retries: int) -> Optional[float]:
    """How long to wait before sending a unary call again, or None to raise ``error``."""
    if error.retry_delay is not None and attempt < rate_limit_retries:
        return error.retry_delay
    if repeatable and is_transport_code(error.code) and attempt < transport_retries:
        return backoff(attempt)
    return None


def act_retry_delay(error: MancalaError, attempt: int, retries: int) -> Optional[float]:
    """The same for a call with a request id (submit_move, resign): any transient error may be sent again."""
    if not error.transient or attempt >= retries:
        return None
    return error.retry_delay if error.retry_delay is not None else backoff(attempt)


def new_request_id() -> str:
    """A random idempotency key: 128 bits in hex."""
    return secrets.token_hex(16)


def match_resume_point(message, last: Optional[int]) -> Optional[int]:
    """WatchMatch: the seq the next stream starts after: a snapshot's version, an event's seq."""
    kind = message.WhichOneof("kind")
    if kind == "snapshot":
        return message.snapshot.match.version
    if kind == "event":
        return message.event.seq
    return last


def events_resume_point(event, last: int) -> int:
    """WatchPlayerEvents / WatchTenantFeed: a heartbeat's ``last_event_id`` or a new event's id; a restated event
    (told again on each connect) leaves the resume point where it was."""
    if event.WhichOneof("event") == "heartbeat":
        return event.heartbeat.last_event_id
    if getattr(event, "restated", False):
        return last
    return event.event_id


class StreamEndedEarly(MancalaError):
    """A stream that closed without its last message (a server draining, a proxy's idle cut): reconnected."""
