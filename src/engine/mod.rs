//! The rules engine: pure, synchronous and deterministic (no I/O, no async, no logging, no panics on outside
//! input). Every game implements [`Game`]; [`AnyGame`] dispatches over them by `match`. A state from outside
//! comes in as a [`Setup`], which every game validates in the same steps (`setup::Validate`: the shared shape,
//! the game's rules on the shared fields, its own fields, then the invariants of play), reporting every
//! violation at once.
//!
//! Section numbers (§4.2 …) refer to the rules pages in docs/ (docs/README.md): §1 docs/common.md, §2
//! docs/bao-la-kete.md, §3 docs/bosh.md, §4 docs/ba-awa.md.

pub mod across_turns;
mod ba_awa;
mod bao_la_kete;
mod bosh;
mod choice;
mod cycle;
mod describe;
mod event;
mod illegal;
pub mod notation;
pub mod perft;
mod playout;
pub mod position_line;
mod relay_ring;
mod repeated;
pub mod search;
mod setup;
mod sow;
mod work;

pub use ba_awa::BaAwa;
pub use bao_la_kete::{BaoLaKete, HiziZetuMark};
pub use bosh::Bosh;
pub use choice::{Chooser, NotYourChoice};
pub use describe::{Description, OptionInfo, PitInfo};
pub use event::{EndReason, Event, LapSource, LegalityOnly, NoTrace, Trace};
pub use illegal::{IllegalMove, Reason};
pub use playout::{random_playout, Rng, Until};
pub use repeated::Repeated;
pub use setup::{InvalidState, Setup, StateView, VariantSetup, VariantView, Violation};
pub use work::{Budget, Unfinished};

use arrayvec::ArrayVec;

/// The version of the rules every state is stamped with. Bumped whenever a rule changes what a move does.
pub const RULES_VERSION: u32 = 1;

/// The games this engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Bao la Kete (docs/bao-la-kete.md §2).
    BaoLaKete,
    /// Bosh (docs/bosh.md §3).
    Bosh,
    /// Ba-awa (docs/ba-awa.md §4).
    BaAwa,
}

impl GameKind {
    /// Every game, in protocol order.
    pub const ALL: [GameKind; 3] = [GameKind::BaoLaKete, GameKind::Bosh, GameKind::BaAwa];

    /// The game's one slug, wherever a game is named in text: the notation's header, the stores' records, the
    /// metrics' `game` label, the command line's output (`bao-la-kete`, `bosh`, `ba-awa`: the spelling of the
    /// rules' own pages, docs/ba-awa.md).
    pub fn slug(self) -> &'static str {
        match self {
            GameKind::BaoLaKete => "bao-la-kete",
            GameKind::Bosh => "bosh",
            GameKind::BaAwa => "ba-awa",
        }
    }

    /// The game a slug names. Read leniently: `_` for `-` (the command line and the load generator's reports
    /// once wrote `ba_awa`, `bao_la_kete`), in any case.
    pub fn from_slug(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|kind| {
            let slug = kind.slug().as_bytes();
            name.len() == slug.len()
                && name.bytes().zip(slug).all(|(read, &written)| {
                    read.to_ascii_lowercase() == written || (read == b'_' && written == b'-')
                })
        })
    }

    /// The game's name as players write it.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::BaoLaKete => "Bao la Kete",
            GameKind::Bosh => "Bosh",
            GameKind::BaAwa => "Ba-awa",
        }
    }

    /// Pits on the board (the length of a state's pit list).
    pub fn pit_count(self) -> usize {
        match self {
            GameKind::BaoLaKete => 32,
            GameKind::Bosh => 10,
            GameKind::BaAwa => 12,
        }
    }
}

/// A seat. Every game has South and North; three-player Ba-awa (§4.7) adds East.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first unless the options say otherwise.
    South,
    /// The other seat of a two-player game; the third in turn order of three-player Ba-awa.
    North,
    /// Three-player Ba-awa only: the second in turn order, between South and North (§4.7).
    East,
}

