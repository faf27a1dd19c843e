//! The compact text notation of a match: a header line, then one line per event of its log.
//!
//! ```text
//! mancala 1 ba-awa first=s target=10
//! S 3
//! N 8
//! S next
//! N next 6 7 8
//! S resign
//! ```
//!
//! A match that nobody played for the server's idle expiry ends with `<seat> expire`, the seat being
//! the one whose turn it was (South between games).
//!
//! Header: `mancala <rules_version> <game> first=<s|n|e>`, plus `target=<10|11|12>` for Ba-awa, `players=3` for
//! three-player Ba-awa and `starter=<loser|winner>` for a Bao la Kete match whose later games are not begun
//! alternately. Games are named by their slug ([`GameKind::slug`]): `bao-la-kete`, `bosh`, `ba-awa`, read as well
//! with `_` for `-` (`ba_awa`). Each event line is the seat (`S` South, `N` North,
//! `E` East in three-player Ba-awa) and:
//! - a sowing: the pit index (as in `GameState.pits`), then Bao la Kete's choices when made:
//!   `cw`/`acw` (direction), `kl`/`kr` (kichwa left/right), `stop`/`safari` (kuu decision);
//! - `next`, optionally followed by the chosen pits: the step to the next game or round;
//! - `resign`;
//! - `expire`: written by the server, not a seat: the match ended unplayed (no winner);
//! - `flag`: the seat's time ran out (written by the server): it lost on time;
//! - `abort`: the match was called off before each seat had sown once (no result);
//! - `claim`: the seat claimed the match, its opponent having abandoned it;
//! - `offer`, `accept`, `decline`, `withdraw`: the seat's part in ending the game by agreement (§1).
//!
//! The header also says the match's rules of endless play (§1): `games=<N>`, the most games (Bosh: rounds) it may
//! have, and `repetition=off` when a position's third occurrence does not end a game. A header without `games=`
//! was written before those rules, and replays without them (no repetition, no length).
//!
//! A match that began from a chosen position (not the game's opening) has a second line, `start ...`, that
//! writes that position ([`position_line`]); the header's options then agree with it.
//!
//! Blank lines and lines starting with `#` are ignored. [`replay`] plays a notation through the
//! engine from the header's initial state (or the `start` line's), checking every move, so an export replays to
//! the same final state as the match it came from.

use super::across_turns::{AcrossTurns, AgreementAction, Ending};
use super::position_line;
use super::{
    AnyGame, Direction, GameKind, Kichwa, KuuDecision, Move, Options, PitSet, Player, Sow,
    StarterRule, Status, RULES_VERSION,
};
use std::fmt::Write as _;

/// What a seat did (an accepted move or a resignation), or what the server did to the match (it expired). One line of the notation, one entry of a
/// match's log (the store keeps it in this notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A sowing or `NextGame`, as the engine plays it.
    Move(Move),
    /// The seat gave up the match.
    Resign,
    /// The server ended the match for want of play: nobody moved for the idle expiry (no winner). The event's
    /// seat is the one whose turn it was, South between games.
    Expire,
    /// The seat's time ran out (its flag fell): it loses. Written by the server, whoever calls.
    Flag,
    /// The match was called off before each seat had sown once: no result. The seat asked for it, or is the
    /// one whose first sowing did not come in time (written by the server then).
    Abort,
    /// The seat claimed the match: the seat to move had had no open stream for the abandonment time. It wins.
    Claim,
    /// The seat's part in ending the game by agreement (§1 "By agreement").
    Agreement(AgreementAction),
}

impl Action {
    /// Whether it ends the match whatever the position (everything but a move or an agreement action).
    pub fn ends_match(&self) -> bool {
        !matches!(self, Action::Move(_) | Action::Agreement(_))
    }
}

/// An agreement action's word in the notation.
fn agreement_word(action: AgreementAction) -> &'static str {
    match action {
        AgreementAction::Offer => "offer",
        AgreementAction::Accept => "accept",
        AgreementAction::Decline => "decline",
        AgreementAction::Withdraw => "withdraw",
    }
}

