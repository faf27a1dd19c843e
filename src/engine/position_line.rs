//! A game in progress written on one line: how a match that begins from a chosen position (not the game's opening)
//! keeps that position in its notation ([`super::notation`]) and in its stored header, so that its log replays from
//! it. The line is read back through the same validation as a client's state ([`AnyGame::from_setup`]), so a
//! damaged or hand-written line is refused with the field at fault, never trusted.
//!
//! ```text
//! start to=s ply=4 game=1 score=0,0 pits=0,1,0,0,0,0,0,0,1,0,0,0 stores=23,23 reserves=0,0 owners=s,s,s,s,s,s,n,n,n,n,n,n starter=s target=10
//! ```
//!
//! Words are `key=value`, values separated by commas, seats written `s`, `n`, `e` (`-` for none), flags `1`/`0`.
//! Every game has `to` (the seat to move), `ply`, `game` (the game or Bosh round number), `score` (the match
//! standing), `pits` (in `GameState.pits` order), `stores` and `reserves`; Bao la Kete adds `stage`
//! (`mtaji`/`nemo`), `kuu` (South's and North's), `starter` (who began the game), `rule` (who begins later games:
//! `alternate`, `loser`, `winner`) and, when set, `mark` (`<blockee>,<pit>,<setter>`, the hizi-zetu mark); Bosh adds
//! `closed` and `starter` (who began the round); Ba-awa adds `owners`, `starter`, `target` and, for three players,
//! `players=3` and `out` (the game each seat went out in, 0 while in).

use super::{
    AnyGame, GameKind, Options, Player, Repeated, Setup, StarterRule, Status, VariantSetup,
};
use super::{Violation, RULES_VERSION};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The word a position line begins with.
pub const START: &str = "start";

/// `game`, which must be in progress, as a position line (starting with [`START`], without newline).
pub fn write(game: &AnyGame) -> String {
    let setup = game.to_setup();
    let mut line = format!(
        "{START} to={} ply={} game={} score={} pits={} stores={} reserves={}",
        seat_word(setup.to_move),
        setup.ply,
        setup.game_number,
        numbers(&setup.match_score),
        numbers(&setup.pits),
        numbers(&setup.stores),
        numbers(&setup.reserves),
    );
    match &setup.variant {
        VariantSetup::BaAwa {
            owners,
            starter,
            target,
            players,
            eliminated_in,
        } => {
            let owners: Vec<&str> = owners.iter().map(|&o| seat_word(o)).collect();
            let _ = write!(
                line,
                " owners={} starter={} target={target}",
                owners.join(","),
                seat_word(*starter)
            );
            if *players == 3 {
                let _ = write!(line, " players=3 out={}", numbers(eliminated_in));
            }
        }
        VariantSetup::Bosh {
            closed,
            round_starter,
        } => {
            let _ = write!(
                line,
                " closed={} starter={}",
                flags(closed),
                seat_word(*round_starter)
            );
        }
        VariantSetup::BaoLaKete {
            mtaji,
            kuu_alive,
            mark,
            game_starter,
            starter_rule,
        } => {
            let _ = write!(
                line,
                " stage={} kuu={} starter={} rule={}",
                if *mtaji == Some(false) {
                    "nemo"
                } else {
                    "mtaji"
                },
                flags(kuu_alive),
                seat_word(*game_starter),
                rule_word(*starter_rule),
            );
            if let Some((blockee, pit, setter)) = mark {
                let _ = write!(
                    line,
                    " mark={},{pit},{}",
                    seat_word(*blockee),
                    seat_word(*setter)
                );
            }
        }
        VariantSetup::Missing => {}
    }
    line
}

