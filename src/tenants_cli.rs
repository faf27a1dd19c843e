//! `mancala tenants …` and `mancala operator-key`: the operator's command line, a gRPC client of the `Admin`
//! service of a running server (so that it works whatever the store, while the server holds the embedded
//! store's file, and every change takes effect at once), including `mancala tenants token`, the player tokens a
//! development server's bots need.

use crate::api::pb;
use crate::api::pb::admin_client::AdminClient;
use clap::{Args, Subcommand};
use tonic::metadata::MetadataValue;
use tonic::transport::{Certificate, Channel, ClientTlsConfig};

/// `mancala tenants`: the server and the operator's key, then what to do.
#[derive(Debug, Args)]
pub struct TenantsArgs {
    /// The server's address: `HOST:PORT` or `http://HOST:PORT` (`https://…` for a server with TLS, with `--ca`).
    #[arg(long, env = "MANCALA_SERVER", default_value = "http://127.0.0.1:50051")]
    server: String,
    /// Trust this CA certificate (PEM) for an `https://` server.
    #[arg(long, value_name = "FILE")]
    ca: Option<std::path::PathBuf>,
    /// The operator's key (whose SHA-256 is the server's auth.operator_key_sha256); by default the well-known key
    /// of a development server (`mancala serve --dev`), which no other server accepts.
    #[arg(long, env = "MANCALA_OPERATOR_KEY", hide_env_values = true, default_value = crate::config::DEV_OPERATOR_KEY, hide_default_value = true)]
    operator_key: String,
    #[command(subcommand)]
    command: TenantsCommand,
}

