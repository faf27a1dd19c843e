from mancala_client._proto.mancala.v1 import game_pb2 as _game_pb2
from mancala_client._proto.mancala.v1 import matches_pb2 as _matches_pb2
from mancala_client._proto.mancala.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatPreference(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_PREFERENCE_RANDOM: _ClassVar[SeatPreference]
    SEAT_PREFERENCE_SOUTH: _ClassVar[SeatPreference]
    SEAT_PREFERENCE_NORTH: _ClassVar[SeatPreference]
    SEAT_PREFERENCE_EAST: _ClassVar[SeatPreference]

class ChallengeStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHALLENGE_STATUS_UNSPECIFIED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_PENDING: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_ACCEPTED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_DECLINED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_CANCELLED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_EXPIRED: _ClassVar[ChallengeStatus]

class DeclineReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECLINE_REASON_GENERIC: _ClassVar[DeclineReason]
    DECLINE_REASON_LATER: _ClassVar[DeclineReason]
    DECLINE_REASON_CASUAL: _ClassVar[DeclineReason]
    DECLINE_REASON_RATED: _ClassVar[DeclineReason]
    DECLINE_REASON_GAME: _ClassVar[DeclineReason]
    DECLINE_REASON_OPTIONS: _ClassVar[DeclineReason]
    DECLINE_REASON_NO_BOT: _ClassVar[DeclineReason]
    DECLINE_REASON_ONLY_BOT: _ClassVar[DeclineReason]

class SeekStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEEK_STATUS_UNSPECIFIED: _ClassVar[SeekStatus]
    SEEK_STATUS_OPEN: _ClassVar[SeekStatus]
    SEEK_STATUS_PAIRED: _ClassVar[SeekStatus]
    SEEK_STATUS_CANCELLED: _ClassVar[SeekStatus]
    SEEK_STATUS_EXPIRED: _ClassVar[SeekStatus]

class TournamentEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_EVENT_KIND_UNSPECIFIED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_CREATED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_ENTERED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_WITHDRAWN: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_STARTED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_ROUND_PAIRED: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_RESULT: _ClassVar[TournamentEventKind]
    TOURNAMENT_EVENT_KIND_FINISHED: _ClassVar[TournamentEventKind]
SEAT_PREFERENCE_RANDOM: SeatPreference
SEAT_PREFERENCE_SOUTH: SeatPreference
SEAT_PREFERENCE_NORTH: SeatPreference
SEAT_PREFERENCE_EAST: SeatPreference
CHALLENGE_STATUS_UNSPECIFIED: ChallengeStatus
CHALLENGE_STATUS_PENDING: ChallengeStatus
CHALLENGE_STATUS_ACCEPTED: ChallengeStatus
CHALLENGE_STATUS_DECLINED: ChallengeStatus
CHALLENGE_STATUS_CANCELLED: ChallengeStatus
CHALLENGE_STATUS_EXPIRED: ChallengeStatus
DECLINE_REASON_GENERIC: DeclineReason
DECLINE_REASON_LATER: DeclineReason
DECLINE_REASON_CASUAL: DeclineReason
DECLINE_REASON_RATED: DeclineReason
DECLINE_REASON_GAME: DeclineReason
DECLINE_REASON_OPTIONS: DeclineReason
DECLINE_REASON_NO_BOT: DeclineReason
DECLINE_REASON_ONLY_BOT: DeclineReason
SEEK_STATUS_UNSPECIFIED: SeekStatus
SEEK_STATUS_OPEN: SeekStatus
SEEK_STATUS_PAIRED: SeekStatus
SEEK_STATUS_CANCELLED: SeekStatus
SEEK_STATUS_EXPIRED: SeekStatus
TOURNAMENT_EVENT_KIND_UNSPECIFIED: TournamentEventKind
TOURNAMENT_EVENT_KIND_CREATED: TournamentEventKind
TOURNAMENT_EVENT_KIND_ENTERED: TournamentEventKind
TOURNAMENT_EVENT_KIND_WITHDRAWN: TournamentEventKind
TOURNAMENT_EVENT_KIND_STARTED: TournamentEventKind
TOURNAMENT_EVENT_KIND_ROUND_PAIRED: TournamentEventKind
TOURNAMENT_EVENT_KIND_RESULT: TournamentEventKind
TOURNAMENT_EVENT_KIND_FINISHED: TournamentEventKind

class Challenge(_message.Message):
    __slots__ = ("challenge_id", "from_player_id", "to_player_id", "kind", "options", "rated", "seat", "status", "decline_reason", "match_id", "accepted_by_player_id", "created_at_ms", "expires_at_ms", "rematch_of_match_id", "time_control", "also_to_player_id", "joined_player_ids")
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TO_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DECLINE_REASON_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_BY_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REMATCH_OF_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    ALSO_TO_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    JOINED_PLAYER_IDS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    from_player_id: str
    to_player_id: str
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    rated: bool
    seat: SeatPreference
    status: ChallengeStatus
    decline_reason: DeclineReason
    match_id: str
    accepted_by_player_id: str
    created_at_ms: int
    expires_at_ms: int
    rematch_of_match_id: str
    time_control: _matches_pb2.TimeControl
    also_to_player_id: str
    joined_player_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, challenge_id: _Optional[str] = ..., from_player_id: _Optional[str] = ..., to_player_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., seat: _Optional[_Union[SeatPreference, str]] = ..., status: _Optional[_Union[ChallengeStatus, str]] = ..., decline_reason: _Optional[_Union[DeclineReason, str]] = ..., match_id: _Optional[str] = ..., accepted_by_player_id: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ..., rematch_of_match_id: _Optional[str] = ..., time_control: _Optional[_Union[_matches_pb2.TimeControl, _Mapping]] = ..., also_to_player_id: _Optional[str] = ..., joined_player_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateChallengeRequest(_message.Message):
    __slots__ = ("to_player_id", "kind", "options", "rated", "seat", "ttl_seconds", "time_control", "also_to_player_id")
    TO_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    ALSO_TO_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    to_player_id: str
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    rated: bool
    seat: SeatPreference
    ttl_seconds: int
    time_control: _matches_pb2.TimeControl
    also_to_player_id: str
    def __init__(self, to_player_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., seat: _Optional[_Union[SeatPreference, str]] = ..., ttl_seconds: _Optional[int] = ..., time_control: _Optional[_Union[_matches_pb2.TimeControl, _Mapping]] = ..., also_to_player_id: _Optional[str] = ...) -> None: ...

class CreateChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class AcceptChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class AcceptChallengeResponse(_message.Message):
    __slots__ = ("challenge", "match", "seat")
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    match: _matches_pb2.Match
    seat: _game_pb2.Player
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ..., match: _Optional[_Union[_matches_pb2.Match, _Mapping]] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ...) -> None: ...

