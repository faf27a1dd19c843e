#!/usr/bin/env python3
"""A real gRPC client that is not the project's own: Python grpcio, knowing nothing but the server's address.

It discovers the services by server reflection, checks grpc.health.v1, plays a complete Ba-awa match through
the stateless Rules service alone (NewGame, ListLegalMoves, ApplyMove, ValidateMove, DescribeGame), applies a
move without its events, asks the built-in opponent for a hint and a move (AnalyzePosition, SuggestMove), asks the load generator's Echo for a sized answer, and sends bad input to see clear
errors. Exit status 0 means every check passed.

    pip install grpcio grpcio-reflection grpcio-health-checking
    python3 tests/clients/play_ba_awa.py 127.0.0.1:50051
    python3 tests/clients/play_ba_awa.py --ca ca.pem 127.0.0.1:50051    # a server with [tls]
"""

import argparse
import os
import random
import sys

import grpc
from google.protobuf import json_format, message_factory
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase


class Service:
    """Calls one service with message classes built from the server's own reflection answers."""

    def __init__(self, channel, name="mancala.v1.Rules", api_key=None):
        self.pool = DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        self.service = self.pool.FindServiceByName(name)
        self.name = name
        self.channel = channel
        self.metadata = [("authorization", f"Bearer {api_key}")] if api_key else []

    def call(self, method_name, metadata=None, **fields):
        method = self.service.FindMethodByName(method_name)
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        stub = self.channel.unary_unary(
            f"/{self.name}/{method_name}",
            request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString,
        )
        request = json_format.ParseDict(fields, request_class())
        return stub(request, timeout=10, metadata=self.metadata if metadata is None else metadata)


def error_details(pool, error):
    """The google.rpc details of `error` by their names, decoded with nothing but what the server's reflection
    serves (google.rpc.Status and the error detail messages are among its files)."""
    raw = dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")
    if raw is None:
        return {}
    status_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("google.rpc.Status"))
    details = {}
    for detail in status_class.FromString(raw).details:
        name = detail.type_url.rsplit("/", 1)[-1]
        detail_class = message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
        details[name] = json_format.MessageToDict(detail_class.FromString(detail.value))
    return details


def check(condition, what):
    if not condition:
        print(f"FAILED: {what}")
        sys.exit(1)
    print(f"ok: {what}")


def connect(address, ca_file):
    """A plaintext channel, or with `ca_file` a TLS one trusting only that CA (PEM)."""
    if ca_file is None:
        return grpc.insecure_channel(address)
    with open(ca_file, "rb") as ca:
        credentials = grpc.ssl_channel_credentials(root_certificates=ca.read())
    return grpc.secure_channel(address, credentials)


