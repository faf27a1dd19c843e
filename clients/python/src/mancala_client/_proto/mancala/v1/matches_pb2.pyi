from mancala_client._proto.mancala.v1 import game_pb2 as _game_pb2
from mancala_client._proto.mancala.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_ACTIVE: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]

class MatchEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_END_REASON_UNSPECIFIED: _ClassVar[MatchEndReason]
    MATCH_END_REASON_PLAYED_OUT: _ClassVar[MatchEndReason]
    MATCH_END_REASON_RESIGNATION: _ClassVar[MatchEndReason]
    MATCH_END_REASON_EXPIRED: _ClassVar[MatchEndReason]
    MATCH_END_REASON_TIME_FORFEIT: _ClassVar[MatchEndReason]
    MATCH_END_REASON_ABORTED: _ClassVar[MatchEndReason]
    MATCH_END_REASON_ABANDONED: _ClassVar[MatchEndReason]
    MATCH_END_REASON_REPETITION: _ClassVar[MatchEndReason]
    MATCH_END_REASON_AGREEMENT: _ClassVar[MatchEndReason]
    MATCH_END_REASON_MATCH_LENGTH: _ClassVar[MatchEndReason]

class AgreementAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGREEMENT_ACTION_UNSPECIFIED: _ClassVar[AgreementAction]
    AGREEMENT_ACTION_OFFER: _ClassVar[AgreementAction]
    AGREEMENT_ACTION_ACCEPT: _ClassVar[AgreementAction]
    AGREEMENT_ACTION_DECLINE: _ClassVar[AgreementAction]
    AGREEMENT_ACTION_WITHDRAW: _ClassVar[AgreementAction]

class SnapshotReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SNAPSHOT_REASON_UNSPECIFIED: _ClassVar[SnapshotReason]
    SNAPSHOT_REASON_INITIAL: _ClassVar[SnapshotReason]
    SNAPSHOT_REASON_RESYNC: _ClassVar[SnapshotReason]
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_ACTIVE: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_END_REASON_UNSPECIFIED: MatchEndReason
MATCH_END_REASON_PLAYED_OUT: MatchEndReason
MATCH_END_REASON_RESIGNATION: MatchEndReason
MATCH_END_REASON_EXPIRED: MatchEndReason
MATCH_END_REASON_TIME_FORFEIT: MatchEndReason
MATCH_END_REASON_ABORTED: MatchEndReason
MATCH_END_REASON_ABANDONED: MatchEndReason
MATCH_END_REASON_REPETITION: MatchEndReason
MATCH_END_REASON_AGREEMENT: MatchEndReason
MATCH_END_REASON_MATCH_LENGTH: MatchEndReason
AGREEMENT_ACTION_UNSPECIFIED: AgreementAction
AGREEMENT_ACTION_OFFER: AgreementAction
AGREEMENT_ACTION_ACCEPT: AgreementAction
AGREEMENT_ACTION_DECLINE: AgreementAction
AGREEMENT_ACTION_WITHDRAW: AgreementAction
SNAPSHOT_REASON_UNSPECIFIED: SnapshotReason
SNAPSHOT_REASON_INITIAL: SnapshotReason
SNAPSHOT_REASON_RESYNC: SnapshotReason

class TimeControl(_message.Message):
    __slots__ = ("fischer", "delay", "correspondence")
    FISCHER_FIELD_NUMBER: _ClassVar[int]
    DELAY_FIELD_NUMBER: _ClassVar[int]
    CORRESPONDENCE_FIELD_NUMBER: _ClassVar[int]
    fischer: FischerTime
    delay: DelayTime
    correspondence: CorrespondenceTime
    def __init__(self, fischer: _Optional[_Union[FischerTime, _Mapping]] = ..., delay: _Optional[_Union[DelayTime, _Mapping]] = ..., correspondence: _Optional[_Union[CorrespondenceTime, _Mapping]] = ...) -> None: ...

class FischerTime(_message.Message):
    __slots__ = ("initial_ms", "increment_ms")
    INITIAL_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    initial_ms: int
    increment_ms: int
    def __init__(self, initial_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ...) -> None: ...

class DelayTime(_message.Message):
    __slots__ = ("initial_ms", "delay_ms")
    INITIAL_MS_FIELD_NUMBER: _ClassVar[int]
    DELAY_MS_FIELD_NUMBER: _ClassVar[int]
    initial_ms: int
    delay_ms: int
    def __init__(self, initial_ms: _Optional[int] = ..., delay_ms: _Optional[int] = ...) -> None: ...

class CorrespondenceTime(_message.Message):
    __slots__ = ("days_per_move",)
    DAYS_PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    days_per_move: int
    def __init__(self, days_per_move: _Optional[int] = ...) -> None: ...

