"""The sync client against the real binary: a whole match, refusals decoded, a stream cut and resumed, a rate limit
answered after its delay, a lost answer to a move retried with its request id."""

from __future__ import annotations

import grpc
import pytest

from conftest import Proxy, Server, Table, new_match, player_tokens
from mancala_client import (BadRequestError, Client, IllegalMoveError, RateLimitedError, VersionConflictError,
                            api_key, pb, player_token, seat_token)


def test_a_whole_match_between_two_players(server: Server) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")
    with Client(server.target, player_token(ann_token)) as ann, Client(server.target, player_token(bob_token)) as bob:
        match = new_match(ann)
        version, moves, finished = match.version, 0, False

        def play(legal, to_move) -> None:
            nonlocal moves
            if not legal:
                return
            seat = ann if to_move == pb.PLAYER_SOUTH else bob
            event = seat.submit_move(match.match_id, legal[0], expected_version=version)
            assert event.seq == version + 1
            moves += 1

        for message in ann.watch_match(match.match_id):
            kind = message.WhichOneof("kind")
            if kind == "snapshot":
                version = message.snapshot.match.version
                play(message.snapshot.match.legal_moves, message.snapshot.match.state.to_move)
            elif kind == "event":
                assert message.event.seq == version + 1, "events in seq order, no gap"
                version = message.event.seq
                play(message.event.legal_moves, message.event.state.to_move)
            elif kind == "finished":
                finished = True
                assert message.finished.version == version
        assert finished
        final = ann.matches.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).match
        assert final.status == pb.MATCH_STATUS_FINISHED and final.version == version
        assert moves > 5


def test_refusals_are_typed_with_their_details(server: Server) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")
    with Client(server.target, player_token(ann_token)) as ann, Client(server.target, player_token(bob_token)) as bob:
        match = new_match(ann)
        with pytest.raises(IllegalMoveError) as illegal:  # South sowing North's N1
            ann.submit_move(match.match_id, pb.Move(sow=pb.Sow(pit=6)))
        assert illegal.value.code == grpc.StatusCode.FAILED_PRECONDITION
        assert (illegal.value.domain, illegal.value.reason) == ("mancala.v1", "NOT_YOUR_PIT")
        assert illegal.value.metadata["pit"] == "6"

        ann.submit_move(match.match_id, match.legal_moves[0], expected_version=0)
        with pytest.raises(VersionConflictError) as stale:
            bob.submit_move(match.match_id, pb.Move(sow=pb.Sow(pit=6)), expected_version=0)
        assert stale.value.code == grpc.StatusCode.ABORTED
        assert stale.value.reason == "VERSION_MISMATCH"
        assert stale.value.current_version == 1

    with Client(server.target) as anonymous:
        with pytest.raises(BadRequestError) as bad:
            anonymous.rules.NewGame(pb.NewGameRequest(kind=pb.GAME_KIND_BA_AWA,
                                                      options=pb.GameOptions(ba_awa_target=13)))
        assert any("ba_awa_target" in v.field for v in bad.value.field_violations), bad.value.field_violations

    with pytest.raises(ValueError, match="seat token is 64 hex digits"):
        seat_token(server.acme_key)
    with pytest.raises(ValueError, match="API key looks like mk_"):
        api_key("eyJhbGciOi.x.y")


def test_a_cut_watch_resumes_after_its_last_event(server: Server, proxy: Proxy) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")
    with Client(server.target, player_token(ann_token)) as ann, Client(server.target, player_token(bob_token)) as bob, \
            Client(proxy.target, player_token(ann_token)) as watcher:
        table = Table(ann, bob, new_match(ann))
        match = table.match
        reconnects = []
        seen = []
        table.play_one()
        watch = watcher.watch_match(match.match_id, from_seq=0, on_reconnect=lambda *info: reconnects.append(info))
        for message in watch:
            if message.WhichOneof("kind") != "event":
                continue
            seen.append(message.event.seq)
            if len(seen) == 2:
                assert proxy.cut() >= 1
                table.play_one()
                table.play_one()
            elif len(seen) < 5:
                table.play_one()
            else:
                break
        assert seen == [1, 2, 3, 4, 5]
        assert reconnects and reconnects[0][2] == 2, reconnects


def test_a_silent_watch_is_taken_for_dead_and_resumed(server: Server, proxy: Proxy) -> None:
    ann_token, bob_token = player_tokens(server, "ann", "bob")
    with Client(server.target, player_token(ann_token)) as ann, Client(server.target, player_token(bob_token)) as bob, \
            Client(proxy.target, player_token(ann_token)) as watcher:
        table = Table(ann, bob, new_match(ann))
        match = table.match
        reconnects, seen = [], []
        table.play_one()
        watch = watcher.watch_match(match.match_id, from_seq=0, idle_timeout=1.0,
                                    on_reconnect=lambda *info: reconnects.append(info))
        for message in watch:
            if message.WhichOneof("kind") != "event":
                continue
            seen.append(message.event.seq)
            if len(seen) == 1:
                assert proxy.freeze() >= 1
                table.play_one()
                table.play_one()
            elif len(seen) == 3:
                break
        assert seen == [1, 2, 3]
        idle = [r for r in reconnects if "taken for dead" in r[1].message]
        assert idle and idle[0][2] == 1, reconnects


