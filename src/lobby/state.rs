//! A tenant's lobby as it stands: the replay of its log ([`TenantState::apply`]), and the questions the lobby
//! asks of it before it writes (which challenges are pending, which seek pairs with which, what a player's
//! rating is). Pure: no store, no clock, no locks.

use super::entry::{
    BotAccount, Challenge, ChallengeStatus, Entry, LobbyId, Logged, Origin, SeatRecord, Seek,
    SeekStatus, TournamentStep,
};
use super::ratings::Glicko;
use crate::clock::TimeControl;
use crate::engine::{GameKind, Options, Player};
use crate::store::{Finished, MatchId};
use std::collections::{BTreeMap, HashMap};

/// A player's standing in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    /// The rating.
    pub glicko: Glicko,
    /// Rated matches played.
    pub rated_matches: u32,
    /// Finished matches won, lost and drawn (rated or not; an expired match counts in none).
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn.
    pub draws: u32,
}

/// A player's profile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// The player id.
    pub player: String,
    /// The name to show.
    pub display_name: String,
    /// Set for a bot account.
    pub bot: Option<BotAccount>,
    /// One per game, in [`GameKind::ALL`] order.
    pub standings: [Standing; 3],
    /// When he was last seen, in milliseconds since the Unix epoch (0: never): the log's last entry of his making
    /// here, raised by the lobby with his presence ([`crate::lobby::Lobby::profile`]).
    pub last_seen_ms: u64,
    /// Whether he holds an event stream open now (set by the lobby from the presence store; never by the log).
    pub online: bool,
}

impl Profile {
    /// The standing in `kind`.
    pub fn standing(&self, kind: GameKind) -> &Standing {
        &self.standings[kind_index(kind)]
    }
}

fn kind_index(kind: GameKind) -> usize {
    GameKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

/// How far a match of the tenant has got, as far as the lobby has recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Created, no event yet.
    Created,
    /// Its first event was accepted.
    Started,
    /// Over.
    Finished,
}

/// What the lobby knows of a match of the tenant.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchInfo {
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// How it is timed.
    pub time_control: TimeControl,
    /// Whether it changes ratings.
    pub rated: bool,
    /// Every seat, in `Player` index order: South, North, then East in three-player Ba-awa.
    pub seats: Vec<SeatRecord>,
    /// What made it.
    pub origin: Origin,
    /// How far it has got.
    pub stage: Stage,
    /// When it ended, once it has.
    pub finished_ms: Option<u64>,
    /// How it ended, once it has (a tournament's result is read from it).
    pub finished: Option<Finished>,
}

impl MatchInfo {
    /// The seat of `player`, if he has one.
    pub fn seat_of(&self, player: &str) -> Option<Player> {
        seat_of(&self.seats, player)
    }

    /// The entry that recorded its creation.
    pub fn created_entry(&self, id: MatchId) -> Entry {
        Entry::MatchCreated {
            id,
            kind: self.kind,
            options: self.options,
            time_control: self.time_control,
            rated: self.rated,
            seats: self.seats.clone(),
            origin: self.origin.clone(),
        }
    }

    /// Whether the lobby made it (so the lobby creates it in the match store, and repairs a creation cut short).
    pub fn from_lobby(&self) -> bool {
        self.origin != Origin::Direct
    }
}

/// The seat of `player` among `seats` (in `Player` index order), if he has one.
pub fn seat_of(seats: &[SeatRecord], player: &str) -> Option<Player> {
    Player::ALL
        .into_iter()
        .zip(seats)
        .find(|(_, record)| record.player.as_deref() == Some(player))
        .map(|(seat, _)| seat)
}

/// One tenant's lobby.
#[derive(Clone, Debug, Default)]
pub struct TenantState {
    /// The number of log entries applied.
    pub seq: u64,
    challenges: HashMap<LobbyId, Challenge>,
    seeks: HashMap<LobbyId, Seek>,
    profiles: BTreeMap<String, Profile>,
    matches: HashMap<MatchId, MatchInfo>,
    /// The entry that made each challenge, seek and match: its number and time.
    made: HashMap<LobbyId, (u64, u64)>,
    /// When each player last did something the log records (a challenge, a seek, his profile, a match finished).
    seen: HashMap<String, u64>,
    /// Every tournament's steps, kept whole (a tournament's standings need all of them).
    tournaments: BTreeMap<LobbyId, TournamentLog>,
}

