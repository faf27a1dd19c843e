//! What the match manager answers with, in the rules' terms: a match as it stands, the events of
//! its log with the engine's trace, summaries, and the [`Encoder`] that turns what watchers are
//! sent into the wire's messages once, for all of them.

use crate::clock::Clocks;
use crate::engine::across_turns::Agreement;
use crate::engine::{AnyGame, Event, GameKind, MoveList, Options, PerSeat, Player};
use crate::store::EndReason;
use crate::store::{Action, BotSeat, Finished, MatchId, SEATS};

/// A match as it stands (`GetMatch`, a watcher's snapshot, a new match).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchView {
    /// The match id.
    pub id: MatchId,
    /// The game played.
    pub kind: GameKind,
    /// The options it was created with.
    pub options: Options,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// The position after the last event.
    pub game: AnyGame,
    /// The clocks after the last event (see [`MatchView::as_of_ms`] for now).
    pub clocks: Clocks,
    /// The moment this view was read, milliseconds since the Unix epoch: what the clocks are shown at.
    pub as_of_ms: u64,
    /// The number of events in the log.
    pub version: u64,
    /// Set once the match is over.
    pub finished: Option<Finished>,
    /// Whether each seat has a stream open, `[South, North]`.
    pub connected: [bool; SEATS],
    /// The player each seat is bound to, `[South, North]` (`None`: the seat's token acts for it).
    pub players: [Option<String>; SEATS],
    /// The seats the server plays itself, `[South, North]`.
    pub bots: [Option<BotSeat>; SEATS],
    /// The seats that have offered or accepted to end the game being played (§1 "By agreement").
    pub agreement: Agreement,
    /// How many times the current position has occurred in this game (0 between games): a third occurrence
    /// ends it when the match's repetition rule is on (§1 "Repetition").
    pub occurrences: u32,
}

impl MatchView {
    /// The moves the seat to move may make now: none once the match is over.
    pub fn legal_moves(&self) -> MoveList {
        legal_moves(&self.game, self.finished.as_ref())
    }

    /// The seats of the match, in index order.
    pub fn seats(&self) -> &'static [Player] {
        Player::seated(self.game.seats())
    }

    /// A finished three-player match: each seat's place (empty otherwise; see [`placing`]).
    pub fn placing(&self) -> PerSeat {
        self.finished
            .map_or(PerSeat::NONE, |finished| placing(&self.game, &finished))
    }
}

/// The winner of a match that `forfeiter` leaves (he resigned, lost on time or was found absent): his opponent
/// with two seats. With three, the rules say nothing (docs/ba-awa.md §4.7 ends matches by play only), so the
/// match ends there and the one of the other two who stands better (owns more pits now, or won more in a
/// finished game) wins; none when they stand level.
pub fn winner_without(game: &AnyGame, forfeiter: Player) -> Option<Player> {
    if game.seats() < 3 {
        return Some(forfeiter.opponent());
    }
    let standing = game.to_setup().match_score;
    let others: Vec<Player> = Player::seated(3)
        .iter()
        .copied()
        .filter(|&seat| seat != forfeiter)
        .collect();
    let score = |seat: Player| standing.get(seat.index()).copied().unwrap_or(0);
    match score(others[0]).cmp(&score(others[1])) {
        std::cmp::Ordering::Greater => Some(others[0]),
        std::cmp::Ordering::Less => Some(others[1]),
        std::cmp::Ordering::Equal => None,
    }
}

/// Three-player Ba-awa ended by its length (§1 "Match length", §4.7 placing): the seats still in above those out,
/// the later out above the earlier, and among the seats still in more pits first; equals share a place.
fn placing_by_standing(game: &AnyGame) -> PerSeat {
    let setup = game.to_setup();
    let eliminated_in = match &setup.variant {
        crate::engine::VariantSetup::BaAwa { eliminated_in, .. } => eliminated_in.to_vec(),
        _ => Vec::new(),
    };
    let standing = Player::ALL.map(|seat| {
        let pits = setup.stores.get(seat.index()).copied().unwrap_or(0) / 4;
        match eliminated_in.get(seat.index()).copied().unwrap_or(0) {
            0 => 1_000_000 + pits,
            game => game,
        }
    });
    let place = |seat: Player| {
        1 + standing
            .iter()
            .filter(|&&other| other > standing[seat.index()])
            .count() as u8
    };
    PerSeat::of(Player::ALL.map(place), 3)
}

