//! `mancala.v1.Admin`: the operator's tenants, keys and limits, behind the operator's key (checked by
//! [`super::auth::Authenticate`] with [`super::auth::Needs::Operator`]). Every change awaits the store.

use crate::api::{error, pb};
use crate::identity::{resolve, AdminError, Identity};
use crate::store::{LimitOverrides, TenantRecord};
use tonic::{Request, Response, Status};

/// The Admin service.
#[derive(Debug, Clone)]
pub struct AdminService {
    identity: Identity,
    defaults: crate::config::TenantLimits,
}

impl AdminService {
    /// A service over `identity`'s tenants; `defaults` are the server's `[limits]`.
    pub fn new(identity: Identity, defaults: crate::config::TenantLimits) -> AdminService {
        AdminService { identity, defaults }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::admin_server::AdminServer<Self> {
        pb::admin_server::AdminServer::new(self)
    }

    fn tenant_pb(&self, record: &TenantRecord) -> pb::Tenant {
        let effective = resolve(&self.defaults, &record.limits);
        pb::Tenant {
            tenant_id: record.id.clone(),
            name: record.name.clone(),
            created_at_ms: record.created_ms,
            disabled: record.disabled,
            keys: record
                .keys
                .iter()
                .map(|key| pb::ApiKey {
                    key_id: key.id.clone(),
                    created_at_ms: key.created_ms,
                    revoked_at_ms: key.revoked_ms.unwrap_or(0),
                })
                .collect(),
            limits: Some(limits_pb(&record.limits)),
            effective_limits: Some(pb::TenantLimits {
                calls_per_second: Some(effective.calls_per_second),
                burst: Some(effective.burst),
                max_active_matches: Some(effective.max_active_matches),
                max_watchers: Some(effective.max_watchers),
                calls_per_second_per_player: Some(effective.calls_per_second_per_player),
                burst_per_player: Some(effective.burst_per_player),
                max_active_matches_per_player: Some(effective.max_active_matches_per_player),
                max_watchers_per_player: Some(effective.max_watchers_per_player),
            }),
        }
    }
}

fn limits_pb(limits: &LimitOverrides) -> pb::TenantLimits {
    pb::TenantLimits {
        calls_per_second: limits.calls_per_second,
        burst: limits.burst,
        max_active_matches: limits.max_active_matches,
        max_watchers: limits.max_watchers,
        calls_per_second_per_player: limits.calls_per_second_per_player,
        burst_per_player: limits.burst_per_player,
        max_active_matches_per_player: limits.max_active_matches_per_player,
        max_watchers_per_player: limits.max_watchers_per_player,
    }
}

fn limits_from_pb(limits: Option<&pb::TenantLimits>) -> LimitOverrides {
    limits.map_or_else(LimitOverrides::default, |l| LimitOverrides {
        calls_per_second: l.calls_per_second,
        burst: l.burst,
        max_active_matches: l.max_active_matches,
        max_watchers: l.max_watchers,
        calls_per_second_per_player: l.calls_per_second_per_player,
        burst_per_player: l.burst_per_player,
        max_active_matches_per_player: l.max_active_matches_per_player,
        max_watchers_per_player: l.max_watchers_per_player,
    })
}

#[tonic::async_trait]
impl pb::admin_server::Admin for AdminService {
    async fn create_tenant(
        &self,
        request: Request<pb::CreateTenantRequest>,
    ) -> Result<Response<pb::CreateTenantResponse>, Status> {
        let request = request.into_inner();
        let limits = limits_from_pb(request.limits.as_ref());
        let (record, key) = self
            .identity
            .create_tenant(&request.tenant_id, &request.name, limits)
            .await
            .map_err(error::admin_error)?;
        Ok(Response::new(pb::CreateTenantResponse {
            tenant: Some(self.tenant_pb(&record)),
            api_key: key.key,
        }))
    }