/// One tournament's steps in the log, in order: the bytes of `crate::tournaments`, with their entries' numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentLog {
    /// Each step: its entry's number and time, and its body.
    pub steps: Vec<(u64, u64, Vec<u8>)>,
    /// Whether its last step was written (it is over).
    pub closed: bool,
    /// Per player told of its steps, the last one he was told of (its index in `steps`): what his stream restates.
    pub last_told: HashMap<String, usize>,
}

impl TenantState {
    /// Applies the next entry of the log (entries arrive in order; one already applied is ignored).
    pub fn apply(&mut self, logged: &Logged) {
        if logged.seq <= self.seq {
            return;
        }
        self.seq = logged.seq;
        let made = (logged.seq, logged.at_ms);
        for player in seen_in(&logged.entry, &self.matches) {
            let seen = self.seen.entry(player.to_string()).or_default();
            *seen = (*seen).max(logged.at_ms);
        }
        match &logged.entry {
            Entry::Profile {
                player,
                display_name,
                bot,
            } => {
                let profile = self.profile_mut(player);
                profile.display_name = display_name.clone();
                profile.bot = bot.clone();
            }
            Entry::Challenged(challenge) => {
                self.made.insert(challenge.id, made);
                self.challenges.insert(challenge.id, challenge.clone());
            }
            Entry::ChallengeJoined { id, player } => {
                if let Some(challenge) = self.challenges.get_mut(id) {
                    challenge.joined.push(player.clone());
                }
            }
            Entry::ChallengeClosed { id, status } => {
                if let Some(challenge) = self.challenges.get_mut(id) {
                    challenge.status = status.clone();
                }
            }
            Entry::Sought(seek) => {
                self.made.insert(seek.id, made);
                self.seeks.insert(seek.id, seek.clone());
            }
            Entry::SeekClosed { id, status } => {
                if let Some(seek) = self.seeks.get_mut(id) {
                    seek.status = status.clone();
                }
            }
            Entry::MatchCreated {
                id,
                kind,
                options,
                time_control,
                rated,
                seats,
                origin,
            } => {
                match origin {
                    Origin::Direct | Origin::Tournament { .. } => {}
                    Origin::Challenge(challenge) => {
                        let by = seats
                            .iter()
                            .filter_map(|seat| seat.player.clone())
                            // The one who accepted last: neither the challenger nor one who joined before.
                            .find(|player| {
                                self.challenges
                                    .get(challenge)
                                    .is_none_or(|c| c.from != *player && !c.joined.contains(player))
                            })
                            .unwrap_or_default();
                        if let Some(challenge) = self.challenges.get_mut(challenge) {
                            challenge.status = ChallengeStatus::Accepted { match_id: *id, by };
                        }
                    }
                    Origin::Seeks(ids) => {
                        for seek_id in ids {
                            let Some(seek) = self.seeks.get(seek_id) else {
                                continue;
                            };
                            let opponent = seats
                                .iter()
                                .filter_map(|seat| seat.player.clone())
                                .find(|player| *player != seek.player);
                            if let Some(seek) = self.seeks.get_mut(seek_id) {
                                seek.status = SeekStatus::Paired {
                                    match_id: *id,
                                    opponent,
                                };
                            }
                        }
                    }
                }
                self.made.insert(*id, made);
                self.matches.insert(
                    *id,
                    MatchInfo {
                        kind: *kind,
                        options: *options,
                        time_control: *time_control,
                        rated: *rated,
                        seats: seats.clone(),
                        origin: origin.clone(),
                        stage: Stage::Created,
                        finished_ms: None,
                        finished: None,
                    },
                );
            }
            Entry::Tournament(step) => {
                let log = self.tournaments.entry(step.id).or_default();
                log.steps
                    .push((logged.seq, logged.at_ms, step.body.clone()));
                log.closed |= step.last;
                for player in &step.tell {
                    log.last_told.insert(player.clone(), log.steps.len() - 1);
                }
            }
            Entry::MatchStarted { id } => {
                if let Some(info) = self.matches.get_mut(id) {
                    info.stage = info.stage.max(Stage::Started);
                }
            }
            Entry::MatchFinished {
                id,
                finished,
                ratings,
            } => {
                let Some(info) = self.matches.get_mut(id) else {
                    return;
                };
                info.stage = Stage::Finished;
                info.finished_ms = Some(finished.at_ms);
                info.finished = Some(*finished);
                let (kind, seats) = (info.kind, info.seats.clone());
                for (seat, record) in Player::ALL.into_iter().zip(&seats) {
                    let Some(player) = &record.player else {
                        continue;
                    };
                    let standing = &mut self.profile_mut(player).standings[kind_index(kind)];
                    match finished.winner {
                        // An expired or aborted match has no result to count.
                        _ if !finished.has_result() => {}
                        None => standing.draws += 1,
                        Some(winner) if winner == seat => standing.wins += 1,
                        Some(_) => standing.losses += 1,
                    }
                    if let Some(change) = ratings.as_ref().and_then(|c| c.get(seat.index())) {
                        standing.glicko = change.after;
                        standing.rated_matches += 1;
                    }
                }
            }
        }
    }

