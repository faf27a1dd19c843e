//! The lobby: players' profiles and ratings, challenges, seeks (matchmaking), and the resumable event streams of
//! players and of tenants' backends. It sits above the match manager: it creates the matches it arranges, and
//! hears from it ([`crate::matches::Lifecycle`]) when any match of a tenant is created, started or finished.
//!
//! Each tenant's lobby is one append-only log in the store ([`crate::store::LobbyStore`]), and its state is the
//! replay of that log ([`state::TenantState`]), as a match's state is the replay of its events. Every change is
//! decided against the state caught up with the store and written as the next entry with the store's
//! check-and-append; a replica that loses the race catches up and decides again (so a challenge is accepted once,
//! a seek paired once, a match's end recorded once, whichever replicas try). Streams read the same log: an event's
//! id is its entry's number, so a stream resumed after any id misses nothing and repeats nothing.
//!
//! Modules, one job each: `entry` (the log's entries and their stored form), `state` (the replay and the questions
//! asked of it), `ratings` (Glicko-2), `news` (what each reader is told of an entry), `error`, and `background`
//! (the lifecycle follower, the expiry sweep, the repair, the store's feed).

mod background;
pub mod entry;
mod error;
pub mod news;
pub mod ratings;
pub mod state;

pub use background::LobbyTasks;
pub use entry::{
    BotAccount, Challenge, ChallengeStatus, DeclineReason, Fallback, LobbyId, Origin, SeatChoice,
    SeatRecord, Seek, SeekStatus,
};
pub use error::LobbyError;
pub use news::{News, PlayerRating, Reader};
pub use state::{Profile, Standing};

use self::entry::{Entry, Logged};
use self::error::store_failed;
use self::ratings::Glicko;
use self::state::{MatchInfo, Stage, TenantState};
use crate::clock::TimeControl;
use crate::config::LobbySettings;
use crate::engine::{GameKind, Options, Player};
use crate::matches::{Encoder, Matches, Owner};
use crate::metrics::Metrics;
use crate::store::{BotSeat, LobbyStore, MatchId, MatchRecord, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// The longest display name, in bytes.
pub const MAX_DISPLAY_NAME_BYTES: usize = 64;
/// The longest bot owner, in bytes.
pub const MAX_BOT_OWNER_BYTES: usize = 64;
/// The longest bot description, in bytes.
pub const MAX_BOT_DESCRIPTION_BYTES: usize = 500;
/// How many entries a stream reads from the store at once.
const PAGE: usize = 256;
/// How many times one decision is tried against the store before the call fails: each lost race means another
/// server wrote meanwhile, so this many in a row only happens under a flood or a store that misbehaves.
const MAX_COMMIT_ATTEMPTS: usize = 64;

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section replaces whole values: a panic elsewhere leaves nothing half-changed.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn random_id() -> Result<LobbyId, LobbyError> {
    MatchId::random().map_err(|e| store_failed("reading the OS random generator", e))
}

/// One tenant's lobby on this server: its state, and the latest entry number, which wakes its streams.
struct TenantLobby {
    id: String,
    /// Held by one decision at a time across its catch-up and the store's append (an await).
    state: tokio::sync::Mutex<TenantState>,
    latest: watch::Sender<u64>,
}

/// A new challenge, as asked.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    /// The player challenged; `None`: an open challenge.
    pub to: Option<String>,
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// How the match is timed.
    pub time_control: TimeControl,
    /// Rated or not.
    pub rated: bool,
    /// The challenger's seat.
    pub seat: SeatChoice,
    /// How long it waits (`None`: `lobby.challenge_ttl_ms`).
    pub ttl_ms: Option<u64>,
}

/// A new seek, as asked.
#[derive(Clone, Debug)]
pub struct SeekRequest {
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// How the match is timed.
    pub time_control: TimeControl,
    /// Rated or not.
    pub rated: bool,
    /// The opponent's lowest acceptable rating.
    pub rating_min: Option<u32>,
    /// And highest.
    pub rating_max: Option<u32>,
    /// The built-in opponent to fall back to.
    pub fallback: Option<Fallback>,
    /// How long it stays open (`None`: `lobby.seek_ttl_ms`).
    pub ttl_ms: Option<u64>,
}

/// An accepted challenge: the challenge, the match and the acceptor's seat.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The challenge, now accepted.
    pub challenge: Challenge,
    /// The match created.
    pub match_id: MatchId,
    /// The acceptor's seat.
    pub seat: Player,
}

/// One step of a stream: news with its entry's number and time, or a heartbeat.
#[derive(Clone, Debug, PartialEq)]
pub enum Tiding {
    /// News (`seq` is the event id).
    News {
        /// The entry's number.
        seq: u64,
        /// When it was written.
        at_ms: u64,
        /// What the reader is told.
        news: News,
    },
    /// Nothing new up to `last`.
    Heartbeat {
        /// The latest entry passed.
        last: u64,
    },
}

/// The lobby of every tenant, over one store.
pub struct Lobby<E: Encoder> {
    inner: Arc<Inner<E>>,
}

impl<E: Encoder> Clone for Lobby<E> {
    fn clone(&self) -> Self {
        Lobby {
            inner: self.inner.clone(),
        }
    }
}

impl<E: Encoder> std::fmt::Debug for Lobby<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lobby")
            .field("settings", &self.inner.settings)
            .finish_non_exhaustive()
    }
}

struct Inner<E: Encoder> {
    store: Arc<dyn LobbyStore>,
    metrics: Metrics,
    /// How long closed challenges and seeks and finished matches are remembered (the matches' retention).
    retention: Option<std::time::Duration>,
    matches: Matches<E>,
    settings: LobbySettings,
    tenants: Mutex<HashMap<String, Arc<TenantLobby>>>,
    /// Open player streams on this server, per (tenant, player).
    streams: Mutex<HashMap<(String, String), usize>>,
}

/// What a decision writes: no entry, one, or several (written together, in order).
pub(crate) trait IntoEntries: Send + 'static {
    /// The entries, in order.
    fn into_entries(self) -> Vec<Entry>;
}

impl IntoEntries for Option<Entry> {
    fn into_entries(self) -> Vec<Entry> {
        self.into_iter().collect()
    }
}

impl IntoEntries for Vec<Entry> {
    fn into_entries(self) -> Vec<Entry> {
        self
    }
}

