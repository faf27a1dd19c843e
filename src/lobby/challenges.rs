//! Challenges: one player asks another (or anyone) for a match; the challenge is accepted, declined, cancelled or
//! left to expire, and a finished match's players may ask for a rematch. Apart from seeks because a challenge is
//! answered by a person, where a seek is paired by the lobby.

use super::entry::{ChallengeStatus, DeclineReason, Entry, Origin, SeatChoice, SeatRecord};
use super::state::{MatchInfo, Stage, TenantState};
use super::{now_ms, random_id, Challenge, Lobby, LobbyError, LobbyId};
use crate::clock::TimeControl;
use crate::engine::{GameKind, Options, Player};
use crate::matches::Encoder;
use crate::store::MatchId;

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

impl<E: Encoder> Lobby<E> {
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
}
