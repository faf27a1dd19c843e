//! Tests of the identity as a whole: keys, rotations, player tokens and the tenants' buckets.

use super::*;
use crate::store::{LimitOverrides, MemoryStore};

async fn identity(required: bool) -> Identity {
    let mut auth = crate::config::Settings::default().auth;
    auth.required = required;
    let limits = TenantLimits {
        calls_per_second: 2,
        burst: 2,
        max_active_matches: 5,
        max_watchers: 5,
        ..crate::config::Settings::default().limits
    };
    Identity::open(Arc::new(MemoryStore::new()), &auth, limits)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_key_names_its_tenant_until_revoked() {
    let identity = identity(true).await;
    let (_, key) = identity
        .create_tenant("acme", "Acme", LimitOverrides::default())
        .await
        .unwrap();
    let caller = identity.authenticate(Some(&key.key)).unwrap();
    assert_eq!(caller.tenant().unwrap().id(), "acme");
    identity.revoke_key("acme", &key.id).await.unwrap();
    assert_eq!(
        identity.authenticate(Some(&key.key)).unwrap_err(),
        AuthError::Unknown
    );
    assert_eq!(identity.authenticate(None).unwrap_err(), AuthError::Missing);
}

#[tokio::test]
async fn a_rotation_revokes_the_other_keys() {
    let identity = identity(true).await;
    let (_, first) = identity
        .create_tenant("acme", "Acme", LimitOverrides::default())
        .await
        .unwrap();
    let (record, second) = identity.create_key("acme", true).await.unwrap();
    assert_eq!(record.keys.len(), 2);
    assert!(identity.authenticate(Some(&first.key)).is_err());
    assert!(identity.authenticate(Some(&second.key)).is_ok());
    assert!(matches!(
        identity
            .create_tenant("acme", "Again", LimitOverrides::default())
            .await,
        Err(AdminError::Exists(_))
    ));
    assert!(matches!(
        identity
            .create_tenant("Acme!", "Bad", LimitOverrides::default())
            .await,
        Err(AdminError::Invalid {
            field: "tenant_id",
            ..
        })
    ));
}

#[tokio::test]
async fn without_required_auth_no_credential_is_the_anonymous_tenant() {
    let identity = identity(false).await;
    let caller = identity.authenticate(None).unwrap();
    assert_eq!(caller.tenant().unwrap().id(), ANONYMOUS);
    assert!(matches!(
        identity.authenticate(Some("nonsense")),
        Err(AuthError::Refused(_))
    ));
}

#[tokio::test]
async fn player_tokens_name_a_player_of_an_enabled_tenant() {
    let identity = identity(true).await;
    identity
        .create_tenant("acme", "Acme", LimitOverrides::default())
        .await
        .unwrap();
    let (_, key) = identity.create_key("acme", false).await.unwrap();
    let acme = identity.tenant("acme");
    let (token, _) = identity.issue_token(&acme, &key.id, "ann", None).unwrap();
    match identity.authenticate(Some(&token)).unwrap() {
        Caller::Player { tenant, player } => {
            assert_eq!((tenant.id(), player.as_str()), ("acme", "ann"))
        }
        other => panic!("{other:?}"),
    }
    identity.revoke_key("acme", &key.id).await.unwrap();
    assert!(
        matches!(
            identity.authenticate(Some(&token)),
            Err(AuthError::Refused(_))
        ),
        "a token dies with its key"
    );
    let (_, other) = identity.create_key("acme", false).await.unwrap();
    let (token, _) = identity.issue_token(&acme, &other.id, "ann", None).unwrap();
    identity
        .update_tenant("acme", |t| {
            t.disabled = true;
            Ok(())
        })
        .await
        .unwrap();
    assert!(matches!(
        identity.authenticate(Some(&token)),
        Err(AuthError::Refused(_))
    ));
}

#[tokio::test]
async fn the_bucket_refuses_past_the_burst_and_says_when_to_retry() {
    let identity = identity(true).await;
    identity
        .create_tenant("acme", "Acme", LimitOverrides::default())
        .await
        .unwrap();
    let tenant = identity.tenant("acme");
    assert!(identity.charge(&tenant).is_ok());
    assert!(identity.charge(&tenant).is_ok());
    let throttled = identity.charge(&tenant).unwrap_err();
    assert!(throttled.retry_after > Duration::ZERO);
    assert!(throttled.retry_after <= Duration::from_millis(500));
    assert_eq!((throttled.calls_per_second, throttled.burst), (2, 2));
    // The anonymous tenant of a server without required auth is not held to a rate.
    let open = self::identity(false).await;
    let anonymous = open.tenant(ANONYMOUS);
    assert!((0..10).all(|_| open.charge(&anonymous).is_ok()));
}
