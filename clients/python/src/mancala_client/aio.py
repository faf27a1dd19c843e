"""The asyncio client (``grpc.aio``): the same services, errors, retries and helpers as
:class:`mancala_client.Client`, each call awaited and each stream an async iterator."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, AsyncIterator, Callable, Optional

import grpc
import grpc.aio

from . import _policy
from ._base import ClientBase
from ._proto.mancala.v1 import game_pb2, lobby_pb2, matches_pb2
from .client import Metadata, ReconnectHook
from .errors import MancalaError, from_rpc_error


class _Unary:
    def __init__(self, client: "AsyncClient", service: str, method: str, call: Any) -> None:
        self._client, self._call = client, call
        self._repeatable = _policy.safe_to_repeat(service, method)

    async def __call__(self, request: Any, *, timeout: Optional[float] = None, metadata: Metadata = ()) -> Any:
        client = self._client
        attempt = 0
        while True:
            try:
                return await self._call(request, timeout=timeout or client.timeout,
                                        metadata=await client._metadata(metadata))
            except grpc.RpcError as raw:
                error = from_rpc_error(raw)
            delay = _policy.unary_retry_delay(error, attempt, self._repeatable, client.rate_limit_retries,
                                              client.transport_retries)
            if delay is None:
                raise error
            await asyncio.sleep(delay)
            attempt += 1


class _Stream:
    def __init__(self, client: "AsyncClient", call: Any) -> None:
        self._client, self._call = client, call

    async def __call__(self, request: Any, *, timeout: Optional[float] = None,
                       metadata: Metadata = ()) -> AsyncIterator[Any]:
        stream = self._call(request, timeout=timeout, metadata=await self._client._metadata(metadata))
        try:
            async for message in stream:
                yield message
        except grpc.RpcError as raw:
            raise from_rpc_error(raw) from None
        finally:
            stream.cancel()


class AsyncService:
    """A service's stub whose methods send the client's credential and raise :class:`MancalaError`: unary methods are
    awaited (``await client.rules.NewGame(request)``), streaming ones iterated with ``async for``."""

    def __init__(self, client: "AsyncClient", stub: Any, service: str) -> None:
        for name, call in vars(stub).items():
            if isinstance(call, grpc.aio.UnaryUnaryMultiCallable):
                setattr(self, name, _Unary(client, service, name, call))
            elif isinstance(call, grpc.aio.UnaryStreamMultiCallable):
                setattr(self, name, _Stream(client, call))


class AsyncClient(ClientBase):
    """The asyncio twin of :class:`mancala_client.Client` (same arguments; ``credential`` may also be an async
    function). Use ``async with AsyncClient(…) as client:``."""

    _secure_channel = staticmethod(grpc.aio.secure_channel)
    _insecure_channel = staticmethod(grpc.aio.insecure_channel)
    _service = AsyncService

    async def _metadata(self, extra: Metadata) -> Metadata:
        source = self.credential
        credential = source() if callable(source) else source
        if inspect.isawaitable(credential):
            credential = await credential
        if credential is None:
            return tuple(extra)
        return (("authorization", f"Bearer {credential.secret}"), *extra)  # type: ignore[union-attr]

    async def reset_connection(self) -> None:
        """Drops the connection and opens a new channel: calls still in flight on the old one are cancelled, the next
        ones connect afresh. The resumable streams do this when a connection goes silent (``idle_timeout``): gRPC
        would otherwise send the new stream down the same dead connection."""
        old = self.channel
        self._connect()
        await old.close(grace=None)

    async def close(self) -> None:
        await self.channel.close(grace=None)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def submit_move(self, match_id: str, move: game_pb2.Move, *, expected_version: Optional[int] = None,
                          request_id: Optional[str] = None, retries: int = 4,
                          timeout: Optional[float] = None) -> matches_pb2.MatchEvent:
        """As :meth:`mancala_client.Client.submit_move`: a request id, the same on every retry after a failed
        connection, and ``expected_version`` against moves on a stale board."""
        request = _policy.submit_move_request(match_id, move, expected_version, request_id)
        return (await self._act(self.matches.SubmitMove, request, retries, timeout)).event

    async def resign(self, match_id: str, *, expected_version: Optional[int] = None,
                     request_id: Optional[str] = None, retries: int = 4,
                     timeout: Optional[float] = None) -> matches_pb2.MatchEvent:
        """``Matches.Resign`` with a request id and retries, as :meth:`submit_move`."""
        request = _policy.resign_request(match_id, expected_version, request_id)
        return (await self._act(self.matches.Resign, request, retries, timeout)).event

    async def _act(self, call: Callable[..., Any], request: Any, retries: int, timeout: Optional[float]) -> Any:
        attempt = 0
        while True:
            try:
                return await call(request, timeout=timeout)
            except MancalaError as error:
                delay = _policy.act_retry_delay(error, attempt, retries)
                if delay is None:
                    raise
            await asyncio.sleep(delay)
            attempt += 1

    async def watch_match(
        self, match_id: str, *, previews: bool = False, from_seq: Optional[int] = None, max_reconnects: int = 8,
        idle_timeout: float = _policy.IDLE_TIMEOUT,
        on_reconnect: Optional[ReconnectHook] = None,
    ) -> AsyncIterator[matches_pb2.WatchMatchResponse]:
        """As :meth:`mancala_client.Client.watch_match`, with ``async for``."""
        last = from_seq

        def open_stream() -> AsyncIterator[Any]:
            request = matches_pb2.WatchMatchRequest(match_id=match_id, previews=previews)
            if last is not None:
                request.from_seq = last
            return self.matches.WatchMatch(request)

        async for message in self._resumable(open_stream, lambda: last, max_reconnects, idle_timeout, on_reconnect,
                                       "finished"):
            last = _policy.match_resume_point(message, last)
            yield message

    def watch_player_events(self, *, after_event_id: int = 0, max_reconnects: int = 8,
                            idle_timeout: float = _policy.IDLE_TIMEOUT,
                            on_reconnect: Optional[ReconnectHook] = None) -> AsyncIterator[lobby_pb2.PlayerEvent]:
        """As :meth:`mancala_client.Client.watch_player_events`, with ``async for``."""
        return self._lobby_stream("WatchPlayerEvents", lobby_pb2.WatchPlayerEventsRequest, after_event_id,
                                  max_reconnects, idle_timeout, on_reconnect)

    def watch_tenant_feed(self, *, after_event_id: int = 0, max_reconnects: int = 8,
                          idle_timeout: float = _policy.IDLE_TIMEOUT,
                          on_reconnect: Optional[ReconnectHook] = None) -> AsyncIterator[lobby_pb2.FeedEvent]:
        """As :meth:`mancala_client.Client.watch_tenant_feed`, with ``async for``."""
        return self._lobby_stream("WatchTenantFeed", lobby_pb2.WatchTenantFeedRequest, after_event_id,
                                  max_reconnects, idle_timeout, on_reconnect)

    async def _lobby_stream(self, method: str, request: Any, after_event_id: int, max_reconnects: int,
                            idle_timeout: float, on_reconnect: Optional[ReconnectHook]) -> AsyncIterator[Any]:
        last = after_event_id
        def open_stream() -> Any:  # looked up at each (re)connect: reset_connection replaces the services
            return getattr(self.lobby, method)(request(after_event_id=last))

        async for event in self._resumable(open_stream, lambda: last, max_reconnects, idle_timeout, on_reconnect, None):
            last = _policy.events_resume_point(event, last)
            yield event

    async def _resumable(self, open_stream: Callable[[], AsyncIterator[Any]],
                         resume_from: Callable[[], Optional[int]], max_reconnects: int, idle_timeout: float,
                         on_reconnect: Optional[ReconnectHook], last_kind: Optional[str]) -> AsyncIterator[Any]:
        failures = 0
        while True:
            stream = open_stream()
            try:
                while True:
                    try:
                        # Only the waits count towards the idle timeout, not the consumer's time.
                        message = await asyncio.wait_for(stream.__anext__(), idle_timeout or None)
                    except StopAsyncIteration:
                        break
                    failures = 0
                    yield message
                    if last_kind is not None and message.WhichOneof("kind") == last_kind:
                        return
                error = _policy.ended_early()
            except asyncio.TimeoutError:
                error = _policy.idle_error(idle_timeout)
            except MancalaError as raised:
                if not raised.transient:
                    raise
                error = raised
            finally:
                await stream.aclose()  # type: ignore[attr-defined]
            if isinstance(error, _policy.IdleConnection):
                await self.reset_connection()
            failures += 1
            await asyncio.sleep(_policy.reconnect_delay(error, failures, max_reconnects, on_reconnect, resume_from()))
