from mancala_client._proto.mancala.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class IllegalMoveReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ILLEGAL_MOVE_REASON_UNSPECIFIED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_PIT_EMPTY: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_NOT_YOUR_PIT: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_GAME_OVER: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_NEVER_ENDING_MOVE: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_GAME_IN_PROGRESS: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_MATCH_OVER: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_INVALID_CHOICE: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_HOLE_CLOSED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_CHOICE_REQUIRED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_CHOICE_NOT_OFFERED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_CAPTURE_IS_MANDATORY: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_KUU_MUST_START_TAKATA: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_KUU_NOT_ALLOWED_WHILE_OTHER_HOLES_OCCUPIED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_SINGLETON_NOT_ALLOWED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_MUST_SOW_TOWARD_CENTRE: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_HOLE_MARKED_HIZI_ZETU: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_MUST_CAPTURE_MARKED_HOLE: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_TOO_MANY_SEEDS_TO_CAPTURE: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_HOLE_NOT_ALLOWED: _ClassVar[IllegalMoveReason]
    ILLEGAL_MOVE_REASON_NO_SUCH_PIT: _ClassVar[IllegalMoveReason]

class SearchAlgorithm(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEARCH_ALGORITHM_UNSPECIFIED: _ClassVar[SearchAlgorithm]
    SEARCH_ALGORITHM_RANDOM: _ClassVar[SearchAlgorithm]
    SEARCH_ALGORITHM_GREEDY: _ClassVar[SearchAlgorithm]
    SEARCH_ALGORITHM_ALPHA_BETA: _ClassVar[SearchAlgorithm]
    SEARCH_ALGORITHM_MCTS: _ClassVar[SearchAlgorithm]

class ValueScale(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VALUE_SCALE_UNSPECIFIED: _ClassVar[ValueScale]
    VALUE_SCALE_GAME_WON: _ClassVar[ValueScale]
    VALUE_SCALE_STONE_SHARE: _ClassVar[ValueScale]
    VALUE_SCALE_PIT_SHARE: _ClassVar[ValueScale]

class Proof(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROOF_UNSPECIFIED: _ClassVar[Proof]
    PROOF_WIN: _ClassVar[Proof]
    PROOF_LOSS: _ClassVar[Proof]
    PROOF_DRAW: _ClassVar[Proof]
    PROOF_SCORE: _ClassVar[Proof]
ILLEGAL_MOVE_REASON_UNSPECIFIED: IllegalMoveReason
ILLEGAL_MOVE_REASON_PIT_EMPTY: IllegalMoveReason
ILLEGAL_MOVE_REASON_NOT_YOUR_PIT: IllegalMoveReason
ILLEGAL_MOVE_REASON_GAME_OVER: IllegalMoveReason
ILLEGAL_MOVE_REASON_NEVER_ENDING_MOVE: IllegalMoveReason
ILLEGAL_MOVE_REASON_GAME_IN_PROGRESS: IllegalMoveReason
ILLEGAL_MOVE_REASON_MATCH_OVER: IllegalMoveReason
ILLEGAL_MOVE_REASON_INVALID_CHOICE: IllegalMoveReason
ILLEGAL_MOVE_REASON_HOLE_CLOSED: IllegalMoveReason
ILLEGAL_MOVE_REASON_CHOICE_REQUIRED: IllegalMoveReason
ILLEGAL_MOVE_REASON_CHOICE_NOT_OFFERED: IllegalMoveReason
ILLEGAL_MOVE_REASON_CAPTURE_IS_MANDATORY: IllegalMoveReason
ILLEGAL_MOVE_REASON_KUU_MUST_START_TAKATA: IllegalMoveReason
ILLEGAL_MOVE_REASON_KUU_NOT_ALLOWED_WHILE_OTHER_HOLES_OCCUPIED: IllegalMoveReason
ILLEGAL_MOVE_REASON_SINGLETON_NOT_ALLOWED: IllegalMoveReason
ILLEGAL_MOVE_REASON_MUST_SOW_TOWARD_CENTRE: IllegalMoveReason
ILLEGAL_MOVE_REASON_HOLE_MARKED_HIZI_ZETU: IllegalMoveReason
ILLEGAL_MOVE_REASON_MUST_CAPTURE_MARKED_HOLE: IllegalMoveReason
ILLEGAL_MOVE_REASON_TOO_MANY_SEEDS_TO_CAPTURE: IllegalMoveReason
ILLEGAL_MOVE_REASON_HOLE_NOT_ALLOWED: IllegalMoveReason
ILLEGAL_MOVE_REASON_NO_SUCH_PIT: IllegalMoveReason
SEARCH_ALGORITHM_UNSPECIFIED: SearchAlgorithm
SEARCH_ALGORITHM_RANDOM: SearchAlgorithm
SEARCH_ALGORITHM_GREEDY: SearchAlgorithm
SEARCH_ALGORITHM_ALPHA_BETA: SearchAlgorithm
SEARCH_ALGORITHM_MCTS: SearchAlgorithm
VALUE_SCALE_UNSPECIFIED: ValueScale
VALUE_SCALE_GAME_WON: ValueScale
VALUE_SCALE_STONE_SHARE: ValueScale
VALUE_SCALE_PIT_SHARE: ValueScale
PROOF_UNSPECIFIED: Proof
PROOF_WIN: Proof
PROOF_LOSS: Proof
PROOF_DRAW: Proof
PROOF_SCORE: Proof

class GameOptions(_message.Message):
    __slots__ = ("first_player", "ba_awa_target", "ba_awa_players", "bao_la_kete_starter", "repetition", "max_games")
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    BA_AWA_TARGET_FIELD_NUMBER: _ClassVar[int]
    BA_AWA_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BAO_LA_KETE_STARTER_FIELD_NUMBER: _ClassVar[int]
    REPETITION_FIELD_NUMBER: _ClassVar[int]
    MAX_GAMES_FIELD_NUMBER: _ClassVar[int]
    first_player: _game_pb2.Player
    ba_awa_target: int
    ba_awa_players: int
    bao_la_kete_starter: _game_pb2.StarterRule
    repetition: bool
    max_games: int
    def __init__(self, first_player: _Optional[_Union[_game_pb2.Player, str]] = ..., ba_awa_target: _Optional[int] = ..., ba_awa_players: _Optional[int] = ..., bao_la_kete_starter: _Optional[_Union[_game_pb2.StarterRule, str]] = ..., repetition: _Optional[bool] = ..., max_games: _Optional[int] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("kind", "options")
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    options: GameOptions
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[GameOptions, _Mapping]] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class ListLegalMovesRequest(_message.Message):
    __slots__ = ("state", "skip_previews")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SKIP_PREVIEWS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    skip_previews: bool
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., skip_previews: _Optional[bool] = ...) -> None: ...

class LegalMove(_message.Message):
    __slots__ = ("move", "result", "events", "label")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    move: _game_pb2.Move
    result: _game_pb2.GameState
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    label: str
    def __init__(self, move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., result: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., label: _Optional[str] = ...) -> None: ...

class ListLegalMovesResponse(_message.Message):
    __slots__ = ("moves",)
    MOVES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[LegalMove]
    def __init__(self, moves: _Optional[_Iterable[_Union[LegalMove, _Mapping]]] = ...) -> None: ...

class ValidateMoveRequest(_message.Message):
    __slots__ = ("state", "move")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    move: _game_pb2.Move
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ...) -> None: ...

class ValidateMoveResponse(_message.Message):
    __slots__ = ("legal", "reason", "message")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    legal: bool
    reason: IllegalMoveReason
    message: str
    def __init__(self, legal: _Optional[bool] = ..., reason: _Optional[_Union[IllegalMoveReason, str]] = ..., message: _Optional[str] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("state", "move", "skip_events")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SKIP_EVENTS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    move: _game_pb2.Move
    skip_events: bool
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., skip_events: _Optional[bool] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("state", "events")
    STATE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ...) -> None: ...

class DescribeGameRequest(_message.Message):
    __slots__ = ("kind",)
    KIND_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ...) -> None: ...

