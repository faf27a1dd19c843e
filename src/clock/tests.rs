//! The clock arithmetic, move by move, on real positions of the engine.

use super::*;
use crate::engine::{GameKind, Options};

const ABORT_AFTER: u64 = 30_000;

/// A match of `kind` whose sowings are played at the given moments, each the first legal move.
struct Play {
    game: AnyGame,
    clocks: Clocks,
}

impl Play {
    fn new(kind: GameKind, control: TimeControl, created_ms: u64) -> Play {
        let game = AnyGame::new_match(kind, &Options::default());
        let clocks = Clocks::new(control, ABORT_AFTER, created_ms, &game);
        Play { game, clocks }
    }

    /// The seat to move sows its first legal move at `at_ms`; who sowed.
    fn sow_at(&mut self, at_ms: u64) -> Player {
        self.sow_nth_at(0, at_ms)
    }

    /// The seat to move sows its `n`th legal move (modulo their number) at `at_ms`; who sowed.
    fn sow_nth_at(&mut self, n: usize, at_ms: u64) -> Player {
        let seat = self.game.to_move().expect("a seat to move");
        let moves = self.game.legal_moves();
        let mv = moves[n % moves.len()];
        self.game.play(&mv, &mut Vec::new()).expect("legal");
        self.clocks
            .after(seat, &Action::Move(mv), at_ms, &self.game);
        seat
    }
}

fn fischer(initial_ms: u64, increment_ms: u64) -> TimeControl {
    TimeControl::Fischer {
        initial_ms,
        increment_ms,
    }
}

#[test]
fn no_clock_runs_until_each_seat_has_sown_and_the_wait_for_a_first_sowing_is_the_abort_time() {
    let mut play = Play::new(GameKind::Bosh, fischer(60_000, 2_000), 1_000);
    assert_eq!(play.clocks.running, None);
    assert_eq!(
        play.clocks.deadline(),
        Some(Due::Abort {
            seat: Player::South,
            at_ms: 1_000 + ABORT_AFTER
        })
    );
    // South's first sowing, 10 s in: costs nothing, earns nothing; now North's first is awaited.
    assert_eq!(play.sow_at(11_000), Player::South);
    assert_eq!(play.clocks.remaining_ms[..2], [60_000, 60_000]);
    assert_eq!(
        play.clocks.deadline(),
        Some(Due::Abort {
            seat: Player::North,
            at_ms: 11_000 + ABORT_AFTER
        })
    );
    assert!(!play.clocks.started());
    // North's first sowing starts the clocks: South's runs from that moment.
    let north = play.sow_at(20_000);
    assert_eq!(north, Player::North);
    assert!(play.clocks.started());
    assert_eq!(play.clocks.remaining_ms[..2], [60_000, 60_000]);
    let to_move = play.game.to_move().unwrap();
    assert_eq!(play.clocks.running, Some(to_move));
    assert_eq!(
        play.clocks.deadline(),
        Some(Due::Flag {
            seat: to_move,
            at_ms: 80_000
        })
    );
}

#[test]
fn fischer_charges_the_time_taken_then_adds_the_increment() {
    let mut play = Play::new(GameKind::Bosh, fischer(60_000, 2_000), 0);
    play.sow_at(1_000);
    play.sow_at(2_000);
    let mover = play.game.to_move().unwrap();
    // 7.5 s for this sowing: 60 − 7.5 + 2 = 54.5 s.
    assert_eq!(play.sow_at(9_500), mover);
    assert_eq!(play.clocks.remaining_ms[mover.index()], 54_500);
    assert_eq!(play.clocks.remaining_ms[mover.opponent().index()], 60_000);
    // Counting down while the other seat thinks.
    let other = play.clocks.running.unwrap();
    assert_eq!(other, mover.opponent());
    assert_eq!(play.clocks.remaining_at(19_500)[other.index()], 50_000);
    assert_eq!(play.clocks.remaining_at(19_500)[mover.index()], 54_500);
    assert_eq!(play.clocks.deadline().unwrap().at_ms(), 9_500 + 60_000);
}

#[test]
fn a_simple_delay_makes_the_first_part_of_each_turn_free_and_adds_nothing() {
    let control = TimeControl::Delay {
        initial_ms: 30_000,
        delay_ms: 5_000,
    };
    let mut play = Play::new(GameKind::BaAwa, control, 0);
    play.sow_at(100);
    play.sow_at(200);
    let mover = play.game.to_move().unwrap();
    // Within the delay: free.
    play.sow_at(4_200);
    assert_eq!(play.clocks.remaining_ms[mover.index()], 30_000);
    // The other seat takes 12 s: 7 s count.
    let other = play.clocks.running.unwrap();
    assert_eq!(
        play.clocks.remaining_at(4_200 + 3_000)[other.index()],
        30_000
    );
    assert_eq!(
        play.clocks.remaining_at(4_200 + 12_000)[other.index()],
        23_000
    );
    play.sow_at(4_200 + 12_000);
    assert_eq!(play.clocks.remaining_ms[other.index()], 23_000);
    // The flag of the seat to move falls after its delay and its time.
    let due = play.clocks.deadline().unwrap();
    assert_eq!(due.at_ms(), 16_200 + 5_000 + 30_000);
}

