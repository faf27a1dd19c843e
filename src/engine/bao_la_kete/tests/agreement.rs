//! The fast paths agree with the rules searched step by step: the board-only trial with `run`, the start sets
//! with the layers searched hole by hole.

use super::*;

/// The board-only trial (`trial_early`) answers what `run` answers on a copy of the game, for every start of
/// every layer and player and every choice of kichwa and kuu decision, in positions of random matches (nemo and
/// mtaji, living and dead kuus, hizi-zetu marks); it leaves to `run` only moves longer than its unwatched laps.
#[test]
fn the_board_only_trial_agrees_with_run() {
    use crate::engine::{Game, MoveList, Rng};
    let mut rng = Rng::new(0x7A7A);
    let (mut decided, mut long, mut marked) = (0u32, 0u32, 0u32);
    let kichwas = [None, Some(Kichwa::Left), Some(Kichwa::Right)];
    let decisions = [None, Some(KuuDecision::Stop), Some(KuuDecision::Safari)];
    for _ in 0..300 {
        let mut game = BaoLaKete::new_match(&crate::engine::Options::default());
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        while game.status == Status::InProgress && !moves.is_empty() {
            marked += u32::from(game.mark.is_some());
            for (mover, layer) in Player::BOTH.into_iter().flat_map(|p| {
                [
                    moves::Layer::MarkedCaptures,
                    moves::Layer::Captures,
                    moves::Layer::Takatas,
                ]
                .map(|l| (p, l))
            }) {
                let mut starts = moves::Starts::new();
                game.starts(mover, layer, &mut starts);
                for start in starts {
                    for (&kichwa, &decision) in kichwas
                        .iter()
                        .flat_map(|k| decisions.iter().map(move |d| (k, d)))
                    {
                        let choices = moves::Choices { kichwa, decision };
                        let run = game
                            .clone()
                            .run(mover, start, choices, &mut NoTrace)
                            .map(|_| ());
                        match game.trial_early(mover, start, choices) {
                            Some(early) => {
                                assert_eq!(
                                    early, run,
                                    "{start:?} {choices:?} of {mover} in {game:?}"
                                );
                                decided += 1;
                            }
                            None => long += 1,
                        }
                    }
                }
            }
            let mv = moves[rng.below(moves.len())];
            game.play_and_list(&mv, &mut NoTrace, &mut moves)
                .expect("listed moves are legal");
        }
    }
    assert!(
        decided > 100_000 && long > 0 && marked > 0,
        "{decided} {long} {marked}"
    );
}

/// A position with the 64 seeds spread at random: reserves of 0 to 22, any hole count, either kuu alive or dead
/// whatever it holds, and half the time a mark against either player (the start sets read the rows as words,
/// so odd rows are the point).
fn random_position(rng: &mut crate::engine::Rng) -> BaoLaKete {
    let mut game = BaoLaKete::new_match(&crate::engine::Options::default());
    game.pits = [0; PITS];
    let mut left = SEEDS;
    for r in 0..2 {
        let reserve = match rng.below(3) {
            0 => 0,
            _ => rng.below(RESERVE as usize + 1) as u8,
        };
        game.reserves[r] = reserve.min(left);
        left -= game.reserves[r];
    }
    // Most seeds in a few holes now and then, to reach the 16-seed rule.
    let holes = 1 + rng.below(PITS);
    for _ in 0..left {
        game.pits[rng.below(holes) * PITS / holes] += 1;
    }
    game.kuu_alive = [rng.below(2) == 0, rng.below(2) == 0];
    game.mark = (rng.below(2) == 0).then(|| {
        let blockee = if rng.below(2) == 0 { S } else { N };
        HiziZetuMark {
            blockee,
            pit: base(blockee) + rng.below(ROW as usize) as u8,
            setter: blockee.opponent(),
        }
    });
    game
}

/// The start sets (`capture_starts`, `takata_starts`, …) and what is built on them — the listing, whether a move
/// exists, the obligation `check_sow` asks — agree with the layers searched hole by hole (`starts`,
/// `collect_legal_moves_by_layers`, `first_live_start`, `check_obligation_by_search`), for both players, on the
/// positions of 200 random matches and on 20,000 random positions.
#[test]
fn the_start_sets_agree_with_the_layers_hole_by_hole() {
    use crate::engine::{Game, MoveList, Rng};
    let layers = [
        moves::Layer::MarkedCaptures,
        moves::Layer::Captures,
        moves::Layer::Takatas,
    ];
    let mut rng = Rng::new(0x5E75);
    let mut positions = 0u32;
    let (mut refused, mut takata_listings, mut marked_listings) = (0u32, 0u32, 0u32);
    let mut check = |game: &BaoLaKete| {
        positions += 1;
        for mover in Player::BOTH {
            let mut by_sets = MoveList::new();
            game.collect_legal_moves(mover, &mut by_sets);
            let mut by_layers = MoveList::new();
            game.collect_legal_moves_by_layers(mover, &mut by_layers);
            assert_eq!(by_sets, by_layers, "{mover} in {game:?}");
            let reference = [moves::Layer::Captures, moves::Layer::Takatas]
                .iter()
                .any(|&layer| game.first_live_start(mover, layer).is_some());
            assert_eq!(game.has_legal_move(mover), reference, "{mover} in {game:?}");
            let mut first = [None; 3];
            for (i, layer) in layers.into_iter().enumerate() {
                let mut starts = moves::Starts::new();
                game.starts(mover, layer, &mut starts);
                first[i] = starts.first().copied();
            }
            takata_listings += u32::from(first[1].is_none() && !by_sets.is_empty());
            marked_listings += u32::from(first[0].is_some());
            for pit in 0..PITS as u8 {
                for layer in layers {
                    let fast = game.check_obligation(mover, pit, layer);
                    assert_eq!(
                        fast,
                        game.check_obligation_by_search(mover, pit, layer),
                        "{mover} {pit} {layer:?} in {game:?}"
                    );
                    refused += u32::from(fast.is_err());
                }
            }
        }
    };
    for _ in 0..200 {
        let mut game = BaoLaKete::new_match(&crate::engine::Options::default());
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        while game.status == Status::InProgress && !moves.is_empty() {
            check(&game);
            let mv = moves[rng.below(moves.len())];
            game.play_and_list(&mv, &mut NoTrace, &mut moves)
                .expect("listed moves are legal");
        }
    }
    for _ in 0..20_000 {
        check(&random_position(&mut rng));
    }
    assert!(
        positions > 30_000 && refused > 0 && takata_listings > 0 && marked_listings > 0,
        "{positions} {refused} {takata_listings} {marked_listings}"
    );
}
