from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TenantLimits(_message.Message):
    __slots__ = ("calls_per_second", "burst", "max_active_matches", "max_watchers", "calls_per_second_per_player", "burst_per_player", "max_active_matches_per_player", "max_watchers_per_player")
    CALLS_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    BURST_FIELD_NUMBER: _ClassVar[int]
    MAX_ACTIVE_MATCHES_FIELD_NUMBER: _ClassVar[int]
    MAX_WATCHERS_FIELD_NUMBER: _ClassVar[int]
    CALLS_PER_SECOND_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    BURST_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    MAX_ACTIVE_MATCHES_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    MAX_WATCHERS_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    calls_per_second: int
    burst: int
    max_active_matches: int
    max_watchers: int
    calls_per_second_per_player: int
    burst_per_player: int
    max_active_matches_per_player: int
    max_watchers_per_player: int
    def __init__(self, calls_per_second: _Optional[int] = ..., burst: _Optional[int] = ..., max_active_matches: _Optional[int] = ..., max_watchers: _Optional[int] = ..., calls_per_second_per_player: _Optional[int] = ..., burst_per_player: _Optional[int] = ..., max_active_matches_per_player: _Optional[int] = ..., max_watchers_per_player: _Optional[int] = ...) -> None: ...

class ApiKey(_message.Message):
    __slots__ = ("key_id", "created_at_ms", "revoked_at_ms")
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    REVOKED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    created_at_ms: int
    revoked_at_ms: int
    def __init__(self, key_id: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., revoked_at_ms: _Optional[int] = ...) -> None: ...

class Tenant(_message.Message):
    __slots__ = ("tenant_id", "name", "created_at_ms", "disabled", "keys", "limits", "effective_limits")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_MS_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    EFFECTIVE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    name: str
    created_at_ms: int
    disabled: bool
    keys: _containers.RepeatedCompositeFieldContainer[ApiKey]
    limits: TenantLimits
    effective_limits: TenantLimits
    def __init__(self, tenant_id: _Optional[str] = ..., name: _Optional[str] = ..., created_at_ms: _Optional[int] = ..., disabled: _Optional[bool] = ..., keys: _Optional[_Iterable[_Union[ApiKey, _Mapping]]] = ..., limits: _Optional[_Union[TenantLimits, _Mapping]] = ..., effective_limits: _Optional[_Union[TenantLimits, _Mapping]] = ...) -> None: ...

class CreateTenantRequest(_message.Message):
    __slots__ = ("tenant_id", "name", "limits")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    name: str
    limits: TenantLimits
    def __init__(self, tenant_id: _Optional[str] = ..., name: _Optional[str] = ..., limits: _Optional[_Union[TenantLimits, _Mapping]] = ...) -> None: ...

class CreateTenantResponse(_message.Message):
    __slots__ = ("tenant", "api_key")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    tenant: Tenant
    api_key: str
    def __init__(self, tenant: _Optional[_Union[Tenant, _Mapping]] = ..., api_key: _Optional[str] = ...) -> None: ...

class ListTenantsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListTenantsResponse(_message.Message):
    __slots__ = ("tenants",)
    TENANTS_FIELD_NUMBER: _ClassVar[int]
    tenants: _containers.RepeatedCompositeFieldContainer[Tenant]
    def __init__(self, tenants: _Optional[_Iterable[_Union[Tenant, _Mapping]]] = ...) -> None: ...

class CreateApiKeyRequest(_message.Message):
    __slots__ = ("tenant_id", "revoke_others", "overlap_ms")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    REVOKE_OTHERS_FIELD_NUMBER: _ClassVar[int]
    OVERLAP_MS_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    revoke_others: bool
    overlap_ms: int
    def __init__(self, tenant_id: _Optional[str] = ..., revoke_others: _Optional[bool] = ..., overlap_ms: _Optional[int] = ...) -> None: ...

class CreateApiKeyResponse(_message.Message):
    __slots__ = ("tenant", "api_key")
    TENANT_FIELD_NUMBER: _ClassVar[int]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    tenant: Tenant
    api_key: str
    def __init__(self, tenant: _Optional[_Union[Tenant, _Mapping]] = ..., api_key: _Optional[str] = ...) -> None: ...

class RevokeApiKeyRequest(_message.Message):
    __slots__ = ("tenant_id", "key_id")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    key_id: str
    def __init__(self, tenant_id: _Optional[str] = ..., key_id: _Optional[str] = ...) -> None: ...

class RevokeApiKeyResponse(_message.Message):
    __slots__ = ("tenant",)
    TENANT_FIELD_NUMBER: _ClassVar[int]
    tenant: Tenant
    def __init__(self, tenant: _Optional[_Union[Tenant, _Mapping]] = ...) -> None: ...

class SetTenantLimitsRequest(_message.Message):
    __slots__ = ("tenant_id", "limits", "merge")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    MERGE_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    limits: TenantLimits
    merge: bool
    def __init__(self, tenant_id: _Optional[str] = ..., limits: _Optional[_Union[TenantLimits, _Mapping]] = ..., merge: _Optional[bool] = ...) -> None: ...

class SetTenantLimitsResponse(_message.Message):
    __slots__ = ("tenant",)
    TENANT_FIELD_NUMBER: _ClassVar[int]
    tenant: Tenant
    def __init__(self, tenant: _Optional[_Union[Tenant, _Mapping]] = ...) -> None: ...

class SetTenantDisabledRequest(_message.Message):
    __slots__ = ("tenant_id", "disabled")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    disabled: bool
    def __init__(self, tenant_id: _Optional[str] = ..., disabled: _Optional[bool] = ...) -> None: ...

class SetTenantDisabledResponse(_message.Message):
    __slots__ = ("tenant",)
    TENANT_FIELD_NUMBER: _ClassVar[int]
    tenant: Tenant
    def __init__(self, tenant: _Optional[_Union[Tenant, _Mapping]] = ...) -> None: ...

class AdminIssuePlayerTokenRequest(_message.Message):
    __slots__ = ("tenant_id", "player_id", "ttl_seconds")
    TENANT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_SECONDS_FIELD_NUMBER: _ClassVar[int]
    tenant_id: str
    player_id: str
    ttl_seconds: int
    def __init__(self, tenant_id: _Optional[str] = ..., player_id: _Optional[str] = ..., ttl_seconds: _Optional[int] = ...) -> None: ...

class AdminIssuePlayerTokenResponse(_message.Message):
    __slots__ = ("token", "expires_at", "key_id")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    token: str
    expires_at: int
    key_id: str
    def __init__(self, token: _Optional[str] = ..., expires_at: _Optional[int] = ..., key_id: _Optional[str] = ...) -> None: ...