fn seat_letter(player: Player) -> char {
    match player {
        Player::South => 'S',
        Player::North => 'N',
        Player::East => 'E',
    }
}

/// The header line (without newline).
pub fn header(kind: GameKind, options: &Options) -> String {
    let first = match options.first_player {
        Player::South => 's',
        Player::North => 'n',
        Player::East => 'e',
    };
    let mut line = format!("mancala {RULES_VERSION} {} first={first}", kind.slug());
    if kind == GameKind::BaAwa {
        let _ = write!(line, " target={}", options.ba_awa_target);
        if options.ba_awa_players == 3 {
            line.push_str(" players=3");
        }
    }
    if kind == GameKind::BaoLaKete {
        match options.bao_la_kete_starter {
            StarterRule::Alternate => {}
            StarterRule::LoserStarts => line.push_str(" starter=loser"),
            StarterRule::WinnerStarts => line.push_str(" starter=winner"),
        }
    }
    // A match recorded before §1's rules of endless play names none, and replays without them.
    if options.max_games != Some(u32::MAX) {
        let _ = write!(line, " games={}", options.max_games_for(kind));
        if !options.repetition {
            line.push_str(" repetition=off");
        }
    }
    line
}

/// One event as a line (without newline): "S 3", "N next 6 7", "S resign".
pub fn event_line(player: Player, action: &Action) -> String {
    let mut line = String::new();
    line.push(seat_letter(player));
    match action {
        Action::Resign => line.push_str(" resign"),
        Action::Expire => line.push_str(" expire"),
        Action::Flag => line.push_str(" flag"),
        Action::Abort => line.push_str(" abort"),
        Action::Claim => line.push_str(" claim"),
        Action::Agreement(a) => {
            line.push(' ');
            line.push_str(agreement_word(*a));
        }
        Action::Move(Move::NextGame(pits)) => {
            line.push_str(" next");
            for pit in pits.iter() {
                let _ = write!(line, " {pit}");
            }
        }
        Action::Move(Move::Sow(sow)) => {
            let _ = write!(line, " {}", sow.pit);
            for choice in sow_choices(sow).into_iter().flatten() {
                line.push(' ');
                line.push_str(choice);
            }
        }
    }
    line
}

/// A pit's short name, as `DescribeGame` labels it: `S1`–`S6` and `N1`–`N6` (Ba-awa), `S1`–`S5` and `N1`–`N5`
/// (Bosh), each counted from its owner's left; in Bao la Kete `f1`–`f8` (front row) and `b1`–`b8` (back row)
/// from the owner's left, with `S.` or `N.` before it when `with_side`.
pub fn pit_label(kind: GameKind, pit: usize, with_side: bool) -> String {
    match kind {
        GameKind::BaoLaKete => {
            let side = if pit < 16 { "S." } else { "N." };
            let (row, number) = match pit % 16 {
                i @ 0..=7 => ('f', i + 1),
                i => ('b', i - 7),
            };
            format!("{}{row}{number}", if with_side { side } else { "" })
        }
        GameKind::Bosh | GameKind::BaAwa => {
            let per_row = kind.pit_count() / 2;
            if pit < per_row {
                format!("S{}", pit + 1)
            } else {
                format!("N{}", pit - per_row + 1)
            }
        }
    }
}

/// A move as a person reads it, for a UI or a log: the pit's name and Bao la Kete's choices (`S3`, `f6 acw`,
/// `f4 kl stop`), or `next` with the chosen pits' names (`next N1 N2`).
pub fn move_label(kind: GameKind, mv: &Move) -> String {
    match mv {
        Move::NextGame(pits) => {
            let mut label = String::from("next");
            for pit in pits.iter() {
                label.push(' ');
                label.push_str(&pit_label(kind, pit, true));
            }
            label
        }
        Move::Sow(sow) => {
            // A sowing is always from the mover's own side: its name needs no side in Bao la Kete.
            let mut label = pit_label(kind, sow.pit.into(), false);
            for choice in sow_choices(sow).into_iter().flatten() {
                label.push(' ');
                label.push_str(choice);
            }
            label
        }
    }
}