class Clocks(_message.Message):
    __slots__ = ("remaining_ms", "running", "as_of_ms", "flag_at_ms", "started", "abort_at_ms")
    REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    AS_OF_MS_FIELD_NUMBER: _ClassVar[int]
    FLAG_AT_MS_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    ABORT_AT_MS_FIELD_NUMBER: _ClassVar[int]
    remaining_ms: _containers.RepeatedScalarFieldContainer[int]
    running: _game_pb2.Player
    as_of_ms: int
    flag_at_ms: int
    started: bool
    abort_at_ms: int
    def __init__(self, remaining_ms: _Optional[_Iterable[int]] = ..., running: _Optional[_Union[_game_pb2.Player, str]] = ..., as_of_ms: _Optional[int] = ..., flag_at_ms: _Optional[int] = ..., started: _Optional[bool] = ..., abort_at_ms: _Optional[int] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("player", "connected", "player_id", "bot_level", "bot_seed")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    BOT_SEED_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    connected: bool
    player_id: str
    bot_level: int
    bot_seed: int
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., connected: _Optional[bool] = ..., player_id: _Optional[str] = ..., bot_level: _Optional[int] = ..., bot_seed: _Optional[int] = ...) -> None: ...

class MatchResult(_message.Message):
    __slots__ = ("winner", "reason", "resigned", "finished_at_ms", "placing")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PLACING_FIELD_NUMBER: _ClassVar[int]
    winner: _game_pb2.Player
    reason: MatchEndReason
    resigned: _game_pb2.Player
    finished_at_ms: int
    placing: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, winner: _Optional[_Union[_game_pb2.Player, str]] = ..., reason: _Optional[_Union[MatchEndReason, str]] = ..., resigned: _Optional[_Union[_game_pb2.Player, str]] = ..., finished_at_ms: _Optional[int] = ..., placing: _Optional[_Iterable[int]] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("match_id", "kind", "options", "state", "version", "status", "seats", "legal_moves", "result", "created_at_ms", "previews", "time_control", "clocks", "agreeing", "position_occurrences")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PREVIEWS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    AGREEING_FIELD_NUMBER: _ClassVar[int]
    POSITION_OCCURRENCES_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    state: _game_pb2.GameState
    version: int
    status: MatchStatus
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    legal_moves: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    result: MatchResult
    created_at_ms: int
    previews: _containers.RepeatedCompositeFieldContainer[_rules_pb2.LegalMove]
    time_control: TimeControl
    clocks: Clocks
    agreeing: _containers.RepeatedScalarFieldContainer[_game_pb2.Player]
    position_occurrences: int
    def __init__(self, match_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., version: _Optional[int] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., legal_moves: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ..., created_at_ms: _Optional[int] = ..., previews: _Optional[_Iterable[_Union[_rules_pb2.LegalMove, _Mapping]]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., clocks: _Optional[_Union[Clocks, _Mapping]] = ..., agreeing: _Optional[_Iterable[_Union[_game_pb2.Player, str]]] = ..., position_occurrences: _Optional[int] = ...) -> None: ...

class MatchSummary(_message.Message):
    __slots__ = ("match_id", "kind", "status", "version", "created_at_ms", "result")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    kind: _game_pb2.GameKind
    status: MatchStatus
    version: int
    created_at_ms: int
    result: MatchResult
    def __init__(self, match_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., version: _Optional[int] = ..., created_at_ms: _Optional[int] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("kind", "options", "players", "bots", "time_control", "start")
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    players: _containers.RepeatedCompositeFieldContainer[SeatPlayer]
    bots: _containers.RepeatedCompositeFieldContainer[SeatBot]
    time_control: TimeControl
    start: _game_pb2.GameState
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., players: _Optional[_Iterable[_Union[SeatPlayer, _Mapping]]] = ..., bots: _Optional[_Iterable[_Union[SeatBot, _Mapping]]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., start: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class SeatBot(_message.Message):
    __slots__ = ("player", "level", "seed")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    level: int
    seed: int
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., level: _Optional[int] = ..., seed: _Optional[int] = ...) -> None: ...

class SeatPlayer(_message.Message):
    __slots__ = ("player", "player_id")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    player_id: str
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., player_id: _Optional[str] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("player", "token")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    token: str
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., token: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match", "tokens")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    match: Match
    tokens: _containers.RepeatedCompositeFieldContainer[SeatToken]
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., tokens: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("kind", "status", "page_size", "page_token", "player_id")
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    status: MatchStatus
    page_size: int
    page_token: str
    player_id: str
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchSummary]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SubmitMoveRequest(_message.Message):
    __slots__ = ("match_id", "move", "expected_version", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    move: _game_pb2.Move
    expected_version: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class SubmitMoveResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: MatchEvent
    def __init__(self, event: _Optional[_Union[MatchEvent, _Mapping]] = ...) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ("match_id", "expected_version", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    expected_version: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class ResignResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: MatchEvent
    def __init__(self, event: _Optional[_Union[MatchEvent, _Mapping]] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "from_seq", "previews")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    PREVIEWS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    from_seq: int
    previews: bool
    def __init__(self, match_id: _Optional[str] = ..., from_seq: _Optional[int] = ..., previews: _Optional[bool] = ...) -> None: ...

class MatchEvent(_message.Message):
    __slots__ = ("seq", "player", "move", "resignation", "expiry", "flag", "abort", "claim", "end_agreement", "events", "state", "legal_moves", "accepted_at_ms", "previews", "clocks", "agreeing", "position_occurrences")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    RESIGNATION_FIELD_NUMBER: _ClassVar[int]
    EXPIRY_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    ABORT_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    END_AGREEMENT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    PREVIEWS_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    AGREEING_FIELD_NUMBER: _ClassVar[int]
    POSITION_OCCURRENCES_FIELD_NUMBER: _ClassVar[int]
    seq: int
    player: _game_pb2.Player
    move: _game_pb2.Move
    resignation: Resignation
    expiry: Expiry
    flag: Flag
    abort: Abort
    claim: Claim
    end_agreement: EndAgreement
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.Event]
    state: _game_pb2.GameState
    legal_moves: _containers.RepeatedCompositeFieldContainer[_game_pb2.Move]
    accepted_at_ms: int
    previews: _containers.RepeatedCompositeFieldContainer[_rules_pb2.LegalMove]
    clocks: Clocks
    agreeing: _containers.RepeatedScalarFieldContainer[_game_pb2.Player]
    position_occurrences: int
    def __init__(self, seq: _Optional[int] = ..., player: _Optional[_Union[_game_pb2.Player, str]] = ..., move: _Optional[_Union[_game_pb2.Move, _Mapping]] = ..., resignation: _Optional[_Union[Resignation, _Mapping]] = ..., expiry: _Optional[_Union[Expiry, _Mapping]] = ..., flag: _Optional[_Union[Flag, _Mapping]] = ..., abort: _Optional[_Union[Abort, _Mapping]] = ..., claim: _Optional[_Union[Claim, _Mapping]] = ..., end_agreement: _Optional[_Union[EndAgreement, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.Event, _Mapping]]] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., legal_moves: _Optional[_Iterable[_Union[_game_pb2.Move, _Mapping]]] = ..., accepted_at_ms: _Optional[int] = ..., previews: _Optional[_Iterable[_Union[_rules_pb2.LegalMove, _Mapping]]] = ..., clocks: _Optional[_Union[Clocks, _Mapping]] = ..., agreeing: _Optional[_Iterable[_Union[_game_pb2.Player, str]]] = ..., position_occurrences: _Optional[int] = ...) -> None: ...

class Resignation(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Expiry(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Flag(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Abort(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Claim(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EndAgreement(_message.Message):
    __slots__ = ("action",)
    ACTION_FIELD_NUMBER: _ClassVar[int]
    action: AgreementAction
    def __init__(self, action: _Optional[_Union[AgreementAction, str]] = ...) -> None: ...

class AgreeToEndRequest(_message.Message):
    __slots__ = ("match_id", "action", "expected_version", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    action: AgreementAction
    expected_version: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., action: _Optional[_Union[AgreementAction, str]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class AgreeToEndResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: MatchEvent
    def __init__(self, event: _Optional[_Union[MatchEvent, _Mapping]] = ...) -> None: ...

class AbortRequest(_message.Message):
    __slots__ = ("match_id", "expected_version", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    expected_version: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class AbortResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: MatchEvent
    def __init__(self, event: _Optional[_Union[MatchEvent, _Mapping]] = ...) -> None: ...

class ClaimVictoryRequest(_message.Message):
    __slots__ = ("match_id", "expected_version", "request_id")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    expected_version: int
    request_id: str
    def __init__(self, match_id: _Optional[str] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class ClaimVictoryResponse(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: MatchEvent
    def __init__(self, event: _Optional[_Union[MatchEvent, _Mapping]] = ...) -> None: ...

class MatchSnapshot(_message.Message):
    __slots__ = ("match", "reason")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    match: Match
    reason: SnapshotReason
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., reason: _Optional[_Union[SnapshotReason, str]] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class Presence(_message.Message):
    __slots__ = ("player", "connected")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    connected: bool
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., connected: _Optional[bool] = ...) -> None: ...

class MatchFinished(_message.Message):
    __slots__ = ("version", "result")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    version: int
    result: MatchResult
    def __init__(self, version: _Optional[int] = ..., result: _Optional[_Union[MatchResult, _Mapping]] = ...) -> None: ...

class WatchMatchResponse(_message.Message):
    __slots__ = ("snapshot", "event", "heartbeat", "presence", "finished")
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    PRESENCE_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    snapshot: MatchSnapshot
    event: MatchEvent
    heartbeat: Heartbeat
    presence: Presence
    finished: MatchFinished
    def __init__(self, snapshot: _Optional[_Union[MatchSnapshot, _Mapping]] = ..., event: _Optional[_Union[MatchEvent, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., presence: _Optional[_Union[Presence, _Mapping]] = ..., finished: _Optional[_Union[MatchFinished, _Mapping]] = ...) -> None: ...

class GetHistoryRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetHistoryResponse(_message.Message):
    __slots__ = ("match", "events", "notation")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    match: Match
    events: _containers.RepeatedCompositeFieldContainer[MatchEvent]
    notation: str
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., events: _Optional[_Iterable[_Union[MatchEvent, _Mapping]]] = ..., notation: _Optional[str] = ...) -> None: ...