class DeclineChallengeRequest(_message.Message):
    __slots__ = ("challenge_id", "reason")
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    reason: DeclineReason
    def __init__(self, challenge_id: _Optional[str] = ..., reason: _Optional[_Union[DeclineReason, str]] = ...) -> None: ...

class DeclineChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class CancelChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class CancelChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class ListChallengesRequest(_message.Message):
    __slots__ = ("open",)
    OPEN_FIELD_NUMBER: _ClassVar[int]
    open: bool
    def __init__(self, open: _Optional[bool] = ...) -> None: ...

class ListChallengesResponse(_message.Message):
    __slots__ = ("incoming", "outgoing", "open_challenges", "open_seeks")
    INCOMING_FIELD_NUMBER: _ClassVar[int]
    OUTGOING_FIELD_NUMBER: _ClassVar[int]
    OPEN_CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEEKS_FIELD_NUMBER: _ClassVar[int]
    incoming: _containers.RepeatedCompositeFieldContainer[Challenge]
    outgoing: _containers.RepeatedCompositeFieldContainer[Challenge]
    open_challenges: _containers.RepeatedCompositeFieldContainer[Challenge]
    open_seeks: _containers.RepeatedCompositeFieldContainer[Seek]
    def __init__(self, incoming: _Optional[_Iterable[_Union[Challenge, _Mapping]]] = ..., outgoing: _Optional[_Iterable[_Union[Challenge, _Mapping]]] = ..., open_challenges: _Optional[_Iterable[_Union[Challenge, _Mapping]]] = ..., open_seeks: _Optional[_Iterable[_Union[Seek, _Mapping]]] = ...) -> None: ...

class OfferRematchRequest(_message.Message):
    __slots__ = ("match_id", "ttl_seconds")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    ttl_seconds: int
    def __init__(self, match_id: _Optional[str] = ..., ttl_seconds: _Optional[int] = ...) -> None: ...

class OfferRematchResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class Seek(_message.Message):
    __slots__ = ("seek_id", "player_id", "kind", "options", "rated", "rating_min", "rating_max", "fallback_bot_level", "fallback_after_ms", "status", "match_id", "opponent_player_id", "created_at_ms", "expires_at_ms", "time_control")
    SEEK_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    RATING_MIN_FIELD_NUMBER: _ClassVar[int]
    RATING_MAX_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    seek_id: str
    player_id: str
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    rated: bool
    rating_min: int
    rating_max: int
    fallback_bot_level: int
    fallback_after_ms: int
    status: SeekStatus
    match_id: str
    opponent_player_id: str
    created_at_ms: int
    expires_at_ms: int
    time_control: _matches_pb2.TimeControl
    def __init__(self, seek_id: _Optional[str] = ..., player_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., rating_min: _Optional[int] = ..., rating_max: _Optional[int] = ..., fallback_bot_level: _Optional[int] = ..., fallback_after_ms: _Optional[int] = ..., status: _Optional[_Union[SeekStatus, str]] = ..., match_id: _Optional[str] = ..., opponent_player_id: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., expires_at_ms: _Optional[int] = ..., time_control: _Optional[_Union[_matches_pb2.TimeControl, _Mapping]] = ...) -> None: ...

