"""Typed errors: every failed call of the client raises a :class:`MancalaError` (or a subclass) with the server's
``google.rpc`` details decoded, so that an app branches on ``reason`` or the class, never on message text."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional

import grpc
from google.rpc import error_details_pb2, status_pb2

_DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True)
class FieldViolation:
    """One refused field of a request (``google.rpc.BadRequest``): its path (``state.pits[3]``) and why."""

    field: str
    description: str


@dataclass(frozen=True)
class QuotaViolation:
    """One quota the call went over (``google.rpc.QuotaFailure``), e.g. subject ``tenant:acme``."""

    subject: str
    description: str


class MancalaError(Exception):
    """A call the server (or the way to it) refused.

    ``code`` is the gRPC status; ``reason``, ``domain`` and ``metadata`` come from the status's
    ``google.rpc.ErrorInfo`` (``PIT_EMPTY``, ``VERSION_MISMATCH``, ``RATE_LIMITED`` …, domain ``mancala.v1``),
    ``field_violations`` from its ``BadRequest``, ``quota_violations`` from its ``QuotaFailure`` and
    ``retry_delay`` (seconds) from its ``RetryInfo``.
    """

    def __init__(self, code: grpc.StatusCode, message: str, details: Iterable[Any] = ()) -> None:
        super().__init__(f"[{code.name.lower()}] {message}")
        self.code = code
        self.message = message
        self.reason = ""
        self.domain = ""
        self.metadata: Dict[str, str] = {}
        self.field_violations: List[FieldViolation] = []
        self.quota_violations: List[QuotaViolation] = []
        self.retry_delay: Optional[float] = None
        for detail in details:
            if isinstance(detail, error_details_pb2.ErrorInfo) and not self.reason:
                self.reason, self.domain, self.metadata = detail.reason, detail.domain, dict(detail.metadata)
            elif isinstance(detail, error_details_pb2.BadRequest):
                self.field_violations += [FieldViolation(v.field, v.description) for v in detail.field_violations]
            elif isinstance(detail, error_details_pb2.QuotaFailure):
                self.quota_violations += [QuotaViolation(v.subject, v.description) for v in detail.violations]
            elif isinstance(detail, error_details_pb2.RetryInfo) and self.retry_delay is None:
                delay = detail.retry_delay
                self.retry_delay = delay.seconds + math.ceil(delay.nanos / 1e6) / 1000

    @property
    def transient(self) -> bool:
        """Whether the same call may be sent again as it is: the connection failed (send state-changing calls again
        only with the same request id), or the server asked to come back after ``retry_delay``."""
        return is_transport_code(self.code) or self.retry_delay is not None


class BadRequestError(MancalaError):
    """INVALID_ARGUMENT: a malformed request; ``field_violations`` says which fields and why."""


class IllegalMoveError(MancalaError):
    """FAILED_PRECONDITION: an illegal move, or a call the match's state does not allow; ``reason`` says which."""


class VersionConflictError(MancalaError):
    """ABORTED, reason VERSION_MISMATCH: the match moved on since ``expected_version``; re-read and decide again."""

    @property
    def current_version(self) -> Optional[int]:
        """The match's version when the move was refused (``ErrorInfo.metadata["current_version"]``)."""
        value = self.metadata.get("current_version")
        return None if value is None else int(value)


class RateLimitedError(MancalaError):
    """RESOURCE_EXHAUSTED with ``RetryInfo``: over a rate limit; wait ``retry_delay`` seconds, then try again."""


class UnauthenticatedError(MancalaError):
    """UNAUTHENTICATED: no credential where one is needed, or one the server does not accept."""


class PermissionDeniedError(MancalaError):
    """PERMISSION_DENIED: the credential may not do this (not this seat's turn, another player's challenge …)."""


class NotFoundError(MancalaError):
    """NOT_FOUND: no such match, player, challenge or seek in the caller's tenant."""


class TransportError(MancalaError):
    """The server could not be reached or the call was cut off (UNAVAILABLE, a reset stream)."""


def is_transport_code(code: grpc.StatusCode) -> bool:
    """Codes that say the call got no answer, rather than the server's refusal."""
    return code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL)


_BY_CODE = {
    grpc.StatusCode.INVALID_ARGUMENT: BadRequestError,
    grpc.StatusCode.FAILED_PRECONDITION: IllegalMoveError,
    grpc.StatusCode.ABORTED: VersionConflictError,
    grpc.StatusCode.UNAUTHENTICATED: UnauthenticatedError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.NOT_FOUND: NotFoundError,
}

_DETAIL_TYPES = {
    cls.DESCRIPTOR.full_name: cls
    for cls in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest, error_details_pb2.QuotaFailure,
                error_details_pb2.RetryInfo)
}


def decode_details(trailing: Optional[Iterable[Any]]) -> List[Any]:
    """The ``google.rpc`` detail messages of a status's ``grpc-status-details-bin`` trailer (the kinds this module
    knows; others are skipped)."""
    found: List[Any] = []
    for key, value in trailing or ():
        if key != _DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        for any_detail in status.details:
            cls = _DETAIL_TYPES.get(any_detail.TypeName())
            if cls is not None:
                message = cls()
                any_detail.Unpack(message)
                found.append(message)
    return found


def from_rpc_error(error: grpc.RpcError) -> MancalaError:
    """The typed error for what a sync or asyncio call raised (a ``grpc.RpcError`` that is also a ``grpc.Call``)."""
    code: grpc.StatusCode = error.code()  # type: ignore[attr-defined]
    message: str = error.details() or ""  # type: ignore[attr-defined]
    details = decode_details(error.trailing_metadata())  # type: ignore[attr-defined]
    cls = _BY_CODE.get(code, MancalaError)
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED and any(isinstance(d, error_details_pb2.RetryInfo) for d in details):
        cls = RateLimitedError
    elif cls is MancalaError and is_transport_code(code):
        cls = TransportError
    return cls(code, message, details)
