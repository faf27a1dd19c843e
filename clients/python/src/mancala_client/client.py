"""The synchronous client: one gRPC channel, the services' stubs with the credential, typed errors and retries, and
the helpers every app needs (resumable streams, safe moves). The asyncio twin is :mod:`mancala_client.aio`."""

from __future__ import annotations

import inspect
import threading
import time
from typing import Any, Callable, Iterator, Optional, Tuple

import grpc

from . import _policy
from ._base import ClientBase
from ._proto.mancala.v1 import game_pb2, lobby_pb2, matches_pb2
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


class _Messages:
    """The messages of a streaming call; raises MancalaError; ``cancel`` ends it from any thread."""

    def __init__(self, call: Any) -> None:
        self._call = call

    def __iter__(self) -> "_Messages":
        return self

    def __next__(self) -> Any:
        try:
            return next(self._call)
        except grpc.RpcError as raw:
            raise from_rpc_error(raw) from None

    def cancel(self) -> None:
        self._call.cancel()

    close = cancel


class _Stream:
    def __init__(self, client: "Client", call: grpc.UnaryStreamMultiCallable) -> None:
        self._client, self._call = client, call

    def __call__(self, request: Any, *, timeout: Optional[float] = None, metadata: Metadata = ()) -> _Messages:
        return _Messages(self._call(request, timeout=timeout, metadata=self._client._metadata(metadata)))


class _Watchdog:
    """Cancels a stream that has been waited on for longer than ``idle`` seconds without a message (a connection
    gone silent: a NAT or proxy that dropped it without a word). Only the waits count, not the consumer's time."""

    def __init__(self, stream: _Messages, idle: float) -> None:
        self.fired = False
        self.waiting_since: Optional[float] = None
        self._done = threading.Event()
        if idle > 0:
            threading.Thread(target=self._run, args=(stream, idle), daemon=True).start()

    def _run(self, stream: _Messages, idle: float) -> None:
        while not self._done.wait(min(idle / 4, 1.0)):
            since = self.waiting_since
            if since is not None and time.monotonic() - since > idle:
                self.fired = True
                stream.cancel()
                return

    def stop(self) -> None:
        self._done.set()


class Service:
    """A service's stub whose methods send the client's credential and raise :class:`MancalaError`: unary methods
    (``client.rules.NewGame(request)``) return the answer, streaming ones an iterator of messages."""

    def __init__(self, client: "Client", stub: Any, service: str) -> None:
        for name, call in vars(stub).items():
            if isinstance(call, grpc.UnaryUnaryMultiCallable):
                setattr(self, name, _Unary(client, service, name, call))
            elif isinstance(call, grpc.UnaryStreamMultiCallable):
                setattr(self, name, _Stream(client, call))