impl Player {
    /// Both players of a two-player game, South first (the order of every `[South, North]` pair).
    pub const BOTH: [Player; 2] = [Player::South, Player::North];
    /// Every seat in index order: the order of every per-seat list (South, North, then East when seated).
    pub const ALL: [Player; 3] = [Player::South, Player::North, Player::East];

    /// The other player of a two-player game. East sits only in three-player Ba-awa, which never asks; his
    /// answer is South, the next seat in that game's turn order.
    pub fn opponent(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North | Player::East => Player::South,
        }
    }

    /// 0 for South, 1 for North, 2 for East: the index into per-seat lists.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The seats of a game with `seats` players (2 or 3), in index order.
    pub fn seated(seats: usize) -> &'static [Player] {
        &Player::ALL[..seats.clamp(2, 3)]
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Player::South => "South",
            Player::North => "North",
            Player::East => "East",
        })
    }
}

/// One small number per seat (winnings, pits, places), indexed by [`Player::index`]: two entries in a
/// two-player game, three in three-player Ba-awa.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PerSeat {
    values: [u8; 3],
    seats: u8,
}

impl PerSeat {
    /// `[South, North]`.
    pub const fn two(values: [u8; 2]) -> PerSeat {
        PerSeat {
            values: [values[0], values[1], 0],
            seats: 2,
        }
    }

    /// The first `seats` (2 or 3) of `values`.
    pub fn of(values: [u8; 3], seats: usize) -> PerSeat {
        let seats = seats.clamp(2, 3);
        let mut kept = [0; 3];
        kept[..seats].copy_from_slice(&values[..seats]);
        PerSeat {
            values: kept,
            seats: seats as u8,
        }
    }

    /// No entries (a list a game leaves out).
    pub const NONE: PerSeat = PerSeat {
        values: [0; 3],
        seats: 0,
    };

    /// The entries, South first.
    pub fn as_slice(&self) -> &[u8] {
        &self.values[..self.seats as usize]
    }

    /// `seat`'s entry (0 for a seat the game does not have).
    pub fn get(&self, seat: Player) -> u8 {
        self.as_slice().get(seat.index()).copied().unwrap_or(0)
    }
}

impl From<[u8; 2]> for PerSeat {
    fn from(values: [u8; 2]) -> PerSeat {
        PerSeat::two(values)
    }
}

/// Bao la Kete: who begins games 2 and 3 of a match (R-2.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StarterRule {
    /// The player who did not begin the game before (the default).
    #[default]
    Alternate,
    /// The loser of the game before.
    LoserStarts,
    /// The winner of the game before.
    WinnerStarts,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A player is to move.
    InProgress,
    /// Bosh: the round is over; the match goes on with [`Move::NextGame`].
    RoundOver,
    /// The game is over; the match goes on with [`Move::NextGame`].
    GameOver,
    /// The match is over.
    MatchOver,
}

/// Sowing direction as seen from above (docs/common.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Bao: along the mover's front row from his left to his right.
    Clockwise,
    /// The other way.
    Anticlockwise,
}

/// Bao la Kete: the end hole of the front row where captured seeds are sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kichwa {
    /// f1; sowing from it goes clockwise.
    Left,
    /// f8; sowing from it goes anticlockwise.
    Right,
}

/// Bao la Kete: stop in the kuu or go on safari.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KuuDecision {
    /// End the move in the kuu.
    Stop,
    /// Lift the kuu and go on sowing.
    Safari,
}

/// Sowing from one pit, with the choices the move may need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sow {
    /// Index into the game's pits.
    pub pit: u8,
    /// Bao la Kete only.
    pub direction: Option<Direction>,
    /// Bao la Kete only.
    pub kichwa: Option<Kichwa>,
    /// Bao la Kete only.
    pub kuu_decision: Option<KuuDecision>,
}

impl Sow {
    /// A plain sowing from `pit` with no choices (Bosh, Ba-awa).
    pub fn from(pit: u8) -> Sow {
        Sow {
            pit,
            direction: None,
            kichwa: None,
            kuu_decision: None,
        }
    }