def main(address, ca_file=None, api_key=None):
    channel = connect(address, ca_file)
    grpc.channel_ready_future(channel).result(timeout=10)

    services = set(ProtoReflectionDescriptorDatabase(channel).get_services())
    check({"mancala.v1.Rules", "grpc.health.v1.Health"} <= services, f"reflection lists {sorted(services)}")

    health = health_pb2_grpc.HealthStub(channel)
    for name in ("", "mancala.v1.Rules"):
        status = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5).status
        check(status == health_pb2.HealthCheckResponse.SERVING, f"health of {name!r} is SERVING")

    rules = Service(channel, api_key=api_key)
    if api_key:
        # The server requires a tenant's key: without one, nothing but health and reflection answers.
        try:
            rules.call("DescribeGame", metadata=[], kind="GAME_KIND_BA_AWA")
            check(False, "a call without the API key is refused")
        except grpc.RpcError as error:
            check(error.code() == grpc.StatusCode.UNAUTHENTICATED,
                  f"no API key, no answer: {error.code().name}: {error.details()}")
        try:
            rules.call("DescribeGame", metadata=[("authorization", "Bearer mk_00000000_forged")],
                       kind="GAME_KIND_BA_AWA")
            check(False, "a made-up API key is refused")
        except grpc.RpcError as error:
            check(error.code() == grpc.StatusCode.UNAUTHENTICATED,
                  f"a made-up key is refused: {error.details()}")
    description = rules.call("DescribeGame", kind="GAME_KIND_BA_AWA")
    check(description.rows == 2 and description.pits_per_row == 6, "DescribeGame: Ba-awa is 2 rows of 6")

    state = rules.call("NewGame", kind="GAME_KIND_BA_AWA").state
    rng = random.Random(7)
    moves_played, games = 0, 1
    while state.status != rules.pool.FindEnumTypeByName("mancala.v1.Status").values_by_name["STATUS_MATCH_OVER"].number:
        listed = rules.call("ListLegalMoves", state=json_format.MessageToDict(state)).moves
        choice = rng.choice(list(listed))
        move = json_format.MessageToDict(choice.move)
        verdict = rules.call("ValidateMove", state=json_format.MessageToDict(state), move=move)
        assert verdict.legal, verdict
        answer = rules.call("ApplyMove", state=json_format.MessageToDict(state), move=move)
        assert answer.state == choice.result, "the applied state equals the preview"
        assert sum(answer.state.pits) + sum(answer.state.stores) == 48, "48 seeds"
        if answer.state.game_number != state.game_number:
            games += 1
        state = answer.state
        moves_played += 1
        assert moves_played < 20000, "the match ends"
    check(True, f"a complete Ba-awa match: {moves_played} moves over {games} games, "
                f"won by {json_format.MessageToDict(state)['winner']} with pits {list(state.match_score)}")

    fresh = json_format.MessageToDict(rules.call("NewGame", kind="GAME_KIND_BA_AWA").state)
    full = rules.call("ApplyMove", state=fresh, move={"sow": {"pit": 0}})
    bare = rules.call("ApplyMove", state=fresh, move={"sow": {"pit": 0}}, skipEvents=True)
    check(bare.state == full.state and len(full.events) > 0 and len(bare.events) == 0,
          f"ApplyMove with skipEvents: the same state, no events ({len(full.events)} otherwise)")

    # The built-in opponent: a hint (every move valued, best first) and its move, the same for the same seed.
    analysis = rules.call("AnalyzePosition", state=fresh, level=3, seed=11, skipPreviews=True)
    check(len(analysis.moves) == 6 and all(0 <= m.value <= 1 for m in analysis.moves),
          f"AnalyzePosition values all 6 openings: {[round(m.value, 3) for m in analysis.moves]}")
    first = rules.call("SuggestMove", state=fresh, level=3, seed=11)
    again = rules.call("SuggestMove", state=fresh, level=3, seed=11)
    check(first.move == again.move and first.value == again.value
          and rules.call("ValidateMove", state=fresh, move=json_format.MessageToDict(first.move)).legal,
          f"SuggestMove at level 3: {json_format.MessageToDict(first.move)} (value {first.value:.3f}, "
          f"{first.work.iterations} playouts), legal and the same for the same seed")
    try:
        rules.call("SuggestMove", state=fresh, level=99)
        check(False, "level 99 is refused")
    except grpc.RpcError as error:
        check(error.code() == grpc.StatusCode.INVALID_ARGUMENT and "level" in error.details(),
              f"unknown level refused: {error.code().name}: {error.details()}")

    diagnostics = Service(channel, "mancala.v1.Diagnostics", api_key=api_key)
    echo = diagnostics.call("Echo", payload="c2VlZHM=", responsePayloadBytes=8)  # "seeds"
    check(echo.payload == b"seedsZZZ", f"Echo answers with the bytes asked for: {echo.payload!r}")
    try:
        diagnostics.call("Echo", payload="", responsePayloadBytes=1_000_000)
        check(False, "an Echo answer over the message limit is refused")
    except grpc.RpcError as error:
        check(error.code() == grpc.StatusCode.INVALID_ARGUMENT and "response_payload_bytes" in error.details(),
              f"oversized Echo refused: {error.code().name}: {error.details()}")

    try:
        rules.call("ApplyMove", state=fresh, move={"sow": {"pit": 7}})
        check(False, "a move from North's pit on South's turn is refused")
    except grpc.RpcError as error:
        check(error.code() == grpc.StatusCode.FAILED_PRECONDITION and "pit 7" in error.details(),
              f"illegal move refused: {error.code().name}: {error.details()}")
        details = error_details(rules.pool, error)
        check(details.get("google.rpc.ErrorInfo", {}).get("reason") == "NOT_YOUR_PIT"
              and details["google.rpc.ErrorInfo"].get("metadata") == {"pit": "7"},
              f"its google.rpc details decoded through reflection alone: {details}")
    broken = dict(fresh, pits=[4] * 11)
    try:
        rules.call("ListLegalMoves", state=broken)
        check(False, "a state with 11 pits is refused")
    except grpc.RpcError as error:
        check(error.code() == grpc.StatusCode.INVALID_ARGUMENT and "state.pits" in error.details(),
              f"impossible state refused: {error.code().name}: {error.details()}")
        violations = error_details(rules.pool, error).get("google.rpc.BadRequest", {}).get("fieldViolations", [])
        check(any(v.get("field") == "state.pits" for v in violations),
              f"its field violations decoded through reflection alone: {violations}")
    print("all checks passed")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Play Ba-awa against a mancala server.")
    parser.add_argument("address", nargs="?", default="127.0.0.1:50051", help="HOST:PORT of the server")
    parser.add_argument("--ca", metavar="FILE", help="connect over TLS, trusting this CA certificate (PEM)")
    parser.add_argument("--api-key", metavar="KEY", default=os.environ.get("MANCALA_API_KEY"),
                        help="a tenant's API key, sent with every call (default: $MANCALA_API_KEY)")
    arguments = parser.parse_args()
    main(arguments.address, arguments.ca, arguments.api_key)