impl<E: Encoder> Lobby<E> {
    /// The lobby over `store`, arranging its matches with `matches`, counting in `metrics`.
    pub fn new(
        store: Arc<dyn LobbyStore>,
        matches: Matches<E>,
        settings: LobbySettings,
        metrics: Metrics,
    ) -> Lobby<E> {
        Lobby {
            inner: Arc::new(Inner {
                store,
                metrics,
                retention: matches.retention(),
                matches,
                settings,
                tenants: Mutex::new(HashMap::new()),
                streams: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &LobbySettings {
        &self.inner.settings
    }

    fn tenant(&self, tenant: &str) -> Arc<TenantLobby> {
        lock(&self.inner.tenants)
            .entry(tenant.to_string())
            .or_insert_with(|| {
                Arc::new(TenantLobby {
                    id: tenant.to_string(),
                    state: tokio::sync::Mutex::new(TenantState::default()),
                    latest: watch::channel(0).0,
                })
            })
            .clone()
    }

    /// Runs `work` (a decision and its write) as a task of its own and awaits it: once begun, it runs to its end
    /// even if its caller goes away, so that an entry the store took is applied here and wakes the streams.
    async fn detached<T: Send + 'static>(
        work: impl std::future::Future<Output = Result<T, LobbyError>> + Send + 'static,
    ) -> Result<T, LobbyError> {
        tokio::spawn(work).await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "a lobby task panicked");
            Err(LobbyError::Internal(
                "internal error; see the server log".into(),
            ))
        })
    }

    /// Reads `tenant`'s log past what `state` holds, applying it.
    async fn catch_up(
        store: &dyn LobbyStore,
        tenant: &str,
        state: &mut TenantState,
    ) -> Result<(), LobbyError> {
        loop {
            let entries = store
                .lobby_read(tenant, state.seq, 1000)
                .await
                .map_err(|e| store_failed("reading the lobby", e))?;
            if entries.is_empty() {
                return Ok(());
            }
            for stored in entries {
                let logged = entry::decode(stored.seq, &stored.bytes)
                    .map_err(|e| store_failed("decoding the lobby", e))?;
                state.apply(&logged);
            }
        }
    }

    /// Decides against `tenant`'s state (caught up with the store) and writes what `decide` says as the next
    /// entries, deciding again after losing the store's race to another server.
    async fn commit<T, B: IntoEntries>(
        store: &dyn LobbyStore,
        metrics: &Metrics,
        tenant: &TenantLobby,
        mut decide: impl FnMut(&TenantState) -> Result<(B, T), LobbyError>,
    ) -> Result<T, LobbyError> {
        let mut state = tenant.state.lock().await;
        for _ in 0..MAX_COMMIT_ATTEMPTS {
            Self::catch_up(store, &tenant.id, &mut state).await?;
            let (entries, answer) = decide(&state)?;
            let entries = entries.into_entries();
            if entries.is_empty() {
                return Ok(answer);
            }
            let at_ms = now_ms();
            let first = state.seq + 1;
            let bytes: Vec<Vec<u8>> = entries.iter().map(|e| entry::encode(e, at_ms)).collect();
            match store.lobby_append(&tenant.id, first, &bytes).await {
                Ok(()) => {
                    for (seq, entry) in (first..).zip(entries) {
                        metrics.lobby_entry(entry.label());
                        state.apply(&Logged { seq, at_ms, entry });
                    }
                    tenant.latest.send_replace(state.seq);
                    return Ok(answer);
                }
                // The store holds fewer entries than this server has read: its data was lost (a Redis restarted
                // without persistence, its keys deleted). Reading on cannot catch up with that, so say so rather
                // than try for ever.
                Err(StoreError::Conflict { current }) if current < state.seq => {
                    return Err(store_failed(
                        "writing the lobby",
                        format!(
                            "tenant {:?}'s lobby log in the store holds {current} entries, fewer than the {} this \
                             server has read: the store lost them",
                            tenant.id, state.seq
                        ),
                    ));
                }
                Err(StoreError::Conflict { .. }) => metrics.lobby_conflict(),
                Err(e) => return Err(store_failed("writing the lobby", e)),
            }
        }
        Err(store_failed(
            "writing the lobby",
            format!(
                "tenant {:?}'s lobby lost the store's race {MAX_COMMIT_ATTEMPTS} times in a row",
                tenant.id
            ),
        ))
    }