#[derive(Debug, Subcommand)]
enum TenantsCommand {
    /// Create a tenant; prints its first API key (shown once).
    Create {
        /// The tenant id: 1 to 32 of a-z, 0-9 and '-'.
        tenant_id: String,
        /// A display name.
        #[arg(long, default_value = "")]
        name: String,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// List the tenants, their keys (ids only) and limits.
    List,
    /// Give a tenant a new API key (printed once); --revoke-others makes it a rotation.
    AddKey {
        /// The tenant.
        tenant_id: String,
        /// Revoke every other key of the tenant (after --overlap).
        #[arg(long)]
        revoke_others: bool,
        /// With --revoke-others: how long the other keys, and the player tokens they issued, stay valid
        /// beside the new one ("1h", "30m"; "0s": revoked at once). Longer than the players' tokens live,
        /// no player is logged out by the rotation.
        #[arg(long, value_parser = humantime::parse_duration, default_value = "1h", requires = "revoke_others")]
        overlap: std::time::Duration,
    },
    /// Revoke one key of a tenant (its id, as `list` shows it).
    RevokeKey {
        /// The tenant.
        tenant_id: String,
        /// The key's id.
        key_id: String,
    },
    /// Change a tenant's own limits: only those given (0: no limit); the others keep their values.
    Limits {
        /// The tenant.
        tenant_id: String,
        #[command(flatten)]
        limits: LimitArgs,
        /// Replace every limit instead: those not given go back to the server's `[limits]`.
        #[arg(long)]
        reset_others: bool,
    },
    /// Refuse a tenant's keys and player tokens (its matches stay).
    Disable {
        /// The tenant.
        tenant_id: String,
    },
    /// Accept a disabled tenant's keys and tokens again.
    Enable {
        /// The tenant.
        tenant_id: String,
    },
    /// Mint a player token for one player of a tenant (printed alone, for `TOKEN=$(…)`), as the tenant's backend
    /// would with Players/IssuePlayerToken: `mancala tenants token dev my-bot` against `mancala serve --dev`.
    Token {
        /// The tenant.
        tenant_id: String,
        /// The player id: 1 to 64 bytes of printable ASCII without spaces.
        player_id: String,
        /// How long the token is valid, in seconds (0: one hour; at most auth.player_token_max_ttl_ms).
        #[arg(long, default_value_t = 0)]
        ttl_seconds: u32,
    },
}

/// A tenant's own limits (0: no limit; absent: the server's `[limits]`).
#[derive(Debug, Args)]
struct LimitArgs {
    /// Calls per second (per replica).
    #[arg(long)]
    calls_per_second: Option<u32>,
    /// Calls at once after a quiet spell.
    #[arg(long)]
    burst: Option<u32>,
    /// Unfinished matches at once.
    #[arg(long)]
    max_active_matches: Option<u64>,
    /// Spectators' streams open at once (per replica).
    #[arg(long)]
    max_watchers: Option<u32>,
    /// Calls per second of one player.
    #[arg(long)]
    calls_per_second_per_player: Option<u32>,
    /// The burst of one player's bucket.
    #[arg(long)]
    burst_per_player: Option<u32>,
    /// Unfinished matches one player may have created (per replica).
    #[arg(long)]
    max_active_matches_per_player: Option<u64>,
    /// Spectators' streams of one player (per replica).
    #[arg(long)]
    max_watchers_per_player: Option<u32>,
}

impl LimitArgs {
    fn to_pb(&self) -> pb::TenantLimits {
        pb::TenantLimits {
            calls_per_second: self.calls_per_second,
            burst: self.burst,
            max_active_matches: self.max_active_matches,
            max_watchers: self.max_watchers,
            calls_per_second_per_player: self.calls_per_second_per_player,
            burst_per_player: self.burst_per_player,
            max_active_matches_per_player: self.max_active_matches_per_player,
            max_watchers_per_player: self.max_watchers_per_player,
        }
    }
}

/// `mancala operator-key`: a new operator key and the hash to configure.
pub fn operator_key() -> Result<(), String> {
    let (key, hash) = crate::identity::keys::new_operator_key()
        .map_err(|e| format!("cannot read the OS random generator: {e}"))?;
    println!(
        "operator key (keep it secret; give it to `mancala tenants` as MANCALA_OPERATOR_KEY):"
    );
    println!("  {key}");
    println!("its hash, for the server's configuration:");
    println!(
        "  auth.operator_key_sha256 = \"{hash}\"   (or MANCALA__AUTH__OPERATOR_KEY_SHA256={hash})"
    );
    Ok(())
}

/// Runs `mancala tenants …`; an error is one line for stderr.
pub fn run(args: TenantsArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(run_async(args))
}

/// How long the commands wait for a server that does not answer yet (one started a moment before, as the README's
/// `mancala serve --dev &` then `mancala tenants token …` do).
const WAIT_FOR_SERVER: std::time::Duration = std::time::Duration::from_secs(20);

/// `address` with a scheme: `HOST:PORT` as `http://HOST:PORT`.
pub fn with_scheme(address: &str) -> String {
    if address.contains("://") {
        address.to_string()
    } else {
        format!("http://{address}")
    }
}

async fn run_async(args: TenantsArgs) -> Result<(), String> {
    let server = with_scheme(&args.server);
    let mut endpoint = Channel::from_shared(server.clone())
        .map_err(|e| format!("{:?} is not a server address: {e}", args.server))?;
    if let Some(ca) = &args.ca {
        let pem =
            std::fs::read(ca).map_err(|e| format!("cannot read --ca {}: {e}", ca.display()))?;
        endpoint = endpoint
            .tls_config(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem)))
            .map_err(|e| format!("--ca {}: {e}", ca.display()))?;
    }
    let deadline = tokio::time::Instant::now() + WAIT_FOR_SERVER;
    let channel = loop {
        match endpoint.connect().await {
            Ok(channel) => break channel,
            Err(_) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            Err(e) => {
                return Err(format!(
                    "cannot connect to {server} (tried for {}s): {e}",
                    WAIT_FOR_SERVER.as_secs()
                ))
            }
        }
    };
    let bearer: MetadataValue<_> = format!("Bearer {}", args.operator_key)
        .parse()
        .map_err(|_| "the operator key is not valid metadata".to_string())?;
    let mut client =
        AdminClient::with_interceptor(channel, move |mut request: tonic::Request<()>| {
            request
                .metadata_mut()
                .insert("authorization", bearer.clone());
            Ok(request)
        });
    let status = |e: tonic::Status| format!("{:?}: {}", e.code(), e.message());
    match args.command {
        TenantsCommand::Create {
            tenant_id,
            name,
            limits,
        } => {
            let answer = client
                .create_tenant(pb::CreateTenantRequest {
                    tenant_id,
                    name,
                    limits: Some(limits.to_pb()),
                })
                .await
                .map_err(status)?
                .into_inner();
            print_tenant(answer.tenant.as_ref());
            print_key(&answer.api_key);
        }
        TenantsCommand::List => {
            let answer = client
                .list_tenants(pb::ListTenantsRequest {})
                .await
                .map_err(status)?
                .into_inner();
            if answer.tenants.is_empty() {
                println!("no tenants");
            }
            for tenant in &answer.tenants {
                print_tenant(Some(tenant));
            }
        }
        TenantsCommand::AddKey {
            tenant_id,
            revoke_others,
            overlap,
        } => {
            let answer = client
                .create_api_key(pb::CreateApiKeyRequest {
                    tenant_id,
                    revoke_others,
                    overlap_ms: if revoke_others {
                        u64::try_from(overlap.as_millis()).unwrap_or(u64::MAX)
                    } else {
                        0
                    },
                })
                .await
                .map_err(status)?
                .into_inner();
            print_tenant(answer.tenant.as_ref());
            print_key(&answer.api_key);
        }
        TenantsCommand::RevokeKey { tenant_id, key_id } => {
            let answer = client
                .revoke_api_key(pb::RevokeApiKeyRequest { tenant_id, key_id })
                .await
                .map_err(status)?
                .into_inner();
            print_tenant(answer.tenant.as_ref());
        }
        TenantsCommand::Limits {
            tenant_id,
            limits,
            reset_others,
        } => {
            let answer = client
                .set_tenant_limits(pb::SetTenantLimitsRequest {
                    tenant_id,
                    limits: Some(limits.to_pb()),
                    merge: !reset_others,
                })
                .await
                .map_err(status)?
                .into_inner();
            print_tenant(answer.tenant.as_ref());
        }
        TenantsCommand::Disable { tenant_id } => {
            set_disabled(&mut client, tenant_id, true, status).await?;
        }
        TenantsCommand::Enable { tenant_id } => {
            set_disabled(&mut client, tenant_id, false, status).await?;
        }
        TenantsCommand::Token {
            tenant_id,
            player_id,
            ttl_seconds,
        } => {
            let answer = client
                .issue_player_token(pb::AdminIssuePlayerTokenRequest {
                    tenant_id,
                    player_id,
                    ttl_seconds,
                })
                .await
                .map_err(status)?
                .into_inner();
            // Alone on stdout, for `TOKEN=$(mancala tenants token …)`.
            println!("{}", answer.token);
        }
    }
    Ok(())
}

