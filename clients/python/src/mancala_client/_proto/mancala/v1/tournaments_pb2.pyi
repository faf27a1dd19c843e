from mancala_client._proto.mancala.v1 import game_pb2 as _game_pb2
from mancala_client._proto.mancala.v1 import lobby_pb2 as _lobby_pb2
from mancala_client._proto.mancala.v1 import matches_pb2 as _matches_pb2
from mancala_client._proto.mancala.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TournamentSystem(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_SYSTEM_UNSPECIFIED: _ClassVar[TournamentSystem]
    TOURNAMENT_SYSTEM_ROUND_ROBIN: _ClassVar[TournamentSystem]
    TOURNAMENT_SYSTEM_SWISS: _ClassVar[TournamentSystem]

class TournamentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_STATUS_UNSPECIFIED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_OPEN: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_RUNNING: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_FINISHED: _ClassVar[TournamentStatus]

class BoardResult(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOARD_RESULT_UNSPECIFIED: _ClassVar[BoardResult]
    BOARD_RESULT_SOUTH_WON: _ClassVar[BoardResult]
    BOARD_RESULT_NORTH_WON: _ClassVar[BoardResult]
    BOARD_RESULT_DRAW: _ClassVar[BoardResult]
    BOARD_RESULT_NO_RESULT: _ClassVar[BoardResult]
TOURNAMENT_SYSTEM_UNSPECIFIED: TournamentSystem
TOURNAMENT_SYSTEM_ROUND_ROBIN: TournamentSystem
TOURNAMENT_SYSTEM_SWISS: TournamentSystem
TOURNAMENT_STATUS_UNSPECIFIED: TournamentStatus
TOURNAMENT_STATUS_OPEN: TournamentStatus
TOURNAMENT_STATUS_RUNNING: TournamentStatus
TOURNAMENT_STATUS_FINISHED: TournamentStatus
BOARD_RESULT_UNSPECIFIED: BoardResult
BOARD_RESULT_SOUTH_WON: BoardResult
BOARD_RESULT_NORTH_WON: BoardResult
BOARD_RESULT_DRAW: BoardResult
BOARD_RESULT_NO_RESULT: BoardResult

class CreateTournamentRequest(_message.Message):
    __slots__ = ("name", "system", "rounds", "kind", "options", "time_control", "rated")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    name: str
    system: TournamentSystem
    rounds: int
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    time_control: _matches_pb2.TimeControl
    rated: bool
    def __init__(self, name: _Optional[str] = ..., system: _Optional[_Union[TournamentSystem, str]] = ..., rounds: _Optional[int] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., time_control: _Optional[_Union[_matches_pb2.TimeControl, _Mapping]] = ..., rated: _Optional[bool] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class EnterTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "bot_level")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    bot_level: int
    def __init__(self, tournament_id: _Optional[str] = ..., bot_level: _Optional[int] = ...) -> None: ...

class EnterTournamentResponse(_message.Message):
    __slots__ = ("tournament", "entrant_id")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    entrant_id: str
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ..., entrant_id: _Optional[str] = ...) -> None: ...

class WithdrawFromTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "entrant_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    entrant_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., entrant_id: _Optional[str] = ...) -> None: ...

class WithdrawFromTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class StartTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class StartTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: TournamentStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[TournamentStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments", "next_page_token")
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    next_page_token: str
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "after_event_id")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    after_event_id: int
    def __init__(self, tournament_id: _Optional[str] = ..., after_event_id: _Optional[int] = ...) -> None: ...

class WatchTournamentResponse(_message.Message):
    __slots__ = ("event_id", "at_ms", "kind", "tournament", "heartbeat")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    at_ms: int
    kind: _lobby_pb2.TournamentEventKind
    tournament: Tournament
    heartbeat: _lobby_pb2.LobbyHeartbeat
    def __init__(self, event_id: _Optional[int] = ..., at_ms: _Optional[int] = ..., kind: _Optional[_Union[_lobby_pb2.TournamentEventKind, str]] = ..., tournament: _Optional[_Union[Tournament, _Mapping]] = ..., heartbeat: _Optional[_Union[_lobby_pb2.LobbyHeartbeat, _Mapping]] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("tournament_id", "name", "system", "rounds", "kind", "options", "time_control", "rated", "created_by", "status", "current_round", "entrants", "round_pairings", "standings", "created_at_ms")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    CREATED_BY_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ROUND_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    ROUND_PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    system: TournamentSystem
    rounds: int
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    time_control: _matches_pb2.TimeControl
    rated: bool
    created_by: str
    status: TournamentStatus
    current_round: int
    entrants: _containers.RepeatedCompositeFieldContainer[TournamentEntrant]
    round_pairings: _containers.RepeatedCompositeFieldContainer[TournamentRound]
    standings: _containers.RepeatedCompositeFieldContainer[TournamentStanding]
    created_at_ms: int
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., system: _Optional[_Union[TournamentSystem, str]] = ..., rounds: _Optional[int] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., time_control: _Optional[_Union[_matches_pb2.TimeControl, _Mapping]] = ..., rated: _Optional[bool] = ..., created_by: _Optional[str] = ..., status: _Optional[_Union[TournamentStatus, str]] = ..., current_round: _Optional[int] = ..., entrants: _Optional[_Iterable[_Union[TournamentEntrant, _Mapping]]] = ..., round_pairings: _Optional[_Iterable[_Union[TournamentRound, _Mapping]]] = ..., standings: _Optional[_Iterable[_Union[TournamentStanding, _Mapping]]] = ..., created_at_ms: _Optional[int] = ...) -> None: ...

class TournamentEntrant(_message.Message):
    __slots__ = ("entrant_id", "player_id", "bot_level", "seed", "withdrawn")
    ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    entrant_id: str
    player_id: str
    bot_level: int
    seed: int
    withdrawn: bool
    def __init__(self, entrant_id: _Optional[str] = ..., player_id: _Optional[str] = ..., bot_level: _Optional[int] = ..., seed: _Optional[int] = ..., withdrawn: _Optional[bool] = ...) -> None: ...

class TournamentRound(_message.Message):
    __slots__ = ("round", "boards", "bye_entrant_id", "idle_entrant_ids")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    BYE_ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    IDLE_ENTRANT_IDS_FIELD_NUMBER: _ClassVar[int]
    round: int
    boards: _containers.RepeatedCompositeFieldContainer[TournamentBoard]
    bye_entrant_id: str
    idle_entrant_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, round: _Optional[int] = ..., boards: _Optional[_Iterable[_Union[TournamentBoard, _Mapping]]] = ..., bye_entrant_id: _Optional[str] = ..., idle_entrant_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class TournamentBoard(_message.Message):
    __slots__ = ("board", "match_id", "south_entrant_id", "north_entrant_id", "result")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SOUTH_ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    NORTH_ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    board: int
    match_id: str
    south_entrant_id: str
    north_entrant_id: str
    result: BoardResult
    def __init__(self, board: _Optional[int] = ..., match_id: _Optional[str] = ..., south_entrant_id: _Optional[str] = ..., north_entrant_id: _Optional[str] = ..., result: _Optional[_Union[BoardResult, str]] = ...) -> None: ...

class TournamentStanding(_message.Message):
    __slots__ = ("rank", "entrant_id", "points", "buchholz", "sonneborn_berger", "wins", "draws", "losses", "byes", "south", "north", "withdrawn")
    RANK_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BUCHHOLZ_FIELD_NUMBER: _ClassVar[int]
    SONNEBORN_BERGER_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    SOUTH_FIELD_NUMBER: _ClassVar[int]
    NORTH_FIELD_NUMBER: _ClassVar[int]
    WITHDRAWN_FIELD_NUMBER: _ClassVar[int]
    rank: int
    entrant_id: str
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int
    south: int
    north: int
    withdrawn: bool
    def __init__(self, rank: _Optional[int] = ..., entrant_id: _Optional[str] = ..., points: _Optional[float] = ..., buchholz: _Optional[float] = ..., sonneborn_berger: _Optional[float] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ..., byes: _Optional[int] = ..., south: _Optional[int] = ..., north: _Optional[int] = ..., withdrawn: _Optional[bool] = ...) -> None: ...