class Client(ClientBase):
    """A connection to a mancala server.

    ``target`` is ``host:port``; ``credential`` is sent as ``authorization: Bearer`` with every call (a function is
    asked before each call and reconnect). ``channel_credentials`` (``grpc.ssl_channel_credentials()``) makes it TLS.
    A unary call refused for a rate limit is sent again after the server's ``RetryInfo`` delay, up to
    ``rate_limit_retries`` times; the stateless Rules calls and reads are sent again over a failed connection up to
    ``transport_retries`` times. ``timeout`` (seconds) is the default deadline of unary calls.
    """

    _secure_channel = staticmethod(grpc.secure_channel)
    _insecure_channel = staticmethod(grpc.insecure_channel)
    _service = Service

    def _metadata(self, extra: Metadata) -> Metadata:
        source = self.credential
        credential = source() if callable(source) else source
        if inspect.isawaitable(credential):
            raise TypeError("Client: the credential function is async; use AsyncClient")
        if credential is None:
            return tuple(extra)
        return (("authorization", f"Bearer {credential.secret}"), *extra)

    def reset_connection(self) -> None:
        """Drops the connection and opens a new channel: calls still in flight on the old one are cancelled, the next
        ones connect afresh. The resumable streams do this when a connection goes silent (``idle_timeout``): gRPC
        would otherwise send the new stream down the same dead connection."""
        old = self.channel
        self._connect()
        old.close()

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
                    max_reconnects: int = 8, idle_timeout: float = _policy.IDLE_TIMEOUT,
                    on_reconnect: Optional[ReconnectHook] = None) -> Iterator[matches_pb2.WatchMatchResponse]:
        """``Matches.WatchMatch``, resumed after a dropped connection from the last event's seq (no snapshot then, no
        event twice). Ends after the ``finished`` message; stop early by leaving the loop. ``idle_timeout`` seconds
        without a message (45: three missed heartbeats; 0: never) take the connection for dead: the client opens a new
        channel (:meth:`reset_connection`) and the stream resumes on it."""
        last = from_seq

        def open_stream() -> _Messages:
            request = matches_pb2.WatchMatchRequest(match_id=match_id, previews=previews)
            if last is not None:
                request.from_seq = last
            return self.matches.WatchMatch(request)

        for message in self._resumable(open_stream, lambda: last, max_reconnects, idle_timeout, on_reconnect,
                                       "finished"):
            last = _policy.match_resume_point(message, last)
            yield message

    def watch_player_events(self, *, after_event_id: int = 0, max_reconnects: int = 8,
                            idle_timeout: float = _policy.IDLE_TIMEOUT,
                            on_reconnect: Optional[ReconnectHook] = None) -> Iterator[lobby_pb2.PlayerEvent]:
        """``Lobby.WatchPlayerEvents`` (a player token), resumed from the last heartbeat's ``last_event_id`` or new
        event's id. Each (re)connect restates what stands for the player (``restated``): a ``match_started`` for a
        match already known is that match. Runs until the loop is left."""
        return self._lobby_stream("WatchPlayerEvents", lobby_pb2.WatchPlayerEventsRequest, after_event_id,
                                  max_reconnects, idle_timeout, on_reconnect)

    def watch_tenant_feed(self, *, after_event_id: int = 0, max_reconnects: int = 8,
                          idle_timeout: float = _policy.IDLE_TIMEOUT,
                          on_reconnect: Optional[ReconnectHook] = None) -> Iterator[lobby_pb2.FeedEvent]:
        """``Lobby.WatchTenantFeed`` (the tenant's API key), resumed as :meth:`watch_player_events`."""
        return self._lobby_stream("WatchTenantFeed", lobby_pb2.WatchTenantFeedRequest, after_event_id,
                                  max_reconnects, idle_timeout, on_reconnect)

    def _lobby_stream(self, method: str, request: Any, after_event_id: int, max_reconnects: int,
                      idle_timeout: float, on_reconnect: Optional[ReconnectHook]) -> Iterator[Any]:
        last = after_event_id
        def open_stream() -> Any:  # looked up at each (re)connect: reset_connection replaces the services
            return getattr(self.lobby, method)(request(after_event_id=last))

        for event in self._resumable(open_stream, lambda: last, max_reconnects, idle_timeout, on_reconnect, None):
            last = _policy.events_resume_point(event, last)
            yield event

    def _resumable(self, open_stream: Callable[[], _Messages], resume_from: Callable[[], Optional[int]],
                   max_reconnects: int, idle_timeout: float, on_reconnect: Optional[ReconnectHook],
                   last_kind: Optional[str]) -> Iterator[Any]:
        failures = 0
        while True:
            stream = open_stream()
            watchdog = _Watchdog(stream, idle_timeout)
            try:
                while True:
                    watchdog.waiting_since = time.monotonic()
                    try:
                        message = next(stream)
                    except StopIteration:
                        break
                    finally:
                        watchdog.waiting_since = None
                    failures = 0
                    yield message
                    if last_kind is not None and message.WhichOneof("kind") == last_kind:
                        return
                error = _policy.ended_early()
            except MancalaError as raised:
                if watchdog.fired:
                    raised = _policy.idle_error(idle_timeout)
                if not raised.transient:
                    raise
                error = raised
            finally:
                watchdog.stop()
                stream.close()
            if watchdog.fired:
                self.reset_connection()
            failures += 1
            time.sleep(_policy.reconnect_delay(error, failures, max_reconnects, on_reconnect, resume_from()))