    /// [`Lobby::commit`], as a task of its own.
    async fn decide<T: Send + 'static, B: IntoEntries>(
        &self,
        tenant: &str,
        decide: impl FnMut(&TenantState) -> Result<(B, T), LobbyError> + Send + 'static,
    ) -> Result<T, LobbyError> {
        let (store, metrics) = (self.inner.store.clone(), self.inner.metrics.clone());
        let tenant = self.tenant(tenant);
        Self::detached(async move { Self::commit(store.as_ref(), &metrics, &tenant, decide).await })
            .await
    }

    /// Reads the state, caught up.
    async fn read<T: Send + 'static>(
        &self,
        tenant: &str,
        read: impl FnOnce(&TenantState) -> T + Send + 'static,
    ) -> Result<T, LobbyError> {
        let mut read = Some(read);
        self.decide(tenant, move |state| {
            Ok((None::<Entry>, read.take().map(|read| read(state))))
        })
        .await
        .map(|answer| answer.expect("a read decides once"))
    }

    // Profiles.

    /// `player`'s profile.
    pub async fn profile(&self, tenant: &str, player: &str) -> Result<Profile, LobbyError> {
        let player = player.to_string();
        self.read(tenant, move |state| state.profile(&player)).await
    }

    /// Sets `player`'s display name and bot account.
    pub async fn update_profile(
        &self,
        tenant: &str,
        player: &str,
        display_name: String,
        bot: Option<BotAccount>,
    ) -> Result<Profile, LobbyError> {
        let mut violations = Vec::new();
        let mut check = |field: &str, text: &str, max: usize| {
            if text.len() > max {
                violations.push(crate::engine::Violation {
                    field: field.into(),
                    description: format!("at most {max} bytes"),
                });
            } else if text.chars().any(char::is_control) {
                violations.push(crate::engine::Violation {
                    field: field.into(),
                    description: "no control characters".into(),
                });
            }
        };
        check("display_name", &display_name, MAX_DISPLAY_NAME_BYTES);
        if let Some(bot) = &bot {
            check("bot.owner", &bot.owner, MAX_BOT_OWNER_BYTES);
            check(
                "bot.description",
                &bot.description,
                MAX_BOT_DESCRIPTION_BYTES,
            );
            if bot.owner.is_empty() {
                violations.push(crate::engine::Violation {
                    field: "bot.owner".into(),
                    description: "a bot account names who runs it".into(),
                });
            }
        }
        if !violations.is_empty() {
            return Err(LobbyError::Invalid(violations));
        }
        let player = player.to_string();
        self.decide(tenant, move |state| {
            let entry = Entry::Profile {
                player: player.clone(),
                display_name: display_name.clone(),
                bot: bot.clone(),
            };
            let mut profile = state.profile(&player);
            profile.display_name = display_name.clone();
            profile.bot = bot.clone();
            Ok((Some(entry), profile))
        })
        .await
    }

    /// Up to `limit` profiles after player id `after`, and whether there are more.
    pub async fn profiles(
        &self,
        tenant: &str,
        after: String,
        bots_only: bool,
        limit: usize,
    ) -> Result<(Vec<Profile>, bool), LobbyError> {
        self.read(tenant, move |state| {
            let mut page: Vec<Profile> = state
                .profiles_after(&after, bots_only)
                .take(limit + 1)
                .cloned()
                .collect();
            let more = page.len() > limit;
            page.truncate(limit);
            (page, more)
        })
        .await
    }

    // Challenges.

    fn ttl(
        &self,
        asked: Option<u64>,
        default: std::time::Duration,
        max: std::time::Duration,
        field: &str,
    ) -> Result<u64, LobbyError> {
        let max_ms = max.as_millis() as u64;
        match asked {
            None => Ok(default.as_millis() as u64),
            Some(ms) if ms > max_ms => Err(LobbyError::invalid(
                field,
                format!("at most {} seconds on this server", max_ms / 1000),
            )),
            Some(ms) => Ok(ms),
        }
    }

    /// Refuses a time control the matches would refuse, before anybody waits for it.
    fn check_time_control(&self, control: TimeControl) -> Result<(), LobbyError> {
        control
            .check(self.inner.matches.max_initial_ms())
            .map_err(|problem| LobbyError::invalid("time_control", problem))
    }

    fn check_pending(&self, state: &TenantState, player: &str) -> Result<(), LobbyError> {
        let max = self.inner.settings.max_pending_per_player;
        if state.pending_of(player) >= max {
            return Err(LobbyError::ResourceExhausted(format!(
                "{player} has {max} pending challenges and open seeks, the limit (lobby.max_pending_per_player); \
                 cancel some or wait for answers"
            )));
        }
        Ok(())
    }

    /// `from` challenges as `request` says.
    pub async fn challenge(
        &self,
        tenant: &str,
        from: &str,
        request: ChallengeRequest,
    ) -> Result<Challenge, LobbyError> {
        self.challenge_with(tenant, from, request, None).await
    }

    async fn challenge_with(
        &self,
        tenant: &str,
        from: &str,
        request: ChallengeRequest,
        rematch_of: Option<MatchId>,
    ) -> Result<Challenge, LobbyError> {
        if request.to.as_deref() == Some(from) {
            return Err(LobbyError::invalid(
                "to_player_id",
                "a player cannot challenge himself",
            ));
        }
        self.check_time_control(request.time_control)?;
        let ttl = self.ttl(
            request.ttl_ms,
            self.inner.settings.challenge_ttl,
            self.inner.settings.max_challenge_ttl,
            "ttl_seconds",
        )?;
        let id = random_id()?;
        let created_ms = now_ms();
        let challenge = Challenge {
            id,
            from: from.to_string(),
            to: request.to,
            kind: request.kind,
            options: request.options,
            time_control: request.time_control,
            rated: request.rated,
            seat: request.seat,
            created_ms,
            expires_ms: created_ms.saturating_add(ttl),
            rematch_of,
            status: ChallengeStatus::Pending,
        };
        let lobby = self.clone();
        self.decide(tenant, move |state| {
            lobby.check_pending(state, &challenge.from)?;
            Ok((Some(Entry::Challenged(challenge.clone())), challenge.clone()))
        })
        .await
        .inspect(|c| tracing::info!(tenant, challenge_id = %c.id, from = %c.from, to = ?c.to, game = c.kind.name(), "challenge made"))
    }

    /// The challenge `id`, unless it is not the tenant's.
    fn known_challenge<'s>(
        state: &'s TenantState,
        id: &LobbyId,
    ) -> Result<&'s Challenge, LobbyError> {
        state
            .challenge(id)
            .ok_or_else(|| LobbyError::NotFound(format!("challenge {id} does not exist")))
    }

    fn still_pending(challenge: &Challenge, now_ms: u64) -> Result<(), LobbyError> {
        let status = match &challenge.status {
            ChallengeStatus::Pending if now_ms < challenge.expires_ms => return Ok(()),
            ChallengeStatus::Pending | ChallengeStatus::Expired => "EXPIRED",
            ChallengeStatus::Accepted { .. } => "ACCEPTED",
            ChallengeStatus::Declined(_) => "DECLINED",
            ChallengeStatus::Cancelled => "CANCELLED",
        };
        Err(LobbyError::Closed {
            reason: "CHALLENGE_CLOSED",
            status,
            message: format!(
                "challenge {} is no longer pending: it was {}",
                challenge.id,
                status.to_lowercase()
            ),
        })
    }

    /// `player` accepts challenge `id`: the match is created, both seats bound to the two players.
    pub async fn accept(
        &self,
        tenant: &str,
        player: &str,
        id: LobbyId,
    ) -> Result<Accepted, LobbyError> {
        self.inner.matches.room_for_one_more(tenant).await?;
        let match_id = random_id()?;
        let player = player.to_string();
        let now = now_ms();
        let (challenge, seat, entry) = self
            .decide(tenant, move |state| {
                let challenge = Self::known_challenge(state, &id)?;
                match &challenge.to {
                    Some(to) if *to != player => {
                        return Err(LobbyError::PermissionDenied(format!(
                            "challenge {id} is addressed to {to}, not to {player}"
                        )))
                    }
                    None if challenge.from == player => {
                        return Err(LobbyError::invalid(
                            "challenge_id",
                            "a player cannot accept his own open challenge",
                        ))
                    }
                    _ => {}
                }
                Self::still_pending(challenge, now)?;
                let challenger_seat = match challenge.seat {
                    SeatChoice::Seat(seat) => seat,
                    // Drawn from the challenge's random id: fair, and the same on any replica deciding it.
                    SeatChoice::Random if id.0[0] & 1 == 0 => Player::South,
                    SeatChoice::Random => Player::North,
                };
                let mut seats = [SeatRecord::default(), SeatRecord::default()];
                seats[challenger_seat.index()] = state.seat_record(&challenge.from, challenge.kind);
                seats[challenger_seat.opponent().index()] =
                    state.seat_record(&player, challenge.kind);
                let entry = Entry::MatchCreated {
                    id: match_id,
                    kind: challenge.kind,
                    options: challenge.options,
                    time_control: challenge.time_control,
                    rated: challenge.rated,
                    seats,
                    origin: Origin::Challenge(id),
                };
                let accepted = Challenge {
                    status: ChallengeStatus::Accepted {
                        match_id,
                        by: player.clone(),
                    },
                    ..challenge.clone()
                };
                Ok((
                    Some(entry.clone()),
                    (accepted, challenger_seat.opponent(), entry),
                ))
            })
            .await?;
        self.create_match(tenant, &entry).await?;
        tracing::info!(tenant, challenge_id = %id, match_id = %match_id, "challenge accepted");
        Ok(Accepted {
            challenge,
            match_id,
            seat,
        })
    }

    /// Creates in the match store the match a `MatchCreated` entry of the lobby arranged.
    async fn create_match(&self, tenant: &str, entry: &Entry) -> Result<(), LobbyError> {
        let Entry::MatchCreated {
            id,
            kind,
            options,
            time_control,
            seats,
            ..
        } = entry
        else {
            return Ok(());
        };
        let owner = Owner {
            tenant: tenant.to_string(),
            // The lobby pairs two players: East (three-player Ba-awa) stays empty.
            players: {
                let [south, north] = seats.clone().map(|seat| seat.player);
                [south, north, None]
            },
            bots: {
                let [south, north] = seats
                    .clone()
                    .map(|seat| seat.bot_level.map(|level| BotSeat { level, seed: None }));
                [south, north, None]
            },
            time_control: *time_control,
            // The lobby's own limits (pending challenges and seeks per player) bound what it arranges.
            creator: None,
        };
        self.inner
            .matches
            .create_with_id(*id, *kind, *options, owner)
            .await
            .map(|_| ())
            .map_err(|error| {
                tracing::error!(tenant, match_id = %id, error = %error, "a lobby match could not be created yet; the repair retries");
                LobbyError::Match(error)
            })
    }

    /// `player` declines challenge `id`.
    pub async fn decline(
        &self,
        tenant: &str,
        player: &str,
        id: LobbyId,
        reason: DeclineReason,
    ) -> Result<Challenge, LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.decide(tenant, move |state| {
            let challenge = Self::known_challenge(state, &id)?;
            if challenge.to.as_deref() != Some(player.as_str()) {
                return Err(LobbyError::PermissionDenied(format!(
                    "only the player challenged may decline challenge {id}{}",
                    if challenge.to.is_none() {
                        " (an open challenge is left to expire or be cancelled)"
                    } else {
                        ""
                    }
                )));
            }
            Self::still_pending(challenge, now)?;
            let status = ChallengeStatus::Declined(reason);
            Ok((
                Some(Entry::ChallengeClosed {
                    id,
                    status: status.clone(),
                }),
                Challenge {
                    status,
                    ..challenge.clone()
                },
            ))
        })
        .await
    }

    /// `player` withdraws his challenge `id`.
    pub async fn cancel(
        &self,
        tenant: &str,
        player: &str,
        id: LobbyId,
    ) -> Result<Challenge, LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.decide(tenant, move |state| {
            let challenge = Self::known_challenge(state, &id)?;
            if challenge.from != player {
                return Err(LobbyError::PermissionDenied(format!(
                    "challenge {id} is {}'s: only the challenger may cancel it",
                    challenge.from
                )));
            }
            Self::still_pending(challenge, now)?;
            Ok((
                Some(Entry::ChallengeClosed {
                    id,
                    status: ChallengeStatus::Cancelled,
                }),
                Challenge {
                    status: ChallengeStatus::Cancelled,
                    ..challenge.clone()
                },
            ))
        })
        .await
    }

    /// `player`'s pending challenges: (incoming, outgoing), oldest first.
    pub async fn challenges_of(
        &self,
        tenant: &str,
        player: &str,
    ) -> Result<(Vec<Challenge>, Vec<Challenge>), LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.read(tenant, move |state| {
            let pending: Vec<&Challenge> = state
                .pending_challenges()
                .into_iter()
                .filter(|c| now < c.expires_ms)
                .collect();
            let incoming = pending
                .iter()
                .filter(|c| c.to.as_deref() == Some(player.as_str()))
                .map(|c| (*c).clone())
                .collect();
            let outgoing = pending
                .iter()
                .filter(|c| c.from == player)
                .map(|c| (*c).clone())
                .collect();
            (incoming, outgoing)
        })
        .await
    }

    /// `player` offers the opponent of finished match `id` a rematch, seats swapped.
    pub async fn rematch(
        &self,
        tenant: &str,
        player: &str,
        id: MatchId,
        ttl_ms: Option<u64>,
    ) -> Result<Challenge, LobbyError> {
        let owned = player.to_string();
        let info: MatchInfo = self
            .read(tenant, move |state| state.match_info(&id).cloned())
            .await?
            .filter(|info| info.seat_of(&owned).is_some())
            .ok_or_else(|| LobbyError::NotFound(format!("match {id} is not one of {player}'s")))?;
        if info.stage != Stage::Finished {
            return Err(LobbyError::NoRematch(format!(
                "match {id} is not finished yet"
            )));
        }
        let seat = info.seat_of(player).expect("checked above");
        let Some(opponent) = info.seats[seat.opponent().index()].player.clone() else {
            return Err(LobbyError::NoRematch(format!(
                "match {id} was against the server's bot: seek or create a match instead"
            )));
        };
        let request = ChallengeRequest {
            to: Some(opponent),
            kind: info.kind,
            options: info.options,
            time_control: info.time_control,
            rated: info.rated,
            seat: SeatChoice::Seat(seat.opponent()),
            ttl_ms,
        };
        self.challenge_with(tenant, player, request, Some(id)).await
    }

    /// Up to `limit` of `player`'s matches, newest first, of game `kind` and status `finished` when given, made
    /// before entry `before` (the previous page's mark): their ids, and the mark of the next page if there is one.
    pub async fn matches_of(
        &self,
        tenant: &str,
        player: &str,
        kind: Option<GameKind>,
        finished: Option<bool>,
        before: Option<u64>,
        limit: usize,
    ) -> Result<(Vec<MatchId>, Option<u64>), LobbyError> {
        let player = player.to_string();
        self.read(tenant, move |state| {
            let mut page: Vec<(u64, MatchId)> = state
                .matches_of(&player)
                .into_iter()
                .filter(|(seq, _, info)| {
                    before.is_none_or(|before| *seq < before)
                        && kind.is_none_or(|kind| info.kind == kind)
                        && finished
                            .is_none_or(|finished| (info.stage == Stage::Finished) == finished)
                })
                .take(limit + 1)
                .map(|(seq, id, _)| (seq, id))
                .collect();
            let next = (page.len() > limit).then(|| page[limit - 1].0);
            page.truncate(limit);
            (page.into_iter().map(|(_, id)| id).collect(), next)
        })
        .await
    }

    // Seeks.

    /// `player` seeks an opponent: paired at once if a compatible seek is waiting.
    pub async fn seek(
        &self,
        tenant: &str,
        player: &str,
        request: SeekRequest,
    ) -> Result<Seek, LobbyError> {
        if let (Some(min), Some(max)) = (request.rating_min, request.rating_max) {
            if min > max {
                return Err(LobbyError::invalid(
                    "rating_min",
                    format!("{min} is above rating_max {max}"),
                ));
            }
        }
        if let Some(fallback) = request.fallback {
            match self.inner.matches.max_bot_level() {
                None => {
                    return Err(LobbyError::invalid(
                        "fallback_bot_level",
                        "this server plays no bot seats",
                    ))
                }
                Some(max) if !(1..=max).contains(&fallback.level) => {
                    return Err(LobbyError::invalid(
                        "fallback_bot_level",
                        format!("1 to {max} on this server"),
                    ))
                }
                Some(_) => {}
            }
        }
        let max_ttl = self.inner.settings.seek_ttl;
        self.check_time_control(request.time_control)?;
        let ttl = self.ttl(request.ttl_ms, max_ttl, max_ttl, "ttl_seconds")?;
        let created_ms = now_ms();
        let seek = Seek {
            id: random_id()?,
            player: player.to_string(),
            kind: request.kind,
            options: request.options,
            time_control: request.time_control,
            rated: request.rated,
            rating_min: request.rating_min,
            rating_max: request.rating_max,
            fallback: request.fallback,
            created_ms,
            expires_ms: created_ms.saturating_add(ttl),
            status: SeekStatus::Open,
        };
        self.inner.matches.room_for_one_more(tenant).await?;
        let lobby = self.clone();
        let opened = seek.clone();
        self.decide(tenant, move |state| {
            lobby.check_pending(state, &opened.player)?;
            Ok((Some(Entry::Sought(opened.clone())), ()))
        })
        .await?;
        self.pair(tenant, seek.id).await
    }

    /// Pairs open seek `id` with the oldest compatible one, if any: its state afterwards.
    async fn pair(&self, tenant: &str, id: LobbyId) -> Result<Seek, LobbyError> {
        let match_id = random_id()?;
        let now = now_ms();
        let (seek, entry) = self
            .decide(tenant, move |state| {
                let seek = state
                    .seek(&id)
                    .ok_or_else(|| LobbyError::NotFound(format!("seek {id} does not exist")))?;
                if seek.status != SeekStatus::Open {
                    return Ok((None, (seek.clone(), None)));
                }
                let Some(partner) = state.partner_for(seek, now) else {
                    return Ok((None, (seek.clone(), None)));
                };
                // The waiting seeker's seat is drawn from its seek's random id.
                let partner_seat = if partner.id.0[0] & 1 == 0 {
                    Player::South
                } else {
                    Player::North
                };
                let mut seats = [SeatRecord::default(), SeatRecord::default()];
                seats[partner_seat.index()] = state.seat_record(&partner.player, seek.kind);
                seats[partner_seat.opponent().index()] = state.seat_record(&seek.player, seek.kind);
                let entry = Entry::MatchCreated {
                    id: match_id,
                    kind: seek.kind,
                    options: seek.options,
                    time_control: seek.time_control,
                    rated: seek.rated,
                    seats,
                    origin: Origin::Seeks(vec![partner.id, seek.id]),
                };
                let paired = Seek {
                    status: SeekStatus::Paired {
                        match_id,
                        opponent: Some(partner.player.clone()),
                    },
                    ..seek.clone()
                };
                Ok((Some(entry.clone()), (paired, Some(entry))))
            })
            .await?;
        if let Some(entry) = entry {
            self.create_match(tenant, &entry).await?;
            tracing::info!(tenant, match_id = %match_id, "seeks paired");
        }
        Ok(seek)
    }

    /// `player` withdraws his seek `id`.
    pub async fn cancel_seek(
        &self,
        tenant: &str,
        player: &str,
        id: LobbyId,
    ) -> Result<Seek, LobbyError> {
        let player = player.to_string();
        self.decide(tenant, move |state| {
            let seek = state
                .seek(&id)
                .ok_or_else(|| LobbyError::NotFound(format!("seek {id} does not exist")))?;
            if seek.player != player {
                return Err(LobbyError::PermissionDenied(format!(
                    "seek {id} is {}'s: only the seeker may cancel it",
                    seek.player
                )));
            }
            if seek.status != SeekStatus::Open {
                let status = match seek.status {
                    SeekStatus::Paired { .. } => "PAIRED",
                    SeekStatus::Cancelled => "CANCELLED",
                    _ => "EXPIRED",
                };
                return Err(LobbyError::Closed {
                    reason: "SEEK_CLOSED",
                    status,
                    message: format!(
                        "seek {id} is no longer open: it was {}",
                        status.to_lowercase()
                    ),
                });
            }
            Ok((
                Some(Entry::SeekClosed {
                    id,
                    status: SeekStatus::Cancelled,
                }),
                Seek {
                    status: SeekStatus::Cancelled,
                    ..seek.clone()
                },
            ))
        })
        .await
    }

    // Streams.

    /// The news for `reader` in `tenant`'s log after entry `after` (at most a page of entries read), the last entry
    /// read, and whether the log goes on past it.
    pub async fn news_after(
        &self,
        tenant: &str,
        reader: Reader,
        after: u64,
    ) -> Result<Page, LobbyError> {
        let store = self.inner.store.as_ref();
        let lobby = self.tenant(tenant);
        {
            let mut state = lobby.state.lock().await;
            Self::catch_up(store, &lobby.id, &mut state).await?;
            if after > state.seq {
                return Err(LobbyError::OutOfRange(format!(
                    "after_event_id {after} is beyond the tenant's latest event, {}",
                    state.seq
                )));
            }
            let entries = store
                .lobby_read(&lobby.id, after, PAGE)
                .await
                .map_err(|e| store_failed("reading the lobby", e))?;
            let mut page = Page {
                tidings: Vec::new(),
                passed: after,
                more: false,
            };
            for stored in entries.into_iter().take_while(|e| e.seq <= state.seq) {
                let logged = entry::decode(stored.seq, &stored.bytes)
                    .map_err(|e| store_failed("decoding the lobby", e))?;
                page.passed = logged.seq;
                if let Some(news) = news::news_for(&reader, &logged, &state) {
                    page.tidings.push(Tiding::News {
                        seq: logged.seq,
                        at_ms: logged.at_ms,
                        news,
                    });
                }
            }
            page.more = page.passed < state.seq;
            Ok(page)
        }
    }

    /// What stands for `player` now (pending challenges, open seeks, unfinished matches: see
    /// [`TenantState::standing_for`]) as the news of the entries that made them, then a heartbeat at the latest entry:
    /// how a player's stream opened without a point to resume from begins.
    async fn standing(&self, tenant: &str, player: &str) -> Result<Page, LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.read(tenant, move |state| {
            let reader = Reader::Player(player.clone());
            let mut tidings: Vec<Tiding> = state
                .standing_for(&player, now)
                .iter()
                .filter_map(|logged| {
                    news::news_for(&reader, logged, state).map(|news| Tiding::News {
                        seq: logged.seq,
                        at_ms: logged.at_ms,
                        news,
                    })
                })
                .collect();
            tidings.push(Tiding::Heartbeat { last: state.seq });
            Page {
                tidings,
                passed: state.seq,
                more: false,
            }
        })
        .await
    }

    /// A stream of `reader`'s news after entry `after`: what the log holds, then each entry as it is written, with
    /// a heartbeat after every `lobby.heartbeat_ms` of silence. A player's stream opened at 0 begins instead with
    /// what stands for him now ([`Lobby::standing`]). It ends when the receiver is dropped.
    pub async fn follow(
        &self,
        tenant: &str,
        reader: Reader,
        after: u64,
    ) -> Result<tokio::sync::mpsc::Receiver<Result<Tiding, LobbyError>>, LobbyError> {
        self.follow_as(tenant, reader, after, None).await
    }

    /// [`Lobby::follow`], the stream counted as `share`'s against `lobby.max_streams_per_player` rather than the
    /// reader's: the anonymous tenant's feed is counted per client address, so that one client holding its streams
    /// does not lock every other anonymous client out of the feed.
    pub async fn follow_as(
        &self,
        tenant: &str,
        reader: Reader,
        after: u64,
        share: Option<String>,
    ) -> Result<tokio::sync::mpsc::Receiver<Result<Tiding, LobbyError>>, LobbyError> {
        // Watched before the first read, so that an entry written meanwhile wakes the stream.
        let mut latest = self.tenant(tenant).latest.subscribe();
        latest.borrow_and_update();
        // Refused now (OUT_OF_RANGE, a store failure) rather than as the stream's first item.
        let first = match (&reader, after) {
            (Reader::Player(player), 0) => self.standing(tenant, player).await?,
            _ => self.news_after(tenant, reader.clone(), after).await?,
        };
        let guard = self.open_stream(tenant, &reader, share)?;
        let (sender, receiver) = tokio::sync::mpsc::channel(PAGE);
        let lobby = self.clone();
        let tenant = tenant.to_string();
        let heartbeat = self.inner.settings.heartbeat;
        tokio::spawn(async move {
            let _guard = guard;
            let mut page = Ok(first);
            // A heartbeat is due after `heartbeat` with nothing sent to this reader, however many entries of
            // others were read meanwhile.
            let mut due = tokio::time::Instant::now() + heartbeat;
            loop {
                let Page {
                    tidings,
                    passed,
                    more,
                } = match page {
                    Ok(page) => page,
                    Err(error) => {
                        let _ = sender.send(Err(error)).await;
                        return;
                    }
                };
                for tiding in tidings {
                    if let Some(id) = announced_match(&tiding) {
                        lobby.ensure_created(&tenant, id).await;
                    }
                    if sender.send(Ok(tiding)).await.is_err() {
                        return;
                    }
                    due = tokio::time::Instant::now() + heartbeat;
                }
                if !more {
                    // Caught up: wait for the next entry, the heartbeat's time, or the reader leaving.
                    tokio::select! {
                        changed = latest.changed() => if changed.is_err() { return },
                        () = tokio::time::sleep_until(due) => {
                            if sender.send(Ok(Tiding::Heartbeat { last: passed })).await.is_err() {
                                return;
                            }
                            due = tokio::time::Instant::now() + heartbeat;
                        }
                        () = sender.closed() => return,
                    }
                    latest.borrow_and_update();
                } else if tokio::time::Instant::now() >= due {
                    // Reading a long stretch of others' entries: the reader still hears the stream is alive.
                    if sender
                        .send(Ok(Tiding::Heartbeat { last: passed }))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    due = tokio::time::Instant::now() + heartbeat;
                }
                page = lobby.news_after(&tenant, reader.clone(), passed).await;
            }
        });
        Ok(receiver)
    }

    /// Makes sure the match store holds match `id`, which the lobby arranged: its entry is written before the
    /// match is created, so a reader told of it at once could otherwise ask for it before it exists (NOT_FOUND). A
    /// match not there yet is created here, as the repair would (`create_with_id` makes it once, whoever tries);
    /// a failure is logged by `create_match` and left to the repair.
    async fn ensure_created(&self, tenant: &str, id: MatchId) {
        if !matches!(self.inner.matches.header(id).await, Ok(None)) {
            return;
        }
        let arranged = self
            .read(tenant, move |state| {
                // Only one nobody has played: a match that went on and was purged after its retention is not made anew.
                state
                    .match_info(&id)
                    .filter(|info| info.stage == Stage::Created && info.from_lobby())
                    .map(|info| info.created_entry(id))
            })
            .await;
        if let Ok(Some(entry)) = arranged {
            let _ = self.create_match(tenant, &entry).await;
        }
    }

    /// Counts an open stream of `reader`, refusing one beyond `lobby.max_streams_per_player` (a player's, or the
    /// tenant's feed).
    fn open_stream(
        &self,
        tenant: &str,
        reader: &Reader,
        share: Option<String>,
    ) -> Result<StreamGuard, LobbyError> {
        // Player ids are never empty: "" counts the tenant's feeds.
        let (who, whose) = match (share, reader) {
            (Some(share), _) => (share.clone(), format!("{share} has")),
            (None, Reader::Player(player)) => (player.clone(), format!("{player} has")),
            (None, Reader::Tenant) => (String::new(), "the tenant has".to_string()),
        };
        let key = (tenant.to_string(), who);
        let max = self.inner.settings.max_streams_per_player;
        let mut streams = lock(&self.inner.streams);
        let open = streams.entry(key.clone()).or_insert(0);
        if *open >= max {
            return Err(LobbyError::ResourceExhausted(format!(
                "{whose} {max} event streams open on this server, the limit (lobby.max_streams_per_player)"
            )));
        }
        *open += 1;
        self.inner.metrics.lobby_streams_add(1);
        Ok(StreamGuard {
            streams: Arc::downgrade(&self.inner) as std::sync::Weak<dyn StreamCounts>,
            key,
        })
    }

    /// Wakes the streams of `tenant` (another replica wrote entry `seq`).
    fn woken(&self, tenant: &str, seq: u64) {
        let held = lock(&self.inner.tenants).get(tenant).cloned();
        if let Some(lobby) = held {
            lobby.latest.send_if_modified(|latest| {
                let newer = seq > *latest;
                *latest = (*latest).max(seq);
                newer
            });
        }
    }

    /// Wakes every stream (the store's feed restarted: entries may have been missed).
    fn woken_all(&self) {
        let held: Vec<Arc<TenantLobby>> = lock(&self.inner.tenants).values().cloned().collect();
        for lobby in held {
            lobby.latest.send_modify(|_| {});
        }
    }

    // The record of matches.

    /// Records what the lobby has not yet recorded of the matches `records` describe (all of one tenant): each
    /// one's creation, first event and end, one entry each, once, all written together (a finished match the lobby
    /// never heard of is recorded only if `unknown_finished`: the repair leaves alone the matches finished before
    /// the lobby existed).
    pub async fn observe(
        &self,
        tenant: &str,
        records: Vec<MatchRecord>,
        unknown_finished: bool,
    ) -> Result<(), LobbyError> {
        let records = Arc::new(records);
        self.decide(tenant, move |state| {
            Ok((missing_steps(state, &records, unknown_finished), ()))
        })
        .await
    }
}