    /// Whether any Bao la Kete choice is set.
    pub fn has_choices(&self) -> bool {
        self.direction.is_some() || self.kichwa.is_some() || self.kuu_decision.is_some()
    }
}

/// A set of pits, one bit per pit index (every board has at most 32 pits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PitSet(pub u32);

impl PitSet {
    /// The empty set.
    pub const EMPTY: PitSet = PitSet(0);

    /// Whether `pit` is in the set.
    pub fn contains(self, pit: usize) -> bool {
        pit < 32 && self.0 >> pit & 1 == 1
    }

    /// The set with `pit` added.
    pub fn with(self, pit: usize) -> PitSet {
        PitSet(self.0 | 1 << pit)
    }

    /// How many pits are in the set.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pits in ascending order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..32).filter(move |&p| self.contains(p))
    }
}

/// A move: sow, or go on to the next game or round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Sow from a pit.
    Sow(Sow),
    /// Start the next game (or Bosh round); the set is an optional choice of pits, empty for the default.
    NextGame(PitSet),
}

/// Enough room for every legal move of every game (Bao la Kete has at most 64).
pub type MoveList = ArrayVec<Move, 64>;

/// Options of a new match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Who moves first in the first game or round.
    pub first_player: Player,
    /// Ba-awa: pits that win the match (10, 11 or 12).
    pub ba_awa_target: u8,
    /// Ba-awa: two players, or three (§4.7).
    pub ba_awa_players: u8,
    /// Bao la Kete: who begins games 2 and 3 (R-2.12).
    pub bao_la_kete_starter: StarterRule,
    /// Match play: whether a position's third occurrence in a game ends it (§1 "Repetition"; on by default).
    pub repetition: bool,
    /// Match play: games (Bosh: rounds) the match has at most; `None` for the game's default
    /// ([`across_turns::default_max_games`], §1 "Match length").
    pub max_games: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            first_player: Player::South,
            ba_awa_target: ba_awa::DEFAULT_TARGET,
            ba_awa_players: 2,
            bao_la_kete_starter: StarterRule::Alternate,
            repetition: true,
            max_games: None,
        }
    }
}

impl Options {
    /// The options a match recorded before §1's rules of endless play existed was played under: no repetition,
    /// no match length. Stored logs and notations that do not name them replay under these.
    pub fn without_across_turns(self) -> Options {
        Options {
            repetition: false,
            max_games: Some(u32::MAX),
            ..self
        }
    }

    /// The `max_games` a stored or written match length of `n` games stands for: `None` when it is the game's
    /// default, so that options read back equal the options written.
    pub fn max_games_read(kind: GameKind, n: u32) -> Option<u32> {
        (n != across_turns::default_max_games(kind)).then_some(n)
    }

    /// Games (Bosh: rounds) a match of `kind` has at most (§1 "Match length").
    pub fn max_games_for(&self, kind: GameKind) -> u32 {
        self.max_games
            .unwrap_or_else(|| across_turns::default_max_games(kind))
    }

    /// How many seats a match of `kind` with these options has.
    pub fn seats(&self, kind: GameKind) -> usize {
        match kind {
            GameKind::BaAwa if self.ba_awa_players == 3 => 3,
            _ => 2,
        }
    }
}

/// What every game offers. Implemented once per game; [`AnyGame`] dispatches.
pub trait Game: Clone + Sized {
    /// Which game this is.
    const KIND: GameKind;

    /// The first state of a new match.
    fn new_match(options: &Options) -> Self;
    /// Validates an untrusted state, reporting every violation at once.
    fn from_setup(setup: &Setup) -> Result<Self, InvalidState>;
    /// [`Game::from_setup`] for a caller about to check a move of the player to move: the check that he can
    /// move at all may be left out (`true` beside the game), for his move to answer. An invalid state reports
    /// what `from_setup` reports.
    fn from_setup_before_move(setup: &Setup) -> Result<(Self, bool), InvalidState>;
    /// The state in its wire shape, as the game holds it.
    fn view(&self) -> StateView<'_>;
    /// The state in its wire shape.
    fn to_setup(&self) -> Setup {
        self.view().to_setup()
    }