#[test]
fn correspondence_gives_each_turn_the_whole_time_per_move() {
    let control = TimeControl::Correspondence { days: 2 };
    let mut play = Play::new(GameKind::Bosh, control, 0);
    // The first sowing may take up to the time per move before the match is aborted.
    assert_eq!(
        play.clocks.deadline(),
        Some(Due::Abort {
            seat: Player::South,
            at_ms: 2 * DAY_MS
        })
    );
    play.sow_at(DAY_MS);
    play.sow_at(DAY_MS + 10);
    let mover = play.game.to_move().unwrap();
    play.sow_at(DAY_MS + 10 + DAY_MS + 5);
    assert_eq!(play.clocks.remaining_ms[mover.index()], 2 * DAY_MS);
    assert_eq!(
        play.clocks.deadline(),
        Some(Due::Flag {
            seat: mover.opponent(),
            at_ms: 2 * DAY_MS + 15 + 2 * DAY_MS
        })
    );
}

#[test]
fn a_clock_that_ran_out_reads_zero_and_a_flag_leaves_it_at_zero() {
    let mut play = Play::new(GameKind::Bosh, fischer(1_000, 0), 0);
    play.sow_at(0);
    play.sow_at(0);
    let seat = play.clocks.running.unwrap();
    assert_eq!(play.clocks.due_at(999), None);
    assert_eq!(
        play.clocks.due_at(1_000),
        Some(Due::Flag { seat, at_ms: 1_000 })
    );
    assert_eq!(play.clocks.remaining_at(5_000)[seat.index()], 0);
    play.clocks.after(seat, &Action::Flag, 1_003, &play.game);
    assert_eq!(play.clocks.remaining_ms[seat.index()], 0);
    assert_eq!(play.clocks.deadline(), None);
}

#[test]
fn untimed_matches_are_never_aborted_nor_flagged_by_the_clock() {
    let mut play = Play::new(GameKind::Bosh, TimeControl::Untimed, 0);
    assert_eq!(play.clocks.deadline(), None);
    play.sow_at(10);
    play.sow_at(20);
    assert_eq!(play.clocks.deadline(), None);
    assert_eq!(play.clocks.running, None);
}

#[test]
fn between_games_no_clock_runs_and_each_seat_keeps_its_time() {
    // Ba-awa's first game, played to its end with the first legal move each time.
    let mut play = Play::new(GameKind::BaAwa, fischer(600_000, 1_000), 0);
    let mut at = 0;
    let mut rng = crate::engine::Rng::new(7);
    while play.game.status() == Status::InProgress {
        assert!(at < 10_000_000, "the first game ends");
        at += 1_000;
        play.sow_nth_at(rng.below(12), at);
    }
    assert_eq!(play.game.status(), Status::GameOver);
    assert_eq!(play.clocks.running, None);
    assert_eq!(play.clocks.deadline(), None);
    let kept = play.clocks.remaining_ms;
    // The next game starts: the seat to move's clock runs from the NextGame, with the time it kept.
    let next = play.game.legal_moves()[0];
    play.game.play(&next, &mut Vec::new()).unwrap();
    play.clocks
        .after(Player::South, &Action::Move(next), at + 50_000, &play.game);
    assert_eq!(play.clocks.remaining_ms, kept);
    let seat = play.game.to_move().unwrap();
    assert_eq!(play.clocks.running, Some(seat));
    assert_eq!(
        play.clocks.deadline(),
        Some(Due::Flag {
            seat,
            at_ms: at + 50_000 + kept[seat.index()]
        })
    );
}

#[test]
fn time_controls_are_checked() {
    let max = 3 * DAY_MS;
    assert!(fischer(60_000, 0).check(max).is_ok());
    assert!(fischer(0, 1_000).check(max).is_err());
    assert!(fischer(999, 1_000).check(max).is_err());
    assert!(fischer(max + 1, 0).check(max).is_err());
    assert!(TimeControl::Correspondence { days: 0 }.check(max).is_err());
    assert!(TimeControl::Correspondence { days: 31 }.check(max).is_err());
    assert!(TimeControl::Correspondence { days: 30 }.check(max).is_ok());
    assert!(TimeControl::Untimed.check(max).is_ok());
}
