"""What the sync and the asyncio client decide alike: which calls may be repeated, how long to wait before the
next attempt, where a resumed stream starts."""

from __future__ import annotations

import random
import secrets
from typing import Any, Callable, Optional

import grpc

from ._proto.mancala.v1 import (admin_pb2_grpc, lobby_pb2_grpc, matches_pb2, matches_pb2_grpc, players_pb2_grpc,
                                rules_pb2_grpc)
from .errors import MancalaError, TransportError, is_transport_code


SERVICES = (
    ("rules", rules_pb2_grpc.RulesStub, "mancala.v1.Rules"),
    ("matches", matches_pb2_grpc.MatchesStub, "mancala.v1.Matches"),
    ("players", players_pb2_grpc.PlayersStub, "mancala.v1.Players"),
    ("lobby", lobby_pb2_grpc.LobbyStub, "mancala.v1.Lobby"),
    ("admin", admin_pb2_grpc.AdminStub, "mancala.v1.Admin"),
)
"""Each client's attribute, the generated stub and the service's full name."""


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


IDLE_TIMEOUT = 45.0
"""Seconds without a message after which a stream's connection is taken for dead: three of the server's heartbeats
(every 15 s of silence by default, ``matches.heartbeat_interval_ms``, ``lobby.heartbeat_ms``)."""


class IdleConnection(TransportError):
    """A stream's connection brought nothing for ``idle_timeout`` seconds: taken for dead, and replaced."""


def idle_error(idle_timeout: float) -> MancalaError:
    return IdleConnection(grpc.StatusCode.UNAVAILABLE,
                          f"no message for {idle_timeout:g} s: the connection is taken for dead")


def ended_early() -> MancalaError:
    return StreamEndedEarly(grpc.StatusCode.UNAVAILABLE, "the stream ended before its last message")


def reconnect_delay(error: MancalaError, failures: int, max_reconnects: int,
                    on_reconnect: Optional[Callable[[int, MancalaError, Optional[int], float], None]],
                    resume_from: Optional[int]) -> float:
    """After a stream's ``failures``-th failure in a row: raises ``error`` past ``max_reconnects``, else tells
    ``on_reconnect`` and returns the pause before reconnecting (the server's ``retry_delay``, else the backoff)."""
    if failures > max_reconnects:
        raise error
    delay = error.retry_delay if error.retry_delay is not None else backoff(failures - 1)
    if on_reconnect is not None:
        on_reconnect(failures, error, resume_from, delay)
    return delay


def submit_move_request(match_id: str, move: Any, expected_version: Optional[int],
                        request_id: Optional[str]) -> matches_pb2.SubmitMoveRequest:
    request = matches_pb2.SubmitMoveRequest(match_id=match_id, move=move, request_id=request_id or new_request_id())
    if expected_version is not None:
        request.expected_version = expected_version
    return request


def resign_request(match_id: str, expected_version: Optional[int],
                   request_id: Optional[str]) -> matches_pb2.ResignRequest:
    request = matches_pb2.ResignRequest(match_id=match_id, request_id=request_id or new_request_id())
    if expected_version is not None:
        request.expected_version = expected_version
    return request