    /// Where the game stands.
    fn status(&self) -> Status;
    /// Whose turn it is (`None` unless the status is `InProgress`).
    fn to_move(&self) -> Option<Player>;
    /// The winner of the finished game, round or match (`None` while one is played, or for a draw).
    fn winner(&self) -> Option<Player>;
    /// Every legal move, in a fixed order.
    fn legal_moves(&self, out: &mut MoveList);
    /// Plays `mv`, recording events into `trace`. On error the state is untouched.
    fn play<T: Trace>(&mut self, mv: &Move, trace: &mut T) -> Result<(), IllegalMove>;

    /// Plays `mv` like [`Game::play`]; given a `listing`, a game whose move ends by checking that the next player
    /// can move (Bosh, Bao la Kete) may answer that check by listing his moves into it, replacing whatever it
    /// held, instead of stopping at the first. A game without such a check keeps this default, which plays and
    /// lists nothing; so may a move that starts a new game, or one after which nobody moves:
    /// [`Game::play_and_list`] is the call that always lists. On error the state is untouched.
    fn play_listing<T: Trace>(
        &mut self,
        mv: &Move,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) -> Result<(), IllegalMove> {
        let _ = listing;
        self.play(mv, trace)
    }

    /// Plays `mv` like [`Game::play`] and fills `next` with the legal moves of the position it leads to, as
    /// [`Game::legal_moves`] lists them, doing the work of the end-of-move check once (see
    /// [`Game::play_listing`]): for playouts and bots that want both. On error the state is untouched and `next`
    /// is empty.
    fn play_and_list<T: Trace>(
        &mut self,
        mv: &Move,
        trace: &mut T,
        next: &mut MoveList,
    ) -> Result<(), IllegalMove> {
        next.clear();
        self.play_listing(mv, trace, Some(next))?;
        // A game in play always has a move, so an empty list means the move listed nothing (a new game, a game
        // without the check); a finished game offers NextGame or nothing, not the stuck player's moves.
        if next.is_empty() || self.status() != Status::InProgress {
            next.clear();
            self.legal_moves(next);
        }
        Ok(())
    }

    /// The pits the player to move may sow from, one bit each, before the never-ending check (his own, not
    /// empty), when every legal move of the position is a plain sowing from one of them and listing them costs a
    /// sowing each (Bosh, Ba-awa in play). A random playout then tries one candidate at a time instead of listing
    /// all ([`random_playout`]). `None`: list the moves.
    fn sowing_candidates(&self) -> Option<u32> {
        None
    }

    /// Whether [`Game::play_unchecked`] passes the turn on without the check that the next player can move
    /// (Bosh). A random playout then makes that check itself, by the next move it draws (see [`random_playout`]).
    const DEFERS_TURN_CHECK: bool = false;

    /// For random playouts: plays `mv` as [`Game::play`] does, except that where [`Game::DEFERS_TURN_CHECK`] the
    /// turn is passed on without the check that the next player can move, which tries his moves one by one. The
    /// caller owes that check: a move of his that it draws and plays makes it, and when none can be played
    /// [`Game::settle_turn`] makes it (ending the turn as `play` would have). Nothing else may see the game in
    /// between.
    fn play_unchecked(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        self.play(mv, &mut NoTrace)
    }

    /// The check that [`Game::play_unchecked`] left out, for the player to move: the game as `play` leaves it.
    fn settle_turn(&mut self) {}

    /// How many seats play: 2, or 3 in three-player Ba-awa.
    fn seats(&self) -> usize {
        2
    }

    /// Three-player Ba-awa, once the match is over: each seat's place (§4.7). Empty otherwise.
    fn placing(&self) -> PerSeat {
        PerSeat::NONE
    }

    /// Whether `seat` plays in this match and has not been eliminated (§4.7).
    fn in_match(&self, seat: Player) -> bool {
        seat.index() < self.seats()
    }

    /// Ends the game (Bosh: the round) being played by repetition or agreement, as §1 "How such a game ends"
    /// says for this game, recording the ending's events. Nothing happens unless a game is in progress.
    fn end_across_turns<T: Trace>(&mut self, reason: EndReason, trace: &mut T);