    fn profile_mut(&mut self, player: &str) -> &mut Profile {
        self.profiles
            .entry(player.to_string())
            .or_insert_with(|| Profile {
                player: player.to_string(),
                ..Profile::default()
            })
    }

    /// `player`'s profile (the default one if he has none yet), last seen as far as the log knows.
    pub fn profile(&self, player: &str) -> Profile {
        let profile = self
            .profiles
            .get(player)
            .cloned()
            .unwrap_or_else(|| Profile {
                player: player.to_string(),
                ..Profile::default()
            });
        self.seen_in_log(profile)
    }

    /// `profile` with the log's last sight of its player.
    pub fn seen_in_log(&self, profile: Profile) -> Profile {
        Profile {
            last_seen_ms: self.seen.get(&profile.player).copied().unwrap_or(0),
            ..profile
        }
    }

    /// The players with at least one finished match in `kind` (bot accounts only if `bots_only`), best first: by
    /// rating, then by more rated matches, then by player id.
    pub fn ranked(&self, kind: GameKind, bots_only: bool) -> Vec<&Profile> {
        let mut ranked: Vec<&Profile> = self
            .profiles
            .values()
            .filter(|p| !bots_only || p.bot.is_some())
            .filter(|p| {
                let s = p.standing(kind);
                s.wins + s.losses + s.draws > 0
            })
            .collect();
        ranked.sort_by(|a, b| {
            let (x, y) = (a.standing(kind), b.standing(kind));
            y.glicko
                .rating
                .total_cmp(&x.glicko.rating)
                .then(y.rated_matches.cmp(&x.rated_matches))
                .then_with(|| a.player.cmp(&b.player))
        });
        ranked
    }

