"""Every generated message, enum and service of mancala.v1 in one namespace: ``from mancala_client import pb``, then
``pb.CreateMatchRequest(kind=pb.GAME_KIND_BA_AWA)``. The modules themselves are in ``mancala_client._proto``."""

# ruff: noqa: F401,F403
from ._proto.mancala.v1.admin_pb2 import *
from ._proto.mancala.v1.diagnostics_pb2 import *
from ._proto.mancala.v1.game_pb2 import *
from ._proto.mancala.v1.lobby_pb2 import *
from ._proto.mancala.v1.matches_pb2 import *
from ._proto.mancala.v1.players_pb2 import *
from ._proto.mancala.v1.rules_pb2 import *
