//! Properties every game must have, checked over random whole matches of every implemented game (GUIDE §6):
//! seeds are conserved, `is_legal(m) == legal_moves().contains(m)`, a match in play always has a move and a
//! finished match has none, an illegal move leaves the state untouched, the wire shape round-trips, every
//! random match ends, and `play_and_list` plays exactly as `play` and lists exactly what `legal_moves` lists.

use mancala::engine::{
    AnyGame, Direction, Event, Game, GameKind, Kichwa, KuuDecision, Move, MoveList, NoTrace,
    Options, PitSet, Player, Sow, Status,
};
use proptest::prelude::*;

/// Every move a client could send for `kind` with no `NextGame` choice: each pit with every combination of
/// choices, so the legality check is exercised on moves that are not in the list too.
fn candidates(kind: GameKind) -> Vec<Move> {
    let directions = [
        None,
        Some(Direction::Clockwise),
        Some(Direction::Anticlockwise),
    ];
    let kichwas = [None, Some(Kichwa::Left), Some(Kichwa::Right)];
    let decisions = [None, Some(KuuDecision::Stop), Some(KuuDecision::Safari)];
    let mut moves = vec![Move::NextGame(PitSet::EMPTY)];
    for pit in 0..kind.pit_count() as u8 {
        for direction in directions {
            for kichwa in kichwas {
                for kuu_decision in decisions {
                    moves.push(Move::Sow(Sow {
                        pit,
                        direction,
                        kichwa,
                        kuu_decision,
                    }));
                }
            }
        }
    }
    moves
}

/// `Game::play_listing` of the game inside `game`, without a trace.
fn play_listing(
    game: &mut AnyGame,
    mv: &Move,
    listing: &mut MoveList,
) -> Result<(), mancala::engine::IllegalMove> {
    match game {
        AnyGame::BaoLaKete(g) => g.play_listing(mv, &mut NoTrace, Some(listing)),
        AnyGame::BaAwa(g) => g.play_listing(mv, &mut NoTrace, Some(listing)),
        AnyGame::Bosh(g) => g.play_listing(mv, &mut NoTrace, Some(listing)),
    }
}

fn seeds(game: &AnyGame) -> u32 {
    let setup = game.to_setup();
    setup
        .pits
        .iter()
        .chain(&setup.stores)
        .chain(&setup.reserves)
        .sum()
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Plays one whole random match of `kind`, checking every property after every move.
fn check_random_match(
    kind: GameKind,
    seed: u64,
    first_player: Player,
) -> Result<(), TestCaseError> {
    let options = Options {
        first_player,
        ..Options::default()
    };
    let mut game = AnyGame::new_match(kind, &options);
    let total = seeds(&game);
    let candidates = candidates(kind);
    let mut rng = seed | 1;
    let mut plies = 0u32;
    loop {
        let legal = game.legal_moves();
        // Terminal ⇔ no legal move.
        prop_assert_eq!(legal.is_empty(), game.status() == Status::MatchOver);
        prop_assert_eq!(
            game.to_move().is_some(),
            game.status() == Status::InProgress
        );
        // The wire shape round-trips.
        prop_assert_eq!(
            &AnyGame::from_setup(&game.to_setup()).expect("own states are valid"),
            &game
        );
        // is_legal == legal_moves().contains, and illegal moves change nothing.
        for mv in &candidates {
            let mut tried = game.clone();
            let outcome = tried.play(mv, &mut NoTrace);
            prop_assert_eq!(
                outcome.is_ok(),
                legal.contains(mv),
                "{:?} in {:?}",
                mv,
                game
            );
            if outcome.is_err() {
                prop_assert_eq!(&tried, &game);
            }
            // play_and_list: the same outcome, state and events as play, then the next position's legal moves.
            let mut listed = game.clone();
            let mut listed_events: Vec<Event> = Vec::new();
            let mut next = MoveList::new();
            next.push(Move::NextGame(PitSet::EMPTY)); // stale content must not survive
            let mut played_events: Vec<Event> = Vec::new();
            let mut played = game.clone();
            let played_outcome = played.play(mv, &mut played_events);
            prop_assert_eq!(
                listed.play_and_list(mv, &mut listed_events, &mut next),
                played_outcome
            );
            prop_assert_eq!(&listed, &played);
            prop_assert_eq!(&listed_events, &played_events);
            if played_outcome.is_ok() {
                prop_assert_eq!(&next, &played.legal_moves(), "after {:?} in {:?}", mv, game);
            } else {
                prop_assert!(next.is_empty());
            }
            // play_listing handed a list that already holds moves plays exactly as play.
            let mut stale = MoveList::new();
            stale.push(Move::NextGame(PitSet::EMPTY));
            let mut listing = game.clone();
            prop_assert_eq!(play_listing(&mut listing, mv, &mut stale), played_outcome);
            prop_assert_eq!(&listing, &played, "{:?} in {:?}", mv, game);
        }
        if legal.is_empty() {
            return Ok(());
        }
        let mv = legal[(xorshift(&mut rng) % legal.len() as u64) as usize];
        let mut events: Vec<Event> = Vec::new();
        game.play(&mv, &mut events).expect("listed moves are legal");
        prop_assert_eq!(seeds(&game), total, "seeds conserved after {:?}", mv);
        plies += 1;
        prop_assert!(
            plies < 50_000,
            "the match of {:?} did not end (seed {})",
            kind,
            seed
        );
    }
}

fn implemented() -> Vec<GameKind> {
    GameKind::ALL.to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

    #[test]
    fn every_random_match_keeps_every_property(seed in any::<u64>(), north_starts in any::<bool>()) {
        let first = if north_starts { Player::North } else { Player::South };
        for kind in implemented() {
            check_random_match(kind, seed, first)?;
        }
    }
}