    /// The players with a profile, in id order, after `after`, bot accounts only if `bots_only`.
    pub fn profiles_after<'a>(
        &'a self,
        after: &'a str,
        bots_only: bool,
    ) -> impl Iterator<Item = &'a Profile> + 'a {
        use std::ops::Bound;
        self.profiles
            .range::<str, _>((Bound::Excluded(after), Bound::Unbounded))
            .map(|(_, profile)| profile)
            .filter(move |profile| !bots_only || profile.bot.is_some())
    }

    /// Forgets the challenges and seeks closed, the matches and tournaments finished, before `cutoff_ms` (the match
    /// store's retention): a stream resumed from before then is no longer told of them. Profiles and ratings stay.
    pub fn forget_before(&mut self, cutoff_ms: u64) -> usize {
        let before = self.challenges.len() + self.seeks.len() + self.matches.len();
        self.challenges
            .retain(|_, c| c.status == ChallengeStatus::Pending || c.expires_ms >= cutoff_ms);
        self.seeks
            .retain(|_, s| s.status == SeekStatus::Open || s.expires_ms >= cutoff_ms);
        self.matches
            .retain(|_, m| m.finished_ms.is_none_or(|at| at >= cutoff_ms));
        // A tournament's last step is its end.
        self.tournaments.retain(|_, log| {
            !log.closed
                || log
                    .steps
                    .last()
                    .is_none_or(|(_, at_ms, _)| *at_ms >= cutoff_ms)
        });
        let (challenges, seeks, matches) = (&self.challenges, &self.seeks, &self.matches);
        self.made.retain(|id, _| {
            challenges.contains_key(id) || seeks.contains_key(id) || matches.contains_key(id)
        });
        before - (self.challenges.len() + self.seeks.len() + self.matches.len())
    }

    /// The number and time of the entry that made challenge, seek or match `id`.
    pub fn made(&self, id: &LobbyId) -> Option<(u64, u64)> {
        self.made.get(id).copied()
    }

    /// What stands for `player` now, each as the entry that made it: his pending challenges (to or from him, not
    /// expired at `now_ms`), his open seeks, his unfinished matches, and of each tournament not over the last step
    /// he was told of, in log order.
    pub fn standing_for(&self, player: &str, now_ms: u64) -> Vec<Logged> {
        let mut out: Vec<Logged> = Vec::new();
        let mut push = |id: &LobbyId, entry: Entry| {
            if let Some((seq, at_ms)) = self.made(id) {
                out.push(Logged { seq, at_ms, entry });
            }
        };
        for c in self.pending_challenges() {
            if now_ms < c.expires_ms && c.concerns(player) {
                push(&c.id, Entry::Challenged(c.clone()));
            }
        }
        for seek in self.open_seeks() {
            if seek.player == player {
                push(&seek.id, Entry::Sought(seek.clone()));
            }
        }
        for (id, info) in self.unfinished_matches() {
            if info.seat_of(player).is_some() {
                push(id, info.created_entry(*id));
            }
        }
        // Of each tournament not over, the last step he was told of (the round he plays, his entry …).
        for (id, log) in self.open_tournaments() {
            let Some((seq, at_ms, body)) =
                log.last_told.get(player).and_then(|&i| log.steps.get(i))
            else {
                continue;
            };
            out.push(Logged {
                seq: *seq,
                at_ms: *at_ms,
                entry: Entry::Tournament(TournamentStep {
                    id: *id,
                    tell: vec![player.to_string()],
                    last: false,
                    body: body.clone(),
                }),
            });
        }
        out.sort_by_key(|logged| logged.seq);
        out
    }

    /// A challenge, whatever its status.
    pub fn challenge(&self, id: &LobbyId) -> Option<&Challenge> {
        self.challenges.get(id)
    }

    /// A seek, whatever its status.
    pub fn seek(&self, id: &LobbyId) -> Option<&Seek> {
        self.seeks.get(id)
    }

    /// A match the lobby has recorded.
    pub fn match_info(&self, id: &MatchId) -> Option<&MatchInfo> {
        self.matches.get(id)
    }

    /// A tournament's steps.
    pub fn tournament(&self, id: &LobbyId) -> Option<&TournamentLog> {
        self.tournaments.get(id)
    }

    /// Every tournament still held (a finished one until the retention), in id order.
    pub fn tournaments(&self) -> impl Iterator<Item = (&LobbyId, &TournamentLog)> {
        self.tournaments.iter()
    }

    /// The tournaments not over, in id order.
    pub fn open_tournaments(&self) -> impl Iterator<Item = (&LobbyId, &TournamentLog)> {
        self.tournaments.iter().filter(|(_, log)| !log.closed)
    }

    /// Every pending challenge, oldest first.
    pub fn pending_challenges(&self) -> Vec<&Challenge> {
        let mut pending: Vec<&Challenge> = self
            .challenges
            .values()
            .filter(|c| c.status == ChallengeStatus::Pending)
            .collect();
        pending.sort_by_key(|c| (c.created_ms, c.id));
        pending
    }

    /// Every open seek, oldest first.
    pub fn open_seeks(&self) -> Vec<&Seek> {
        let mut open: Vec<&Seek> = self
            .seeks
            .values()
            .filter(|s| s.status == SeekStatus::Open)
            .collect();
        open.sort_by_key(|s| (s.created_ms, s.id));
        open
    }

    /// How many challenges `player` has pending and seeks open (what `lobby.max_pending_per_player` bounds).
    pub fn pending_of(&self, player: &str) -> usize {
        self.challenges
            .values()
            .filter(|c| c.status == ChallengeStatus::Pending && c.from == player)
            .count()
            + self
                .seeks
                .values()
                .filter(|s| s.status == SeekStatus::Open && s.player == player)
                .count()
    }

    /// The oldest open seek `seek` pairs with at `now_ms`: another player's, same game, options, time control and rated
    /// flag, each
    /// player's rating in the other's range, neither expired (the sweep may not have closed it yet).
    pub fn partner_for(&self, seek: &Seek, now_ms: u64) -> Option<&Seek> {
        self.partners_for(seek, now_ms, 1).pop()
    }

    /// The `wanted` open seeks `seek` pairs with at `now_ms`, oldest first, each compatible with `seek` and with
    /// every other one chosen (as [`TenantState::partner_for`]: another player's, same game, options, time
    /// control and rated flag, each rating in the other's range), all of different players; empty when there are
    /// not that many. Three-player Ba-awa wants two (§4.7), every other game one.
    pub fn partners_for(&self, seek: &Seek, now_ms: u64, wanted: usize) -> Vec<&Seek> {
        if seek.expires_ms <= now_ms {
            return Vec::new();
        }
        let rating_of = |player: &str| self.profile(player).standing(seek.kind).glicko.rating;
        let accepts = |s: &Seek, rating: f64| {
            s.rating_min.is_none_or(|min| rating >= f64::from(min))
                && s.rating_max.is_none_or(|max| rating <= f64::from(max))
        };
        let pairs = |one: &Seek, other: &Seek| {
            one.id != other.id
                && other.expires_ms > now_ms
                && other.player != one.player
                && other.kind == one.kind
                && other.options == one.options
                && other.time_control == one.time_control
                && other.rated == one.rated
                && accepts(one, rating_of(&other.player))
                && accepts(other, rating_of(&one.player))
        };
        // Greedy, oldest first: the oldest seek that fits everyone chosen so far joins.
        let mut chosen: Vec<&Seek> = Vec::new();
        for other in self.open_seeks() {
            if chosen.len() == wanted {
                break;
            }
            if pairs(seek, other) && chosen.iter().all(|c| pairs(c, other)) {
                chosen.push(other);
            }
        }
        if chosen.len() < wanted {
            chosen.clear();
        }
        chosen
    }

    /// `player`'s matches (a seat bound to him), newest first, each with the number of the entry that made it.
    pub fn matches_of<'a>(&'a self, player: &'a str) -> Vec<(u64, MatchId, &'a MatchInfo)> {
        let mut out: Vec<(u64, MatchId, &MatchInfo)> = self
            .matches
            .iter()
            .filter(|(_, info)| info.seat_of(player).is_some())
            .filter_map(|(id, info)| Some((self.made(id)?.0, *id, info)))
            .collect();
        out.sort_by_key(|(seq, _, _)| std::cmp::Reverse(*seq));
        out
    }

    /// The matches not yet recorded as finished.
    pub fn unfinished_matches(&self) -> impl Iterator<Item = (&MatchId, &MatchInfo)> {
        self.matches
            .iter()
            .filter(|(_, info)| info.stage != Stage::Finished)
    }

    /// A seat of `player` for a match made now, with what his opponent is shown.
    pub fn seat_record(&self, player: &str, kind: GameKind) -> SeatRecord {
        let profile = self.profile(player);
        SeatRecord {
            player: Some(player.to_string()),
            bot_level: None,
            rating: profile.standing(kind).glicko.rating,
            bot_account: profile.bot.is_some(),
        }
    }
}