/// The options of a match that begins from `start`: `options` with what the position itself says (Ba-awa's
/// target and number of players, Bao la Kete's rule for who begins later games) taken from it; refused when the
/// position is not in play, or is past the match's length (the field at fault, and why).
pub fn match_options(options: Options, start: &AnyGame) -> Result<Options, (&'static str, String)> {
    if start.status() != Status::InProgress {
        return Err((
            "start.status",
            "a match begins from a game in progress".into(),
        ));
    }
    let mut agreed = options;
    match start.to_setup().variant {
        VariantSetup::BaAwa {
            target, players, ..
        } => {
            agreed.ba_awa_target = target as u8;
            agreed.ba_awa_players = if players == 3 { 3 } else { 2 };
        }
        VariantSetup::BaoLaKete { starter_rule, .. } => agreed.bao_la_kete_starter = starter_rule,
        VariantSetup::Bosh { .. } | VariantSetup::Missing => {}
    }
    if agreed.first_player.index() >= agreed.seats(start.kind()) {
        return Err((
            "options.first_player",
            "East sits only in three-player Ba-awa".into(),
        ));
    }
    let limit = agreed.max_games_for(start.kind());
    if start.game_number() > limit {
        return Err((
            "options.max_games",
            format!(
                "the start position is in game {} of a match of at most {limit} (§1 \"Match length\")",
                start.game_number()
            ),
        ));
    }
    Ok(agreed)
}

/// Reads a position line of a game of `kind` (see the module's text): the game, validated as a client's state
/// is, and in progress; or what is wrong, naming the word or the state's field at fault.
pub fn read(kind: GameKind, line: &str) -> Result<AnyGame, String> {
    let mut words = line.split_whitespace();
    if words.next() != Some(START) {
        return Err(format!("a position line begins with {START:?}"));
    }
    let mut fields = BTreeMap::new();
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?} is not key=value"))?;
        if fields.insert(key, value).is_some() {
            return Err(format!("{key} is given twice"));
        }
    }
    let mut fields = Words(fields);
    let mut setup = Setup {
        kind,
        rules_version: RULES_VERSION,
        pits: list(fields.take("pits")?, "pits", number)?,
        stores: list(fields.take("stores")?, "stores", number)?,
        reserves: list(fields.take("reserves")?, "reserves", number)?,
        to_move: seat(fields.take("to")?, "to")?,
        status: Some(Status::InProgress),
        winner: None,
        ply: number(fields.take("ply")?, "ply")?,
        game_number: number(fields.take("game")?, "game")?,
        match_score: list(fields.take("score")?, "score", number)?,
        variant: VariantSetup::Missing,
    };
    setup.variant = match kind {
        GameKind::BaAwa => {
            let players = match fields.optional("players") {
                Some(word) => number(word, "players")?,
                None => 2,
            };
            VariantSetup::BaAwa {
                owners: list(fields.take("owners")?, "owners", seat)?,
                starter: seat(fields.take("starter")?, "starter")?,
                target: number(fields.take("target")?, "target")?,
                eliminated_in: match fields.optional("out") {
                    Some(word) => list(word, "out", number)?,
                    None => Repeated::new(),
                },
                players,
            }
        }
        GameKind::Bosh => VariantSetup::Bosh {
            closed: list(fields.take("closed")?, "closed", flag)?,
            round_starter: seat(fields.take("starter")?, "starter")?,
        },
        GameKind::BaoLaKete => VariantSetup::BaoLaKete {
            mtaji: Some(match fields.take("stage")? {
                "mtaji" => true,
                "nemo" => false,
                other => return Err(format!("stage={other}: the stage is mtaji or nemo")),
            }),
            kuu_alive: list(fields.take("kuu")?, "kuu", flag)?,
            mark: match fields.optional("mark") {
                Some(word) => Some(mark(word)?),
                None => None,
            },
            game_starter: seat(fields.take("starter")?, "starter")?,
            starter_rule: rule(fields.take("rule")?)?,
        },
    };
    if let Some(key) = fields.0.keys().next() {
        return Err(format!(
            "{key}= is not a word of a {} position",
            kind.name()
        ));
    }
    AnyGame::from_setup(&setup).map_err(|invalid| {
        let problems: Vec<String> = invalid.0.iter().map(described).collect();
        format!(
            "not a valid {} position: {}",
            kind.name(),
            problems.join("; ")
        )
    })
}

/// A line's words by key, each taken once.
struct Words<'a>(BTreeMap<&'a str, &'a str>);

