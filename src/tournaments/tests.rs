//! The pairing (no rematch, byes, seats, odd counts), the round robin, the standings, the stored steps, and whole
//! tournaments advanced against a lobby state whose matches end as the test says.

use super::advance::{advance, history, step};
use super::pairing::{round_robin, swiss, History};
use super::record::{decode, encode, Board, Outcome, Record, Spec, System};
use super::standings::standings;
use super::state::{Status, Tournament};
use crate::engine::{GameKind, Options, Player};
use crate::lobby::entry::{Entry, Logged};
use crate::lobby::TenantState;
use crate::store::{EndReason, Finished, MatchId};
use std::collections::{HashMap, HashSet};

fn names(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("p{i}")).collect()
}

fn spec(system: System) -> Spec {
    Spec {
        name: "cup".into(),
        system,
        kind: GameKind::Bosh,
        options: Options::default(),
        time_control: Default::default(),
        rated: false,
        created_by: None,
    }
}

#[test]
fn the_round_robin_meets_everyone_once_in_n_minus_one_rounds_with_seats_balanced() {
    for n in 2..=10 {
        let players = names(n);
        let rounds = (n - 1 + n % 2) as u32;
        let mut met = HashSet::new();
        let mut history = History::default();
        for round in 1..=rounds {
            let mut seen = HashSet::new();
            for (a, b) in round_robin(&players, round) {
                for p in [&a, &b].into_iter().flatten() {
                    assert!(seen.insert(p.clone()), "{p} twice in round {round} of {n}");
                }
                if let (Some(south), Some(north)) = (a, b) {
                    assert!(met.insert((
                        south.clone().min(north.clone()),
                        south.clone().max(north.clone())
                    )));
                    history.board(&south, &north);
                }
            }
        }
        assert_eq!(met.len(), n * (n - 1) / 2, "every pair of {n} meets");
        assert!(round_robin(&players, rounds + 1).is_empty());
        for p in &players {
            let (s, no) = (souths(&history, p), norths(&history, p));
            assert!(s.abs_diff(no) <= 1, "{p} of {n}: {s} South, {no} North");
        }
    }
}

fn souths(history: &History, who: &str) -> u32 {
    history.seats_of(who).0
}

fn norths(history: &History, who: &str) -> u32 {
    history.seats_of(who).1
}

/// Plays `rounds` Swiss rounds of `n` entrants where the higher seed always wins, checking each round.
fn swiss_rounds(n: usize, rounds: u32) -> (History, Vec<String>) {
    let players = names(n);
    let mut history = History::default();
    let mut points: HashMap<String, u32> = players.iter().map(|p| (p.clone(), 0)).collect();
    let mut byes = Vec::new();
    for round in 1..=rounds {
        let mut ranked = players.clone();
        ranked.sort_by_key(|p| (std::cmp::Reverse(points[p]), p[1..].parse::<u32>().unwrap()));
        let pairing = swiss(&ranked, &history).unwrap_or_else(|| panic!("round {round} of {n}"));
        assert_eq!(pairing.bye.is_some(), n % 2 == 1);
        let mut seen = HashSet::new();
        for (south, north) in &pairing.boards {
            assert!(
                !history.met(south, north),
                "{south} v {north} again in round {round}"
            );
            assert!(seen.insert(south.clone()) && seen.insert(north.clone()));
            let winner = south.clone().min(north.clone());
            *points.get_mut(&winner).unwrap() += 2;
        }
        for (south, north) in &pairing.boards {
            history.board(south, north);
        }
        if let Some(bye) = pairing.bye {
            assert!(!history.had_bye(&bye), "{bye} has a second bye");
            assert!(!seen.contains(&bye));
            *points.get_mut(&bye).unwrap() += 2;
            history.bye(&bye);
            byes.push(bye);
        }
        assert_eq!(seen.len() + usize::from(n % 2 == 1), n);
    }
    (history, byes)
}

#[test]
fn the_swiss_never_pairs_a_rematch_and_keeps_seats_within_two() {
    for n in [2, 4, 6, 8, 10, 16] {
        let rounds = (n as u32 - 1).min(5);
        let (history, _) = swiss_rounds(n, rounds);
        for p in names(n) {
            let (s, no) = (souths(&history, &p), norths(&history, &p));
            assert!(s.abs_diff(no) <= 2, "{p} of {n}: {s} South, {no} North");
        }
    }
}

