//! Target `notation`: the match notation (`mancala::engine::notation`): `replay` of arbitrary text and of
//! exported matches with lines changed, dropped, swapped or garbled, and `parse_event_line` of arbitrary lines.
//! Never a panic; an error names a line of the text; an untouched export replays to the match it came from.

use crate::{budgeted, config, corpus};
use mancala::engine::notation;
use mancala::engine::{AnyGame, GameKind, NoTrace, Options, Player, Rng};
use mancala::store::Action;
use proptest::prelude::*;

/// An exported match of `kind`: `plies` random moves, maybe a resignation. Returns the text and the final game.
pub fn exported(kind: GameKind, options: &Options, seed: u64, plies: u32) -> (String, AnyGame) {
    let mut game = AnyGame::new_match(kind, options);
    let mut rng = Rng::new(seed);
    let mut events = Vec::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let player = game.to_move().unwrap_or(Player::North);
        let mut next = game.clone();
        // A reachable relay too long for the budget ends the export early (rare).
        match budgeted(|| next.play(&mv, &mut NoTrace)) {
            Ok(Ok(())) => game = next,
            _ => break,
        }
        events.push((player, Action::Move(mv)));
    }
    if seed % 5 == 0 && game.status() != mancala::engine::Status::MatchOver {
        events.push((Player::South, Action::Resign));
    }
    let text = notation::export(kind, options, None, events.iter().map(|(p, a)| (*p, a)));
    (text, game)
}

/// The seed corpus: an export of every game, and a few hand-written notations.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, kind) in GameKind::ALL.into_iter().enumerate() {
        let options = Options {
            first_player: if i % 2 == 0 {
                Player::South
            } else {
                Player::North
            },
            ba_awa_target: 12,
            ..Options::default()
        };
        let (text, _) = exported(kind, &options, 11 + i as u64, 60);
        out.push((format!("{}.txt", kind.slug()), text.into_bytes()));
    }
    out.push((
        "comments.txt".into(),
        b"# a comment\n\nmancala 1 ba-awa first=s target=11\n  S 2  \n# more\nN resign\n".to_vec(),
    ));
    out.push((
        "bao-choices.txt".into(),
        b"mancala 1 bao-la-kete first=n\nN 20 acw kr\nS 4 kl stop\nN 31 safari\n".to_vec(),
    ));
    out
}

/// A change to one line of a notation.
#[derive(Clone, Debug)]
pub enum LineChange {
    Drop(usize),
    Swap(usize, usize),
    Duplicate(usize),
    /// Replace a word of a line.
    Word(usize, usize, String),
    /// Insert a line.
    Insert(usize, String),
    /// Insert characters anywhere.
    Chars(usize, String),
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "S",
            "N",
            "next",
            "resign",
            "cw",
            "acw",
            "kl",
            "kr",
            "stop",
            "safari",
            "mancala",
            "1",
            "bosh",
            "ba-awa",
            "bao-la-kete",
            "first=s",
            "first=n",
            "target=10",
            "target=13",
            "#",
            "-1",
            "255",
            "256",
            "31",
            "32",
            "9",
            "10",
            "11",
            "12",
            "",
        ])
        .prop_map(str::to_string),
        "[0-9]{1,25}",
        "\\PC{0,8}",
    ]
}

fn line_change() -> impl Strategy<Value = LineChange> {
    use LineChange as L;
    prop_oneof![
        any::<usize>().prop_map(L::Drop),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| L::Swap(a, b)),
        any::<usize>().prop_map(L::Duplicate),
        (any::<usize>(), any::<usize>(), word()).prop_map(|(l, w, s)| L::Word(l, w, s)),
        (
            any::<usize>(),
            prop::collection::vec(word(), 0..5).prop_map(|w| w.join(" "))
        )
            .prop_map(|(l, s)| L::Insert(l, s)),
        (
            any::<usize>(),
            "\\PC{1,4}|[\\r\\n\\t\\u{0}\\u{feff}\\u{2028}]"
        )
            .prop_map(|(at, s)| L::Chars(at, s)),
    ]
}

