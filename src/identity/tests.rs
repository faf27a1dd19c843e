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
        AuthError::Revoked
    );
    assert_eq!(
        identity
            .authenticate(Some("mk_00000000_forged"))
            .unwrap_err(),
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
    let (record, second) = identity
        .create_key("acme", true, Duration::ZERO)
        .await
        .unwrap();
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
    let (_, key) = identity
        .create_key("acme", false, Duration::ZERO)
        .await
        .unwrap();
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
    let (_, other) = identity
        .create_key("acme", false, Duration::ZERO)
        .await
        .unwrap();
    let (token, _) = identity.issue_token(&acme, &other.id, "ann", None).unwrap();
    identity
        .update_tenant("acme", |t| {
            t.disabled = true;
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(
        identity.authenticate(Some(&token)).unwrap_err(),
        AuthError::Disabled("acme".into())
    );
}

#[tokio::test]
async fn a_disabled_tenants_key_is_refused_as_disabled_not_unknown() {
    let identity = identity(true).await;
    let (_, key) = identity
        .create_tenant("acme", "Acme", LimitOverrides::default())
        .await
        .unwrap();
    identity
        .update_tenant("acme", |t| {
            t.disabled = true;
            Ok(())
        })
        .await
        .unwrap();
    let refused = identity.authenticate(Some(&key.key)).unwrap_err();
    assert_eq!(refused, AuthError::Disabled("acme".into()));
    assert!(refused.to_string().contains("disabled"), "{refused}");
    identity
        .update_tenant("acme", |t| {
            t.disabled = false;
            Ok(())
        })
        .await
        .unwrap();
    assert!(identity.authenticate(Some(&key.key)).is_ok());
}

#[tokio::test]
async fn a_rotation_with_an_overlap_keeps_the_old_key_and_its_tokens_until_the_overlap_ends() {
    let identity = identity(true).await;
    let (_, old) = identity
        .create_tenant("acme", "Acme", LimitOverrides::default())
        .await
        .unwrap();
    let acme = identity.tenant("acme");
    let (token, _) = identity.issue_token(&acme, &old.id, "ann", None).unwrap();
    let before = now_ms();
    let (record, new) = identity
        .create_key("acme", true, Duration::from_secs(3600))
        .await
        .unwrap();
    let revoked_at = record.keys[0]
        .revoked_ms
        .expect("the old key is due to be revoked");
    assert!(
        revoked_at >= before + 3_600_000,
        "an hour from the rotation"
    );
    // Within the overlap: both keys, and the old key's player tokens, are in force.
    assert!(identity.authenticate(Some(&old.key)).is_ok());
    assert!(identity.authenticate(Some(&new.key)).is_ok());
    assert!(identity.authenticate(Some(&token)).is_ok());
    // Revoking it outright ends the overlap at once.
    identity.revoke_key("acme", &old.id).await.unwrap();
    assert_eq!(
        identity.authenticate(Some(&old.key)).unwrap_err(),
        AuthError::Revoked
    );
    assert!(identity.authenticate(Some(&token)).is_err());
    assert!(identity.authenticate(Some(&new.key)).is_ok());
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
