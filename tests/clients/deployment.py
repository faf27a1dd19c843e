#!/usr/bin/env python3
"""A server-held match played through a deployment (the image, compose), with a record of every move the
server acknowledged, so that the deployment can be restarted or lose a replica between two runs and then be
checked to have lost none of them. Python grpcio, by reflection (as tests/clients/play_ba_awa.py).

    python3 tests/clients/deployment.py health 127.0.0.1:50051 [more addresses...]
    python3 tests/clients/deployment.py play ADDRESS --api-key KEY --record match.json --moves 10
    python3 tests/clients/deployment.py verify ADDRESS --api-key KEY --record match.json
    python3 tests/clients/deployment.py end ADDRESS --api-key KEY --record match.json

`play` creates a Bosh match with two seats the client holds (the first run) and plays random legal moves for
whichever seat is to move. A call that finds no replica (UNAVAILABLE, DEADLINE_EXCEEDED: the one answering was
killed or is draining) is sent again, the same move with the same request id, until it is answered: a move the
server applied once is never applied twice (SubmitMove is idempotent by request id), and a move is recorded
only once acknowledged. `verify` reads the match's whole log (GetHistory) and checks that every acknowledged
move is in it, at the seq it was acknowledged with, and nothing else. Exit status 0 means every check passed.
"""

import argparse
import json
import random
import sys
import time

import grpc
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc

from play_ba_awa import Service, check

# What a lost replica looks like to a client: the call is worth sending again.
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


def with_retries(what, call, attempts=60):
    """`call()`, sent again on a retryable status for up to about `attempts` half-seconds."""
    for attempt in range(attempts):
        try:
            return call()
        except grpc.RpcError as error:
            if error.code() not in RETRYABLE or attempt == attempts - 1:
                raise
            print(f"  {what}: {error.code().name} ({error.details()}); sending it again")
            time.sleep(0.5)
    raise AssertionError("unreachable")


def health(addresses):
    for address in addresses:
        channel = grpc.insecure_channel(address)
        stub = health_pb2_grpc.HealthStub(channel)
        status = with_retries(f"health of {address}", lambda: stub.Check(
            health_pb2.HealthCheckRequest(service=""), timeout=5).status)
        check(status == health_pb2.HealthCheckResponse.SERVING, f"grpc.health.v1 at {address} is SERVING")


def matches_service(address, api_key):
    channel = grpc.insecure_channel(address)
    grpc.channel_ready_future(channel).result(timeout=30)
    return with_retries("reflection", lambda: Service(channel, "mancala.v1.Matches", api_key=api_key))


def play(address, api_key, record_path, moves, seed):
    matches = matches_service(address, api_key)
    try:
        with open(record_path) as f:
            record = json.load(f)
        snapshot = with_retries("GetMatch", lambda: matches.call("GetMatch", matchId=record["matchId"])).match
        legal, state, version = list(snapshot.legal_moves), snapshot.state, snapshot.version
    except FileNotFoundError:
        created = with_retries("CreateMatch", lambda: matches.call("CreateMatch", kind="GAME_KIND_BOSH"))
        record = {
            "matchId": created.match.match_id,
            "tokens": {json_format.MessageToDict(t)["player"]: t.token for t in created.tokens},
            "acknowledged": [],
        }
        legal, state, version = list(created.match.legal_moves), created.match.state, created.match.version
        check(len(record["tokens"]) == 2, f"match {record['matchId']} created with two seat tokens")
    check(version == len(record["acknowledged"]),
          f"the match is at version {version}: every acknowledged move so far, nothing else")
    rng = random.Random(f"{seed}/{version}")
    played = 0
    while played < moves and legal:
        move = json_format.MessageToDict(rng.choice(legal))
        request_id = f"ci-{version + 1}"
        # The seat to move; between rounds (no one to move) the seat that opens the next one, whichever the
        # server accepts.
        to_move = json_format.MessageToDict(state).get("toMove")
        answer = None
        for seat in [to_move] if to_move else sorted(record["tokens"]):
            try:
                answer = with_retries(f"SubmitMove {request_id}", lambda: matches.call(
                    "SubmitMove", metadata=[("authorization", f"Bearer {record['tokens'][seat]}")],
                    matchId=record["matchId"], move=move, expectedVersion=version, requestId=request_id))
                to_move = seat
                break
            except grpc.RpcError as error:
                if to_move or error.code() not in (grpc.StatusCode.FAILED_PRECONDITION,
                                                   grpc.StatusCode.PERMISSION_DENIED):
                    raise
        assert answer is not None, f"neither seat may play {move}"
        event = answer.event
        assert event.seq == version + 1, f"move {request_id} acknowledged at seq {event.seq}"
        record["acknowledged"].append({"seq": event.seq, "player": to_move, "move": move})
        with open(record_path, "w") as f:
            json.dump(record, f)
        legal, state, version = list(event.legal_moves), event.state, event.seq
        played += 1
    check(played == moves or not legal,
          f"{played} moves acknowledged (match {record['matchId']} at version {version})")