#[test]
fn with_an_odd_count_the_bye_goes_to_the_lowest_ranked_and_never_twice() {
    let (_, byes) = swiss_rounds(7, 5);
    assert_eq!(byes.len(), 5);
    assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 5, "{byes:?}");
    // Round 1: everyone on 0 points, so the last seed sits out.
    assert_eq!(byes[0], "p7");
    let (_, byes) = swiss_rounds(3, 2);
    assert_eq!(byes.len(), 2);
    assert_ne!(byes[0], byes[1]);
}

#[test]
fn the_swiss_backtracks_rather_than_rematch_and_gives_up_when_it_must() {
    // p1 has met p2: the top pairing p1-p2 is impossible, so p1 meets p3 and p2 meets p4.
    let mut history = History::default();
    history.board("p1", "p2");
    history.board("p3", "p4");
    let pairing = swiss(&names(4), &history).unwrap();
    assert_eq!(pairing.boards.len(), 2);
    for (a, b) in &pairing.boards {
        assert!(!history.met(a, b));
    }
    // Two entrants who have met cannot be paired again: no pairing.
    let mut history = History::default();
    history.board("p1", "p2");
    assert_eq!(swiss(&names(2), &history), None);
    // Three entrants, each had the bye: nobody may have it again.
    let mut history = History::default();
    for p in names(3) {
        history.bye(&p);
    }
    assert_eq!(swiss(&names(3), &history), None);
}

#[test]
fn the_seat_goes_to_the_one_who_had_south_less_then_who_sat_north_last() {
    let mut history = History::default();
    assert_eq!(
        history.seat("a", "b"),
        ("a".into(), "b".into()),
        "higher first"
    );
    history.board("a", "x");
    assert_eq!(
        history.seat("a", "b"),
        ("b".into(), "a".into()),
        "a sat South"
    );
    history.board("y", "b");
    history.board("b", "z");
    // Both balanced now? a: +1; b: 0 → b South.
    assert_eq!(history.seat("a", "b"), ("b".into(), "a".into()));
    let mut history = History::default();
    history.board("a", "x");
    history.board("y", "a");
    history.board("b", "z");
    history.board("w", "b");
    history.board("b", "v");
    history.board("u", "b");
    // Both even; a sat North last, b too: the higher, a, sits South.
    assert_eq!(history.seat("a", "b"), ("a".into(), "b".into()));
    history.board("a", "t");
    history.board("s", "a");
    history.board("r", "b");
    history.board("b", "q");
    // Even again; b sat South last, a North: a South.
    assert_eq!(history.seat("b", "a"), ("a".into(), "b".into()));
}

fn tournament(system: System, entrants: usize) -> Tournament {
    let mut t: Option<Tournament> = None;
    let id = MatchId([1; 16]);
    Tournament::step(&mut t, id, 5, &Record::Created(spec(system)));
    let mut t = t.unwrap();
    for e in names(entrants) {
        t.apply(&Record::Entered {
            entrant: e,
            bot_level: None,
        });
    }
    t
}

fn board(id: u8, south: &str, north: &str) -> Board {
    Board {
        match_id: MatchId([id; 16]),
        south: south.into(),
        north: north.into(),
    }
}

/// Pairs `round` of `t` with `boards` (match id byte, South, North, outcome) and `bye`, and records the outcomes.
fn play(t: &mut Tournament, round: u32, boards: [(u8, &str, &str, Outcome); 2], bye: &str) {
    t.apply(&Record::Paired {
        round,
        boards: boards
            .iter()
            .map(|(id, s, n, _)| board(*id, s, n))
            .collect(),
        bye: Some(bye.into()),
        idle: Vec::new(),
    });
    for (id, _, _, outcome) in boards {
        t.apply(&Record::Result {
            round,
            match_id: MatchId([id; 16]),
            outcome,
        });
    }
}

