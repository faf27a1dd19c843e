"""mancala-client: the mancala.v1 protocol for Python, sync (:class:`Client`) and asyncio (:class:`AsyncClient`).

The generated messages are in :mod:`mancala_client.pb` (``pb.GameKind``, ``pb.CreateMatchRequest`` …); around them:
credentials, typed errors with the ``google.rpc`` details decoded, streams that resume by themselves, and moves
sent with a request id and the version they were decided on.
"""

from .aio import AsyncClient
from .client import Client
from .credentials import Credential, any_credential, api_key, operator_key, player_token, seat_token
from .errors import (BadRequestError, FieldViolation, IllegalMoveError, MancalaError, NotFoundError,
                     PermissionDeniedError, QuotaViolation, RateLimitedError, TransportError, UnauthenticatedError,
                     VersionConflictError)

__version__ = "1.0.0"
PROTOCOL = "mancala.v1"
"""The protocol this package speaks: its major version is the package's."""

__all__ = [
    "AsyncClient", "BadRequestError", "Client", "Credential", "FieldViolation", "IllegalMoveError", "MancalaError",
    "NotFoundError", "PROTOCOL", "PermissionDeniedError", "QuotaViolation", "RateLimitedError", "TransportError",
    "UnauthenticatedError", "VersionConflictError", "any_credential", "api_key", "operator_key", "player_token",
    "seat_token",
]