async fn set_disabled<F: tonic::service::Interceptor>(
    client: &mut AdminClient<tonic::service::interceptor::InterceptedService<Channel, F>>,
    tenant_id: String,
    disabled: bool,
    status: impl Fn(tonic::Status) -> String,
) -> Result<(), String> {
    let answer = client
        .set_tenant_disabled(pb::SetTenantDisabledRequest {
            tenant_id,
            disabled,
        })
        .await
        .map_err(status)?
        .into_inner();
    print_tenant(answer.tenant.as_ref());
    Ok(())
}

fn print_key(key: &str) {
    println!("API key (shown once; the server keeps only its hash):");
    println!("  {key}");
}

fn print_tenant(tenant: Option<&pb::Tenant>) {
    let Some(t) = tenant else { return };
    let limits = t.effective_limits.unwrap_or_default();
    println!(
        "tenant {}{}{}: {} calls/s, burst {}, {} active matches, {} spectator streams (0: no limit)",
        t.tenant_id,
        if t.name.is_empty() {
            String::new()
        } else {
            format!(" ({})", t.name)
        },
        if t.disabled { " [disabled]" } else { "" },
        limits.calls_per_second.unwrap_or(0),
        limits.burst.unwrap_or(0),
        limits.max_active_matches.unwrap_or(0),
        limits.max_watchers.unwrap_or(0),
    );
    let now_ms = crate::clock::now_ms();
    for key in &t.keys {
        println!(
            "  key {} created {}{}",
            key.key_id,
            date(key.created_at_ms),
            match key.revoked_at_ms {
                0 => String::new(),
                at if at > now_ms => format!(", valid until {} (a rotation's overlap)", date(at)),
                at => format!(", revoked {}", date(at)),
            }
        );
    }
}

/// A time of the protocol (milliseconds since the Unix epoch) as a UTC date an operator reads at a glance.
fn date(ms: u64) -> String {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    humantime::format_rfc3339_seconds(at).to_string()
}
