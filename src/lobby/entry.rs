//! What the lobby log holds: the [`Entry`] values, in the lobby's terms. Their stored form (protobuf, so that
//! fields can be added later, as for matches and tenants) is `stored.rs`, apart because nothing but the store's
//! bytes needs it: [`encode`] and [`decode`] are the way between the two.

mod stored;

pub use stored::{decode, decode_game, encode, encode_game};

use super::ratings::Glicko;
use crate::clock::TimeControl;
use crate::engine::{GameKind, Options, Player};
use crate::store::{Finished, MatchId};

/// A challenge's or a seek's id: 128 random bits, written like a match id.
pub type LobbyId = MatchId;

/// The seat a challenger asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SeatChoice {
    /// Either, drawn by the server.
    #[default]
    Random,
    /// This one.
    Seat(Player),
}

/// Why a challenge was declined (the proto's `DeclineReason`, in the same order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeclineReason {
    /// No reason.
    #[default]
    Generic,
    /// Not now.
    Later,
    /// Only unrated matches.
    Casual,
    /// Only rated matches.
    Rated,
    /// Not this game.
    Game,
    /// Not these options.
    Options,
    /// No bots.
    NoBot,
    /// Only bots.
    OnlyBot,
}

impl DeclineReason {
    /// Every reason, in code order.
    pub const ALL: [DeclineReason; 8] = [
        DeclineReason::Generic,
        DeclineReason::Later,
        DeclineReason::Casual,
        DeclineReason::Rated,
        DeclineReason::Game,
        DeclineReason::Options,
        DeclineReason::NoBot,
        DeclineReason::OnlyBot,
    ];

    /// Its number (the proto enum's value).
    pub fn code(self) -> u32 {
        DeclineReason::ALL
            .iter()
            .position(|&r| r == self)
            .unwrap_or(0) as u32
    }

    /// The reason numbered `code`.
    pub fn from_code(code: u32) -> Option<DeclineReason> {
        DeclineReason::ALL.get(code as usize).copied()
    }
}

/// Where a challenge stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    /// Waiting for an answer.
    Pending,
    /// Accepted by `by`: the match is `match_id`.
    Accepted {
        /// The match created.
        match_id: MatchId,
        /// Who accepted.
        by: String,
    },
    /// Declined.
    Declined(DeclineReason),
    /// Withdrawn by the challenger.
    Cancelled,
    /// Not answered in time.
    Expired,
}

/// A challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its id.
    pub id: LobbyId,
    /// The challenger.
    pub from: String,
    /// The player challenged; `None`: anyone with the id.
    pub to: Option<String>,
    /// Three-player Ba-awa: the second player challenged; `None`: the last seat is anyone's with the id.
    pub also_to: Option<String>,
    /// Three-player Ba-awa: the players who have accepted so far, in order, while the challenge waits for the
    /// others (the match is made when every seat has a player).
    pub joined: Vec<String>,
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// How the match is timed.
    pub time_control: TimeControl,
    /// Whether the match changes ratings.
    pub rated: bool,
    /// The challenger's seat.
    pub seat: SeatChoice,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// When it expires unanswered.
    pub expires_ms: u64,
    /// The finished match it is a rematch of.
    pub rematch_of: Option<MatchId>,
    /// Where it stands.
    pub status: ChallengeStatus,
}

/// The built-in opponent a seek falls back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fallback {
    /// Its level.
    pub level: u32,
    /// After how long with nobody found, in milliseconds.
    pub after_ms: u64,
}

/// Where a seek stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeekStatus {
    /// Waiting.
    Open,
    /// Paired into `match_id` against `opponent` (`None`: the server's bot).
    Paired {
        /// The match.
        match_id: MatchId,
        /// The other player.
        opponent: Option<String>,
    },
    /// Withdrawn.
    Cancelled,
    /// Nobody came in time.
    Expired,
}

/// A request for an opponent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Its id.
    pub id: LobbyId,
    /// The seeker.
    pub player: String,
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// How the match is timed (seeks pair with the same time control only).
    pub time_control: TimeControl,
    /// Rated seeks pair with rated ones only.
    pub rated: bool,
    /// The opponent's rating must be at least this.
    pub rating_min: Option<u32>,
    /// And at most this.
    pub rating_max: Option<u32>,
    /// The built-in opponent to play when nobody comes.
    pub fallback: Option<Fallback>,
    /// When it was made.
    pub created_ms: u64,
    /// When it expires.
    pub expires_ms: u64,
    /// Where it stands.
    pub status: SeekStatus,
}

/// A bot account's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotAccount {
    /// Who runs it.
    pub owner: String,
    /// What it is.
    pub description: String,
}

/// One seat of a match, as the lobby records it at creation.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SeatRecord {
    /// The bound player.
    pub player: Option<String>,
    /// The server's bot's level.
    pub bot_level: Option<u32>,
    /// The player's rating in the game when the match was made (for the opponent's view).
    pub rating: f64,
    /// Whether the player is a bot account.
    pub bot_account: bool,
}

