//! Bao la Kete through the crate's public API only: 200 whole random matches that must end, conserve the 64
//! seeds after every move, survive a `to_setup`/`from_setup` round trip and agree between `legal_moves` and
//! `check`. (The worked examples BK-1..BK-9 are data: `tests/examples/bao_la_kete.toml`, run by `examples.rs`.)

use mancala::engine::{
    AnyGame, Direction, GameKind, Kichwa, KuuDecision, Move, Options, PitSet, Player, Sow, Status,
};

const S: Player = Player::South;
const N: Player = Player::North;
const CW: Direction = Direction::Clockwise;
const ACW: Direction = Direction::Anticlockwise;

fn legal(game: &AnyGame) -> Vec<Move> {
    game.legal_moves().to_vec()
}

fn seeds(game: &AnyGame) -> u32 {
    let state = game.to_setup();
    state
        .pits
        .iter()
        .chain(&state.reserves)
        .chain(&state.stores)
        .sum()
}

// ---- Whole random matches ----

/// xorshift64: seeded, no dependencies.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random move shape: any pit (one past the board included) with any combination of choices.
fn random_candidate(rng: &mut XorShift) -> Move {
    if rng.below(20) == 0 {
        return Move::NextGame(if rng.below(2) == 0 {
            PitSet::EMPTY
        } else {
            PitSet(1 << rng.below(32))
        });
    }
    let direction = [None, Some(CW), Some(ACW)][rng.below(3)];
    let kichwa = [None, None, Some(Kichwa::Left), Some(Kichwa::Right)][rng.below(4)];
    let kuu_decision = [
        None,
        None,
        Some(KuuDecision::Stop),
        Some(KuuDecision::Safari),
    ][rng.below(4)];
    Move::Sow(Sow {
        pit: rng.below(33) as u8,
        direction,
        kichwa,
        kuu_decision,
    })
}

/// No game seen in random play lasts more than about 200 plies; a match has at most 3 games.
const MATCH_PLY_CAP: u32 = 3 * 2_000;

#[test]
fn two_hundred_random_matches_end_conserve_seeds_and_agree_on_legality() {
    let mut rng = XorShift(0x0005_EEDB_A01A_4E7E);
    let mut games_played = 0;
    let mut longest_game = 0;
    for round in 0..200 {
        let first_player = if round % 2 == 0 { S } else { N };
        let mut game = AnyGame::new_match(
            GameKind::BaoLaKete,
            &Options {
                first_player,
                ..Options::default()
            },
        );
        assert_eq!(game.to_move(), Some(first_player));
        let mut plies = 0;
        let mut game_plies = 0;
        while game.status() != Status::MatchOver {
            assert!(
                plies < MATCH_PLY_CAP,
                "match {round} did not end within {MATCH_PLY_CAP} plies"
            );
            let moves = legal(&game);
            assert!(
                !moves.is_empty(),
                "a match that is not over always has a move"
            );
            for mv in &moves {
                assert!(game.check(mv).is_ok(), "listed move {mv:?} is refused");
            }
            for _ in 0..24 {
                let mv = random_candidate(&mut rng);
                assert_eq!(
                    moves.contains(&mv),
                    game.check(&mv).is_ok(),
                    "{mv:?} in {game:?}"
                );
            }
            let mv = moves[rng.below(moves.len())];
            let before = game.clone();
            let mut events = Vec::new();
            game.play(&mv, &mut events).unwrap();
            assert_ne!(game, before);
            assert_eq!(seeds(&game), 64, "seeds after {mv:?} from {before:?}");
            assert_eq!(
                AnyGame::from_setup(&game.to_setup()).as_ref(),
                Ok(&game),
                "round trip after {mv:?}"
            );
            if matches!(mv, Move::NextGame(_)) {
                games_played += 1;
                longest_game = longest_game.max(game_plies);
                game_plies = 0;
            } else {
                game_plies += 1;
            }
            plies += 1;
        }
        games_played += 1;
        longest_game = longest_game.max(game_plies);
        let score = game.to_setup().match_score;
        assert!(
            score.contains(&2) && score.iter().sum::<u32>() <= 3,
            "{score:?}"
        );
        assert!(legal(&game).is_empty());
    }
    assert!(games_played >= 400, "{games_played} games in 200 matches");
    assert!(longest_game > 0);
}
