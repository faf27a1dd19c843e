from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GameKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_KIND_UNSPECIFIED: _ClassVar[GameKind]
    GAME_KIND_BAO_LA_KETE: _ClassVar[GameKind]
    GAME_KIND_BOSH: _ClassVar[GameKind]
    GAME_KIND_BA_AWA: _ClassVar[GameKind]

class Player(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PLAYER_UNSPECIFIED: _ClassVar[Player]
    PLAYER_SOUTH: _ClassVar[Player]
    PLAYER_NORTH: _ClassVar[Player]
    PLAYER_EAST: _ClassVar[Player]

class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_UNSPECIFIED: _ClassVar[Status]
    STATUS_IN_PROGRESS: _ClassVar[Status]
    STATUS_ROUND_OVER: _ClassVar[Status]
    STATUS_GAME_OVER: _ClassVar[Status]
    STATUS_MATCH_OVER: _ClassVar[Status]

class Direction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIRECTION_UNSPECIFIED: _ClassVar[Direction]
    DIRECTION_CLOCKWISE: _ClassVar[Direction]
    DIRECTION_ANTICLOCKWISE: _ClassVar[Direction]

class Kichwa(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KICHWA_UNSPECIFIED: _ClassVar[Kichwa]
    KICHWA_LEFT: _ClassVar[Kichwa]
    KICHWA_RIGHT: _ClassVar[Kichwa]

class KuuDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KUU_DECISION_UNSPECIFIED: _ClassVar[KuuDecision]
    KUU_DECISION_STOP: _ClassVar[KuuDecision]
    KUU_DECISION_SAFARI: _ClassVar[KuuDecision]

class StarterRule(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STARTER_RULE_UNSPECIFIED: _ClassVar[StarterRule]
    STARTER_RULE_ALTERNATE: _ClassVar[StarterRule]
    STARTER_RULE_LOSER_STARTS: _ClassVar[StarterRule]
    STARTER_RULE_WINNER_STARTS: _ClassVar[StarterRule]

class LapSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LAP_SOURCE_UNSPECIFIED: _ClassVar[LapSource]
    LAP_SOURCE_PIT: _ClassVar[LapSource]
    LAP_SOURCE_RESERVE: _ClassVar[LapSource]
    LAP_SOURCE_CAPTURE: _ClassVar[LapSource]

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    END_REASON_UNSPECIFIED: _ClassVar[EndReason]
    END_REASON_FEW_SEEDS_LEFT: _ClassVar[EndReason]
    END_REASON_BOTH_STUCK: _ClassVar[EndReason]
    END_REASON_PLAYER_EMPTY: _ClassVar[EndReason]
    END_REASON_BAO_HAMNA: _ClassVar[EndReason]
    END_REASON_NO_LEGAL_MOVE: _ClassVar[EndReason]
    END_REASON_OWN_FRONT_ROW_EMPTIED: _ClassVar[EndReason]
    END_REASON_RESIGNATION: _ClassVar[EndReason]
    END_REASON_REPETITION: _ClassVar[EndReason]
    END_REASON_AGREEMENT: _ClassVar[EndReason]
GAME_KIND_UNSPECIFIED: GameKind
GAME_KIND_BAO_LA_KETE: GameKind
GAME_KIND_BOSH: GameKind
GAME_KIND_BA_AWA: GameKind
PLAYER_UNSPECIFIED: Player
PLAYER_SOUTH: Player
PLAYER_NORTH: Player
PLAYER_EAST: Player
STATUS_UNSPECIFIED: Status
STATUS_IN_PROGRESS: Status
STATUS_ROUND_OVER: Status
STATUS_GAME_OVER: Status
STATUS_MATCH_OVER: Status
DIRECTION_UNSPECIFIED: Direction
DIRECTION_CLOCKWISE: Direction
DIRECTION_ANTICLOCKWISE: Direction
KICHWA_UNSPECIFIED: Kichwa
KICHWA_LEFT: Kichwa
KICHWA_RIGHT: Kichwa
KUU_DECISION_UNSPECIFIED: KuuDecision
KUU_DECISION_STOP: KuuDecision
KUU_DECISION_SAFARI: KuuDecision
STARTER_RULE_UNSPECIFIED: StarterRule
STARTER_RULE_ALTERNATE: StarterRule
STARTER_RULE_LOSER_STARTS: StarterRule
STARTER_RULE_WINNER_STARTS: StarterRule
LAP_SOURCE_UNSPECIFIED: LapSource
LAP_SOURCE_PIT: LapSource
LAP_SOURCE_RESERVE: LapSource
LAP_SOURCE_CAPTURE: LapSource
END_REASON_UNSPECIFIED: EndReason
END_REASON_FEW_SEEDS_LEFT: EndReason
END_REASON_BOTH_STUCK: EndReason
END_REASON_PLAYER_EMPTY: EndReason
END_REASON_BAO_HAMNA: EndReason
END_REASON_NO_LEGAL_MOVE: EndReason
END_REASON_OWN_FRONT_ROW_EMPTIED: EndReason
END_REASON_RESIGNATION: EndReason
END_REASON_REPETITION: EndReason
END_REASON_AGREEMENT: EndReason

class GameState(_message.Message):
    __slots__ = ("kind", "rules_version", "pits", "stores", "reserves", "to_move", "status", "winner", "ply", "game_number", "match_score", "position_key", "ba_awa", "bosh", "bao_la_kete")
    KIND_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    PITS_FIELD_NUMBER: _ClassVar[int]
    STORES_FIELD_NUMBER: _ClassVar[int]
    RESERVES_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    MATCH_SCORE_FIELD_NUMBER: _ClassVar[int]
    POSITION_KEY_FIELD_NUMBER: _ClassVar[int]
    BA_AWA_FIELD_NUMBER: _ClassVar[int]
    BOSH_FIELD_NUMBER: _ClassVar[int]
    BAO_LA_KETE_FIELD_NUMBER: _ClassVar[int]
    kind: GameKind
    rules_version: int
    pits: _containers.RepeatedScalarFieldContainer[int]
    stores: _containers.RepeatedScalarFieldContainer[int]
    reserves: _containers.RepeatedScalarFieldContainer[int]
    to_move: Player
    status: Status
    winner: Player
    ply: int
    game_number: int
    match_score: _containers.RepeatedScalarFieldContainer[int]
    position_key: int
    ba_awa: BaAwaState
    bosh: BoshState
    bao_la_kete: BaoLaKeteState
    def __init__(self, kind: _Optional[_Union[GameKind, str]] = ..., rules_version: _Optional[int] = ..., pits: _Optional[_Iterable[int]] = ..., stores: _Optional[_Iterable[int]] = ..., reserves: _Optional[_Iterable[int]] = ..., to_move: _Optional[_Union[Player, str]] = ..., status: _Optional[_Union[Status, str]] = ..., winner: _Optional[_Union[Player, str]] = ..., ply: _Optional[int] = ..., game_number: _Optional[int] = ..., match_score: _Optional[_Iterable[int]] = ..., position_key: _Optional[int] = ..., ba_awa: _Optional[_Union[BaAwaState, _Mapping]] = ..., bosh: _Optional[_Union[BoshState, _Mapping]] = ..., bao_la_kete: _Optional[_Union[BaoLaKeteState, _Mapping]] = ...) -> None: ...

class BaAwaState(_message.Message):
    __slots__ = ("owners", "starter", "target", "players", "eliminated_in_game")
    OWNERS_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_IN_GAME_FIELD_NUMBER: _ClassVar[int]
    owners: _containers.RepeatedScalarFieldContainer[Player]
    starter: Player
    target: int
    players: int
    eliminated_in_game: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, owners: _Optional[_Iterable[_Union[Player, str]]] = ..., starter: _Optional[_Union[Player, str]] = ..., target: _Optional[int] = ..., players: _Optional[int] = ..., eliminated_in_game: _Optional[_Iterable[int]] = ...) -> None: ...

class BoshState(_message.Message):
    __slots__ = ("closed", "round_starter")
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTER_FIELD_NUMBER: _ClassVar[int]
    closed: _containers.RepeatedScalarFieldContainer[bool]
    round_starter: Player
    def __init__(self, closed: _Optional[_Iterable[bool]] = ..., round_starter: _Optional[_Union[Player, str]] = ...) -> None: ...

class BaoLaKeteState(_message.Message):
    __slots__ = ("stage", "kuu_alive", "mark", "game_starter", "starter_rule")
    class Stage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        STAGE_UNSPECIFIED: _ClassVar[BaoLaKeteState.Stage]
        STAGE_NEMO: _ClassVar[BaoLaKeteState.Stage]
        STAGE_MTAJI: _ClassVar[BaoLaKeteState.Stage]
    STAGE_UNSPECIFIED: BaoLaKeteState.Stage
    STAGE_NEMO: BaoLaKeteState.Stage
    STAGE_MTAJI: BaoLaKeteState.Stage
    STAGE_FIELD_NUMBER: _ClassVar[int]
    KUU_ALIVE_FIELD_NUMBER: _ClassVar[int]
    MARK_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTER_FIELD_NUMBER: _ClassVar[int]
    STARTER_RULE_FIELD_NUMBER: _ClassVar[int]
    stage: BaoLaKeteState.Stage
    kuu_alive: _containers.RepeatedScalarFieldContainer[bool]
    mark: HiziZetuMark
    game_starter: Player
    starter_rule: StarterRule
    def __init__(self, stage: _Optional[_Union[BaoLaKeteState.Stage, str]] = ..., kuu_alive: _Optional[_Iterable[bool]] = ..., mark: _Optional[_Union[HiziZetuMark, _Mapping]] = ..., game_starter: _Optional[_Union[Player, str]] = ..., starter_rule: _Optional[_Union[StarterRule, str]] = ...) -> None: ...

class HiziZetuMark(_message.Message):
    __slots__ = ("blockee", "pit", "setter")
    BLOCKEE_FIELD_NUMBER: _ClassVar[int]
    PIT_FIELD_NUMBER: _ClassVar[int]
    SETTER_FIELD_NUMBER: _ClassVar[int]
    blockee: Player
    pit: int
    setter: Player
    def __init__(self, blockee: _Optional[_Union[Player, str]] = ..., pit: _Optional[int] = ..., setter: _Optional[_Union[Player, str]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("sow", "next_game")
    SOW_FIELD_NUMBER: _ClassVar[int]
    NEXT_GAME_FIELD_NUMBER: _ClassVar[int]
    sow: Sow
    next_game: NextGame
    def __init__(self, sow: _Optional[_Union[Sow, _Mapping]] = ..., next_game: _Optional[_Union[NextGame, _Mapping]] = ...) -> None: ...

class Sow(_message.Message):
    __slots__ = ("pit", "direction", "kichwa", "kuu_decision")
    PIT_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    KICHWA_FIELD_NUMBER: _ClassVar[int]
    KUU_DECISION_FIELD_NUMBER: _ClassVar[int]
    pit: int
    direction: Direction
    kichwa: Kichwa
    kuu_decision: KuuDecision
    def __init__(self, pit: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ..., kichwa: _Optional[_Union[Kichwa, str]] = ..., kuu_decision: _Optional[_Union[KuuDecision, str]] = ...) -> None: ...

class NextGame(_message.Message):
    __slots__ = ("pits",)
    PITS_FIELD_NUMBER: _ClassVar[int]
    pits: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, pits: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("lap", "capture", "no_capture", "game_end", "match_end", "allocation", "refill", "taxation", "kuu_destroyed", "kuu_stop", "safari", "mark_set", "mark_cleared", "round_end", "elimination")
    LAP_FIELD_NUMBER: _ClassVar[int]
    CAPTURE_FIELD_NUMBER: _ClassVar[int]
    NO_CAPTURE_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    ALLOCATION_FIELD_NUMBER: _ClassVar[int]
    REFILL_FIELD_NUMBER: _ClassVar[int]
    TAXATION_FIELD_NUMBER: _ClassVar[int]
    KUU_DESTROYED_FIELD_NUMBER: _ClassVar[int]
    KUU_STOP_FIELD_NUMBER: _ClassVar[int]
    SAFARI_FIELD_NUMBER: _ClassVar[int]
    MARK_SET_FIELD_NUMBER: _ClassVar[int]
    MARK_CLEARED_FIELD_NUMBER: _ClassVar[int]
    ROUND_END_FIELD_NUMBER: _ClassVar[int]
    ELIMINATION_FIELD_NUMBER: _ClassVar[int]
    lap: Lap
    capture: Capture
    no_capture: NoCapture
    game_end: GameEnd
    match_end: MatchEnd
    allocation: Allocation
    refill: Refill
    taxation: Taxation
    kuu_destroyed: KuuDestroyed
    kuu_stop: KuuStop
    safari: Safari
    mark_set: MarkSet
    mark_cleared: MarkCleared
    round_end: RoundEnd
    elimination: Elimination
    def __init__(self, lap: _Optional[_Union[Lap, _Mapping]] = ..., capture: _Optional[_Union[Capture, _Mapping]] = ..., no_capture: _Optional[_Union[NoCapture, _Mapping]] = ..., game_end: _Optional[_Union[GameEnd, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ..., allocation: _Optional[_Union[Allocation, _Mapping]] = ..., refill: _Optional[_Union[Refill, _Mapping]] = ..., taxation: _Optional[_Union[Taxation, _Mapping]] = ..., kuu_destroyed: _Optional[_Union[KuuDestroyed, _Mapping]] = ..., kuu_stop: _Optional[_Union[KuuStop, _Mapping]] = ..., safari: _Optional[_Union[Safari, _Mapping]] = ..., mark_set: _Optional[_Union[MarkSet, _Mapping]] = ..., mark_cleared: _Optional[_Union[MarkCleared, _Mapping]] = ..., round_end: _Optional[_Union[RoundEnd, _Mapping]] = ..., elimination: _Optional[_Union[Elimination, _Mapping]] = ..., **kwargs) -> None: ...

class Lap(_message.Message):
    __slots__ = ("player", "origin", "seeds", "drops", "source")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    DROPS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    player: Player
    origin: int
    seeds: int
    drops: _containers.RepeatedScalarFieldContainer[int]
    source: LapSource
    def __init__(self, player: _Optional[_Union[Player, str]] = ..., origin: _Optional[int] = ..., seeds: _Optional[int] = ..., drops: _Optional[_Iterable[int]] = ..., source: _Optional[_Union[LapSource, str]] = ...) -> None: ...

class Capture(_message.Message):
    __slots__ = ("pit", "seeds", "beneficiary", "after_drop", "kichwa", "direction")
    PIT_FIELD_NUMBER: _ClassVar[int]
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    BENEFICIARY_FIELD_NUMBER: _ClassVar[int]
    AFTER_DROP_FIELD_NUMBER: _ClassVar[int]
    KICHWA_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    pit: int
    seeds: int
    beneficiary: Player
    after_drop: int
    kichwa: Kichwa
    direction: Direction
    def __init__(self, pit: _Optional[int] = ..., seeds: _Optional[int] = ..., beneficiary: _Optional[_Union[Player, str]] = ..., after_drop: _Optional[int] = ..., kichwa: _Optional[_Union[Kichwa, str]] = ..., direction: _Optional[_Union[Direction, str]] = ...) -> None: ...

class NoCapture(_message.Message):
    __slots__ = ("empty_pit", "beyond_pit")
    EMPTY_PIT_FIELD_NUMBER: _ClassVar[int]
    BEYOND_PIT_FIELD_NUMBER: _ClassVar[int]
    empty_pit: int
    beyond_pit: int
    def __init__(self, empty_pit: _Optional[int] = ..., beyond_pit: _Optional[int] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, str]] = ...) -> None: ...

class GameEnd(_message.Message):
    __slots__ = ("reason", "winner", "collector", "collected", "stores")
    REASON_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    COLLECTOR_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_FIELD_NUMBER: _ClassVar[int]
    STORES_FIELD_NUMBER: _ClassVar[int]
    reason: EndReason
    winner: Player
    collector: Player
    collected: int
    stores: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, reason: _Optional[_Union[EndReason, str]] = ..., winner: _Optional[_Union[Player, str]] = ..., collector: _Optional[_Union[Player, str]] = ..., collected: _Optional[int] = ..., stores: _Optional[_Iterable[int]] = ...) -> None: ...

class RoundEnd(_message.Message):
    __slots__ = ("reason", "collector", "collected", "totals")
    REASON_FIELD_NUMBER: _ClassVar[int]
    COLLECTOR_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    reason: EndReason
    collector: Player
    collected: int
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, reason: _Optional[_Union[EndReason, str]] = ..., collector: _Optional[_Union[Player, str]] = ..., collected: _Optional[int] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("winner", "match_score", "placing")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    MATCH_SCORE_FIELD_NUMBER: _ClassVar[int]
    PLACING_FIELD_NUMBER: _ClassVar[int]
    winner: Player
    match_score: _containers.RepeatedScalarFieldContainer[int]
    placing: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, winner: _Optional[_Union[Player, str]] = ..., match_score: _Optional[_Iterable[int]] = ..., placing: _Optional[_Iterable[int]] = ...) -> None: ...

class Elimination(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: Player
    def __init__(self, player: _Optional[_Union[Player, str]] = ...) -> None: ...

class Allocation(_message.Message):
    __slots__ = ("pits_owned", "owners", "starter")
    PITS_OWNED_FIELD_NUMBER: _ClassVar[int]
    OWNERS_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    pits_owned: _containers.RepeatedScalarFieldContainer[int]
    owners: _containers.RepeatedScalarFieldContainer[Player]
    starter: Player
    def __init__(self, pits_owned: _Optional[_Iterable[int]] = ..., owners: _Optional[_Iterable[_Union[Player, str]]] = ..., starter: _Optional[_Union[Player, str]] = ...) -> None: ...

class Refill(_message.Message):
    __slots__ = ("player", "opened", "closed", "reserve")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    OPENED_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    player: Player
    opened: _containers.RepeatedScalarFieldContainer[int]
    closed: _containers.RepeatedScalarFieldContainer[int]
    reserve: int
    def __init__(self, player: _Optional[_Union[Player, str]] = ..., opened: _Optional[_Iterable[int]] = ..., closed: _Optional[_Iterable[int]] = ..., reserve: _Optional[int] = ...) -> None: ...

class Taxation(_message.Message):
    __slots__ = ("pit", "seeds", "six_seed_rule")
    PIT_FIELD_NUMBER: _ClassVar[int]
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    SIX_SEED_RULE_FIELD_NUMBER: _ClassVar[int]
    pit: int
    seeds: int
    six_seed_rule: bool
    def __init__(self, pit: _Optional[int] = ..., seeds: _Optional[int] = ..., six_seed_rule: _Optional[bool] = ...) -> None: ...

class KuuDestroyed(_message.Message):
    __slots__ = ("owner", "pit")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    PIT_FIELD_NUMBER: _ClassVar[int]
    owner: Player
    pit: int
    def __init__(self, owner: _Optional[_Union[Player, str]] = ..., pit: _Optional[int] = ...) -> None: ...

class KuuStop(_message.Message):
    __slots__ = ("pit",)
    PIT_FIELD_NUMBER: _ClassVar[int]
    pit: int
    def __init__(self, pit: _Optional[int] = ...) -> None: ...

class Safari(_message.Message):
    __slots__ = ("pit", "seeds")
    PIT_FIELD_NUMBER: _ClassVar[int]
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    pit: int
    seeds: int
    def __init__(self, pit: _Optional[int] = ..., seeds: _Optional[int] = ...) -> None: ...

class MarkSet(_message.Message):
    __slots__ = ("mark",)
    MARK_FIELD_NUMBER: _ClassVar[int]
    mark: HiziZetuMark
    def __init__(self, mark: _Optional[_Union[HiziZetuMark, _Mapping]] = ...) -> None: ...

class MarkCleared(_message.Message):
    __slots__ = ("mark",)
    MARK_FIELD_NUMBER: _ClassVar[int]
    mark: HiziZetuMark
    def __init__(self, mark: _Optional[_Union[HiziZetuMark, _Mapping]] = ...) -> None: ...
