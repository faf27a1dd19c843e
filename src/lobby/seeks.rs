//! Seeks (matchmaking): a player asks for any compatible opponent, is paired with the oldest compatible seek
//! waiting, or cancels. Apart from challenges because nobody answers a seek: the lobby pairs it.

use super::entry::{Entry, Fallback, Origin, SeatRecord, SeekStatus};
use super::{now_ms, random_id, Lobby, LobbyError, LobbyId, Seek};
use crate::clock::TimeControl;
use crate::engine::{GameKind, Options, Player};
use crate::matches::Encoder;

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

impl<E: Encoder> Lobby<E> {
    /// `player` seeks an opponent: paired at once if a compatible seek is waiting.
    pub async fn seek(
        &self,
        tenant: &str,
        player: &str,
        request: SeekRequest,
    ) -> Result<Seek, LobbyError> {
        if request.rated && request.options.seats(request.kind) == 3 {
            return Err(LobbyError::invalid(
                "rated",
                "a three-player match is never rated: ratings move between two players",
            ));
        }
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
    pub(super) async fn pair(&self, tenant: &str, id: LobbyId) -> Result<Seek, LobbyError> {
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
                // Three-player Ba-awa pairs three seeks (§4.7); every other game two.
                let seated = Player::seated(seek.options.seats(seek.kind));
                let partners = state.partners_for(seek, now, seated.len() - 1);
                let Some(first) = partners.first() else {
                    return Ok((None, (seek.clone(), None)));
                };
                // The seats go round from one drawn from the oldest waiting seek's random id: with two players
                // its seeker is South or North, with three any of the three.
                let start = usize::from(first.id.0[0]) % seated.len();
                let seekers: Vec<&Seek> = partners.iter().copied().chain([seek]).collect();
                let mut seats = vec![SeatRecord::default(); seated.len()];
                for (n, one) in seekers.iter().enumerate() {
                    let seat = seated[(start + n) % seated.len()];
                    seats[seat.index()] = state.seat_record(&one.player, seek.kind);
                }
                let entry = Entry::MatchCreated {
                    id: match_id,
                    kind: seek.kind,
                    options: seek.options,
                    time_control: seek.time_control,
                    rated: seek.rated,
                    seats,
                    origin: Origin::Seeks(seekers.iter().map(|s| s.id).collect()),
                };
                let paired = Seek {
                    status: SeekStatus::Paired {
                        match_id,
                        opponent: Some(first.player.clone()),
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

    /// Other players' open seeks (a lobby's list), oldest first: `player` answers one by seeking the same.
    pub async fn open_seeks_for(
        &self,
        tenant: &str,
        player: &str,
    ) -> Result<Vec<Seek>, LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.read(tenant, move |state| {
            state
                .open_seeks()
                .into_iter()
                .filter(|s| now < s.expires_ms && s.player != player)
                .cloned()
                .collect()
        })
        .await
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
}