fn change(text: &str, changes: &[LineChange]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for c in changes {
        let n = lines.len();
        match c {
            LineChange::Drop(i) if n > 0 => {
                lines.remove(i % n);
            }
            LineChange::Swap(a, b) if n > 0 => lines.swap(a % n, b % n),
            LineChange::Duplicate(i) if n > 0 => {
                let line = lines[i % n].clone();
                lines.insert(i % n, line);
            }
            LineChange::Word(l, w, s) if n > 0 => {
                let line = &mut lines[l % n];
                let mut words: Vec<&str> = line.split(' ').collect();
                let len = words.len();
                words[w % len] = s;
                *line = words.join(" ");
            }
            LineChange::Insert(l, s) => lines.insert(l % (n + 1), s.clone()),
            LineChange::Chars(at, s) => {
                let mut joined = lines.join("\n");
                let mut at = at % (joined.len() + 1);
                while !joined.is_char_boundary(at) {
                    at -= 1;
                }
                joined.insert_str(at, s);
                lines = joined.lines().map(str::to_string).collect();
            }
            _ => {}
        }
    }
    lines.join("\n")
}

/// Replays `text` (under the budget): never a panic; an error names one of its lines.
pub fn check_replay(text: &str) -> Result<(), TestCaseError> {
    let Ok(replayed) = budgeted(|| notation::replay(text)) else {
        return Ok(());
    };
    match replayed {
        Ok(replay) => {
            // What replays exports to a notation that replays to the same match.
            let again = notation::export(
                replay.kind,
                &replay.options,
                replay.start.as_ref(),
                replay.events.iter().map(|(p, a)| (*p, a)),
            );
            if let Ok(second) = budgeted(|| notation::replay(&again)) {
                let second = second.map_err(|e| {
                    TestCaseError::fail(format!("the re-export does not replay: {e}\n{again}"))
                })?;
                prop_assert_eq!(&second, &replay);
            }
        }
        Err(error) => {
            let lines = text.lines().count().max(1);
            prop_assert!(
                (1..=lines).contains(&error.line),
                "error on line {} of a text of {} lines: {}",
                error.line,
                lines,
                error
            );
        }
    }
    Ok(())
}

#[test]
fn notation_corpus_replays() {
    for (name, bytes) in corpus("notation") {
        let text = String::from_utf8_lossy(&bytes);
        check_replay(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

fn kind() -> impl Strategy<Value = GameKind> {
    (0..GameKind::ALL.len()).prop_map(|i| GameKind::ALL[i])
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn notation_exports_replay(kind in kind(), north in any::<bool>(), target in 10u8..=12,
                               seed in any::<u64>(), plies in 0u32..200) {
        // `exported` plays the engine's moves alone, without the rules of endless play (§1) a match applies, so
        // the match it exports is one recorded before them (tests/durability/endless.rs replays those rules).
        let options = Options {
            first_player: if north { Player::North } else { Player::South },
            ba_awa_target: target,
            ..Options::default()
        }
        .without_across_turns();
        let (text, game) = exported(kind, &options, seed, plies);
        if let Ok(replayed) = budgeted(|| notation::replay(&text)) {
            let replayed = replayed.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(replayed.game, game);
        }
    }

    #[test]
    fn notation_changed_exports(kind in kind(), seed in any::<u64>(), plies in 0u32..80,
                                changes in prop::collection::vec(line_change(), 1..5)) {
        let (text, _) = exported(kind, &Options::default(), seed, plies);
        check_replay(&change(&text, &changes))?;
    }

    #[test]
    fn notation_arbitrary_text(text in "\\PC{0,200}|(([SN] )?[a-z0-9=# -]{0,20}\n){0,10}") {
        check_replay(&text)?;
    }

    #[test]
    fn notation_arbitrary_lines(kind in kind(), line in "\\PC{0,40}|[SN]( [0-9a-z]{1,7}){0,6}") {
        if let Ok((player, action)) = notation::parse_event_line(kind, &line) {
            // A parsed line prints as a line that parses back to the same event.
            let printed = notation::event_line(player, &action);
            prop_assert_eq!(notation::parse_event_line(kind, &printed), Ok((player, action)));
        }
    }
}
