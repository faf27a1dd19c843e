"""The asyncio client against the real binary: a whole match with both seats' moves awaited, a refusal decoded,
a cut watch resumed, a rate limit waited out."""

from __future__ import annotations

import grpc

from conftest import Proxy, Server, player_tokens
from mancala_client import AsyncClient, RateLimitedError, VersionConflictError, api_key, pb, player_token


async def new_match(client: AsyncClient) -> "pb.Match":
    created = await client.matches.CreateMatch(pb.CreateMatchRequest(
        kind=pb.GAME_KIND_BA_AWA, options=pb.GameOptions(max_games=1),
        players=[pb.SeatPlayer(player=pb.PLAYER_SOUTH, player_id="ann"),
                 pb.SeatPlayer(player=pb.PLAYER_NORTH, player_id="bob")]))
    return created.match


class AsyncTable:
    """The asyncio twin of conftest.Table."""

    def __init__(self, ann: AsyncClient, bob: AsyncClient, match: "pb.Match") -> None:
        self.ann, self.bob, self.match = ann, bob, match

    async def play_one(self) -> None:
        seat = self.ann if self.match.state.to_move == pb.PLAYER_SOUTH else self.bob
        await seat.submit_move(self.match.match_id, self.match.legal_moves[0], expected_version=self.match.version)
        self.match = (await self.ann.matches.GetMatch(pb.GetMatchRequest(match_id=self.match.match_id))).match


async def test_a_whole_match_awaited(server: Server) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")

    async def fresh_token():  # an async credential source, as an app that renews its token would pass
        return player_token(bob_token)

    async with AsyncClient(server.target, player_token(ann_token)) as ann, \
            AsyncClient(server.target, fresh_token) as bob:
        match = await new_match(ann)
        version, finished = match.version, False
        async for message in ann.watch_match(match.match_id):
            kind = message.WhichOneof("kind")
            if kind == "finished":
                finished = True
                continue
            if kind == "snapshot":
                version, legal, to_move = (message.snapshot.match.version, message.snapshot.match.legal_moves,
                                           message.snapshot.match.state.to_move)
            elif kind == "event":
                assert message.event.seq == version + 1
                version, legal, to_move = message.event.seq, message.event.legal_moves, message.event.state.to_move
            else:
                continue
            if legal:
                seat = ann if to_move == pb.PLAYER_SOUTH else bob
                await seat.submit_move(match.match_id, legal[0], expected_version=version)
        assert finished
        final = (await bob.matches.GetMatch(pb.GetMatchRequest(match_id=match.match_id))).match
        assert final.status == pb.MATCH_STATUS_FINISHED and final.version == version

        try:
            await ann.submit_move(match.match_id, pb.Move(sow=pb.Sow(pit=0)), expected_version=0)
            raise AssertionError("a move on a finished match at version 0 was accepted")
        except VersionConflictError as error:
            assert error.code == grpc.StatusCode.ABORTED and error.current_version == version


async def test_a_cut_watch_resumes_awaited(server: Server, proxy: Proxy) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")
    async with AsyncClient(server.target, player_token(ann_token)) as ann, \
            AsyncClient(server.target, player_token(bob_token)) as bob, \
            AsyncClient(proxy.target, player_token(ann_token)) as watcher:
        table = AsyncTable(ann, bob, await new_match(ann))
        match = table.match
        reconnects, seen = [], []
        await table.play_one()
        watch = watcher.watch_match(match.match_id, from_seq=0, on_reconnect=lambda *i: reconnects.append(i))
        async for message in watch:
            if message.WhichOneof("kind") != "event":
                continue
            seen.append(message.event.seq)
            if len(seen) == 2:
                assert proxy.cut() >= 1
                await table.play_one()
                await table.play_one()
            elif len(seen) < 5:
                await table.play_one()
            else:
                break
        assert seen == [1, 2, 3, 4, 5]
        assert reconnects and reconnects[0][2] == 2


async def test_a_silent_watch_is_resumed_awaited(server: Server, proxy: Proxy) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")
    async with AsyncClient(server.target, player_token(ann_token)) as ann, \
            AsyncClient(server.target, player_token(bob_token)) as bob, \
            AsyncClient(proxy.target, player_token(ann_token)) as watcher:
        table = AsyncTable(ann, bob, await new_match(ann))
        match = table.match
        reconnects, seen = [], []
        await table.play_one()
        watch = watcher.watch_match(match.match_id, from_seq=0, idle_timeout=1.0,
                                    on_reconnect=lambda *i: reconnects.append(i))
        async for message in watch:
            if message.WhichOneof("kind") != "event":
                continue
            seen.append(message.event.seq)
            if len(seen) == 1:
                assert proxy.freeze() >= 1
                await table.play_one()
                await table.play_one()
            elif len(seen) == 3:
                break
        assert seen == [1, 2, 3]
        assert any("taken for dead" in r[1].message for r in reconnects), reconnects


async def test_a_rate_limit_waited_out_awaited(server: Server) -> None:
    async with AsyncClient(server.target, api_key(server.tight_key), rate_limit_retries=0) as impatient:
        refused = None
        for _ in range(5):
            try:
                await impatient.rules.NewGame(pb.NewGameRequest(kind=pb.GAME_KIND_BOSH))
            except RateLimitedError as error:
                refused = error
                break
        assert refused is not None and refused.retry_delay is not None and refused.reason == "RATE_LIMITED"
    async with AsyncClient(server.target, api_key(server.tight_key)) as patient:
        for _ in range(3):
            assert (await patient.rules.NewGame(pb.NewGameRequest(kind=pb.GAME_KIND_BOSH))).state.pits