/// Bao la Kete's choices of a sowing, in the notation's words.
fn sow_choices(sow: &Sow) -> [Option<&'static str>; 3] {
    [
        sow.direction.map(|d| match d {
            Direction::Clockwise => "cw",
            Direction::Anticlockwise => "acw",
        }),
        sow.kichwa.map(|k| match k {
            Kichwa::Left => "kl",
            Kichwa::Right => "kr",
        }),
        sow.kuu_decision.map(|k| match k {
            KuuDecision::Stop => "stop",
            KuuDecision::Safari => "safari",
        }),
    ]
}

/// A whole match as text: the header, the position it began from when not the game's opening, and one line per
/// event, each ending with a newline.
pub fn export<'a>(
    kind: GameKind,
    options: &Options,
    start: Option<&AnyGame>,
    events: impl IntoIterator<Item = (Player, &'a Action)>,
) -> String {
    let mut text = header(kind, options);
    text.push('\n');
    if let Some(start) = start {
        text.push_str(&position_line::write(start));
        text.push('\n');
    }
    for (player, action) in events {
        text.push_str(&event_line(player, action));
        text.push('\n');
    }
    text
}

/// Parses one event line of a match of `kind`.
pub fn parse_event_line(kind: GameKind, line: &str) -> Result<(Player, Action), String> {
    let mut words = line.split_whitespace();
    let player = match words.next() {
        Some("S") => Player::South,
        Some("N") => Player::North,
        Some("E") => Player::East,
        Some(other) => return Err(format!("{other:?} is not a seat (S, N or E)")),
        None => return Err("empty event line".into()),
    };
    let pit = |word: &str| -> Result<u8, String> {
        word.parse::<u8>()
            .ok()
            .filter(|&p| (p as usize) < kind.pit_count())
            .ok_or_else(|| {
                format!(
                    "{word:?} is not a pit of {} (0 to {})",
                    kind.name(),
                    kind.pit_count() - 1
                )
            })
    };
    let action = match words.next() {
        None => return Err("the seat is not followed by an action".into()),
        Some("resign") => Action::Resign,
        Some("expire") => Action::Expire,
        Some("flag") => Action::Flag,
        Some("abort") => Action::Abort,
        Some("claim") => Action::Claim,
        Some("offer") => Action::Agreement(AgreementAction::Offer),
        Some("accept") => Action::Agreement(AgreementAction::Accept),
        Some("decline") => Action::Agreement(AgreementAction::Decline),
        Some("withdraw") => Action::Agreement(AgreementAction::Withdraw),
        Some("next") => {
            let mut set = PitSet::EMPTY;
            for word in words.by_ref() {
                let p = pit(word)? as usize;
                if set.contains(p) {
                    return Err(format!("pit {p} is listed twice"));
                }
                set = set.with(p);
            }
            Action::Move(Move::NextGame(set))
        }
        Some(word) => {
            let mut sow = Sow::from(pit(word)?);
            for choice in words.by_ref() {
                match choice {
                    "cw" => sow.direction = Some(Direction::Clockwise),
                    "acw" => sow.direction = Some(Direction::Anticlockwise),
                    "kl" => sow.kichwa = Some(Kichwa::Left),
                    "kr" => sow.kichwa = Some(Kichwa::Right),
                    "stop" => sow.kuu_decision = Some(KuuDecision::Stop),
                    "safari" => sow.kuu_decision = Some(KuuDecision::Safari),
                    other => {
                        return Err(format!(
                            "{other:?} is not a choice (cw acw kl kr stop safari)"
                        ))
                    }
                }
            }
            Action::Move(Move::Sow(sow))
        }
    };
    if let Some(extra) = words.next() {
        return Err(format!("unexpected {extra:?} after the action"));
    }
    Ok((player, action))
}