class SeekRequest(_message.Message):
    __slots__ = ("kind", "options", "rated", "rating_min", "rating_max", "fallback_bot_level", "fallback_after_ms", "ttl_seconds", "time_control")
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    RATING_MIN_FIELD_NUMBER: _ClassVar[int]
    RATING_MAX_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_AFTER_MS_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    rated: bool
    rating_min: int
    rating_max: int
    fallback_bot_level: int
    fallback_after_ms: int
    ttl_seconds: int
    time_control: _matches_pb2.TimeControl
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., rating_min: _Optional[int] = ..., rating_max: _Optional[int] = ..., fallback_bot_level: _Optional[int] = ..., fallback_after_ms: _Optional[int] = ..., ttl_seconds: _Optional[int] = ..., time_control: _Optional[_Union[_matches_pb2.TimeControl, _Mapping]] = ...) -> None: ...

class SeekResponse(_message.Message):
    __slots__ = ("seek",)
    SEEK_FIELD_NUMBER: _ClassVar[int]
    seek: Seek
    def __init__(self, seek: _Optional[_Union[Seek, _Mapping]] = ...) -> None: ...

class CancelSeekRequest(_message.Message):
    __slots__ = ("seek_id",)
    SEEK_ID_FIELD_NUMBER: _ClassVar[int]
    seek_id: str
    def __init__(self, seek_id: _Optional[str] = ...) -> None: ...

class CancelSeekResponse(_message.Message):
    __slots__ = ("seek",)
    SEEK_FIELD_NUMBER: _ClassVar[int]
    seek: Seek
    def __init__(self, seek: _Optional[_Union[Seek, _Mapping]] = ...) -> None: ...

class LobbyHeartbeat(_message.Message):
    __slots__ = ("last_event_id",)
    LAST_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    last_event_id: int
    def __init__(self, last_event_id: _Optional[int] = ...) -> None: ...

class Opponent(_message.Message):
    __slots__ = ("player_id", "bot_level", "rating", "is_bot_account", "seat")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    IS_BOT_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    bot_level: int
    rating: float
    is_bot_account: bool
    seat: _game_pb2.Player
    def __init__(self, player_id: _Optional[str] = ..., bot_level: _Optional[int] = ..., rating: _Optional[float] = ..., is_bot_account: _Optional[bool] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ...) -> None: ...