def verify(address, api_key, record_path):
    with open(record_path) as f:
        record = json.load(f)
    matches = matches_service(address, api_key)
    history = with_retries("GetHistory", lambda: matches.call("GetHistory", matchId=record["matchId"]))
    logged = [{"seq": e.seq, "player": json_format.MessageToDict(e)["player"],
               "move": json_format.MessageToDict(e.move)} for e in history.events if e.HasField("move")]
    acknowledged = record["acknowledged"]
    check(history.match.version == len(acknowledged),
          f"match {record['matchId']} is at version {history.match.version}: "
          f"{len(acknowledged)} moves were acknowledged")
    check(logged == acknowledged, "its log holds every acknowledged move, in order, and nothing else")


def end(address, api_key, record_path):
    """Ends the match (a resignation) unless it ended already, and prints `reason: NAME`, the reason's name as
    the server logs it (MATCH_END_REASON_PLAYED_OUT: played_out)."""
    with open(record_path) as f:
        record = json.load(f)
    matches = matches_service(address, api_key)
    match = with_retries("GetMatch", lambda: matches.call("GetMatch", matchId=record["matchId"])).match
    if not match.HasField("result"):
        seat, token = sorted(record["tokens"].items())[0]
        answer = with_retries("Resign", lambda: matches.call(
            "Resign", metadata=[("authorization", f"Bearer {token}")], matchId=record["matchId"]))
        check(answer.event.HasField("resignation"), f"{seat} resigned match {record['matchId']}")
        match = with_retries("GetMatch", lambda: matches.call("GetMatch", matchId=record["matchId"])).match
    reason = json_format.MessageToDict(match.result)["reason"].removeprefix("MATCH_END_REASON_").lower()
    print(f"reason: {reason}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    health_command = commands.add_parser("health", help="grpc.health.v1 SERVING at every address")
    health_command.add_argument("addresses", nargs="+")
    for name in ("play", "verify", "end"):
        command = commands.add_parser(name)
        command.add_argument("address")
        command.add_argument("--api-key", required=True, help="a tenant's API key")
        command.add_argument("--record", required=True, help="the JSON file of the match's acknowledged moves")
        if name == "play":
            command.add_argument("--moves", type=int, required=True, help="how many moves to play")
            command.add_argument("--seed", default="deployment", help="the random moves' seed")
    arguments = parser.parse_args()
    if arguments.command == "health":
        health(arguments.addresses)
    elif arguments.command == "play":
        play(arguments.address, arguments.api_key, arguments.record, arguments.moves, arguments.seed)
    elif arguments.command == "verify":
        verify(arguments.address, arguments.api_key, arguments.record)
    else:
        end(arguments.address, arguments.api_key, arguments.record)


if __name__ == "__main__":
    sys.exit(main())