/// Why a notation could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct NotationError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A replayed match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// The position it began from, when not the game's opening (the `start` line).
    pub start: Option<AnyGame>,
    /// The final state.
    pub game: AnyGame,
    /// Every event, in order.
    pub events: Vec<(Player, Action)>,
    /// The seat that resigned, if the match ended that way.
    pub resigned: Option<Player>,
    /// Whether the match ended by the server's idle expiry.
    pub expired: bool,
    /// The event that ended the match whatever the position (a resignation, an expiry, a flag, an abort or a
    /// claim), if one did.
    pub ended: Option<(Player, Action)>,
    /// Whether the match ended by its length (§1 "Match length"): its leader won, if it had one.
    pub length_reached: bool,
}

fn parse_header(line: &str) -> Result<(GameKind, Options), String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("mancala") {
        return Err("the first line must start with \"mancala\"".into());
    }
    let version = words.next().ok_or("the rules version is missing")?;
    if version != RULES_VERSION.to_string() {
        return Err(format!(
            "rules version {version} is not this engine's ({RULES_VERSION})"
        ));
    }
    let name = words.next().ok_or("the game is missing")?;
    let kind = GameKind::from_slug(name)
        .ok_or_else(|| format!("{name:?} is not a game (bao-la-kete, bosh, ba-awa)"))?;
    let mut options = Options::default();
    let mut games_named = false;
    for word in words {
        match word.split_once('=') {
            Some(("games", n)) => {
                let games = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=super::across_turns::MAX_GAMES_LIMIT).contains(n))
                    .ok_or_else(|| format!("{n:?} is not a number of games (1 to 1000)"))?;
                options.max_games = Options::max_games_read(kind, games);
                games_named = true;
            }
            Some(("repetition", "off")) => options.repetition = false,
            Some(("repetition", "on")) => options.repetition = true,
            Some(("first", "s")) => options.first_player = Player::South,
            Some(("first", "n")) => options.first_player = Player::North,
            Some(("first", "e")) => options.first_player = Player::East,
            Some(("players", "3")) if kind == GameKind::BaAwa => options.ba_awa_players = 3,
            Some(("starter", "loser")) if kind == GameKind::BaoLaKete => {
                options.bao_la_kete_starter = StarterRule::LoserStarts
            }
            Some(("starter", "winner")) if kind == GameKind::BaoLaKete => {
                options.bao_la_kete_starter = StarterRule::WinnerStarts
            }
            Some(("target", t)) if kind == GameKind::BaAwa => {
                options.ba_awa_target = t
                    .parse()
                    .ok()
                    .filter(|t| (10..=12).contains(t))
                    .ok_or_else(|| format!("{t:?} is not a target (10, 11 or 12)"))?;
            }
            _ => return Err(format!("{word:?} is not an option of {}", kind.name())),
        }
    }
    if options.first_player.index() >= options.seats(kind) {
        return Err("first=e: East sits only in three-player Ba-awa (players=3)".into());
    }
    if !games_named {
        if !options.repetition {
            return Err("repetition=off needs games=<N>: a header without games= has no rules of endless play".into());
        }
        options = options.without_across_turns();
    }
    Ok((kind, options))
}

/// Whether [`play_event`] checks the seat of a between-games choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choices {
    /// A choice must be its sender's (`AnyGame::check_chooser`): what the match refuses, a text log refuses.
    Checked,
    /// As the log holds it: a stored log is what the server accepted, and a log written before the check may hold
    /// a choice from the other seat. Replaying it as accepted keeps every later event and the outcome as they were.
    /// (Only the server's matches replay stored logs.)
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    AsLogged,
}