/// Each seat's place in a finished three-player match: the rules' placing when it was played out (§4.7); when a
/// seat forfeited it (resigned, lost on time, was found absent), that seat last and the other two as
/// [`winner_without`] ranks them, sharing first place when level. Empty for two-player matches and for matches
/// with no result (expired, aborted).
pub fn placing(game: &AnyGame, finished: &Finished) -> PerSeat {
    if game.seats() < 3 {
        return PerSeat::NONE;
    }
    let forfeiter = match finished.reason {
        EndReason::PlayedOut | EndReason::Repetition | EndReason::Agreement => {
            return game.placing()
        }
        EndReason::MatchLength => return placing_by_standing(game),
        EndReason::Resignation => finished.resigned,
        // A flag falls on, and a claim is made against, the seat to move; neither changes the board.
        EndReason::TimeForfeit | EndReason::Abandoned => game.to_move(),
        EndReason::Expired | EndReason::Aborted => None,
    };
    let Some(forfeiter) = forfeiter else {
        return PerSeat::NONE;
    };
    let place = |seat: Player| match finished.winner {
        _ if seat == forfeiter => 3,
        Some(winner) if winner != seat => 2,
        _ => 1,
    };
    PerSeat::of(Player::ALL.map(place), 3)
}

/// One accepted event of a match's log, as played: the engine's trace and where it left the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEvent {
    /// 1-based position in the log.
    pub seq: u64,
    /// The seat that acted.
    pub player: Player,
    /// What it did.
    pub action: Action,
    /// What the engine reported while playing it (laps, captures …); empty for a resignation.
    pub trace: Vec<Event>,
    /// The position after it.
    pub game: AnyGame,
    /// The clocks just after it.
    pub clocks: Clocks,
    /// Set when this event ended the match.
    pub finished: Option<Finished>,
    /// When it was accepted, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The seats agreeing to end the game after it (§1 "By agreement").
    pub agreement: Agreement,
    /// How many times the position after it has occurred in its game (0 between games).
    pub occurrences: u32,
}

impl MatchEvent {
    /// The moves open after this event: none once the match is over.
    pub fn legal_moves(&self) -> MoveList {
        legal_moves(&self.game, self.finished.as_ref())
    }
}

fn legal_moves(game: &AnyGame, finished: Option<&Finished>) -> MoveList {
    if finished.is_some() {
        return MoveList::new();
    }
    game.legal_moves()
}

/// One line of `ListMatches`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSummary {
    /// The match id.
    pub id: MatchId,
    /// The game played.
    pub kind: GameKind,
    /// The number of events in the log.
    pub version: u64,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Set once the match is over.
    pub finished: Option<Finished>,
}

/// A new match: the match at version 0 and one token per seat.
#[derive(Debug)]
pub struct Created {
    /// The match at version 0.
    pub view: MatchView,
    /// `[South, North]` tokens, shown once; none for a seat bound to a player or played by a bot.
    pub tokens: [Option<String>; SEATS],
}

/// A whole match read back from its log (`GetHistory`).
#[derive(Debug, Clone)]
pub struct History {
    /// The match where its log leads.
    pub view: MatchView,
    /// Every event of the log, in order.
    pub events: Vec<MatchEvent>,
    /// The log in the match's notation ([`crate::engine::notation`]).
    pub notation: String,
}

/// Why a watcher is sent the whole match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotReason {
    /// The stream opened.
    Initial,
    /// The watcher fell too far behind; what it missed is covered by the snapshot.
    Resync,
}

/// Something a watcher is sent, before it is encoded.
#[derive(Debug, Clone, Copy)]
pub enum Update<'a> {
    /// The whole match.
    Snapshot(&'a MatchView, SnapshotReason),
    /// An accepted event.
    Event(&'a MatchEvent),
    /// A seat's first stream opened or its last one closed.
    Presence {
        /// The seat.
        seat: Player,
        /// Whether it now has a stream open.
        connected: bool,
    },
    /// The match is over at `version`; the last message of every stream.
    Finished {
        /// The version it ended at.
        version: u64,
        /// How it ended.
        finished: &'a Finished,
        /// Three-player Ba-awa: each seat's place ([`placing`]); empty otherwise.
        placing: PerSeat,
    },
    /// Nothing happened for a while (`version` is the watcher's position).
    Heartbeat {
        /// The seq of the last event the watcher was sent.
        version: u64,
    },
}

/// Turns what watchers are sent into the messages of the layer that speaks the wire.
///
/// Why an encoder handed to the manager, rather than streams of domain values encoded by each
/// watcher: an event is published to every watcher of a match, and encoding it (position, trace,
/// next moves) costs far more than sending it. The manager encodes each event once, outside the
/// match's locks, and every watcher sends a clone of that one message. The manager stays in the
/// rules' terms: it calls [`Encoder::encode`] with an [`Update`] and never looks inside the message;
/// the service layer supplies the protobuf implementation (`crate::api::matches`). An associated type
/// rather than a trait object keeps the message concrete, so watchers need no downcast.
pub trait Encoder: Send + Sync + 'static {
    /// What one watcher's stream carries.
    type Message: Clone + Send + Sync + std::fmt::Debug + 'static;

    /// The message for `update`.
    fn encode(&self, update: Update<'_>) -> Self::Message;
}

impl MatchSummary {
    pub(super) fn of(record: &crate::store::MatchRecord) -> MatchSummary {
        MatchSummary {
            id: record.id,
            kind: record.kind,
            version: record.version,
            created_ms: record.created_ms,
            finished: record.finished,
        }
    }
}
