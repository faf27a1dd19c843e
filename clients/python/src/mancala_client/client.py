"""The synchronous client: one gRPC channel, the services' stubs with the credential, typed errors and retries, and
the helpers every app needs (resumable streams, safe moves). The asyncio twin is :mod:`mancala_client.aio`."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator, Optional, Sequence, Tuple

import grpc

from . import _policy
from ._proto.mancala.v1 import (admin_pb2_grpc, game_pb2, lobby_pb2, lobby_pb2_grpc, matches_pb2,
                                matches_pb2_grpc, players_pb2_grpc, rules_pb2_grpc)
from .credentials import CredentialSource
from .errors import MancalaError, from_rpc_error

Metadata = Tuple[Tuple[str, str], ...]
ReconnectHook = Callable[[int, MancalaError, Optional[int], float], None]
"""Told of each reconnect of a resumable stream: attempt (1, 2 … in a row), the error, the resume point, the pause."""


class _Unary:
    def __init__(self, client: "Client", service: str, method: str, call: grpc.UnaryUnaryMultiCallable) -> None:
        self._client, self._call = client, call
        self._repeatable = _policy.safe_to_repeat(service, method)

    def __call__(self, request: Any, *, timeout: Optional[float] = None, metadata: Metadata = ()) -> Any:
        client = self._client
        attempt = 0
        while True:
            try:
                return self._call(request, timeout=timeout or client.timeout, metadata=client._metadata(metadata))
            except grpc.RpcError as raw:
                error = from_rpc_error(raw)
            delay = _policy.unary_retry_delay(error, attempt, self._repeatable, client.rate_limit_retries,
                                              client.transport_retries)
            if delay is None:
                raise error
            time.sleep(delay)
            attempt += 1


class _Stream:
    def __init__(self, client: "Client", call: grpc.UnaryStreamMultiCallable) -> None:
        self._client, self._call = client, call

    def __call__(self, request: Any, *, timeout: Optional[float] = None, metadata: Metadata = ()) -> Iterator[Any]:
        stream = self._call(request, timeout=timeout, metadata=self._client._metadata(metadata))
        try:
            yield from stream
        except grpc.RpcError as raw:
            raise from_rpc_error(raw) from None
        finally:
            stream.cancel()


class Service:
    """A service's stub whose methods send the client's credential and raise :class:`MancalaError`: unary methods
    (``client.rules.NewGame(request)``) return the answer, streaming ones an iterator of messages."""

    def __init__(self, client: "Client", stub: Any, service: str) -> None:
        for name, call in vars(stub).items():
            if isinstance(call, grpc.UnaryUnaryMultiCallable):
                setattr(self, name, _Unary(client, service, name, call))
            elif isinstance(call, grpc.UnaryStreamMultiCallable):
                setattr(self, name, _Stream(client, call))


class Client:
    """A connection to a mancala server.

    ``target`` is ``host:port``; ``credential`` is sent as ``authorization: Bearer`` with every call (a function is
    asked before each call and reconnect). ``channel_credentials`` (``grpc.ssl_channel_credentials()``) makes it TLS.
    A unary call refused for a rate limit is sent again after the server's ``RetryInfo`` delay, up to
    ``rate_limit_retries`` times; the stateless Rules calls and reads are sent again over a failed connection up to
    ``transport_retries`` times. ``timeout`` (seconds) is the default deadline of unary calls.
    """

    def __init__(self, target: str, credential: CredentialSource = None, *,
                 channel_credentials: Optional[grpc.ChannelCredentials] = None, rate_limit_retries: int = 3,
                 transport_retries: int = 3, timeout: Optional[float] = None,
                 options: Sequence[Tuple[str, Any]] = ()) -> None:
        self.credential = credential
        self.rate_limit_retries = rate_limit_retries
        self.transport_retries = transport_retries
        self.timeout = timeout
        self.channel = (grpc.secure_channel(target, channel_credentials, options) if channel_credentials
                        else grpc.insecure_channel(target, options))
        self.rules: Any = Service(self, rules_pb2_grpc.RulesStub(self.channel), "mancala.v1.Rules")
        self.matches: Any = Service(self, matches_pb2_grpc.MatchesStub(self.channel), "mancala.v1.Matches")
        self.players: Any = Service(self, players_pb2_grpc.PlayersStub(self.channel), "mancala.v1.Players")
        self.lobby: Any = Service(self, lobby_pb2_grpc.LobbyStub(self.channel), "mancala.v1.Lobby")
        self.admin: Any = Service(self, admin_pb2_grpc.AdminStub(self.channel), "mancala.v1.Admin")

    def _metadata(self, extra: Metadata) -> Metadata:
        source = self.credential
        credential = source() if callable(source) else source
        if credential is None:
            return tuple(extra)
        return (("authorization", f"Bearer {credential.secret}"), *extra)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit_move(self, match_id: str, move: game_pb2.Move, *, expected_version: Optional[int] = None,
                    request_id: Optional[str] = None, retries: int = 4,
                    timeout: Optional[float] = None) -> matches_pb2.MatchEvent:
        """``Matches.SubmitMove`` with a request id (a random one unless given), sent again with that same id when the
        connection fails: the answer may have been lost after the move was applied, and the retry gets the original
        answer. ``expected_version`` (the version the move was decided on) makes a move on a stale board a
        :class:`~mancala_client.errors.VersionConflictError` instead of a move played. Returns the accepted event."""
        request = _policy.submit_move_request(match_id, move, expected_version, request_id)
        return self._act(self.matches.SubmitMove, request, retries, timeout).event

    def resign(self, match_id: str, *, expected_version: Optional[int] = None, request_id: Optional[str] = None,
               retries: int = 4, timeout: Optional[float] = None) -> matches_pb2.MatchEvent:
        """``Matches.Resign`` with a request id and retries, as :meth:`submit_move`."""
        request = _policy.resign_request(match_id, expected_version, request_id)
        return self._act(self.matches.Resign, request, retries, timeout).event

    def _act(self, call: Callable[..., Any], request: Any, retries: int, timeout: Optional[float]) -> Any:
        attempt = 0
        while True:
            try:
                return call(request, timeout=timeout)
            except MancalaError as error:
                delay = _policy.act_retry_delay(error, attempt, retries)
                if delay is None:
                    raise
            time.sleep(delay)
            attempt += 1

    def watch_match(self, match_id: str, *, previews: bool = False, from_seq: Optional[int] = None,
                    max_reconnects: int = 8,
                    on_reconnect: Optional[ReconnectHook] = None) -> Iterator[matches_pb2.WatchMatchResponse]:
        """``Matches.WatchMatch``, resumed after a dropped connection from the last event's seq (no snapshot then, no
        event twice). Ends after the ``finished`` message; stop early by leaving the loop."""
        last = from_seq

        def open_stream() -> Iterator[Any]:
            request = matches_pb2.WatchMatchRequest(match_id=match_id, previews=previews)
            if last is not None:
                request.from_seq = last
            return self.matches.WatchMatch(request)

        for message in self._resumable(open_stream, lambda: last, max_reconnects, on_reconnect, "finished"):
            last = _policy.match_resume_point(message, last)
            yield message

    def watch_player_events(self, *, after_event_id: int = 0, max_reconnects: int = 8,
                            on_reconnect: Optional[ReconnectHook] = None) -> Iterator[lobby_pb2.PlayerEvent]:
        """``Lobby.WatchPlayerEvents`` (a player token), resumed from the last heartbeat's ``last_event_id`` or new
        event's id. Each (re)connect restates what stands for the player (``restated``): a ``match_started`` for a
        match already known is that match. Runs until the loop is left."""
        return self._lobby_stream(self.lobby.WatchPlayerEvents, lobby_pb2.WatchPlayerEventsRequest, after_event_id,
                                  max_reconnects, on_reconnect)

    def watch_tenant_feed(self, *, after_event_id: int = 0, max_reconnects: int = 8,
                          on_reconnect: Optional[ReconnectHook] = None) -> Iterator[lobby_pb2.FeedEvent]:
        """``Lobby.WatchTenantFeed`` (the tenant's API key), resumed as :meth:`watch_player_events`."""
        return self._lobby_stream(self.lobby.WatchTenantFeed, lobby_pb2.WatchTenantFeedRequest, after_event_id,
                                  max_reconnects, on_reconnect)

    def _lobby_stream(self, call: Callable[[Any], Any], request: Any, after_event_id: int, max_reconnects: int,
                      on_reconnect: Optional[ReconnectHook]) -> Iterator[Any]:
        last = after_event_id
        for event in self._resumable(lambda: call(request(after_event_id=last)), lambda: last, max_reconnects,
                                     on_reconnect, None):
            last = _policy.events_resume_point(event, last)
            yield event

    def _resumable(self, open_stream: Callable[[], Iterator[Any]], resume_from: Callable[[], Optional[int]],
                   max_reconnects: int, on_reconnect: Optional[ReconnectHook],
                   last_kind: Optional[str]) -> Iterator[Any]:
        failures = 0
        while True:
            stream = open_stream()
            try:
                for message in stream:
                    failures = 0
                    yield message
                    if last_kind is not None and message.WhichOneof("kind") == last_kind:
                        return
                error = _policy.ended_early()
            except MancalaError as raised:
                if not raised.transient:
                    raise
                error = raised
            finally:
                stream.close()  # type: ignore[attr-defined]
            failures += 1
            time.sleep(_policy.reconnect_delay(error, failures, max_reconnects, on_reconnect, resume_from()))