/// Plays one event on `game`, as the match does: a sowing must come from the seat to move; `next` from any seat,
/// with a choice only its chooser's (unless `choices` reads the log as it was accepted); an agreement action when
/// the rules of endless play allow it (§1); nothing after the match is over. What follows a move or an agreement
/// under those rules is applied through `across` (a repetition, an agreement, the match's length), its events
/// appended to `trace`. Returns how the move ended the game or match that way, or the engine's error text.
pub(crate) fn play_event(
    game: &mut AnyGame,
    across: &mut AcrossTurns,
    player: Player,
    action: &Action,
    choices: Choices,
    trace: &mut Vec<super::Event>,
) -> Result<Option<Ending>, String> {
    if player.index() >= game.seats() {
        return Err(format!(
            "{player} has no seat in a {}-player game",
            game.seats()
        ));
    }
    match action {
        Action::Resign | Action::Expire | Action::Flag | Action::Abort | Action::Claim => Ok(None),
        Action::Agreement(a) => {
            across
                .check_agreement(game, player, *a)
                .map_err(|refusal| refusal.detail().to_string())?;
            Ok(across.agree(game, player, *a, trace))
        }
        Action::Move(mv) => {
            if let (Move::Sow(_), Some(to_move)) = (mv, game.to_move()) {
                if to_move != player {
                    return Err(format!("it is {to_move}'s turn, not {player}'s"));
                }
            }
            if choices == Choices::Checked {
                game.check_chooser(player, mv)
                    .map_err(|refusal| format!("not {player}'s choice: {refusal}"))?;
            }
            game.play(mv, trace)
                .map_err(|e| format!("illegal move: {e}"))?;
            Ok(across.after_move(game, player, trace))
        }
    }
}