def test_a_cut_player_stream_resumes_and_restates_his_match(server: Server, proxy: Proxy) -> None:
    (ann_token,) = player_tokens(server, "ann")
    with Client(server.target, player_token(ann_token)) as ann, Client(proxy.target, player_token(ann_token)) as app:
        reconnects = []
        match = None
        started_id = 0
        for event in app.watch_player_events(on_reconnect=lambda *info: reconnects.append(info)):
            kind = event.WhichOneof("event")
            if kind == "heartbeat" and match is None:
                match = new_match(ann)
            if kind != "match_started" or match is None or event.match_started.match_id != match.match_id:
                continue
            if not event.restated:
                started_id = event.event_id
                assert proxy.cut() >= 1
            else:
                break
        assert started_id > 0
        assert len(reconnects) == 1 and reconnects[0][2] == started_id


def test_a_rate_limit_is_answered_with_its_delay(server: Server) -> None:
    with Client(server.target, api_key(server.tight_key), rate_limit_retries=0) as impatient:
        refused = None
        for _ in range(5):
            try:
                impatient.rules.NewGame(pb.NewGameRequest(kind=pb.GAME_KIND_BOSH))
            except RateLimitedError as error:
                refused = error
                break
        assert refused is not None
        assert refused.code == grpc.StatusCode.RESOURCE_EXHAUSTED and refused.reason == "RATE_LIMITED"
        assert refused.retry_delay is not None and 0 < refused.retry_delay <= 1
        assert any(q.subject == "tenant:tight" for q in refused.quota_violations)

    attempts = []

    class Counting(grpc.UnaryUnaryClientInterceptor):
        def intercept_unary_unary(self, continuation, details, request):
            outcome = continuation(details, request)
            attempts.append(outcome.code() if outcome.exception() else grpc.StatusCode.OK)
            return outcome

    with Client(server.target, api_key(server.tight_key)) as patient:
        counted = grpc.intercept_channel(patient.channel, Counting())
        patient.rules = type(patient.rules)(patient, pb_rules_stub(counted), "mancala.v1.Rules")
        for _ in range(3):
            assert patient.rules.NewGame(pb.NewGameRequest(kind=pb.GAME_KIND_BOSH)).state.pits
    limited = attempts.count(grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert limited >= 1, attempts
    assert len(attempts) == 3 + limited and attempts.count(grpc.StatusCode.OK) == 3


def pb_rules_stub(channel):
    from mancala_client._proto.mancala.v1 import rules_pb2_grpc

    return rules_pb2_grpc.RulesStub(channel)


def test_a_lost_answer_is_sent_again_with_the_same_request_id(server: Server) -> None:
    (ann_token,) = player_tokens(server, "ann")
    sent = []

    class LoseFirstAnswer(grpc.UnaryUnaryClientInterceptor):
        """Delivers the first SubmitMove to the server, then loses its answer, as a dropped connection would."""

        def intercept_unary_unary(self, continuation, details, request):
            outcome = continuation(details, request)
            if details.method.endswith("/SubmitMove"):
                sent.append(request.request_id)
                if len(sent) == 1:
                    outcome.result()  # the move is applied
                    raise _Unavailable()
            return outcome

    class _Unavailable(grpc.RpcError, grpc.Call):
        def code(self):
            return grpc.StatusCode.UNAVAILABLE

        def details(self):
            return "the connection dropped before the answer"

        def trailing_metadata(self):
            return ()

        def initial_metadata(self):
            return ()

        def is_active(self):
            return False

        def time_remaining(self):
            return None

        def cancel(self):
            return False

        def add_callback(self, callback):
            return False

    with Client(server.target, player_token(ann_token)) as ann:
        match = new_match(ann)
        lossy = grpc.intercept_channel(ann.channel, LoseFirstAnswer())
        from mancala_client._proto.mancala.v1 import matches_pb2_grpc

        ann.matches = type(ann.matches)(ann, matches_pb2_grpc.MatchesStub(lossy), "mancala.v1.Matches")
        event = ann.submit_move(match.match_id, match.legal_moves[0], expected_version=match.version)
        assert len(sent) == 2 and sent[0] == sent[1] and len(sent[0]) == 32
        assert event.seq == 1
        assert ann.matches.GetMatch(pb.GetMatchRequest(match_id=match.match_id)).match.version == 1