class PlayerMatchStarted(_message.Message):
    __slots__ = ("match_id", "kind", "options", "rated", "seat", "opponent", "challenge_id", "seek_id", "opponents", "tournament_id", "tournament_round")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    SEEK_ID_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ROUND_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    rated: bool
    seat: _game_pb2.Player
    opponent: Opponent
    challenge_id: str
    seek_id: str
    opponents: _containers.RepeatedCompositeFieldContainer[Opponent]
    tournament_id: str
    tournament_round: int
    def __init__(self, match_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ..., opponent: _Optional[_Union[Opponent, _Mapping]] = ..., challenge_id: _Optional[str] = ..., seek_id: _Optional[str] = ..., opponents: _Optional[_Iterable[_Union[Opponent, _Mapping]]] = ..., tournament_id: _Optional[str] = ..., tournament_round: _Optional[int] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("player_id", "before", "after")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    before: float
    after: float
    def __init__(self, player_id: _Optional[str] = ..., before: _Optional[float] = ..., after: _Optional[float] = ...) -> None: ...

class PlayerMatchFinished(_message.Message):
    __slots__ = ("match_id", "kind", "seat", "result", "rated", "rating_changes")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    RATING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    kind: _game_pb2.GameKind
    seat: _game_pb2.Player
    result: _matches_pb2.MatchResult
    rated: bool
    rating_changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    def __init__(self, match_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ..., result: _Optional[_Union[_matches_pb2.MatchResult, _Mapping]] = ..., rated: _Optional[bool] = ..., rating_changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ...) -> None: ...

class WatchPlayerEventsRequest(_message.Message):
    __slots__ = ("after_event_id",)
    AFTER_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    after_event_id: int
    def __init__(self, after_event_id: _Optional[int] = ...) -> None: ...

class PlayerEvent(_message.Message):
    __slots__ = ("event_id", "at_ms", "heartbeat", "challenge", "seek", "match_started", "match_finished", "tournament", "restated")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    SEEK_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    MATCH_FINISHED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    RESTATED_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    at_ms: int
    heartbeat: LobbyHeartbeat
    challenge: Challenge
    seek: Seek
    match_started: PlayerMatchStarted
    match_finished: PlayerMatchFinished
    tournament: PlayerTournamentEvent
    restated: bool
    def __init__(self, event_id: _Optional[int] = ..., at_ms: _Optional[int] = ..., heartbeat: _Optional[_Union[LobbyHeartbeat, _Mapping]] = ..., challenge: _Optional[_Union[Challenge, _Mapping]] = ..., seek: _Optional[_Union[Seek, _Mapping]] = ..., match_started: _Optional[_Union[PlayerMatchStarted, _Mapping]] = ..., match_finished: _Optional[_Union[PlayerMatchFinished, _Mapping]] = ..., tournament: _Optional[_Union[PlayerTournamentEvent, _Mapping]] = ..., restated: _Optional[bool] = ...) -> None: ...

class PlayerTournamentEvent(_message.Message):
    __slots__ = ("tournament_id", "kind", "round", "match_id", "seat", "opponent_entrant_id", "bye", "rank", "points")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ENTRANT_ID_FIELD_NUMBER: _ClassVar[int]
    BYE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    kind: TournamentEventKind
    round: int
    match_id: str
    seat: _game_pb2.Player
    opponent_entrant_id: str
    bye: bool
    rank: int
    points: float
    def __init__(self, tournament_id: _Optional[str] = ..., kind: _Optional[_Union[TournamentEventKind, str]] = ..., round: _Optional[int] = ..., match_id: _Optional[str] = ..., seat: _Optional[_Union[_game_pb2.Player, str]] = ..., opponent_entrant_id: _Optional[str] = ..., bye: _Optional[bool] = ..., rank: _Optional[int] = ..., points: _Optional[float] = ...) -> None: ...

class FeedSeat(_message.Message):
    __slots__ = ("player", "player_id", "bot_level")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    player: _game_pb2.Player
    player_id: str
    bot_level: int
    def __init__(self, player: _Optional[_Union[_game_pb2.Player, str]] = ..., player_id: _Optional[str] = ..., bot_level: _Optional[int] = ...) -> None: ...

class FeedMatchCreated(_message.Message):
    __slots__ = ("match_id", "kind", "options", "rated", "seats", "challenge_id", "seek_ids", "tournament_id", "tournament_round")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    SEEK_IDS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ROUND_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    kind: _game_pb2.GameKind
    options: _rules_pb2.GameOptions
    rated: bool
    seats: _containers.RepeatedCompositeFieldContainer[FeedSeat]
    challenge_id: str
    seek_ids: _containers.RepeatedScalarFieldContainer[str]
    tournament_id: str
    tournament_round: int
    def __init__(self, match_id: _Optional[str] = ..., kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., options: _Optional[_Union[_rules_pb2.GameOptions, _Mapping]] = ..., rated: _Optional[bool] = ..., seats: _Optional[_Iterable[_Union[FeedSeat, _Mapping]]] = ..., challenge_id: _Optional[str] = ..., seek_ids: _Optional[_Iterable[str]] = ..., tournament_id: _Optional[str] = ..., tournament_round: _Optional[int] = ...) -> None: ...

class FeedMatchStarted(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class FeedMatchFinished(_message.Message):
    __slots__ = ("match_id", "result", "rated", "rating_changes")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    RATING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    result: _matches_pb2.MatchResult
    rated: bool
    rating_changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    def __init__(self, match_id: _Optional[str] = ..., result: _Optional[_Union[_matches_pb2.MatchResult, _Mapping]] = ..., rated: _Optional[bool] = ..., rating_changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ...) -> None: ...

class WatchTenantFeedRequest(_message.Message):
    __slots__ = ("after_event_id",)
    AFTER_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    after_event_id: int
    def __init__(self, after_event_id: _Optional[int] = ...) -> None: ...

class FeedEvent(_message.Message):
    __slots__ = ("event_id", "at_ms", "heartbeat", "match_created", "match_started", "match_finished")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    AT_MS_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    MATCH_CREATED_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    MATCH_FINISHED_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    at_ms: int
    heartbeat: LobbyHeartbeat
    match_created: FeedMatchCreated
    match_started: FeedMatchStarted
    match_finished: FeedMatchFinished
    def __init__(self, event_id: _Optional[int] = ..., at_ms: _Optional[int] = ..., heartbeat: _Optional[_Union[LobbyHeartbeat, _Mapping]] = ..., match_created: _Optional[_Union[FeedMatchCreated, _Mapping]] = ..., match_started: _Optional[_Union[FeedMatchStarted, _Mapping]] = ..., match_finished: _Optional[_Union[FeedMatchFinished, _Mapping]] = ...) -> None: ...