/// Replays a notation from the header's initial state, checking every event.
pub fn replay(text: &str) -> Result<Replay, NotationError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'));
    let (number, first) = lines.next().ok_or(NotationError {
        line: 1,
        message: "the header is missing".into(),
    })?;
    let fail = |line: usize| move |message: String| NotationError { line, message };
    let (kind, options) = parse_header(first).map_err(fail(number))?;
    let mut lines = lines.peekable();
    let start = match lines.peek() {
        Some(&(number, line)) if line.split_whitespace().next() == Some(position_line::START) => {
            lines.next();
            let start = position_line::read(kind, line).map_err(fail(number))?;
            let agreed = position_line::match_options(options, &start)
                .map_err(|(_, problem)| fail(number)(problem))?;
            if agreed != options {
                return Err(fail(number)(
                    "the header's options disagree with the start position's (target, players, starter)".into(),
                ));
            }
            Some(start)
        }
        _ => None,
    };
    let mut game = start
        .clone()
        .unwrap_or_else(|| AnyGame::new_match(kind, &options));
    let mut across = AcrossTurns::start(kind, &options, &game);
    let mut events = Vec::new();
    let mut length_reached = false;
    let mut resigned = None;
    let mut expired = false;
    let mut ended = None;
    let mut trace = Vec::new();
    for (number, line) in lines {
        if ended.is_some() || length_reached || game.status() == Status::MatchOver {
            return Err(fail(number)("the match is already over".into()));
        }
        let (player, action) = parse_event_line(kind, line).map_err(fail(number))?;
        trace.clear();
        let ending = play_event(
            &mut game,
            &mut across,
            player,
            &action,
            Choices::Checked,
            &mut trace,
        )
        .map_err(fail(number))?;
        length_reached |= ending == Some(Ending::MatchLength);
        match action {
            Action::Resign => resigned = Some(player),
            Action::Expire => expired = true,
            _ => {}
        }
        if action.ends_match() {
            ended = Some((player, action));
        }
        events.push((player, action));
    }
    Ok(Replay {
        kind,
        options,
        start,
        game,
        events,
        resigned,
        expired,
        ended,
        length_reached,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_written_by_its_one_slug_and_read_with_underscores_too() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_slug(kind.slug()), Some(kind));
            let underscored = kind.slug().replace('-', "_").to_uppercase();
            assert_eq!(GameKind::from_slug(&underscored), Some(kind));
        }
        assert_eq!(GameKind::from_slug("ba-awa-"), None);
        assert_eq!(GameKind::from_slug("ba awa"), None);
        // A notation written with the command line's old spelling replays as the one the server writes.
        let (old, new) = (
            "mancala 1 ba_awa first=s target=11\nS 2\n",
            "mancala 1 ba-awa first=s target=11\nS 2\n",
        );
        let (old, new) = (replay(old).unwrap(), replay(new).unwrap());
        assert_eq!(
            (old.kind, old.game.to_setup()),
            (new.kind, new.game.to_setup())
        );
    }

    #[test]
    fn pit_labels_are_describe_games_and_moves_read_as_people_say_them() {
        for kind in GameKind::ALL {
            for pit in super::super::describe(kind).pits {
                assert_eq!(pit_label(kind, pit.index.into(), true), pit.label);
            }
        }
        let sow = |pit: u8| Sow::from(pit);
        assert_eq!(move_label(GameKind::BaAwa, &Move::Sow(sow(2))), "S3");
        assert_eq!(move_label(GameKind::Bosh, &Move::Sow(sow(7))), "N3");
        let bao = Sow {
            direction: Some(Direction::Anticlockwise),
            ..sow(5)
        };
        assert_eq!(move_label(GameKind::BaoLaKete, &Move::Sow(bao)), "f6 acw");
        let nemo = Sow {
            kichwa: Some(Kichwa::Left),
            kuu_decision: Some(KuuDecision::Stop),
            ..sow(19)
        };
        assert_eq!(
            move_label(GameKind::BaoLaKete, &Move::Sow(nemo)),
            "f4 kl stop"
        );
        let next = Move::NextGame(PitSet::EMPTY.with(6).with(7));
        assert_eq!(move_label(GameKind::BaAwa, &next), "next N1 N2");
        assert_eq!(
            move_label(GameKind::BaAwa, &Move::NextGame(PitSet::EMPTY)),
            "next"
        );
    }

    /// Plays the first legal move until the match is over (or `limit` events), as a match would log it.
    fn playout(
        kind: GameKind,
        options: &Options,
        limit: usize,
    ) -> (AnyGame, Vec<(Player, Action)>) {
        let mut game = AnyGame::new_match(kind, options);
        let mut events = Vec::new();
        let mut turn = 0usize;
        while events.len() < limit {
            let moves = game.legal_moves();
            // Vary the choice so that the notation meets many pits, not only the first.
            let Some(&mv) = moves.get(turn % moves.len().max(1)) else {
                break;
            };
            turn = turn.wrapping_mul(31).wrapping_add(7);
            // `next` is logged for the seat that would have moved last; any seat may send it.
            let player = game.to_move().unwrap_or(Player::North);
            game.play(&mv, &mut Vec::new())
                .expect("listed moves are legal");
            events.push((player, Action::Move(mv)));
        }
        (game, events)
    }

    #[test]
    fn an_exported_match_replays_to_the_identical_final_state() {
        for kind in GameKind::ALL {
            let options = Options {
                first_player: Player::North,
                ..Options::default()
            };
            let (game, events) = playout(kind, &options, 5_000);
            assert!(events.len() > 20, "{kind:?}: a real match, not a stub");
            let text = export(kind, &options, None, events.iter().map(|(p, a)| (*p, a)));
            let replayed = replay(&text).unwrap_or_else(|e| panic!("{kind:?}: {e}\n{text}"));
            assert_eq!(replayed.game, game, "{kind:?}");
            assert_eq!(replayed.events, events);
            assert_eq!((replayed.kind, replayed.options), (kind, options));
            // And the export of the replay is the same text.
            assert_eq!(
                export(
                    kind,
                    &options,
                    None,
                    replayed.events.iter().map(|(p, a)| (*p, a))
                ),
                text
            );
        }
    }

    /// §4.4 step 3: a text log's `next` with pits must come from the surplus player; a stored log replays as
    /// accepted, so one written before the check (the other seat's choice) still plays through.
    #[test]
    fn a_choice_from_the_wrong_seat_is_refused_unless_replayed_as_logged() {
        let game = crate::engine::choice::tests::ba_awa_over(8);
        let across = || {
            crate::engine::across_turns::AcrossTurns::start(
                GameKind::BaAwa,
                &Options::default(),
                &game,
            )
        };
        let choice = Action::Move(Move::NextGame(PitSet::EMPTY.with(10).with(11)));
        let mut refused = game.clone();
        let error = play_event(
            &mut refused,
            &mut across(),
            Player::North,
            &choice,
            Choices::Checked,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(error.contains("§4.4 step 3"), "{error}");
        assert_eq!(refused, game, "a refused event changes nothing");
        let mut logged = game.clone();
        play_event(
            &mut logged,
            &mut across(),
            Player::North,
            &choice,
            Choices::AsLogged,
            &mut Vec::new(),
        )
        .expect("an accepted log replays as it was accepted");
        let mut chosen = game.clone();
        play_event(
            &mut chosen,
            &mut across(),
            Player::South,
            &choice,
            Choices::Checked,
            &mut Vec::new(),
        )
        .expect("the surplus player's own choice");
        assert_eq!(logged, chosen);
    }

    #[test]
    fn an_expiry_ends_the_notation_without_a_winner() {
        let text = "mancala 1 ba-awa first=s target=11\nS 2\nN expire\n";
        let replayed = replay(text).expect("an expiry replays");
        assert!(replayed.expired);
        assert_eq!(replayed.resigned, None);
        assert_eq!(replayed.events[1], (Player::North, Action::Expire));
        assert_eq!(event_line(Player::North, &Action::Expire), "N expire");
        let after = replay("mancala 1 ba-awa first=s target=11\nS expire\nN 7\n").unwrap_err();
        assert_eq!(after.line, 3);
    }

    #[test]
    fn a_resignation_ends_the_notation() {
        let text = "mancala 1 ba-awa first=s target=11\nS 2\nN resign\n";
        let replayed = replay(text).unwrap();
        assert_eq!(replayed.resigned, Some(Player::North));
        assert_eq!(replayed.options.ba_awa_target, 11);
        assert_eq!(replay(&format!("{text}S 3\n")).unwrap_err().line, 4);
    }

    #[test]
    fn every_kind_of_line_round_trips() {
        let bao = [
            "S 4 cw",
            "N 20 acw kr",
            "S 4 kl stop",
            "S 31 safari",
            "N next",
            "S resign",
        ];
        for line in bao {
            let (player, action) = parse_event_line(GameKind::BaoLaKete, line).unwrap();
            assert_eq!(event_line(player, &action), line);
        }
        let (_, action) = parse_event_line(GameKind::Bosh, "N next 9 0 5").unwrap();
        assert_eq!(event_line(Player::North, &action), "N next 0 5 9");
    }

    #[test]
    fn bad_notations_name_the_line_and_the_problem() {
        let cases = [
            ("", 1, "header"),
            ("chess 1 ba-awa first=s", 1, "mancala"),
            ("mancala 9 ba-awa first=s", 1, "rules version"),
            ("mancala 1 go first=s", 1, "not a game"),
            ("mancala 1 bosh first=s target=10", 1, "not an option"),
            ("mancala 1 ba-awa first=s\nS 12", 2, "not a pit"),
            ("mancala 1 ba-awa first=s\nX 1", 2, "not a seat"),
            ("mancala 1 ba-awa first=s\nN 7", 2, "South's turn"),
            ("mancala 1 ba-awa first=s\nS 1 cw", 2, "illegal move"),
            ("mancala 1 ba-awa first=s\nS next", 2, "illegal move"),
            (
                "mancala 1 ba-awa first=s\n# comment\n\nS 1 2",
                4,
                "not a choice",
            ),
            ("mancala 1 ba-awa first=s\nS resign now", 2, "unexpected"),
        ];
        for (text, line, needle) in cases {
            let error = replay(text).expect_err(text);
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(needle), "{text}: {error}");
        }
    }
}
