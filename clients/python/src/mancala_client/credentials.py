"""The credentials a client sends as ``authorization: Bearer …`` (docs/guide/tenants.md).

Each constructor checks the credential's shape, so that a key passed where a token was meant fails here with a
``ValueError`` naming the expected shape, not as UNAUTHENTICATED at the first call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Awaitable, Callable, Literal, Optional, Union

CredentialKind = Literal["api_key", "player_token", "seat_token", "operator_key"]


@dataclass(frozen=True)
class Credential:
    """A credential for ``authorization: Bearer``: make one with :func:`api_key`, :func:`player_token`,
    :func:`seat_token` or :func:`operator_key`. ``repr`` never shows the secret."""

    kind: CredentialKind
    secret: str

    def __repr__(self) -> str:
        return f"Credential(kind={self.kind!r})"


CredentialSource = Union[Credential, None, Callable[[], Optional[Credential]]]
"""A fixed credential, none, or a function asked before every call and reconnect (a token the app renews)."""

AsyncCredentialSource = Union[CredentialSource, Callable[[], Awaitable[Optional[Credential]]]]

_API_KEY = re.compile(r"mk_[0-9a-f]{8}_[0-9a-f]{48}")
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
_SEAT = re.compile(r"[0-9a-f]{64}")


def api_key(key: str) -> Credential:
    """A tenant's API key (``mk_<8 hex>_<48 hex>``): everything of its tenant. Keep it on the app's backend, which
    mints player tokens with it (``Players.IssuePlayerToken``)."""
    if not _API_KEY.fullmatch(key):
        raise ValueError("api_key: an API key looks like mk_<8 hex digits>_<48 hex digits> (tenants create / add-key)")
    return Credential("api_key", key)


def player_token(token: str) -> Credential:
    """A player token (a JWT, ``eyJ…``) from ``Players.IssuePlayerToken``: acts for one player until it expires."""
    if not _JWT.fullmatch(token):
        raise ValueError("player_token: a player token is a JWT (eyJ….….…) from Players/IssuePlayerToken")
    return Credential("player_token", token)


def seat_token(token: str) -> Credential:
    """A seat token (64 hex digits) from ``CreateMatch``: reads, watches and plays that one seat."""
    if not _SEAT.fullmatch(token):
        raise ValueError("seat_token: a seat token is 64 hex digits, from CreateMatchResponse.tokens")
    return Credential("seat_token", token)


def operator_key(key: str) -> Credential:
    """The operator's key (``mo_…``): the ``Admin`` service only."""
    if not re.fullmatch(r"mo_\S+", key):
        raise ValueError("operator_key: an operator key looks like mo_… (mancala operator-key)")
    return Credential("operator_key", key)


def any_credential(secret: str) -> Credential:
    """Any of the three, told apart by its shape (a credential from a link or a config file)."""
    if secret.startswith("mk_"):
        return api_key(secret)
    if secret.startswith("eyJ"):
        return player_token(secret)
    if _SEAT.fullmatch(secret):
        return seat_token(secret)
    raise ValueError("credential: neither an API key (mk_…), a player token (eyJ…) nor a seat token (64 hex digits)")
