"""What the sync and the asyncio client hold alike: the settings, the channel and the five services on it."""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional, Sequence, Tuple

import grpc

from . import _policy
from .credentials import AsyncCredentialSource


class ClientBase:
    rules: Any
    matches: Any
    players: Any
    lobby: Any
    admin: Any
    # Set by each client: how it opens a channel, and the service wrapper around a stub.
    _secure_channel: ClassVar[Callable[..., Any]]
    _insecure_channel: ClassVar[Callable[..., Any]]
    _service: ClassVar[Any]

    def __init__(self, target: str, credential: AsyncCredentialSource = None, *,
                 channel_credentials: Optional[grpc.ChannelCredentials] = None, rate_limit_retries: int = 3,
                 transport_retries: int = 3, timeout: Optional[float] = None,
                 options: Sequence[Tuple[str, Any]] = ()) -> None:
        self.credential = credential
        self.rate_limit_retries = rate_limit_retries
        self.transport_retries = transport_retries
        self.timeout = timeout
        self._target, self._channel_credentials, self._options = target, channel_credentials, tuple(options)
        self._connect()

    def _connect(self) -> None:
        cls = type(self)
        if self._channel_credentials is not None:
            self.channel = cls._secure_channel(self._target, self._channel_credentials, self._options)
        else:
            self.channel = cls._insecure_channel(self._target, self._options)
        for name, stub, service in _policy.SERVICES:
            setattr(self, name, cls._service(self, stub(self.channel), service))