#[test]
fn the_standings_count_points_buchholz_and_sonneborn_berger_exactly() {
    let mut t = tournament(System::Swiss { rounds: 2 }, 5);
    t.apply(&Record::Started {
        participants: names(5),
    });
    // Round 1: p1 beats p2, p3 draws p4, p5 has the bye.
    play(
        &mut t,
        1,
        [
            (1, "p1", "p2", Outcome::SouthWon),
            (2, "p3", "p4", Outcome::Draw),
        ],
        "p5",
    );
    // Round 2: p5 beats p1 at North, p3 and p2 end with no result, p4 has the bye.
    play(
        &mut t,
        2,
        [
            (3, "p1", "p5", Outcome::NorthWon),
            (4, "p3", "p2", Outcome::NoResult),
        ],
        "p4",
    );
    // Points: p1 1, p2 0, p3 ½, p4 1½, p5 2.
    let lines = standings(&t);
    let by: HashMap<&str, &super::standings::Line> =
        lines.iter().map(|l| (l.entrant.as_str(), l)).collect();
    let expect = |who: &str, points: u32, buchholz: u32, sb: u32| {
        let l = by[who];
        assert_eq!(
            (
                l.half_points,
                l.buchholz_halves,
                l.sonneborn_berger_quarters
            ),
            (points, buchholz, sb),
            "{who}"
        );
    };
    // p1: met p2 (0) and p5 (2): Buchholz 2; beat p2 (0): SB 0.
    expect("p1", 2, 4, 0);
    // p2: met p1 (1) and p3 (½): 1½.
    expect("p2", 0, 3, 0);
    // p3: met p4 (1½) and p2 (0): 1½; drew p4: SB ¾.
    expect("p3", 1, 3, 3);
    // p4: met p3 (½); drew: SB ¼; the bye adds nothing.
    expect("p4", 3, 1, 1);
    // p5: met p1 (1), beat him: SB 1.
    expect("p5", 4, 2, 4);
    let order: Vec<&str> = lines.iter().map(|l| l.entrant.as_str()).collect();
    // p2 and p3 ... p3 has ½; p1 1; p2 0.
    assert_eq!(order, ["p5", "p4", "p1", "p3", "p2"]);
    assert_eq!((by["p5"].byes, by["p5"].wins, by["p3"].losses), (1, 1, 1));
    assert_eq!((by["p1"].south, by["p1"].north), (2, 0));
}

#[test]
fn every_step_survives_its_stored_form() {
    let steps = [
        Record::Created(spec(System::Swiss { rounds: 5 })),
        Record::Created(Spec {
            created_by: Some("ann".into()),
            ..spec(System::RoundRobin)
        }),
        Record::Entered {
            entrant: "bot 3 #1".into(),
            bot_level: Some(3),
        },
        Record::Withdrawn {
            entrant: "ann".into(),
        },
        Record::Started {
            participants: names(3),
        },
        Record::Paired {
            round: 2,
            boards: vec![board(9, "p1", "p2")],
            bye: Some("p3".into()),
            idle: vec!["p4".into()],
        },
        Record::Result {
            round: 2,
            match_id: MatchId([9; 16]),
            outcome: Outcome::NoResult,
        },
        Record::Finished {
            standings: vec![("p1".into(), 4), ("p2".into(), 1)],
        },
    ];
    for s in steps {
        assert_eq!(decode(&encode(&s)).unwrap(), s);
    }
    assert!(decode(b"\x01").is_err());
    assert!(decode(&[]).is_err(), "an empty step");
}

/// A lobby state fed every entry `advance` writes, whose matches end as `result` says (by South and North).
struct Lobby {
    state: TenantState,
}

impl Lobby {
    fn write(&mut self, entries: Vec<Entry>) {
        for entry in entries {
            let seq = self.state.seq + 1;
            self.state.apply(&Logged {
                seq,
                at_ms: seq,
                entry,
            });
        }
    }

    fn finish(&mut self, id: MatchId, winner: Option<Player>) {
        self.write(vec![Entry::MatchFinished {
            id,
            finished: Finished {
                at_ms: 1,
                winner,
                resigned: None,
                reason: EndReason::PlayedOut,
            },
            ratings: None,
        }]);
    }
}