/// The players an entry shows were there: who made a challenge or a seek, who set a profile, who sat in a match
/// that ended (being challenged, or paired while away, is not being seen).
fn seen_in<'a>(entry: &'a Entry, matches: &'a HashMap<MatchId, MatchInfo>) -> Vec<&'a str> {
    match entry {
        Entry::Profile { player, .. } => vec![player],
        Entry::Challenged(challenge) => vec![&challenge.from],
        Entry::Sought(seek) => vec![&seek.player],
        Entry::MatchFinished { id, .. } => matches
            .get(id)
            .map(|info| {
                info.seats
                    .iter()
                    .filter_map(|seat| seat.player.as_deref())
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::entry::{Fallback, RatingChange, SeatChoice};
    use super::*;
    use crate::store::Finished;

    fn logged(seq: u64, entry: Entry) -> Logged {
        Logged {
            seq,
            at_ms: seq * 10,
            entry,
        }
    }

    fn seek(id: u8, player: &str, rating_max: Option<u32>) -> Seek {
        Seek {
            id: MatchId([id; 16]),
            player: player.into(),
            kind: GameKind::Bosh,
            options: Options::default(),
            time_control: Default::default(),
            rated: true,
            rating_min: None,
            rating_max,
            fallback: Some(Fallback {
                level: 2,
                after_ms: 1000,
            }),
            created_ms: u64::from(id),
            expires_ms: 10_000,
            status: SeekStatus::Open,
        }
    }

    #[test]
    fn seeks_pair_by_game_and_rating_range_and_never_with_oneself() {
        let mut state = TenantState::default();
        state.apply(&logged(1, Entry::Sought(seek(1, "ann", None))));
        state.apply(&logged(2, Entry::Sought(seek(2, "ann", None))));
        assert_eq!(state.partner_for(&seek(2, "ann", None), 0), None);
        // Bob only wants opponents up to 1400: Ann is 1500.
        assert_eq!(state.partner_for(&seek(3, "bob", Some(1400)), 0), None);
        assert_eq!(
            state
                .partner_for(&seek(3, "bob", Some(1600)), 0)
                .map(|s| s.id),
            Some(MatchId([1; 16])),
            "the oldest compatible seek"
        );
        let other_game = Seek {
            kind: GameKind::BaAwa,
            ..seek(4, "cy", None)
        };
        assert_eq!(state.partner_for(&other_game, 0), None);
        // Past the seeks' expiry (10,000) nobody pairs, swept or not.
        assert_eq!(state.partner_for(&seek(3, "bob", None), 10_000), None);
        assert_eq!(state.pending_of("ann"), 2);
    }

    #[test]
    fn an_accepted_challenge_and_a_rated_finish_show_in_status_record_and_rating() {
        let mut state = TenantState::default();
        let challenge = Challenge {
            id: MatchId([9; 16]),
            from: "ann".into(),
            to: Some("bob".into()),
            also_to: None,
            joined: Vec::new(),
            kind: GameKind::BaAwa,
            options: Options::default(),
            time_control: Default::default(),
            rated: true,
            seat: SeatChoice::Seat(Player::North),
            created_ms: 1,
            expires_ms: 100,
            rematch_of: None,
            status: ChallengeStatus::Pending,
        };
        state.apply(&logged(1, Entry::Challenged(challenge.clone())));
        assert_eq!(state.pending_challenges().len(), 1);
        let id = MatchId([5; 16]);
        state.apply(&logged(
            2,
            Entry::MatchCreated {
                id,
                kind: GameKind::BaAwa,
                options: Options::default(),
                time_control: Default::default(),
                rated: true,
                seats: vec![
                    state.seat_record("bob", GameKind::BaAwa),
                    state.seat_record("ann", GameKind::BaAwa),
                ],
                origin: Origin::Challenge(challenge.id),
            },
        ));
        assert_eq!(
            state.challenge(&challenge.id).unwrap().status,
            ChallengeStatus::Accepted {
                match_id: id,
                by: "bob".into()
            }
        );
        assert!(state.pending_challenges().is_empty());
        assert_eq!(
            state.match_info(&id).unwrap().seat_of("ann"),
            Some(Player::North)
        );
        let after = Glicko {
            rating: 1662.0,
            deviation: 290.0,
            volatility: 0.06,
        };
        let change = |after| RatingChange {
            before: Glicko::default(),
            after,
        };
        state.apply(&logged(
            3,
            Entry::MatchFinished {
                id,
                finished: Finished {
                    at_ms: 30,
                    winner: Some(Player::South),
                    resigned: None,
                    reason: crate::store::EndReason::PlayedOut,
                },
                ratings: Some([change(after), change(Glicko::default())]),
            },
        ));
        let bob = state.profile("bob");
        assert_eq!(bob.standing(GameKind::BaAwa).glicko, after);
        assert_eq!(bob.standing(GameKind::BaAwa).wins, 1);
        assert_eq!(state.profile("ann").standing(GameKind::BaAwa).losses, 1);
        assert_eq!(
            state.profile("ann").standing(GameKind::Bosh).rated_matches,
            0
        );
        assert_eq!(state.unfinished_matches().count(), 0);
        // A replayed entry changes nothing.
        state.apply(&logged(3, Entry::MatchStarted { id }));
        assert_eq!(state.match_info(&id).unwrap().stage, Stage::Finished);
        // Past the retention the challenge and the match are forgotten, the ratings kept.
        assert_eq!(state.forget_before(30), 0, "the match ended at 30");
        assert_eq!(state.forget_before(101), 2);
        assert!(state.challenge(&challenge.id).is_none() && state.match_info(&id).is_none());
        assert_eq!(state.profile("bob").standing(GameKind::BaAwa).glicko, after);
    }
}
