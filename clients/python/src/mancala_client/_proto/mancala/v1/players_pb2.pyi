from mancala_client._proto.mancala.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CallerKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CALLER_KIND_UNSPECIFIED: _ClassVar[CallerKind]
    CALLER_KIND_PLAYER: _ClassVar[CallerKind]
    CALLER_KIND_TENANT_KEY: _ClassVar[CallerKind]
    CALLER_KIND_ANONYMOUS: _ClassVar[CallerKind]
CALLER_KIND_UNSPECIFIED: CallerKind
CALLER_KIND_PLAYER: CallerKind
CALLER_KIND_TENANT_KEY: CallerKind
CALLER_KIND_ANONYMOUS: CallerKind

class BotAccount(_message.Message):
    __slots__ = ("owner", "description")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    owner: str
    description: str
    def __init__(self, owner: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class GameRating(_message.Message):
    __slots__ = ("kind", "rating", "deviation", "volatility", "provisional", "rated_matches", "wins", "losses", "draws")
    KIND_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    DEVIATION_FIELD_NUMBER: _ClassVar[int]
    VOLATILITY_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    RATED_MATCHES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    rating: float
    deviation: float
    volatility: float
    provisional: bool
    rated_matches: int
    wins: int
    losses: int
    draws: int
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., rating: _Optional[float] = ..., deviation: _Optional[float] = ..., volatility: _Optional[float] = ..., provisional: _Optional[bool] = ..., rated_matches: _Optional[int] = ..., wins: _Optional[int] = ..., losses: _Optional[int] = ..., draws: _Optional[int] = ...) -> None: ...

class PlayerProfile(_message.Message):
    __slots__ = ("player_id", "display_name", "bot", "ratings", "online", "last_seen_at_ms")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    ONLINE_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_AT_MS_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    display_name: str
    bot: BotAccount
    ratings: _containers.RepeatedCompositeFieldContainer[GameRating]
    online: bool
    last_seen_at_ms: int
    def __init__(self, player_id: _Optional[str] = ..., display_name: _Optional[str] = ..., bot: _Optional[_Union[BotAccount, _Mapping]] = ..., ratings: _Optional[_Iterable[_Union[GameRating, _Mapping]]] = ..., online: _Optional[bool] = ..., last_seen_at_ms: _Optional[int] = ...) -> None: ...

class GetPlayerRequest(_message.Message):
    __slots__ = ("player_id",)
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    def __init__(self, player_id: _Optional[str] = ...) -> None: ...

class GetPlayerResponse(_message.Message):
    __slots__ = ("profile",)
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    profile: PlayerProfile
    def __init__(self, profile: _Optional[_Union[PlayerProfile, _Mapping]] = ...) -> None: ...

class UpdatePlayerRequest(_message.Message):
    __slots__ = ("player_id", "display_name", "bot")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    display_name: str
    bot: BotAccount
    def __init__(self, player_id: _Optional[str] = ..., display_name: _Optional[str] = ..., bot: _Optional[_Union[BotAccount, _Mapping]] = ...) -> None: ...

class UpdatePlayerResponse(_message.Message):
    __slots__ = ("profile",)
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    profile: PlayerProfile
    def __init__(self, profile: _Optional[_Union[PlayerProfile, _Mapping]] = ...) -> None: ...

class ListPlayersRequest(_message.Message):
    __slots__ = ("bots_only", "page_size", "page_token")
    BOTS_ONLY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bots_only: bool
    page_size: int
    page_token: str
    def __init__(self, bots_only: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListPlayersResponse(_message.Message):
    __slots__ = ("players", "next_page_token")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[PlayerProfile]
    next_page_token: str
    def __init__(self, players: _Optional[_Iterable[_Union[PlayerProfile, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class IssuePlayerTokenRequest(_message.Message):
    __slots__ = ("player_id", "ttl_seconds")
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    player_id: str
    ttl_seconds: int
    def __init__(self, player_id: _Optional[str] = ..., ttl_seconds: _Optional[int] = ...) -> None: ...

class IssuePlayerTokenResponse(_message.Message):
    __slots__ = ("token", "expires_at", "expires_at_ms")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_MS_FIELD_NUMBER: _ClassVar[int]
    token: str
    expires_at: int
    expires_at_ms: int
    def __init__(self, token: _Optional[str] = ..., expires_at: _Optional[int] = ..., expires_at_ms: _Optional[int] = ...) -> None: ...

class WhoAmIRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WhoAmIResponse(_message.Message):
    __slots__ = ("tenant_id", "caller", "player_id", "display_name", "is_bot", "profile")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_BOT_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    caller: CallerKind
    player_id: str
    display_name: str
    is_bot: bool
    profile: PlayerProfile
    def __init__(self, tenant_id: _Optional[str] = ..., caller: _Optional[_Union[CallerKind, str]] = ..., player_id: _Optional[str] = ..., display_name: _Optional[str] = ..., is_bot: _Optional[bool] = ..., profile: _Optional[_Union[PlayerProfile, _Mapping]] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("kind", "bots_only", "page_size", "page_token")
    KIND_FIELD_NUMBER: _ClassVar[int]
    BOTS_ONLY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    bots_only: bool
    page_size: int
    page_token: str
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., bots_only: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ("rank", "player_id", "display_name", "is_bot", "rating", "games", "last_seen_at_ms", "online")
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    IS_BOT_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_AT_MS_FIELD_NUMBER: _ClassVar[int]
    ONLINE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player_id: str
    display_name: str
    is_bot: bool
    rating: GameRating
    games: int
    last_seen_at_ms: int
    online: bool
    def __init__(self, rank: _Optional[int] = ..., player_id: _Optional[str] = ..., display_name: _Optional[str] = ..., is_bot: _Optional[bool] = ..., rating: _Optional[_Union[GameRating, _Mapping]] = ..., games: _Optional[int] = ..., last_seen_at_ms: _Optional[int] = ..., online: _Optional[bool] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("kind", "entries", "next_page_token")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: _game_pb2.GameKind
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    next_page_token: str
    def __init__(self, kind: _Optional[_Union[_game_pb2.GameKind, str]] = ..., entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
