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
    /// A tournament's watcher (`WatchTournament`): its steps alone.
    Tournament(super::entry::LobbyId),
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
    /// A challenge to or from the player, as the entry left it (made, joined, declined, cancelled, expired);
    /// boxed, as the largest news by far.
    Challenge(Box<Challenge>),
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
        /// Every other seat with its record, in turn order from the player's (South → East → North, §4.7).
        others: Vec<(Player, SeatRecord)>,
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
        /// Every seat, in `Player` index order (East third in three-player Ba-awa).
        seats: Vec<SeatRecord>,
        /// What made it.
        origin: Origin,
    },
    /// A step of a tournament, for a player it tells (`reader`) or for the tournament's watcher (`reader` `None`);
    /// `crate::tournaments` reads its body.
    Tournament {
        /// The tournament.
        id: super::entry::LobbyId,
        /// The player told, on his stream.
        reader: Option<String>,
        /// The step, in the tournaments' encoding.
        body: Vec<u8>,
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
        Reader::Tournament(watched) => {
            return match &logged.entry {
                Entry::Tournament(step) if step.id == *watched => Some(News::Tournament {
                    id: step.id,
                    reader: None,
                    body: step.body.clone(),
                }),
                _ => None,
            }
        }
    };
    let concerns = |c: &Challenge| player.is_some_and(|p| c.concerns(p));
    match (&logged.entry, player) {
        (Entry::Challenged(challenge), Some(_)) => {
            concerns(challenge).then(|| News::Challenge(Box::new(challenge.clone())))
        }
        // A player joined a three-player challenge: everyone in it hears, the joiner included (the state has
        // applied the entry, so the challenge lists him).
        (Entry::ChallengeJoined { id, player: joiner }, Some(_)) => {
            let challenge = state.challenge(id)?;
            // As this entry left it, though the state may have gone further (a later join, the match made).
            let joined = challenge
                .joined
                .iter()
                .position(|p| p == joiner)
                .map_or(0, |at| at + 1);
            concerns(challenge).then(|| {
                News::Challenge(Box::new(Challenge {
                    joined: challenge.joined[..joined].to_vec(),
                    status: super::entry::ChallengeStatus::Pending,
                    ..challenge.clone()
                }))
            })
        }
        (Entry::ChallengeClosed { id, status }, Some(_)) => {
            let challenge = state.challenge(id)?;
            concerns(challenge).then(|| {
                News::Challenge(Box::new(Challenge {
                    status: status.clone(),
                    ..challenge.clone()
                }))
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
                let seat = super::state::seat_of(seats, p)?;
                let others = others_in_turn_order(seats, seat);
                Some(News::MatchStarted {
                    id: *id,
                    kind: *kind,
                    options: *options,
                    rated: *rated,
                    seat,
                    others,
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
        (Entry::Tournament(step), Some(p)) => {
            step.tell
                .iter()
                .any(|told| told == p)
                .then(|| News::Tournament {
                    id: step.id,
                    reader: Some(p.to_string()),
                    body: step.body.clone(),
                })
        }
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
                    changes
                        .iter()
                        .zip(&info.seats)
                        .map(|(change, seat)| PlayerRating {
                            player: seat.player.clone().unwrap_or_default(),
                            change: *change,
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

/// The seats of `seats` other than `seat`, in turn order after it: the opponent of a two-player game; in
/// three-player Ba-awa the two others, the next to move after `seat` first (South → East → North, §4.7).
fn others_in_turn_order(seats: &[SeatRecord], seat: Player) -> Vec<(Player, SeatRecord)> {
    let order: &[Player] = match seats.len() {
        3 => &[Player::South, Player::East, Player::North],
        _ => &Player::BOTH,
    };
    let at = order.iter().position(|&s| s == seat).unwrap_or(0);
    (1..order.len())
        .map(|step| order[(at + step) % order.len()])
        .filter_map(|other| Some((other, seats.get(other.index())?.clone())))
        .collect()
}