class PitDescription(_message.Message):
    __slots__ = ("index", "row", "column", "side", "label", "role")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    index: int
    row: int
    column: int
    side: _game_pb2.Player
    label: str
    role: str
    def __init__(self, index: _Optional[int] = ..., row: _Optional[int] = ..., column: _Optional[int] = ..., side: _Optional[_Union[_game_pb2.Player, str]] = ..., label: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class DescribeGameResponse(_message.Message):
    __slots__ = ("kind", "name", "rows", "pits_per_row", "pits", "sowing_order", "seed_total", "rules_source", "rules_version", "implemented", "summary", "players", "options")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    PITS_PER_ROW_FIELD_NUMBER: _ClassVar[int]
    PITS_FIELD_NUMBER: _ClassVar[int]
    SOWING_ORDER_FIELD_NUMBER: _ClassVar[int]
    SEED_TOTAL_FIELD_NUMBER: _ClassVar[int]
    RULES_SOURCE_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    IMPLEMENTED_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    name: str
    rows: int
    pits_per_row: int
    pits: _containers.RepeatedCompositeFieldContainer[PitDescription]
    sowing_order: _containers.RepeatedScalarFieldContainer[int]
    seed_total: int
    rules_source: str
    rules_version: int
    implemented: bool
    summary: str
    players: _containers.RepeatedScalarFieldContainer[int]
    options: _containers.RepeatedCompositeFieldContainer[GameOption]
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., name: _Optional[str] = ..., rows: _Optional[int] = ..., pits_per_row: _Optional[int] = ..., pits: _Optional[_Iterable[_Union[PitDescription, _Mapping]]] = ..., sowing_order: _Optional[_Iterable[int]] = ..., seed_total: _Optional[int] = ..., rules_source: _Optional[str] = ..., rules_version: _Optional[int] = ..., implemented: _Optional[bool] = ..., summary: _Optional[str] = ..., players: _Optional[_Iterable[int]] = ..., options: _Optional[_Iterable[_Union[GameOption, _Mapping]]] = ...) -> None: ...