impl<'a> Words<'a> {
    fn take(&mut self, key: &str) -> Result<&'a str, String> {
        self.0
            .remove(key)
            .ok_or_else(|| format!("{key}= is missing"))
    }

    fn optional(&mut self, key: &str) -> Option<&'a str> {
        self.0.remove(key)
    }
}

fn described(violation: &Violation) -> String {
    format!("{}: {}", violation.field, violation.description)
}

fn numbers(values: &[u32]) -> String {
    let words: Vec<String> = values.iter().map(u32::to_string).collect();
    words.join(",")
}

fn flags(values: &[bool]) -> String {
    let words: Vec<&str> = values.iter().map(|&f| if f { "1" } else { "0" }).collect();
    words.join(",")
}

fn seat_word(seat: Option<Player>) -> &'static str {
    match seat {
        Some(Player::South) => "s",
        Some(Player::North) => "n",
        Some(Player::East) => "e",
        None => "-",
    }
}

fn rule_word(rule: StarterRule) -> &'static str {
    match rule {
        StarterRule::Alternate => "alternate",
        StarterRule::LoserStarts => "loser",
        StarterRule::WinnerStarts => "winner",
    }
}

fn list<T, const N: usize>(
    value: &str,
    key: &str,
    item: impl Fn(&str, &str) -> Result<T, String>,
) -> Result<Repeated<T, N>, String> {
    let mut out = Repeated::new();
    if value.is_empty() {
        return Ok(out);
    }
    for word in value.split(',') {
        // Longer than any game's list: refused before it grows (a line may come from a damaged store).
        if out.len() == 64 {
            return Err(format!("{key}= has more values than any game has"));
        }
        out.push(item(word, key)?);
    }
    Ok(out)
}

fn number(word: &str, key: &str) -> Result<u32, String> {
    word.parse()
        .map_err(|_| format!("{key}: {word:?} is not a number"))
}

fn flag(word: &str, key: &str) -> Result<bool, String> {
    match word {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(format!("{key}: {word:?} is not 1 or 0")),
    }
}

fn seat(word: &str, key: &str) -> Result<Option<Player>, String> {
    match word {
        "s" => Ok(Some(Player::South)),
        "n" => Ok(Some(Player::North)),
        "e" => Ok(Some(Player::East)),
        "-" => Ok(None),
        _ => Err(format!("{key}: {word:?} is not a seat (s, n, e or -)")),
    }
}

fn rule(word: &str) -> Result<StarterRule, String> {
    match word {
        "alternate" => Ok(StarterRule::Alternate),
        "loser" => Ok(StarterRule::LoserStarts),
        "winner" => Ok(StarterRule::WinnerStarts),
        _ => Err(format!(
            "rule={word}: who begins later games is alternate, loser or winner"
        )),
    }
}