#[test]
fn a_swiss_advanced_against_the_lobby_pairs_each_round_once_and_finishes() {
    let mut t = tournament(System::Swiss { rounds: 3 }, 5);
    let mut lobby = Lobby {
        state: TenantState::default(),
    };
    lobby.write(vec![step(&t, &Record::Created(t.spec.clone()), Vec::new())]);
    lobby.write(
        names(5)
            .into_iter()
            .map(|entrant| {
                let entered = Record::Entered {
                    entrant,
                    bot_level: None,
                };
                step(&t, &entered, Vec::new())
            })
            .collect(),
    );
    let started = Record::Started {
        participants: names(5),
    };
    t.apply(&started);
    let mut entries = vec![step(&t, &started, Vec::new())];
    entries.extend(advance(&mut t, &lobby.state));
    let made = entries
        .iter()
        .filter(|e| matches!(e, Entry::MatchCreated { .. }))
        .count();
    assert_eq!((t.current_round(), made), (1, 2));
    lobby.write(entries);
    // A player's stream would restate his round's pairing.
    let restated = lobby.state.standing_for("p1", 0);
    assert!(
        restated
            .iter()
            .any(|l| matches!(&l.entry, Entry::Tournament(step) if step.tell == ["p1"])),
        "{restated:?}"
    );
    // Nothing ended: nothing to write, however often asked.
    assert!(advance(&mut t.clone(), &lobby.state).is_empty());
    for round in 1..=3 {
        let boards: Vec<Board> = t.rounds[round - 1]
            .boards
            .iter()
            .map(|(b, _)| b.clone())
            .collect();
        // The lower seed number wins at either seat.
        for b in &boards {
            let south_wins = b.south[1..].parse::<u32>().unwrap() < b.north[1..].parse().unwrap();
            lobby.finish(
                b.match_id,
                Some(if south_wins {
                    Player::South
                } else {
                    Player::North
                }),
            );
        }
        let entries = advance(&mut t, &lobby.state);
        let results = entries
            .iter()
            .filter(|e| matches!(e, Entry::Tournament(_)))
            .count();
        // The results, then the next round or the end.
        assert_eq!(results, boards.len() + 1, "round {round}");
        lobby.write(entries);
    }
    assert_eq!(t.status, Status::Finished);
    let replayed = Tournament::replay(t.id, &lobby.state.tournament(&t.id).unwrap().steps)
        .unwrap()
        .unwrap();
    assert_eq!(
        replayed,
        Tournament {
            created_ms: replayed.created_ms,
            ..t.clone()
        }
    );
    assert!(lobby.state.tournament(&t.id).unwrap().closed);
    // Past the retention a finished tournament is forgotten with its matches.
    lobby.state.forget_before(u64::MAX);
    assert!(lobby.state.tournament(&t.id).is_none());
    let lines = standings(&t);
    assert_eq!(lines[0].entrant, "p1");
    assert_eq!(lines[0].half_points, 6, "p1 won every round");
    let h = history(&t);
    assert!(!h.met("p1", "p1"));
}

#[test]
fn a_round_robin_gives_idle_rounds_and_skips_a_withdrawn_entrant() {
    let mut t = tournament(System::RoundRobin, 4);
    let mut lobby = Lobby {
        state: TenantState::default(),
    };
    t.apply(&Record::Started {
        participants: names(4),
    });
    assert_eq!(t.planned_rounds(), 3);
    lobby.write(advance(&mut t, &lobby.state));
    assert_eq!(t.rounds[0].boards.len(), 2);
    t.apply(&Record::Withdrawn {
        entrant: "p2".into(),
    });
    for (b, _) in t.rounds[0].boards.clone() {
        lobby.finish(b.match_id, None);
    }
    lobby.write(advance(&mut t, &lobby.state));
    let round = &t.rounds[1];
    assert_eq!(round.boards.len(), 1, "{round:?}");
    assert_eq!(round.idle.len(), 1, "p2's opponent sits out");
    assert!(round
        .boards
        .iter()
        .all(|(b, _)| b.south != "p2" && b.north != "p2"));
    let lines = standings(&t);
    assert!(lines.iter().all(|l| l.half_points == 1), "{lines:?}");
    // A running tournament is kept, however old.
    lobby.write(vec![step(&t, &Record::Created(t.spec.clone()), Vec::new())]);
    lobby.state.forget_before(u64::MAX);
    assert!(lobby.state.tournament(&t.id).is_some());
}