    /// The match's leader once its last allowed game (round) is over (§1 "Match length"): the winner of a match
    /// ended by its length, `None` when the leaders are level.
    fn match_leader(&self) -> Option<Player>;

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: &Move) -> bool {
        self.clone().play(mv, &mut NoTrace).is_ok()
    }
}

/// The end-of-move question "can the next player move?" (Bosh §3.3, Bao la Kete §2.9). Given a `listing`, it is
/// answered by listing his moves into it, replacing what it held ([`Game::play_listing`]); otherwise by looking
/// for one (`any`), which stops at the first.
pub(crate) fn can_move_listing(
    listing: Option<&mut MoveList>,
    list: impl FnOnce(&mut MoveList),
    any: impl FnOnce() -> bool,
) -> bool {
    match listing {
        Some(out) => {
            // A listing stops at the first layer that has a move, so it must start empty.
            out.clear();
            list(out);
            !out.is_empty()
        }
        None => any(),
    }
}

/// Any game, dispatched by `match` (no trait objects: hot loops run monomorphized code).
///
/// ```
/// use mancala::engine::{AnyGame, GameKind, Move, Options, Reason, Status};
///
/// for kind in GameKind::ALL {
///     let game = AnyGame::new_match(kind, &Options::default());
///     assert_eq!(game.kind(), kind);
///     assert_eq!(game.status(), Status::InProgress);
///     // Every listed move is legal; `preview` plays one on a copy.
///     for mv in game.legal_moves() {
///         assert!(game.check(&mv).is_ok());
///         let (next, events) = game.preview(&mv).expect("listed moves are legal");
///         assert_ne!(next, game);
///         assert!(!events.is_empty());
///     }
///     // A new game is refused while this one is being played.
///     let refused = game.check(&Move::NextGame(Default::default())).unwrap_err();
///     assert_eq!(refused.reason, Reason::GameInProgress);
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// Bao la Kete.
    BaoLaKete(BaoLaKete),
    /// Ba-awa.
    BaAwa(BaAwa),
    /// Bosh.
    Bosh(Bosh),
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
macro_rules! dispatch {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::BaoLaKete($g) => $body,
            AnyGame::BaAwa($g) => $body,
            AnyGame::Bosh($g) => $body,
        }
    };
}

impl AnyGame {
    /// The first state of a new match of `kind`.
    pub fn new_match(kind: GameKind, options: &Options) -> AnyGame {
        match kind {
            GameKind::BaoLaKete => AnyGame::BaoLaKete(BaoLaKete::new_match(options)),
            GameKind::BaAwa => AnyGame::BaAwa(BaAwa::new_match(options)),
            GameKind::Bosh => AnyGame::Bosh(Bosh::new_match(options)),
        }
    }

    /// Validates an untrusted state of any game, reporting every violation at once.
    pub fn from_setup(setup: &Setup) -> Result<AnyGame, InvalidState> {
        match setup.kind {
            GameKind::BaoLaKete => Ok(AnyGame::BaoLaKete(BaoLaKete::from_setup(setup)?)),
            GameKind::BaAwa => Ok(AnyGame::BaAwa(BaAwa::from_setup(setup)?)),
            GameKind::Bosh => Ok(AnyGame::Bosh(Bosh::from_setup(setup)?)),
        }
    }

    /// Validates `setup`, then checks or plays a move of the player to move on the game (`on_move`, which leaves
    /// the game untouched when the move is illegal): what [`AnyGame::from_setup`] then `on_move` answer, with less
    /// work. Whether the player to move can move at all, which a state's validation answers by trying his moves
    /// until one ends, is answered by his move when that is legal; only when it is not does the state get that
    /// check (and all the others again), so that an invalid state is reported exactly as `from_setup` reports it.
    pub fn from_setup_then<R>(
        setup: &Setup,
        on_move: impl FnOnce(&mut AnyGame) -> Result<R, IllegalMove>,
    ) -> Result<(AnyGame, Result<R, IllegalMove>), InvalidState> {
        let (mut game, can_move_left_out) = match setup.kind {
            GameKind::BaoLaKete => BaoLaKete::from_setup_before_move(setup)
                .map(|(game, left)| (AnyGame::BaoLaKete(game), left))?,
            GameKind::BaAwa => BaAwa::from_setup_before_move(setup)
                .map(|(game, left)| (AnyGame::BaAwa(game), left))?,
            GameKind::Bosh => Bosh::from_setup_before_move(setup)
                .map(|(game, left)| (AnyGame::Bosh(game), left))?,
        };
        let answer = on_move(&mut game);
        if can_move_left_out && answer.is_err() {
            AnyGame::from_setup(setup)?;
        }
        Ok((game, answer))
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        dispatch!(self, g => kind_of(g))
    }