/// A page of a stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The reader's news in the entries read.
    pub tidings: Vec<Tiding>,
    /// The last entry read.
    pub passed: u64,
    /// Whether the log goes on past it.
    pub more: bool,
}

/// The match a tiding tells of that the lobby arranged (its creation in the match store follows its entry).
fn announced_match(tiding: &Tiding) -> Option<MatchId> {
    match tiding {
        Tiding::News {
            news: News::MatchStarted { id, origin, .. } | News::MatchCreated { id, origin, .. },
            ..
        } if *origin != Origin::Direct => Some(*id),
        _ => None,
    }
}

/// The steps of `records`' matches the lobby has not recorded, as entries in order, each decided as if those
/// before it were applied (a batch may hold several steps of one match, and two ends that move one player's rating).
fn missing_steps(
    state: &TenantState,
    records: &[MatchRecord],
    unknown_finished: bool,
) -> Vec<Entry> {
    let mut stages: HashMap<MatchId, Stage> = HashMap::new();
    let mut ratings: HashMap<(String, GameKind), Glicko> = HashMap::new();
    let mut steps = Vec::new();
    for record in records {
        let id = record.id;
        loop {
            let info = state.match_info(&id);
            let stage = stages.get(&id).copied().or(info.map(|info| info.stage));
            let step = match (stage, record.finished) {
                (None, Some(_)) if !unknown_finished => None,
                (None, _) => Some(created_directly(state, record)),
                (Some(Stage::Created), _) if record.version >= 1 => {
                    Some(Entry::MatchStarted { id })
                }
                (Some(Stage::Created | Stage::Started), Some(finished)) => {
                    let changes =
                        info.and_then(|info| rating_changes(state, &ratings, info, &finished));
                    if let (Some(changes), Some(info)) = (&changes, info) {
                        for (seat, change) in info.seats.iter().zip(changes) {
                            let player = seat.player.clone().unwrap_or_default();
                            ratings.insert((player, info.kind), change.after);
                        }
                    }
                    Some(Entry::MatchFinished {
                        id,
                        finished,
                        ratings: changes,
                    })
                }
                _ => None,
            };
            let Some(step) = step else {
                break;
            };
            stages.insert(
                id,
                match step {
                    Entry::MatchCreated { .. } => Stage::Created,
                    Entry::MatchStarted { .. } => Stage::Started,
                    _ => Stage::Finished,
                },
            );
            steps.push(step);
        }
    }
    steps
}

