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
    /// Three-player Ba-awa: the second player challenged (`None`: the last seat is open to anyone with the id).
    pub also_to: Option<String>,
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

/// An accepted challenge: the challenge, and the match with the acceptor's seat once every seat has a player.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The challenge: accepted, or still pending when a three-player challenge waits for another player.
    pub challenge: Challenge,
    /// The match created and the acceptor's seat; `None` while a three-player challenge waits for another.
    pub seated: Option<(MatchId, Player)>,
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
        let seats = request.options.seats(request.kind);
        if let Some(also) = &request.also_to {
            let problem = if seats != 3 {
                Some("only a three-player Ba-awa challenge names a second player (§4.7)")
            } else if also == from {
                Some("a player cannot challenge himself")
            } else if request.to.is_none() {
                Some("name the first player in to_player_id before a second one")
            } else if request.to.as_ref() == Some(also) {
                Some("the two players challenged must be different players")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(LobbyError::invalid("also_to_player_id", problem));
            }
        }
        if let SeatChoice::Seat(seat) = request.seat {
            if seat.index() >= seats {
                return Err(LobbyError::invalid(
                    "seat",
                    "East sits only in three-player Ba-awa (§4.7)",
                ));
            }
        }
        if request.rated && seats == 3 {
            return Err(LobbyError::invalid(
                "rated",
                "a three-player match is never rated: ratings move between two players",
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
            also_to: request.also_to,
            joined: Vec::new(),
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

    /// `player` accepts challenge `id`: the match is created, every seat bound to its player; a three-player
    /// challenge accepted by its first player only records him and waits for the other (§4.7).
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
        let (challenge, seated, entry) = self
            .decide(tenant, move |state| {
                let challenge = Self::known_challenge(state, &id)?;
                Self::may_accept(challenge, &player)?;
                Self::still_pending(challenge, now)?;
                let seated = Player::seated(challenge.options.seats(challenge.kind));
                if challenge.joined.len() + 2 < seated.len() {
                    // The first of two players to accept: recorded, and the challenge waits for the other.
                    let mut joined = challenge.clone();
                    joined.joined.push(player.clone());
                    let entry = Entry::ChallengeJoined {
                        id,
                        player: player.clone(),
                    };
                    return Ok((Some(entry.clone()), (joined, None, entry)));
                }
                // The challenger's seat, asked for or drawn from the challenge's random id (fair, and the same on
                // any replica deciding it); the others take the other seats in `Player` order, in the order they
                // accepted.
                let challenger_seat = match challenge.seat {
                    SeatChoice::Seat(seat) => seat,
                    SeatChoice::Random => seated[usize::from(id.0[0]) % seated.len()],
                };
                let acceptors: Vec<&String> = challenge.joined.iter().chain([&player]).collect();
                let mut seats = vec![SeatRecord::default(); seated.len()];
                seats[challenger_seat.index()] = state.seat_record(&challenge.from, challenge.kind);
                let mut acceptor_seat = challenger_seat;
                for (&seat, acceptor) in seated
                    .iter()
                    .filter(|&&seat| seat != challenger_seat)
                    .zip(acceptors)
                {
                    seats[seat.index()] = state.seat_record(acceptor, challenge.kind);
                    acceptor_seat = seat;
                }
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
                    (accepted, Some((match_id, acceptor_seat)), entry),
                ))
            })
            .await?;
        if seated.is_none() {
            tracing::info!(tenant, challenge_id = %id, "three-player challenge joined");
            return Ok(Accepted { challenge, seated });
        }
        self.create_match(tenant, &entry).await?;
        tracing::info!(tenant, challenge_id = %id, match_id = %match_id, "challenge accepted");
        Ok(Accepted { challenge, seated })
    }

    /// Refuses `player`'s acceptance of `challenge` unless it is his to accept: addressed to him, or with a seat
    /// open to anyone that he does not already hold.
    fn may_accept(challenge: &Challenge, player: &str) -> Result<(), LobbyError> {
        let id = challenge.id;
        if challenge.joined.iter().any(|p| p == player) {
            return Err(LobbyError::invalid(
                "challenge_id",
                format!(
                    "{player} has already accepted challenge {id}; it waits for the other player"
                ),
            ));
        }
        if challenge.addresses(player) {
            return Ok(());
        }
        // The seats not named for anyone are open to whoever has the id; the named players' seats are theirs.
        if challenge.open_seats() == 0 {
            let named: Vec<&str> = [&challenge.to, &challenge.also_to]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            return Err(LobbyError::PermissionDenied(format!(
                "challenge {id} is addressed to {}, not to {player}",
                named.join(" and ")
            )));
        }
        if challenge.from == player {
            return Err(LobbyError::invalid(
                "challenge_id",
                "a player cannot accept his own open challenge",
            ));
        }
        Ok(())
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
            if challenge.joined.contains(&player) {
                return Err(LobbyError::PermissionDenied(format!(
                    "{player} has accepted challenge {id} already; its challenger may cancel it"
                )));
            }
            if !challenge.addresses(&player) {
                return Err(LobbyError::PermissionDenied(format!(
                    "only a player challenged may decline challenge {id}{}",
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
                .filter(|c| c.addresses(&player) && !c.joined.contains(&player))
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

    /// The pending challenges of others that `player` may take as an open seat (a lobby's list), oldest first.
    pub async fn open_challenges_for(
        &self,
        tenant: &str,
        player: &str,
    ) -> Result<Vec<Challenge>, LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.read(tenant, move |state| {
            state
                .pending_challenges()
                .into_iter()
                .filter(|c| now < c.expires_ms && c.open_to(&player))
                .cloned()
                .collect()
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
        if info.seats.len() != 2 {
            return Err(LobbyError::NoRematch(format!(
                "match {id} had three players: challenge the other two to a new match instead"
            )));
        }
        let Some(opponent) = info.seats[seat.opponent().index()].player.clone() else {
            return Err(LobbyError::NoRematch(format!(
                "match {id} was against the server's bot: seek or create a match instead"
            )));
        };
        let request = ChallengeRequest {
            to: Some(opponent),
            also_to: None,
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