    /// The state in its wire shape.
    pub fn to_setup(&self) -> Setup {
        dispatch!(self, g => g.to_setup())
    }

    /// The state in its wire shape, as the game holds it (see [`StateView`]).
    pub fn view(&self) -> StateView<'_> {
        dispatch!(self, g => g.view())
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        dispatch!(self, g => g.status())
    }

    /// How many seats play: 2, or 3 in three-player Ba-awa.
    pub fn seats(&self) -> usize {
        dispatch!(self, g => g.seats())
    }

    /// Three-player Ba-awa, once the match is over: each seat's place (§4.7). Empty otherwise.
    pub fn placing(&self) -> PerSeat {
        dispatch!(self, g => g.placing())
    }

    /// Whether `seat` plays in this match and has not been eliminated (§4.7).
    pub fn in_match(&self, seat: Player) -> bool {
        dispatch!(self, g => g.in_match(seat))
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Option<Player> {
        dispatch!(self, g => g.to_move())
    }

    /// The 1-based number of the game (Bosh: round) being played or just over.
    pub fn game_number(&self) -> u32 {
        self.view().game_number
    }

    /// Ends the game being played by repetition or agreement (see [`Game::end_across_turns`]).
    pub fn end_across_turns<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        dispatch!(self, g => g.end_across_turns(reason, trace))
    }

    /// The winner of a match ended by its length (see [`Game::match_leader`]).
    pub fn match_leader(&self) -> Option<Player> {
        dispatch!(self, g => g.match_leader())
    }

    /// The winner of the finished game, round or match.
    pub fn winner(&self) -> Option<Player> {
        dispatch!(self, g => g.winner())
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        dispatch!(self, g => g.legal_moves(&mut out));
        out
    }

    /// Plays `mv`; on error the state is untouched.
    pub fn play<T: Trace>(&mut self, mv: &Move, trace: &mut T) -> Result<(), IllegalMove> {
        dispatch!(self, g => g.play(mv, trace))
    }

    /// Plays `mv` and lists the legal moves of the position it leads to (see [`Game::play_and_list`]).
    pub fn play_and_list<T: Trace>(
        &mut self,
        mv: &Move,
        trace: &mut T,
        next: &mut MoveList,
    ) -> Result<(), IllegalMove> {
        dispatch!(self, g => g.play_and_list(mv, trace, next))
    }

    /// Why `mv` is illegal, or `Ok` when it is legal.
    pub fn check(&self, mv: &Move) -> Result<(), IllegalMove> {
        self.clone().play(mv, &mut LegalityOnly)
    }

    /// Plays random legal moves (see [`random_playout`]), dispatching once for the whole playout.
    pub fn random_playout(&mut self, rng: &mut Rng, until: Until, max_plies: u32) -> u32 {
        dispatch!(self, g => random_playout(g, rng, until, max_plies))
    }

    /// The state and events after `mv`, leaving `self` as it is.
    pub fn preview(&self, mv: &Move) -> Result<(AnyGame, Vec<Event>), IllegalMove> {
        let mut next = self.clone();
        let mut events = Vec::new();
        next.play(mv, &mut events)?;
        Ok((next, events))
    }
}

fn kind_of<G: Game>(_: &G) -> GameKind {
    G::KIND
}

/// Describes how to draw `kind`.
pub fn describe(kind: GameKind) -> Description {
    describe::describe(kind)
}