/// What made a match.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Origin {
    /// `CreateMatch`.
    #[default]
    Direct,
    /// An accepted challenge.
    Challenge(LobbyId),
    /// Paired seeks (one, against the bot).
    Seeks(Vec<LobbyId>),
    /// A round of a tournament (`crate::tournaments`).
    Tournament {
        /// The tournament.
        id: LobbyId,
        /// The round, from 1.
        round: u32,
    },
}

/// One step of a tournament's log, kept in the lobby's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentStep {
    /// The tournament.
    pub id: LobbyId,
    /// The players whose event streams carry it.
    pub tell: Vec<String>,
    /// Whether it ends the tournament (after it the background work leaves the tournament alone).
    pub last: bool,
    /// What happened, in the tournaments' own encoding.
    pub body: Vec<u8>,
}

/// A rating moved by a rated match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    /// Before the match.
    pub before: Glicko,
    /// After it.
    pub after: Glicko,
}

/// One entry of a tenant's lobby log.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// A player's profile was set.
    Profile {
        /// The player.
        player: String,
        /// The display name.
        display_name: String,
        /// Set for a bot account.
        bot: Option<BotAccount>,
    },
    /// A challenge was made (pending).
    Challenged(Challenge),
    /// A player accepted a three-player challenge that still waits for another (§4.7): it stays pending.
    ChallengeJoined {
        /// The challenge.
        id: LobbyId,
        /// Who accepted.
        player: String,
    },
    /// A pending challenge was declined, cancelled or expired.
    ChallengeClosed {
        /// The challenge.
        id: LobbyId,
        /// Its new status.
        status: ChallengeStatus,
    },
    /// A seek was opened.
    Sought(Seek),
    /// An open seek was cancelled or expired.
    SeekClosed {
        /// The seek.
        id: LobbyId,
        /// Its new status.
        status: SeekStatus,
    },
    /// A match of the tenant was created (closing its challenge as accepted, or its seeks as paired).
    MatchCreated {
        /// The match.
        id: MatchId,
        /// The game.
        kind: GameKind,
        /// Its options.
        options: Options,
        /// How it is timed.
        time_control: TimeControl,
        /// Whether it changes ratings.
        rated: bool,
        /// Every seat, in `Player` index order: South, North, then East in three-player Ba-awa.
        seats: Vec<SeatRecord>,
        /// What made it.
        origin: Origin,
    },
    /// A match's first event was accepted.
    MatchStarted {
        /// The match.
        id: MatchId,
    },
    /// A step of a tournament: the lobby keeps it in order and tells `tell` of it, and leaves its meaning to
    /// `crate::tournaments`, which sits above the lobby and writes these (with the `MatchCreated` of a round's
    /// matches in the same write, so that a round is paired once).
    Tournament(TournamentStep),
    /// A match ended.
    MatchFinished {
        /// The match.
        id: MatchId,
        /// How.
        finished: Finished,
        /// A rated match's changes, South's and North's.
        ratings: Option<[RatingChange; 2]>,
    },
}

impl Challenge {
    /// Whether `player` has a part in it: its challenger, a player it names, or one who has accepted it.
    pub fn concerns(&self, player: &str) -> bool {
        self.from == player || self.addresses(player) || self.joined.iter().any(|p| p == player)
    }

    /// Whether it names `player` as one of the challenged.
    pub fn addresses(&self, player: &str) -> bool {
        self.to.as_deref() == Some(player) || self.also_to.as_deref() == Some(player)
    }

    /// How many of its seats are anyone's with the id: neither named for a player nor taken by one who joined.
    pub fn open_seats(&self) -> usize {
        let named = [&self.to, &self.also_to]
            .into_iter()
            .flatten()
            .filter(|named| !self.joined.contains(named))
            .count();
        let others = self.options.seats(self.kind) - 1;
        others.saturating_sub(self.joined.len() + named)
    }

    /// Whether `player` may take it as one of its open seats: another's challenge with a seat open to anyone,
    /// not addressed to him (that one is his `incoming`) and not yet joined by him.
    pub fn open_to(&self, player: &str) -> bool {
        self.from != player
            && !self.addresses(player)
            && !self.joined.iter().any(|p| p == player)
            && self.open_seats() > 0
    }
}

impl Entry {
    /// Its kind, as metrics label it.
    pub fn label(&self) -> &'static str {
        match self {
            Entry::Profile { .. } => "profile",
            Entry::Challenged(_) => "challenge",
            Entry::ChallengeClosed { .. } => "challenge_closed",
            Entry::ChallengeJoined { .. } => "challenge_joined",
            Entry::Sought(_) => "seek",
            Entry::SeekClosed { .. } => "seek_closed",
            Entry::MatchCreated { .. } => "match_created",
            Entry::MatchStarted { .. } => "match_started",
            Entry::MatchFinished { .. } => "match_finished",
            Entry::Tournament(_) => "tournament",
        }
    }
}

/// An entry with its place in the log and its time.
#[derive(Clone, Debug, PartialEq)]
pub struct Logged {
    /// Its number.
    pub seq: u64,
    /// When it was written, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// What it says.
    pub entry: Entry,
}
