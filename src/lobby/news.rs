//! What each stream is told of a log entry: a player hears of his own challenges, seeks and matches, a tenant's
//! backend of every match's creation, first move and end. A pure function of the entry and the tenant's state.

use super::entry::{Challenge, Entry, Logged, Origin, RatingChange, SeatRecord, Seek};
use super::state::TenantState;
use crate::engine::{GameKind, Options, Player};
use crate::store::{Finished, MatchId};

/// Who reads a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reader {
    /// A player (`WatchPlayerEvents`).
    Player(String),
    /// The tenant's backend (`WatchTenantFeed`).
    Tenant,
}

/// A rating change with whose it is.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// The player.
    pub player: String,
    /// The change.
    pub change: RatingChange,
}

/// One item of news for a reader.
#[derive(Clone, Debug, PartialEq)]
pub enum News {
    /// A challenge to or from the player, as the entry left it (made, declined, cancelled, expired).
    Challenge(Challenge),
    /// One of the player's seeks, as the entry left it (opened, cancelled, expired).
    Seek(Seek),
    /// A match with a seat for the player was made: his seat and whom he plays.
    MatchStarted {
        /// The match.
        id: MatchId,
        /// The game.
        kind: GameKind,
        /// Its options.
        options: Options,
        /// Whether it is rated.
        rated: bool,
        /// The player's seat.
        seat: Player,
        /// The other seat.
        opponent: SeatRecord,
        /// What made it.
        origin: Origin,
        /// The player's own seek among the origin's.
        own_seek: Option<super::entry::LobbyId>,
    },
    /// A match of the tenant was created (the backend's feed).
    MatchCreated {
        /// The match.
        id: MatchId,
        /// The game.
        kind: GameKind,
        /// Its options.
        options: Options,
        /// Whether it is rated.
        rated: bool,
        /// South's and North's.
        seats: [SeatRecord; 2],
        /// What made it.
        origin: Origin,
    },
    /// A match's first event was accepted (the backend's feed).
    MatchBegun {
        /// The match.
        id: MatchId,
    },
    /// A match ended: the player's seat (`None` on the backend's feed), and the ratings it moved.
    MatchFinished {
        /// The match.
        id: MatchId,
        /// The game.
        kind: GameKind,
        /// The reader's seat.
        seat: Option<Player>,
        /// How it ended.
        finished: Finished,
        /// Whether it was rated.
        rated: bool,
        /// South's and North's changes, for a rated match.
        ratings: Vec<PlayerRating>,
    },
}

/// What `reader` is told of `logged`, read against `state` (caught up to at least `logged.seq`): `None` when the
/// entry is none of his business.
pub fn news_for(reader: &Reader, logged: &Logged, state: &TenantState) -> Option<News> {
    let player = match reader {
        Reader::Player(player) => Some(player.as_str()),
        Reader::Tenant => None,
    };
    let concerns =
        |c: &Challenge| player.is_some_and(|p| c.from == p || c.to.as_deref() == Some(p));
    match (&logged.entry, player) {
        (Entry::Challenged(challenge), Some(_)) => {
            concerns(challenge).then(|| News::Challenge(challenge.clone()))
        }
        (Entry::ChallengeClosed { id, status }, Some(_)) => {
            let challenge = state.challenge(id)?;
            concerns(challenge).then(|| {
                News::Challenge(Challenge {
                    status: status.clone(),
                    ..challenge.clone()
                })
            })
        }
        (Entry::Sought(seek), Some(p)) => (seek.player == p).then(|| News::Seek(seek.clone())),
        (Entry::SeekClosed { id, status }, Some(p)) => {
            let seek = state.seek(id)?;
            (seek.player == p).then(|| {
                News::Seek(Seek {
                    status: status.clone(),
                    ..seek.clone()
                })
            })
        }
        (
            Entry::MatchCreated {
                id,
                kind,
                options,
                rated,
                seats,
                origin,
                ..
            },
            reader,
        ) => match reader {
            Some(p) => {
                let seat = Player::BOTH
                    .into_iter()
                    .find(|s| seats[s.index()].player.as_deref() == Some(p))?;
                Some(News::MatchStarted {
                    id: *id,
                    kind: *kind,
                    options: *options,
                    rated: *rated,
                    seat,
                    opponent: seats[seat.opponent().index()].clone(),
                    origin: origin.clone(),
                    own_seek: match origin {
                        Origin::Seeks(ids) => ids
                            .iter()
                            .copied()
                            .find(|id| state.seek(id).is_some_and(|s| s.player == p)),
                        _ => None,
                    },
                })
            }
            None => Some(News::MatchCreated {
                id: *id,
                kind: *kind,
                options: *options,
                rated: *rated,
                seats: seats.clone(),
                origin: origin.clone(),
            }),
        },
        (Entry::MatchStarted { id }, None) => Some(News::MatchBegun { id: *id }),
        (
            Entry::MatchFinished {
                id,
                finished,
                ratings,
            },
            reader,
        ) => {
            let info = state.match_info(id)?;
            let seat = match reader {
                Some(p) => Some(info.seat_of(p)?),
                None => None,
            };
            let ratings = ratings
                .iter()
                .flat_map(|changes| {
                    Player::BOTH.into_iter().map(|s| PlayerRating {
                        player: info.seats[s.index()].player.clone().unwrap_or_default(),
                        change: changes[s.index()],
                    })
                })
                .collect();
            Some(News::MatchFinished {
                id: *id,
                kind: info.kind,
                seat,
                finished: *finished,
                rated: info.rated,
                ratings,
            })
        }
        _ => None,
    }
}