class GameOption(_message.Message):
    __slots__ = ("name", "values", "default_value", "clause", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    CLAUSE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    values: _containers.RepeatedScalarFieldContainer[str]
    default_value: str
    clause: str
    description: str
    def __init__(self, name: _Optional[str] = ..., values: _Optional[_Iterable[str]] = ..., default_value: _Optional[str] = ..., clause: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class SearchBudget(_message.Message):
    __slots__ = ("algorithm", "iterations", "max_depth", "time_limit_ms")
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MAX_DEPTH_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    algorithm: SearchAlgorithm
    iterations: int
    max_depth: int
    time_limit_ms: int
    def __init__(self, algorithm: _Optional[_Union[SearchAlgorithm, str]] = ..., iterations: _Optional[int] = ..., max_depth: _Optional[int] = ..., time_limit_ms: _Optional[int] = ...) -> None: ...

class SearchUsed(_message.Message):
    __slots__ = ("level", "budget")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    level: int
    budget: SearchBudget
    def __init__(self, level: _Optional[int] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ...) -> None: ...

class SearchWork(_message.Message):
    __slots__ = ("iterations", "nodes", "plies", "depth", "elapsed_us")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    PLIES_FIELD_NUMBER: _ClassVar[int]
    DEPTH_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_US_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    nodes: int
    plies: int
    depth: int
    elapsed_us: int
    def __init__(self, iterations: _Optional[int] = ..., nodes: _Optional[int] = ..., plies: _Optional[int] = ..., depth: _Optional[int] = ..., elapsed_us: _Optional[int] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("state", "level", "budget", "seed", "seat", "skip_preview")
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SKIP_PREVIEW_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    level: int
    budget: SearchBudget
    seed: int
    seat: _game_pb2.Player
    skip_preview: bool
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., level: _Optional[int] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ..., seed: _Optional[int] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ..., skip_preview: _Optional[bool] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("move", "value", "side", "principal_variation", "work", "search", "result", "events")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_VARIATION_FIELD_NUMBER: _ClassVar[int]
    WORK_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    move: _game_pb2.Move
    value: float
    side: _game_pb2.Player
    principal_variation: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    work: SearchWork
    search: SearchUsed
    result: _game_pb2.GameState
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    def __init__(self, move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., value: _Optional[float] = ..., side: _Optional[_Union[_game_pb2.Player, str]] = ..., principal_variation: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., work: _Optional[_Union[SearchWork, _Mapping]] = ..., search: _Optional[_Union[SearchUsed, _Mapping]] = ..., result: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ...) -> None: ...

class AnalyzePositionRequest(_message.Message):
    __slots__ = ("state", "level", "budget", "seed", "seat", "skip_previews")
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SKIP_PREVIEWS_FIELD_NUMBER: _ClassVar[int]
    state: _game_pb2.GameState
    level: int
    budget: SearchBudget
    seed: int
    seat: _game_pb2.Player
    skip_previews: bool
    def __init__(self, state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., level: _Optional[int] = ..., budget: _Optional[_Union[SearchBudget, _Mapping]] = ..., seed: _Optional[int] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ..., skip_previews: _Optional[bool] = ...) -> None: ...

class MoveEvaluation(_message.Message):
    __slots__ = ("move", "result", "events", "value", "visits", "label", "line", "proof")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    PROOF_FIELD_NUMBER: _ClassVar[int]
    move: _game_pb2.Move
    result: _game_pb2.GameState
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    value: float
    visits: int
    label: str
    line: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    proof: Proof
    def __init__(self, move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., result: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., value: _Optional[float] = ..., visits: _Optional[int] = ..., label: _Optional[str] = ..., line: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., proof: _Optional[_Union[Proof, str]] = ...) -> None: ...

class AnalyzePositionResponse(_message.Message):
    __slots__ = ("side", "moves", "principal_variation", "work", "search", "value_scale")
    SIDE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_VARIATION_FIELD_NUMBER: _ClassVar[int]
    WORK_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    VALUE_SCALE_FIELD_NUMBER: _ClassVar[int]
    side: _game_pb2.Player
    moves: _containers.RepeatedCompositeFieldContainer[MoveEvaluation]
    principal_variation: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    work: SearchWork
    search: SearchUsed
    value_scale: ValueScale
    def __init__(self, side: _Optional[_Union[_game_pb2.Player, str]] = ..., moves: _Optional[_Iterable[_Union[MoveEvaluation, _Mapping]]] = ..., principal_variation: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., work: _Optional[_Union[SearchWork, _Mapping]] = ..., search: _Optional[_Union[SearchUsed, _Mapping]] = ..., value_scale: _Optional[_Union[ValueScale, str]] = ...) -> None: ...
