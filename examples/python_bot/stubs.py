"""The service's protos as Python modules, generated from proto/ the first time (or after a proto changes).

`from stubs import lobby_pb2, lobby_pb2_grpc, ...` is all a bot needs; generate.sh does the same by hand.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROTOS = HERE.parent.parent / "proto"
GENERATED = HERE / "generated"


def _generate_if_stale():
    sources = sorted((PROTOS / "mancala" / "v1").glob("*.proto"))
    marker = GENERATED / "mancala" / "v1" / "lobby_pb2_grpc.py"
    if marker.exists() and all(marker.stat().st_mtime >= s.stat().st_mtime for s in sources):
        return
    from grpc_tools import protoc  # imported here: a bot run with stubs already made needs only grpcio

    GENERATED.mkdir(parents=True, exist_ok=True)
    args = ["protoc", f"-I{PROTOS}", f"--python_out={GENERATED}", f"--grpc_python_out={GENERATED}"]
    if protoc.main(args + [str(s) for s in sources]) != 0:
        raise SystemExit(f"grpc_tools.protoc could not compile {PROTOS}")


_generate_if_stale()
sys.path.insert(0, str(GENERATED))

# The generated modules import each other as `mancala.v1.*`, hence the path above.
from mancala.v1 import game_pb2, lobby_pb2, lobby_pb2_grpc  # noqa: E402
from mancala.v1 import matches_pb2, matches_pb2_grpc, players_pb2, players_pb2_grpc  # noqa: E402
from mancala.v1 import rules_pb2, rules_pb2_grpc, tournaments_pb2, tournaments_pb2_grpc  # noqa: E402

__all__ = [
    "game_pb2", "lobby_pb2", "lobby_pb2_grpc", "matches_pb2", "matches_pb2_grpc", "players_pb2",
    "players_pb2_grpc", "rules_pb2", "rules_pb2_grpc", "tournaments_pb2", "tournaments_pb2_grpc",
]