fn mark(value: &str) -> Result<(Option<Player>, u32, Option<Player>), String> {
    let parts: Vec<&str> = value.split(',').collect();
    let [blockee, pit, setter] = parts[..] else {
        return Err(format!("mark={value}: a mark is <blockee>,<pit>,<setter>"));
    };
    Ok((
        seat(blockee, "mark")?,
        number(pit, "mark")?,
        seat(setter, "mark")?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// Every position met in seeded random matches of each game (three-player Ba-awa too) reads back as itself.
    #[test]
    fn every_position_in_play_reads_back_as_itself() {
        let three = Options {
            ba_awa_players: 3,
            ..Options::default()
        };
        let lamu = Options {
            bao_la_kete_starter: StarterRule::LoserStarts,
            ..Options::default()
        };
        let setups = [
            (GameKind::BaAwa, Options::default()),
            (GameKind::BaAwa, three),
            (GameKind::Bosh, Options::default()),
            (GameKind::BaoLaKete, lamu),
        ];
        let mut checked = 0;
        for (kind, options) in setups {
            for seed in 0..6 {
                let mut rng = Rng::new(seed);
                let mut game = AnyGame::new_match(kind, &options);
                for _ in 0..400 {
                    if game.status() == Status::MatchOver {
                        break;
                    }
                    if game.status() == Status::InProgress {
                        let line = write(&game);
                        assert_eq!(read(kind, &line).as_ref(), Ok(&game), "{line}");
                        checked += 1;
                    }
                    let moves = game.legal_moves();
                    let mv = moves[rng.below(moves.len())];
                    game.play(&mv, &mut Vec::new()).unwrap();
                }
            }
        }
        assert!(checked > 4_000, "{checked}");
    }

    #[test]
    fn a_bad_line_is_refused_with_the_word_at_fault() {
        let game = AnyGame::new_match(GameKind::Bosh, &Options::default());
        let line = write(&game);
        let read_bosh = |text: &str| read(GameKind::Bosh, text).unwrap_err();
        assert_eq!(
            read_bosh("begin to=s"),
            "a position line begins with \"start\""
        );
        assert_eq!(read_bosh(&line.replace(" ply=0", "")), "ply= is missing");
        assert_eq!(read_bosh(&format!("{line} ply=3")), "ply is given twice");
        assert_eq!(
            read_bosh(&format!("{line} owners=s")),
            "owners= is not a word of a Bosh position"
        );
        assert_eq!(
            read_bosh(&line.replace("to=s", "to=x")),
            "to: \"x\" is not a seat (s, n, e or -)"
        );
        let overfull = line.replacen("pits=4,", "pits=90,", 1);
        let refusal = read_bosh(&overfull);
        assert!(
            refusal.starts_with("not a valid Bosh position: pits[0]"),
            "{refusal}"
        );
        let long = format!("{START} pits={}", vec!["1"; 100].join(","));
        assert_eq!(read_bosh(&long), "pits= has more values than any game has");
    }

    /// A Ba-awa position 30 plies in, of a match to 11 pits.
    fn ba_awa_in_play() -> (AnyGame, Options) {
        let options = Options {
            ba_awa_target: 11,
            ..Options::default()
        };
        let mut game = AnyGame::new_match(GameKind::BaAwa, &options);
        let mut rng = Rng::new(3);
        for _ in 0..30 {
            let moves = game.legal_moves();
            game.play(&moves[rng.below(moves.len())], &mut Vec::new())
                .unwrap();
        }
        assert_eq!(game.status(), Status::InProgress);
        (game, options)
    }

    #[test]
    fn a_notation_with_a_start_line_replays_from_it() {
        use crate::engine::notation::{export, replay};
        let (start, options) = ba_awa_in_play();
        let mv = start.legal_moves()[0];
        let mut after = start.clone();
        after.play(&mv, &mut Vec::new()).unwrap();
        let seat = start.to_move().unwrap();
        let text = export(
            GameKind::BaAwa,
            &options,
            Some(&start),
            [(seat, &crate::engine::notation::Action::Move(mv))],
        );
        assert_eq!(text.lines().nth(1), Some(write(&start).as_str()));
        let replayed = replay(&text).unwrap();
        assert_eq!(replayed.start.as_ref(), Some(&start));
        assert_eq!(replayed.game, after);
        // The header must say what the position says.
        let other = text.replacen("target=11", "target=10", 1);
        let refusal = replay(&other).unwrap_err();
        assert_eq!(refusal.line, 2, "{}", refusal.message);
    }

    #[test]
    fn a_match_takes_the_options_the_position_says() {
        let (start, _) = ba_awa_in_play();
        let agreed = match_options(Options::default(), &start).unwrap();
        assert_eq!(agreed.ba_awa_target, 11);
        let short = Options {
            max_games: Some(1),
            ..Options::default()
        };
        let mut later = start.to_setup();
        later.game_number = 2;
        let later = AnyGame::from_setup(&later).unwrap();
        assert_eq!(
            match_options(short, &later).unwrap_err().0,
            "options.max_games"
        );
        let mut over = start;
        let mut rng = Rng::new(5);
        while over.status() == Status::InProgress {
            let moves = over.legal_moves();
            over.play(&moves[rng.below(moves.len())], &mut Vec::new())
                .unwrap();
        }
        assert_eq!(
            match_options(Options::default(), &over).unwrap_err().0,
            "start.status"
        );
    }
}