/// The creation of a match made with `CreateMatch`, as the lobby records it (never rated).
fn created_directly(state: &TenantState, record: &MatchRecord) -> Entry {
    let seat = |seat: Player| {
        let index = seat.index();
        match (&record.players[index], record.bots[index]) {
            (Some(player), _) => state.seat_record(player, record.kind),
            (None, bot) => SeatRecord {
                bot_level: bot.map(|bot| bot.level),
                ..SeatRecord::default()
            },
        }
    };
    Entry::MatchCreated {
        id: record.id,
        kind: record.kind,
        options: record.options,
        time_control: record.time_control,
        rated: false,
        seats: [seat(Player::South), seat(Player::North)],
        origin: Origin::Direct,
    }
}

/// What a match's end does to its players' ratings: nothing unless it was rated between two players and played to
/// a result (an expired or aborted match has none).
fn rating_changes(
    state: &TenantState,
    decided: &HashMap<(String, GameKind), Glicko>,
    info: &MatchInfo,
    finished: &crate::store::Finished,
) -> Option<[entry::RatingChange; 2]> {
    if !info.rated || !finished.has_result() {
        return None;
    }
    let [Some(south), Some(north)] = info.seats.clone().map(|seat| seat.player) else {
        return None;
    };
    let before = [south, north].map(|player| {
        decided
            .get(&(player.clone(), info.kind))
            .copied()
            .unwrap_or_else(|| state.profile(&player).standing(info.kind).glicko)
    });
    let after = ratings::after_match(before[0], before[1], finished.winner);
    Some([0, 1].map(|i| entry::RatingChange {
        before: before[i],
        after: after[i],
    }))
}