    async fn list_tenants(
        &self,
        _request: Request<pb::ListTenantsRequest>,
    ) -> Result<Response<pb::ListTenantsResponse>, Status> {
        // As the store has them now, not as this replica last heard.
        self.identity
            .reload()
            .await
            .map_err(|e| error::admin_error(AdminError::from(e)))?;
        let tenants = self
            .identity
            .tenants()
            .iter()
            .map(|tenant| self.tenant_pb(&tenant.record))
            .collect();
        Ok(Response::new(pb::ListTenantsResponse { tenants }))
    }

    async fn create_api_key(
        &self,
        request: Request<pb::CreateApiKeyRequest>,
    ) -> Result<Response<pb::CreateApiKeyResponse>, Status> {
        let request = request.into_inner();
        let (record, key) = self
            .identity
            .create_key(
                &request.tenant_id,
                request.revoke_others,
                std::time::Duration::from_millis(request.overlap_ms),
            )
            .await
            .map_err(error::admin_error)?;
        Ok(Response::new(pb::CreateApiKeyResponse {
            tenant: Some(self.tenant_pb(&record)),
            api_key: key.key,
        }))
    }

    async fn revoke_api_key(
        &self,
        request: Request<pb::RevokeApiKeyRequest>,
    ) -> Result<Response<pb::RevokeApiKeyResponse>, Status> {
        let request = request.into_inner();
        let record = self
            .identity
            .revoke_key(&request.tenant_id, &request.key_id)
            .await
            .map_err(error::admin_error)?;
        Ok(Response::new(pb::RevokeApiKeyResponse {
            tenant: Some(self.tenant_pb(&record)),
        }))
    }

    async fn set_tenant_limits(
        &self,
        request: Request<pb::SetTenantLimitsRequest>,
    ) -> Result<Response<pb::SetTenantLimitsResponse>, Status> {
        let request = request.into_inner();
        let limits = limits_from_pb(request.limits.as_ref());
        let record = self
            .identity
            .update_tenant(&request.tenant_id, |record| {
                record.limits = if request.merge {
                    record.limits.changed_by(limits)
                } else {
                    limits
                };
                Ok(())
            })
            .await
            .map_err(error::admin_error)?;
        tracing::info!(tenant = %record.id, "tenant limits set");
        Ok(Response::new(pb::SetTenantLimitsResponse {
            tenant: Some(self.tenant_pb(&record)),
        }))
    }

    async fn set_tenant_disabled(
        &self,
        request: Request<pb::SetTenantDisabledRequest>,
    ) -> Result<Response<pb::SetTenantDisabledResponse>, Status> {
        let request = request.into_inner();
        let disabled = request.disabled;
        let record = self
            .identity
            .update_tenant(&request.tenant_id, |record| {
                record.disabled = disabled;
                Ok(())
            })
            .await
            .map_err(error::admin_error)?;
        tracing::info!(tenant = %record.id, disabled, "tenant disabled or enabled");
        Ok(Response::new(pb::SetTenantDisabledResponse {
            tenant: Some(self.tenant_pb(&record)),
        }))
    }

    async fn issue_player_token(
        &self,
        request: Request<pb::AdminIssuePlayerTokenRequest>,
    ) -> Result<Response<pb::AdminIssuePlayerTokenResponse>, Status> {
        let request = request.into_inner();
        let ttl = (request.ttl_seconds > 0)
            .then(|| std::time::Duration::from_secs(request.ttl_seconds.into()));
        let (token, expires_at, key_id) = self
            .identity
            .issue_token_for_operator(&request.tenant_id, &request.player_id, ttl)
            .await
            .map_err(error::admin_error)?;
        tracing::info!(tenant = %request.tenant_id, key_id = %key_id, "player token issued to the operator");
        Ok(Response::new(pb::AdminIssuePlayerTokenResponse {
            token,
            expires_at,
            key_id,
        }))
    }
}
