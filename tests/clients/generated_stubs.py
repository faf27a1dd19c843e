#!/usr/bin/env python3
"""A Python client of the Rules service built only from stubs generated from proto/ (grpc_tools.protoc), unlike
play_ba_awa.py, which learns everything by reflection: the stubs are generated afresh into a temporary directory,
then NewGame, ValidateMove (a legal and an illegal move) and ApplyMove are called on the real binary.

    pip install grpcio grpcio-tools
    python3 tests/clients/generated_stubs.py 127.0.0.1:50051
"""

import sys
import tempfile
from pathlib import Path

import grpc
from grpc_tools import protoc

PROTOS = Path(__file__).resolve().parents[2] / "proto"


def generate(out):
    sources = sorted(str(p) for p in (PROTOS / "mancala" / "v1").glob("*.proto"))
    args = ["protoc", f"-I{PROTOS}", f"--python_out={out}", f"--grpc_python_out={out}"]
    if protoc.main(args + sources) != 0:
        sys.exit(f"grpc_tools.protoc could not compile {PROTOS}")
    sys.path.insert(0, out)


def check(condition, what):
    if not condition:
        sys.exit(f"check failed: {what}")


def main(address):
    with tempfile.TemporaryDirectory() as out:
        generate(out)
        # Generated modules import each other as mancala.v1.*, hence the path set by generate().
        from mancala.v1 import game_pb2, rules_pb2, rules_pb2_grpc

        with grpc.insecure_channel(address) as channel:
            rules = rules_pb2_grpc.RulesStub(channel)
            state = rules.NewGame(rules_pb2.NewGameRequest(kind=game_pb2.GAME_KIND_BA_AWA), timeout=10).state
            check(len(state.pits) == 12 and state.to_move == game_pb2.PLAYER_SOUTH, "a Ba-awa opening, South to move")

            def validate(pit):
                move = game_pb2.Move(sow=game_pb2.Sow(pit=pit))
                return rules.ValidateMove(rules_pb2.ValidateMoveRequest(state=state, move=move), timeout=10)

            legal = validate(0)
            check(legal.legal, f"S1 (pit 0) is legal: {legal.message}")
            illegal = validate(6)
            check(not illegal.legal and illegal.reason == rules_pb2.ILLEGAL_MOVE_REASON_NOT_YOUR_PIT,
                  f"N1 (pit 6) is North's: {illegal}")

            move = game_pb2.Move(sow=game_pb2.Sow(pit=0))
            after = rules.ApplyMove(rules_pb2.ApplyMoveRequest(state=state, move=move), timeout=10).state
            # BA-1 (docs/ba-awa.md): S1 from the opening leaves [2,7,1,6,1,6 | 6,6,0,1,6,6].
            check(list(after.pits) == [2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6], f"BA-1 result, got {list(after.pits)}")
    print("Python client (grpc_tools.protoc stubs): NewGame, ValidateMove, ApplyMove ok")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051")