/// Counts open player streams; implemented by the lobby's state so that a guard can outlive nothing.
trait StreamCounts: Send + Sync {
    fn closed(&self, key: &(String, String));
}

impl<E: Encoder> StreamCounts for Inner<E> {
    fn closed(&self, key: &(String, String)) {
        self.metrics.lobby_streams_add(-1);
        let mut streams = lock(&self.streams);
        if let Some(open) = streams.get_mut(key) {
            *open -= 1;
            if *open == 0 {
                streams.remove(key);
            }
        }
    }
}

/// An open player stream, counted until dropped.
struct StreamGuard {
    streams: std::sync::Weak<dyn StreamCounts>,
    key: (String, String),
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        if let Some(streams) = self.streams.upgrade() {
            streams.closed(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Finished;

    fn record(id: u8, players: [&str; 2], version: u64, winner: Option<Player>) -> MatchRecord {
        MatchRecord {
            id: MatchId([id; 16]),
            kind: GameKind::Bosh,
            options: Options::default(),
            created_ms: 1,
            token_hashes: [[0; 32]; 3],
            tenant: "acme".into(),
            players: {
                let [south, north] = players.map(|p| Some(p.to_string()));
                [south, north, None]
            },
            bots: [None, None, None],
            active_ms: 1,
            version,
            finished: winner.map(|winner| Finished {
                at_ms: 9,
                winner: Some(winner),
                resigned: None,
                reason: crate::store::EndReason::PlayedOut,
            }),
            time_control: Default::default(),
            deadline_ms: None,
        }
    }

    fn rated_match(state: &mut TenantState, id: u8, players: [&str; 2]) {
        let seats = players.map(|p| state.seat_record(p, GameKind::Bosh));
        state.apply(&Logged {
            seq: state.seq + 1,
            at_ms: 1,
            entry: Entry::MatchCreated {
                id: MatchId([id; 16]),
                kind: GameKind::Bosh,
                options: Options::default(),
                time_control: Default::default(),
                rated: true,
                seats,
                origin: Origin::Challenge(MatchId([id + 100; 16])),
            },
        });
    }

    #[test]
    fn a_batch_records_every_missing_step_once_and_rates_in_order() {
        let mut state = TenantState::default();
        rated_match(&mut state, 1, ["ann", "bob"]);
        rated_match(&mut state, 2, ["ann", "cy"]);
        // Both matches start and end in one batch (and the end of the first is told twice).
        let records = vec![
            record(1, ["ann", "bob"], 1, None),
            record(1, ["ann", "bob"], 9, Some(Player::South)),
            record(1, ["ann", "bob"], 9, Some(Player::South)),
            record(2, ["ann", "cy"], 7, Some(Player::South)),
            // A match made with CreateMatch, started and unfinished.
            record(3, ["dee", "eve"], 2, None),
        ];
        let steps = missing_steps(&state, &records, true);
        let kinds: Vec<&str> = steps
            .iter()
            .map(|step| match step {
                Entry::MatchCreated { .. } => "created",
                Entry::MatchStarted { .. } => "started",
                Entry::MatchFinished { .. } => "finished",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            ["started", "finished", "started", "finished", "created", "started"]
        );
        let Entry::MatchFinished {
            ratings: Some(first),
            ..
        } = &steps[1]
        else {
            panic!("a rated end: {:?}", steps[1]);
        };
        let Entry::MatchFinished {
            ratings: Some(second),
            ..
        } = &steps[3]
        else {
            panic!("a rated end: {:?}", steps[3]);
        };
        assert_eq!(
            second[0].before, first[0].after,
            "Ann's second match starts from the rating her first one gave her"
        );
        for (seq, entry) in (state.seq + 1..).zip(steps) {
            state.apply(&Logged {
                seq,
                at_ms: 2,
                entry,
            });
        }
        assert!(
            missing_steps(&state, &records, true).is_empty(),
            "nothing twice"
        );
        let ann = state.profile("ann");
        assert_eq!(ann.standing(GameKind::Bosh).rated_matches, 2);
        assert_eq!(ann.standing(GameKind::Bosh).wins, 2);
        // The repair leaves alone a finished match it never heard of.
        assert!(missing_steps(
            &state,
            &[record(4, ["x", "y"], 3, Some(Player::North))],
            false
        )
        .is_empty());
    }

    /// A lobby store whose log always holds `held` entries: appends always lose, as when its data was lost
    /// (`held` below what a server has read) or under another server writing for ever.
    struct Stuck {
        held: u64,
    }

    #[async_trait::async_trait]
    impl LobbyStore for Stuck {
        async fn lobby_append(&self, _: &str, _: u64, _: &[Vec<u8>]) -> Result<(), StoreError> {
            Err(StoreError::Conflict { current: self.held })
        }
        async fn lobby_read(
            &self,
            _: &str,
            _: u64,
            _: usize,
        ) -> Result<Vec<crate::store::LobbyEntry>, StoreError> {
            Ok(Vec::new())
        }
        async fn lobby_tenants(&self) -> Result<Vec<String>, StoreError> {
            Ok(Vec::new())
        }
    }

    /// An encoder for a lobby whose matches nobody watches.
    struct Silent;

    impl Encoder for Silent {
        type Message = ();
        fn encode(&self, _: crate::matches::Update<'_>) {}
    }

    fn profile_change(_: &TenantState) -> Result<(Option<Entry>, ()), LobbyError> {
        let entry = Entry::Profile {
            player: "ann".into(),
            display_name: "Ann".into(),
            bot: None,
        };
        Ok((Some(entry), ()))
    }

    #[tokio::test]
    async fn a_store_that_lost_the_log_fails_the_call_instead_of_racing_it_for_ever() {
        let tenant = TenantLobby {
            id: "acme".into(),
            state: tokio::sync::Mutex::new(TenantState::default()),
            latest: watch::channel(0).0,
        };
        rated_match(&mut tenant.state.try_lock().unwrap(), 1, ["ann", "bob"]);
        let metrics = Metrics::new();
        // The server has read one entry; the store (a Redis restarted empty) holds none.
        let lost =
            Lobby::<Silent>::commit(&Stuck { held: 0 }, &metrics, &tenant, profile_change).await;
        assert!(matches!(&lost, Err(LobbyError::Internal(_))), "{lost:?}");
        // A store always one entry ahead (another server winning every race) is tried a bounded number of times.
        let racing =
            Lobby::<Silent>::commit(&Stuck { held: 5 }, &metrics, &tenant, profile_change).await;
        assert!(
            matches!(&racing, Err(LobbyError::Internal(_))),
            "{racing:?}"
        );
    }
}
