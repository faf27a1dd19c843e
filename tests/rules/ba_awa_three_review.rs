//! Independent review of three-player Ba-awa (RULES.md §4.7, with §1 and §4.1–§4.4), through the public engine API
//! only: hand-worked positions (each with its working), the worked examples BA-7 and BA-8 as read from the rules,
//! and a small reference model written from the rules text alone, played against the engine over many seeded random
//! matches (three players, plus a few two-player matches to check that two-player play is unchanged).
//!
//! Per-seat lists are `[South, North, East]` (the engine's index order); turn order is South → East → North.
//!
//! Readings of §4.7 this file relies on (where the text leaves room):
//! - A game's `winner` while the match goes on (GameOver) is the seat with the unique largest winnings, `None` when
//!   the largest is shared (the two-player convention; §4.7 does not define a game winner).
//! - Step 2 (elimination) comes before step 3 (match end), so a seat that wins no pits in the game that ends the
//!   match is eliminated in that game too (it matters only for placing, where it ranks below a seat that still holds
//!   pits and above seats eliminated earlier).
//! - "Checked when a game starts": the starter is asked first, then the others in turn order; the first who can
//!   move is to move (with 4 seeds in every pit this is always the starter).
//! - A seat with no legal move passes and the next still-in seat in turn order is asked; when every other seat has
//!   passed the mover moves again; when nobody (mover included) can move the game ends and the starter takes the
//!   board.

use mancala::engine::{
    AnyGame, EndReason, Event, GameKind, Move, Options, PerSeat, PitSet, Player, Setup, Sow,
    Status, VariantSetup, RULES_VERSION,
};
use std::collections::HashSet;

const S: usize = 0;
const N: usize = 1;
const E: usize = 2;
/// Seat indices in turn order (§4.7: South → East → North; §4: South, North).
const TURN3: [usize; 3] = [S, E, N];
const TURN2: [usize; 2] = [S, N];

/// A sowing's result in the model: the board, the winnings and the fours taken (pit, beneficiary).
type Sown = ([u8; 12], [u32; 3], Vec<(usize, usize)>);
fn player(seat: usize) -> Player {
    Player::ALL[seat]
}

fn sow(pit: usize) -> Move {
    Move::Sow(Sow::from(pit as u8))
}

// ---------------------------------------------------------------------------------------------------------------
// The reference model, from RULES.md §1, §4.1–§4.4 and §4.7 alone.
// ---------------------------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Model {
    seats: usize,
    pits: [u8; 12],
    /// Seat index owning each pit.
    owner: [usize; 12],
    stores: [u32; 3],
    starter: usize,
    to_move: Option<usize>,
    status: Status,
    winner: Option<usize>,
    /// Game at whose end the seat was eliminated, 0 while it is in.
    out_in: [u32; 3],
    game: u32,
    target: u32,
    placing: Option<[u8; 3]>,
    /// What the last step did, to compare with the engine's events.
    newly_out: Vec<usize>,
    passes: Vec<usize>,
    captures: Vec<(usize, usize)>,
    /// Seeds the starter took at the end of the game just ended by the last step.
    collected: Option<u32>,
}

/// §4.7 step 4: blocks of consecutive pits from pit 0, South's first, then East's, then North's.
fn blocks(pits_won: [u32; 3]) -> [usize; 12] {
    let mut owner = [usize::MAX; 12];
    let mut at = 0;
    for seat in TURN3 {
        for _ in 0..pits_won[seat] {
            owner[at] = seat;
            at += 1;
        }
    }
    assert_eq!(at, 12, "blocks of {pits_won:?} do not fill the board");
    owner
}

/// §4.4 step 3 (default choice): the player with n ≥ 6 keeps his row and takes the opponent's n − 6 leftmost pits.
fn two_player_allocation(pits_won: [u32; 3]) -> [usize; 12] {
    let mut owner = [S, S, S, S, S, S, N, N, N, N, N, N];
    if pits_won[S] > 6 {
        for owned in &mut owner[6..6 + (pits_won[S] as usize - 6)] {
            *owned = S;
        }
    } else if pits_won[N] > 6 {
        for owned in &mut owner[..pits_won[N] as usize - 6] {
            *owned = N;
        }
    }
    owner
}

impl Model {
    fn new(seats: usize, first: usize, target: u32) -> Model {
        let owner = if seats == 3 {
            blocks([4, 4, 4])
        } else {
            two_player_allocation([6, 6, 0])
        };
        Model {
            seats,
            pits: [4; 12],
            owner,
            stores: [0; 3],
            starter: first,
            to_move: Some(first),
            status: Status::InProgress,
            winner: None,
            out_in: [0; 3],
            game: 1,
            target,
            placing: None,
            newly_out: vec![],
            passes: vec![],
            captures: vec![],
            collected: None,
        }
    }

    fn order(&self) -> &'static [usize] {
        if self.seats == 3 {
            &TURN3
        } else {
            &TURN2
        }
    }

    fn still_in(&self, seat: usize) -> bool {
        self.out_in[seat] == 0
    }

    /// Still-in seats in turn order, from the one after `seat` round to `seat` itself (when still in).
    fn after(&self, seat: usize) -> Vec<usize> {
        let order = self.order();
        let at = order.iter().position(|&s| s == seat).unwrap();
        (1..=order.len())
            .map(|k| order[(at + k) % order.len()])
            .filter(|&s| self.still_in(s))
            .collect()
    }

    /// §4.2 with §1's never-ending rule: `None` when the sowing never ends (a relay state repeats).
    fn sow(&self, pit: usize, mover: usize) -> Option<Sown> {
        let mut pits = self.pits;
        let mut stores = self.stores;
        let mut captures = vec![];
        let mut seen = HashSet::new();
        let mut origin = pit;
        loop {
            let mut hand = pits[origin];
            pits[origin] = 0;
            let mut pos = origin;
            while hand > 0 {
                pos = (pos + 1) % 12;
                pits[pos] += 1;
                hand -= 1;
                if hand > 0 && pits[pos] == 4 {
                    stores[self.owner[pos]] += 4;
                    pits[pos] = 0;
                    captures.push((pos, self.owner[pos]));
                }
            }
            if pits[pos] == 4 {
                stores[mover] += 4;
                pits[pos] = 0;
                captures.push((pos, mover));
                return Some((pits, stores, captures));
            }
            if pits[pos] == 1 {
                return Some((pits, stores, captures));
            }
            if !seen.insert((pits, pos)) {
                return None;
            }
            origin = pos;
        }
    }

    fn legal(&self, seat: usize) -> Vec<usize> {
        (0..12)
            .filter(|&pit| {
                self.owner[pit] == seat && self.pits[pit] > 0 && self.sow(pit, seat).is_some()
            })
            .collect()
    }

    fn board(&self) -> u32 {
        self.pits.iter().map(|&p| p as u32).sum()
    }

    fn play(&mut self, pit: usize) {
        self.collected = None;
        self.newly_out.clear();
        self.passes.clear();
        let mover = self.to_move.expect("a player to move");
        assert!(
            self.legal(mover).contains(&pit),
            "model: {pit} is not legal"
        );
        let (pits, stores, captures) = self.sow(pit, mover).unwrap();
        self.pits = pits;
        self.stores = stores;
        self.captures = captures;
        if self.board() <= 8 {
            self.end_game();
            return;
        }
        for seat in self.after(mover) {
            if !self.legal(seat).is_empty() {
                self.to_move = Some(seat);
                return;
            }
            if seat != mover {
                self.passes.push(seat);
            }
        }
        self.end_game();
    }

    fn end_game(&mut self) {
        self.collected = Some(self.board());
        self.stores[self.starter] += self.board();
        self.pits = [0; 12];
        self.to_move = None;
        let won = self.stores.map(|s| s / 4);
        if self.seats == 3 {
            for seat in [S, N, E] {
                if self.still_in(seat) && won[seat] == 0 {
                    self.out_in[seat] = self.game;
                    self.newly_out.push(seat);
                }
            }
        }
        let match_winner = (0..self.seats)
            .find(|&s| won[s] >= self.target || (self.seats == 2 && won[1 - s] == 0));
        match match_winner {
            Some(w) => {
                self.status = Status::MatchOver;
                self.winner = Some(w);
                if self.seats == 3 {
                    // Winner first; then seats still holding pits; then the eliminated, later above earlier.
                    let key = |s: usize| -> (u32, u32) {
                        if s == w {
                            (2, 0)
                        } else if self.out_in[s] == 0 {
                            (1, 0)
                        } else {
                            (0, self.out_in[s])
                        }
                    };
                    let placing: [u8; 3] = std::array::from_fn(|s| {
                        1 + (0..3).filter(|&t| key(t) > key(s)).count() as u8
                    });
                    self.placing = Some(placing);
                }
            }
            None => {
                self.status = Status::GameOver;
                let best = *self.stores[..self.seats].iter().max().unwrap();
                let leaders: Vec<usize> = (0..self.seats)
                    .filter(|&s| self.stores[s] == best)
                    .collect();
                self.winner = (leaders.len() == 1).then(|| leaders[0]);
            }
        }
    }

    fn next_game(&mut self) {
        self.collected = None;
        self.newly_out.clear();
        self.passes.clear();
        self.captures.clear();
        assert_eq!(self.status, Status::GameOver);
        let won = self.stores.map(|s| s / 4);
        self.owner = if self.seats == 3 {
            blocks(won)
        } else {
            two_player_allocation(won)
        };
        self.pits = [4; 12];
        self.stores = [0; 3];
        self.game += 1;
        self.starter = self.after(self.starter)[0];
        self.status = Status::InProgress;
        self.winner = None;
        self.to_move = None;
        let mut asked = vec![self.starter];
        asked.extend(
            self.after(self.starter)
                .into_iter()
                .filter(|&s| s != self.starter),
        );
        for seat in asked {
            if !self.legal(seat).is_empty() {
                self.to_move = Some(seat);
                return;
            }
            self.passes.push(seat);
        }
        self.end_game();
    }

    fn legal_moves(&self) -> Vec<Move> {
        match (self.status, self.to_move) {
            (Status::InProgress, Some(m)) => self.legal(m).into_iter().map(sow).collect(),
            (Status::GameOver, _) => vec![Move::NextGame(PitSet::EMPTY)],
            _ => vec![],
        }
    }
}

/// The model of a validated engine state (for the hand-worked positions).
fn model_of(game: &AnyGame) -> Model {
    let setup = game.to_setup();
    let VariantSetup::BaAwa {
        owners,
        starter,
        target,
        eliminated_in,
        ..
    } = &setup.variant
    else {
        panic!("not Ba-awa")
    };
    let seats = setup.stores.len();
    let mut stores = [0; 3];
    for (i, &s) in setup.stores.iter().enumerate() {
        stores[i] = s;
    }
    let mut out_in = [0; 3];
    for (i, &g) in eliminated_in.iter().enumerate() {
        out_in[i] = g;
    }
    Model {
        seats,
        pits: std::array::from_fn(|i| setup.pits[i] as u8),
        owner: std::array::from_fn(|i| owners[i].unwrap().index()),
        stores,
        starter: starter.unwrap().index(),
        to_move: setup.to_move.map(Player::index),
        status: setup.status.unwrap(),
        winner: setup.winner.map(Player::index),
        out_in,
        game: setup.game_number,
        target: *target,
        placing: None,
        newly_out: vec![],
        passes: vec![],
        captures: vec![],
        collected: None,
    }
}

/// Compares everything the rules decide, plus the events of the step just played.
fn compare(engine: &AnyGame, model: &Model, events: &[Event], ctx: &str) {
    let setup = engine.to_setup();
    let pits: Vec<u32> = model.pits.iter().map(|&p| p as u32).collect();
    assert_eq!(setup.pits, pits, "{ctx}: board");
    assert_eq!(
        setup.stores,
        model.stores[..model.seats].to_vec(),
        "{ctx}: stores [S, N, E]"
    );
    assert_eq!(
        engine.to_move(),
        model.to_move.map(player),
        "{ctx}: to_move"
    );
    assert_eq!(engine.status(), model.status, "{ctx}: status");
    assert_eq!(engine.winner(), model.winner.map(player), "{ctx}: winner");
    assert_eq!(setup.game_number, model.game, "{ctx}: game number");
    let VariantSetup::BaAwa {
        owners,
        starter,
        eliminated_in,
        ..
    } = &setup.variant
    else {
        panic!("{ctx}: not Ba-awa")
    };
    let model_owners: Vec<Option<Player>> = model.owner.iter().map(|&s| Some(player(s))).collect();
    assert_eq!(owners, &model_owners, "{ctx}: owners");
    assert_eq!(*starter, Some(player(model.starter)), "{ctx}: starter");
    if model.seats == 3 {
        assert_eq!(
            eliminated_in,
            &model.out_in.to_vec(),
            "{ctx}: eliminated_in"
        );
    }
    // Events of the step.
    let out: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            Event::Elimination { player } => Some(player.index()),
            _ => None,
        })
        .collect();
    let mut model_out = model.newly_out.clone();
    model_out.sort();
    let mut engine_out = out.clone();
    engine_out.sort();
    assert_eq!(engine_out, model_out, "{ctx}: eliminations");
    let placing = events.iter().find_map(|e| match e {
        Event::MatchEnd { placing, .. } => Some(*placing),
        _ => None,
    });
    if model.status == Status::MatchOver && !events.is_empty() {
        let expected = match model.placing {
            Some(p) => PerSeat::of([p[0], p[1], p[2]], 3),
            None => PerSeat::NONE,
        };
        assert_eq!(placing, Some(expected), "{ctx}: placing [S, N, E]");
    } else {
        assert_eq!(placing, None, "{ctx}: no MatchEnd");
    }
    let passes: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            Event::Pass { player } => Some(player.index()),
            _ => None,
        })
        .collect();
    // The engine's passes at the end of a game by BothStuck may include the last asked seat; compare those only
    // while the game goes on.
    if model.status == Status::InProgress {
        assert_eq!(passes, model.passes, "{ctx}: passes");
    }
    // The game's end: the starter takes what is left; the final winnings; the match score once over.
    let game_end = events.iter().find_map(|e| match e {
        Event::GameEnd {
            collector,
            collected,
            stores,
            ..
        } => Some((*collector, *collected as u32, *stores)),
        _ => None,
    });
    let won: Vec<u8> = model.stores[..model.seats]
        .iter()
        .map(|&s| (s / 4) as u8)
        .collect();
    match model.collected {
        Some(collected) => {
            let stores: Vec<u8> = model.stores[..model.seats]
                .iter()
                .map(|&s| s as u8)
                .collect();
            assert_eq!(
                game_end,
                Some((
                    Some(player(model.starter)),
                    collected,
                    PerSeat::of(pad(&stores), model.seats)
                )),
                "{ctx}: GameEnd (collector, collected, stores)"
            );
        }
        None => assert_eq!(game_end, None, "{ctx}: no GameEnd"),
    }
    if let Some(score) = events.iter().find_map(|e| match e {
        Event::MatchEnd { score, winner, .. } => Some((*score, *winner)),
        _ => None,
    }) {
        assert_eq!(
            score,
            (
                PerSeat::of(pad(&won), model.seats),
                model.winner.map(player)
            ),
            "{ctx}: MatchEnd score and winner"
        );
    }
    // A new game: the allocation event says what the model's ownership is.
    if let Some(allocation) = events.iter().find_map(|e| match e {
        Event::Allocation {
            north_owned,
            east_owned,
            pits_owned,
            starter,
        } => Some((*north_owned, *east_owned, *pits_owned, *starter)),
        _ => None,
    }) {
        let bits = |seat: usize| -> u16 {
            (0..12)
                .filter(|&p| model.owner[p] == seat)
                .map(|p| 1u16 << p)
                .sum()
        };
        let counts: Vec<u8> = (0..model.seats)
            .map(|seat| model.owner.iter().filter(|&&o| o == seat).count() as u8)
            .collect();
        assert_eq!(
            allocation,
            (
                bits(N),
                bits(E),
                PerSeat::of(pad(&counts), model.seats),
                player(model.starter)
            ),
            "{ctx}: Allocation"
        );
    }
    // Legal moves, and the wire state round trip.
    let engine_moves: Vec<Move> = engine.legal_moves().into_iter().collect();
    assert_eq!(engine_moves, model.legal_moves(), "{ctx}: legal moves");
    assert_eq!(
        AnyGame::from_setup(&setup).as_ref(),
        Ok(engine),
        "{ctx}: to_setup/from_setup round trip"
    );
}

/// Two or three values as the three of a [`PerSeat`].
fn pad(values: &[u8]) -> [u8; 3] {
    let mut out = [0; 3];
    out[..values.len()].copy_from_slice(values);
    out
}

fn play(engine: &mut AnyGame, model: &mut Model, mv: Move, ctx: &str) -> Vec<Event> {
    let mut events = Vec::new();
    engine
        .play(&mv, &mut events)
        .unwrap_or_else(|e| panic!("{ctx}: engine refused {mv:?}: {e:?}"));
    match mv {
        Move::Sow(s) => model.play(s.pit as usize),
        Move::NextGame(_) => model.next_game(),
    }
    compare(engine, model, &events, ctx);
    events
}

// ---------------------------------------------------------------------------------------------------------------
// Building positions.
// ---------------------------------------------------------------------------------------------------------------

fn options3(first: Player, target: u8) -> Options {
    Options {
        first_player: first,
        ba_awa_target: target,
        ba_awa_players: 3,
        ..Options::default()
    }
}

/// A three-player game in progress. `blocks_sen` is the block sizes in seat order South, East, North; `stores` and
/// `out_in` are `[S, N, E]`.
#[allow(clippy::too_many_arguments)]
fn position3(
    pits: [u32; 12],
    stores: [u32; 3],
    blocks_sen: [u32; 3],
    starter: Player,
    to_move: Player,
    game_number: u32,
    target: u32,
    out_in: [u32; 3],
) -> AnyGame {
    let won = [blocks_sen[0], blocks_sen[2], blocks_sen[1]];
    let owner = blocks(won);
    let setup = Setup {
        kind: GameKind::BaAwa,
        rules_version: RULES_VERSION,
        pits: pits.to_vec().into(),
        stores: stores.to_vec().into(),
        reserves: vec![0; 3].into(),
        to_move: Some(to_move),
        status: Some(Status::InProgress),
        winner: None,
        ply: 10,
        game_number,
        match_score: won.to_vec().into(),
        variant: VariantSetup::BaAwa {
            owners: owner.iter().map(|&s| Some(player(s))).collect(),
            starter: Some(starter),
            target,
            players: 3,
            eliminated_in: out_in.to_vec().into(),
        },
    };
    AnyGame::from_setup(&setup).unwrap_or_else(|e| panic!("position refused: {e}"))
}

fn owners_of(game: &AnyGame) -> Vec<Player> {
    match game.to_setup().variant {
        VariantSetup::BaAwa { owners, .. } => owners.into_iter().map(Option::unwrap).collect(),
        _ => panic!("not Ba-awa"),
    }
}

fn starter_of(game: &AnyGame) -> Player {
    match game.to_setup().variant {
        VariantSetup::BaAwa { starter, .. } => starter.unwrap(),
        _ => panic!("not Ba-awa"),
    }
}

fn eliminated_of(game: &AnyGame) -> Vec<u32> {
    match game.to_setup().variant {
        VariantSetup::BaAwa { eliminated_in, .. } => eliminated_in.into_vec(),
        _ => panic!("not Ba-awa"),
    }
}

fn stores_of(game: &AnyGame) -> Vec<u32> {
    game.to_setup().stores.into_vec()
}

fn pits_of(game: &AnyGame) -> Vec<u32> {
    game.to_setup().pits.into_vec()
}

fn placing_in(events: &[Event]) -> Option<PerSeat> {
    events.iter().find_map(|e| match e {
        Event::MatchEnd { placing, .. } => Some(*placing),
        _ => None,
    })
}

fn eliminations_in(events: &[Event]) -> Vec<Player> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Elimination { player } => Some(*player),
            _ => None,
        })
        .collect()
}

use Player::{East as PE, North as PN, South as PS};

/// Runs `moves` on the engine and the model together from `engine`, comparing after each.
fn run_both(engine: &mut AnyGame, moves: &[Move]) -> Vec<Vec<Event>> {
    let mut model = model_of(engine);
    moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| play(engine, &mut model, mv, &format!("step {i} ({mv:?})")))
        .collect()
}

// ---------------------------------------------------------------------------------------------------------------
// Worked examples BA-7 and BA-8.
// ---------------------------------------------------------------------------------------------------------------

/// BA-8: from the start, S S3 (pit 2), E S6 (pit 5), N N5 (pit 10), S S1 (pit 0), E N1 (pit 6), N N4 (pit 9) reach
/// `[1,2,0,13,2,1 | 1,3,1,0,3,1]` with S 8, E 12, N 0 and South to move; S4 (pit 3, 13 seeds) then gives East the
/// four in pit 7, North the four in pit 10 and South the final four in pit 4.
#[test]
fn ba_awa_three_ba8_worked_example() {
    let mut engine = AnyGame::new_match(GameKind::BaAwa, &options3(PS, 10));
    assert_eq!(engine.seats(), 3);
    assert_eq!(engine.to_move(), Some(PS));
    let opening = [2, 5, 10, 0, 6, 9].map(sow);
    let movers = [PS, PE, PN, PS, PE, PN];
    let mut model = model_of(&engine);
    for (i, mv) in opening.iter().enumerate() {
        assert_eq!(
            engine.to_move(),
            Some(movers[i]),
            "turn order S → E → N at ply {i}"
        );
        play(
            &mut engine,
            &mut model,
            *mv,
            &format!("BA-8 opening ply {i}"),
        );
    }
    assert_eq!(pits_of(&engine), vec![1, 2, 0, 13, 2, 1, 1, 3, 1, 0, 3, 1]);
    assert_eq!(stores_of(&engine), vec![8, 0, 12], "S 8, N 0, E 12");
    assert_eq!(engine.to_move(), Some(PS));
    assert_eq!(engine.legal_moves().to_vec(), vec![sow(0), sow(1), sow(3)]);

    let events = play(&mut engine, &mut model, sow(3), "BA-8 S4");
    let captures: Vec<(u8, Player)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Capture {
                pit, beneficiary, ..
            } => Some((*pit, *beneficiary)),
            _ => None,
        })
        .collect();
    assert_eq!(captures, vec![(7, PE), (10, PN), (4, PS)]);
    assert_eq!(pits_of(&engine), vec![2, 3, 1, 1, 0, 2, 2, 0, 2, 1, 0, 2]);
    assert_eq!(stores_of(&engine), vec![12, 4, 16], "S 12, N 4, E 16");
    assert_eq!(engine.status(), Status::InProgress);
    assert_eq!(engine.to_move(), Some(PE), "16 > 8, so East moves");
}

/// BA-7, first part: a game ends with S 20, E 12, N 16 → pits S 5, E 3, N 4 → South owns 0–4, East 5–7, North 8–11.
///
/// Position (game 1, blocks 4/4/4, South started), stores S 12, E 12, N 12, 12 seeds on the board:
/// `[2,0,0,0,2,0 | 2,0,3,0,0,3]`. North plays N3 (pit 8, 3 seeds): pit 9 0→1, pit 10 0→1, pit 11 3→4 with the last
/// seed → North +4 (16). Board `[2,0,0,0,2,0 | 2,0,0,1,1,0]` = 8 ≤ 8 → South (starter) takes 8 → S 20.
/// Next game: blocks 5/3/4; starter East (next after South); East to move.
#[test]
fn ba_awa_three_ba7_allocation_by_blocks() {
    let mut engine = position3(
        [2, 0, 0, 0, 2, 0, 2, 0, 3, 0, 0, 3],
        [12, 12, 12],
        [4, 4, 4],
        PS,
        PN,
        1,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(8), Move::NextGame(PitSet::EMPTY)]);
    let game_end = steps[0]
        .iter()
        .find_map(|e| match e {
            Event::GameEnd {
                reason,
                collector,
                collected,
                stores,
                ..
            } => Some((*reason, *collector, *collected, *stores)),
            _ => None,
        })
        .expect("the game ends");
    assert_eq!(
        game_end,
        (
            EndReason::FewSeedsLeft,
            Some(PS),
            8,
            PerSeat::of([20, 16, 12], 3)
        )
    );
    assert_eq!(engine.status(), Status::InProgress);
    let owners = owners_of(&engine);
    assert_eq!(
        owners,
        vec![PS, PS, PS, PS, PS, PE, PE, PE, PN, PN, PN, PN],
        "South 0–4, East 5–7, North 8–11"
    );
    assert_eq!(starter_of(&engine), PE);
    assert_eq!(engine.to_move(), Some(PE));
    assert_eq!(pits_of(&engine), vec![4; 12]);
    assert_eq!(stores_of(&engine), vec![0, 0, 0]);
    let allocation = steps[1]
        .iter()
        .find_map(|e| match e {
            Event::Allocation {
                north_owned,
                east_owned,
                pits_owned,
                starter,
            } => Some((*north_owned, *east_owned, *pits_owned, *starter)),
            _ => None,
        })
        .expect("an allocation event");
    assert_eq!(
        allocation,
        (0xF00, 0x0E0, PerSeat::of([5, 4, 3], 3), PE),
        "North 8–11, East 5–7; pits [S, N, E]"
    );
}

/// BA-7, second part, with East the starter of the game in which he goes out ("even if that starter has just been
/// eliminated").
///
/// Game 5, blocks 5/3/4 (S 0–4, E 5–7, N 8–11), East started; stores S 16, E 0, N 20; board `[3,3,3,3,0,…]` (12).
/// South plays S1 (pit 0, 3 seeds): pit 1 3→4 en passant → South (owner) +4; pit 2 3→4 en passant → South +4; pit 3
/// 3→4 final → South (mover) +4. Board empty (0 ≤ 8): East takes 0. Final S 28, E 0, N 20 → S 7, E 0, N 5: East
/// is eliminated. Next game: South owns 0–6, North 7–11; starter = next still-in seat after East = North; then
/// South and North alternate.
#[test]
fn ba_awa_three_ba7_elimination_of_the_starter() {
    let mut engine = position3(
        [3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        [16, 20, 0],
        [5, 3, 4],
        PE,
        PS,
        5,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(0)]);
    assert_eq!(engine.status(), Status::GameOver);
    assert_eq!(stores_of(&engine), vec![28, 20, 0]);
    assert_eq!(eliminations_in(&steps[0]), vec![PE]);
    assert_eq!(eliminated_of(&engine), vec![0, 0, 5]);
    assert_eq!(engine.winner(), Some(PS), "the game's largest winnings");

    let steps = run_both(&mut engine, &[Move::NextGame(PitSet::EMPTY)]);
    assert!(eliminations_in(&steps[0]).is_empty());
    assert_eq!(
        owners_of(&engine),
        vec![PS, PS, PS, PS, PS, PS, PS, PN, PN, PN, PN, PN],
        "South 0–6, North 7–11"
    );
    assert_eq!(
        starter_of(&engine),
        PN,
        "the next still-in seat after East's is North's"
    );
    assert_eq!(engine.to_move(), Some(PN));
    // South and North alternate; East never moves again.
    let mut model = model_of(&engine);
    let mut expected = PN;
    for ply in 0..8 {
        if engine.status() != Status::InProgress {
            break;
        }
        assert_eq!(engine.to_move(), Some(expected), "ply {ply}");
        let mv = engine.legal_moves()[0];
        play(
            &mut engine,
            &mut model,
            mv,
            &format!("after elimination ply {ply}"),
        );
        expected = if expected == PN { PS } else { PN };
    }
    // East's move is refused in his old pits.
    assert!(engine.check(&sow(5)).is_err());
}

/// BA-7 with South the starter: East goes out in a game South began; the next starter is North (East is skipped).
///
/// Game 3, blocks 5/3/4, South started; stores S 16, E 0, N 20; board `[3,3,3,3,0,…]`. South plays S1 exactly as
/// above: S 28, E 0, N 20, the board is empty so South collects 0. Next starter: after South comes East (out), then
/// North → North.
#[test]
fn ba_awa_three_ba7_elimination_skips_the_next_seat() {
    let mut engine = position3(
        [3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        [16, 20, 0],
        [5, 3, 4],
        PS,
        PS,
        3,
        10,
        [0, 0, 0],
    );
    run_both(&mut engine, &[sow(0), Move::NextGame(PitSet::EMPTY)]);
    assert_eq!(eliminated_of(&engine), vec![0, 0, 3]);
    assert_eq!(starter_of(&engine), PN);
    assert_eq!(engine.to_move(), Some(PN));
}

/// The starter North goes out in his own game (the board is emptied, so he collects nothing); the next starter is
/// the next still-in seat after North's: South.
///
/// Game 4, blocks 5/3/4, North started; stores S 24, E 12, N 0; board `[3,3,3,3,0,…]`: South S1 takes 12 → S 36,
/// E 12, N 0 → S 9, E 3, N 0: North out; South owns 0–8, East 9–11; starter South.
#[test]
fn ba_awa_three_eliminated_starter_north_gives_way_to_south() {
    let mut engine = position3(
        [3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        [24, 0, 12],
        [5, 3, 4],
        PN,
        PS,
        4,
        10,
        [0, 0, 0],
    );
    run_both(&mut engine, &[sow(0), Move::NextGame(PitSet::EMPTY)]);
    assert_eq!(eliminated_of(&engine), vec![0, 4, 0]);
    assert_eq!(
        owners_of(&engine),
        vec![PS, PS, PS, PS, PS, PS, PS, PS, PS, PE, PE, PE],
        "South 0–8, East 9–11"
    );
    assert_eq!(starter_of(&engine), PS);
    assert_eq!(engine.to_move(), Some(PS));
    // Then South and East alternate.
    let mv = engine.legal_moves()[0];
    run_both(&mut engine, &[mv]);
    if engine.status() == Status::InProgress {
        assert_eq!(engine.to_move(), Some(PE));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Passes in turn order.
// ---------------------------------------------------------------------------------------------------------------

/// South moves, East has no seeds in his pits (4–7): East passes and **North** moves (not South, as a two-player
/// "opponent" would give).
///
/// Game 1 blocks; board `[1,0,3,4,0,0 | 0,0,3,3,3,3]` (20 seeds), stores S 8, N 12, E 8 (28; 48 in all).
/// South plays S1 (pit 0, 1 seed): pit 1 0→1, the last seed in an empty pit: the move ends. Board 20 > 8.
/// East owns 4–7, all empty → East passes. North owns 8–11 with 3 each → North moves.
#[test]
fn ba_awa_three_east_passes_north_moves() {
    let mut engine = position3(
        [1, 0, 3, 4, 0, 0, 0, 0, 3, 3, 3, 3],
        [8, 12, 8],
        [4, 4, 4],
        PS,
        PS,
        1,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(0)]);
    let passes: Vec<Player> = steps[0]
        .iter()
        .filter_map(|e| match e {
            Event::Pass { player } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(passes, vec![PE]);
    assert_eq!(engine.to_move(), Some(PN));
}

/// South moves, then East and North both have nothing: both pass and South moves again.
///
/// Game 1 blocks; board `[1,0,5,6,0,0 | 0,0,0,0,0,0]` (12 seeds), stores S 12, N 12, E 12. South plays S1 (pit 0,
/// 1 seed) into empty pit 1: the move ends; 12 > 8. East (4–7) and North (8–11) are empty: East passes, North
/// passes, and South moves again (he can: e.g. pit 1 → pit 2 5→6, relay 6 from pit 2 ending in empty pit 8).
#[test]
fn ba_awa_three_both_others_pass() {
    let mut engine = position3(
        [1, 0, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0],
        [12, 12, 12],
        [4, 4, 4],
        PS,
        PS,
        1,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(0)]);
    let passes: Vec<Player> = steps[0]
        .iter()
        .filter_map(|e| match e {
            Event::Pass { player } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(passes, vec![PE, PN]);
    assert_eq!(engine.to_move(), Some(PS));
    assert_eq!(engine.status(), Status::InProgress);
}

/// North moves, and South (next after North) has nothing: South passes and East moves.
///
/// Game 1 blocks; board `[0,0,0,0,3,3 | 3,3,1,0,3,4]` (20), stores S 12, N 8, E 8. North plays N3 (pit 8, 1 seed)
/// into empty pit 9: the move ends. South (0–3) is empty → passes; East (4–7) moves.
#[test]
fn ba_awa_three_south_passes_east_moves() {
    let mut engine = position3(
        [0, 0, 0, 0, 3, 3, 3, 3, 1, 0, 3, 4],
        [12, 8, 8],
        [4, 4, 4],
        PS,
        PN,
        1,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(8)]);
    let passes: Vec<Player> = steps[0]
        .iter()
        .filter_map(|e| match e {
            Event::Pass { player } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(passes, vec![PS]);
    assert_eq!(engine.to_move(), Some(PE));
}

/// A seat whose only moves never end passes (§1: "treat the player as having no legal move"; §4.7: the next player in
/// turn order moves).
///
/// Blocks S 0–5, E 6–7, N 8–11 (6/2/4, game 2); stores S 12, N 12, E 12; board `[0,1,0,1,1,2 | 1,2,1,0,2,1]` (12).
/// South plays S6 (pit 5, 2 seeds): 6 1→2, 7 2→3 (last) → relay 3 from 7: 8 →2, 9 →1, 10 →3 → relay 3 from 10:
/// 11 →2, 0 →1, 1 →2 → relay 2 from 1: 2 →1, 3 →2 → relay 2 from 3: 4 →2, 5 0→1 (last, empty): the move ends.
/// Board `[1,0,1,0,2,1 | 2,0,2,1,0,2]`, no captures, 12 > 8. East's only seeded pit, 6 (2 seeds), relays for ever
/// (its relay states repeat; found by an exhaustive relay-state search and confirmed by the model here), so East
/// passes and North moves.
#[test]
fn ba_awa_three_never_ending_move_means_a_pass() {
    let mut engine = position3(
        [0, 1, 0, 1, 1, 2, 1, 2, 1, 0, 2, 1],
        [12, 12, 12],
        [6, 2, 4],
        PS,
        PS,
        2,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(5)]);
    assert_eq!(pits_of(&engine), vec![1, 0, 1, 0, 2, 1, 2, 0, 2, 1, 0, 2]);
    let passes: Vec<Player> = steps[0]
        .iter()
        .filter_map(|e| match e {
            Event::Pass { player } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(passes, vec![PE]);
    assert_eq!(engine.to_move(), Some(PN));
}

/// East stuck on a never-ending move and North with no seeds: both pass, South moves again.
///
/// Blocks S 0–9, E 10, N 11 (10/1/1; target 11 so the position is in play), game 4; stores S 12, N 12, E 12; board
/// `[2,1,0,2,1,2 | 1,0,0,1,2,0]` (12). South plays S6 (pit 5, 2 seeds): 6 1→2, 7 0→1 (last, empty): the move ends.
/// Board `[2,1,0,2,1,0 | 2,1,0,1,2,0]`. East's pit 10 (2 seeds) never ends; North's pit 11 is empty: East passes,
/// North passes, South moves.
#[test]
fn ba_awa_three_never_ending_and_empty_both_pass() {
    let mut engine = position3(
        [2, 1, 0, 2, 1, 2, 1, 0, 0, 1, 2, 0],
        [12, 12, 12],
        [10, 1, 1],
        PS,
        PS,
        4,
        11,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(5)]);
    assert_eq!(pits_of(&engine), vec![2, 1, 0, 2, 1, 0, 2, 1, 0, 1, 2, 0]);
    let passes: Vec<Player> = steps[0]
        .iter()
        .filter_map(|e| match e {
            Event::Pass { player } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(passes, vec![PE, PN]);
    assert_eq!(engine.to_move(), Some(PS));
}

// ---------------------------------------------------------------------------------------------------------------
// Match end and placing.
// ---------------------------------------------------------------------------------------------------------------

/// All three tests below end a game with South's S1 on `[3,3,3,3,0,…]`: pits 1, 2, 3 each 3→4, the first two en
/// passant (South owns them) and the last with the final seed (South moves): South +12, the board is empty.
fn south_takes_twelve(
    stores: [u32; 3],
    blocks_sen: [u32; 3],
    starter: Player,
    game: u32,
    target: u32,
    out_in: [u32; 3],
) -> (AnyGame, Vec<Event>) {
    let mut engine = position3(
        [3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0],
        stores,
        blocks_sen,
        starter,
        PS,
        game,
        target,
        out_in,
    );
    let steps = run_both(&mut engine, &[sow(0)]);
    (engine, steps.into_iter().next().unwrap())
}

/// S 28 + 12 = 40 (10 pits, target 10), E 8 (2 pits), N 0: North goes out in the last game. South wins; East still
/// holds pits → 2nd; North 3rd. Placing `[S, N, E]` = `[1, 3, 2]`.
#[test]
fn ba_awa_three_placing_holder_above_eliminated_in_last_game() {
    let (engine, events) = south_takes_twelve([28, 0, 8], [5, 3, 4], PE, 2, 10, [0, 0, 0]);
    assert_eq!(engine.status(), Status::MatchOver);
    assert_eq!(engine.winner(), Some(PS));
    assert_eq!(placing_in(&events), Some(PerSeat::of([1, 3, 2], 3)));
    assert!(engine.legal_moves().is_empty());
    assert!(engine.check(&Move::NextGame(PitSet::EMPTY)).is_err());
}

/// S 28 + 12 = 40 (10 pits), N 4, E 4: both losers still hold pits → they share 2nd: `[1, 2, 2]`.
/// And S 16 + 12 = 28 (7 pits), N 12, E 8: nobody has 10, the match goes on (no MatchEnd, no placing).
#[test]
fn ba_awa_three_placing_two_holders_share_second() {
    let (engine, events) = south_takes_twelve([28, 4, 4], [5, 3, 4], PN, 2, 10, [0, 0, 0]);
    assert_eq!(engine.status(), Status::MatchOver);
    assert_eq!(placing_in(&events), Some(PerSeat::of([1, 2, 2], 3)));
    let (engine, events) = south_takes_twelve([16, 12, 8], [5, 3, 4], PN, 2, 10, [0, 0, 0]);
    assert_eq!(engine.status(), Status::GameOver);
    assert_eq!(placing_in(&events), None);
}

/// Target 12: S 36 + 12 = 48, N 0, E 0: both go out after the same game → they share 2nd: `[1, 2, 2]`.
#[test]
fn ba_awa_three_placing_two_out_together_share_second() {
    let (engine, events) = south_takes_twelve([36, 0, 0], [5, 3, 4], PE, 7, 12, [0, 0, 0]);
    assert_eq!(engine.status(), Status::MatchOver);
    assert_eq!(engine.winner(), Some(PS));
    let mut out = eliminations_in(&events);
    out.sort_by_key(|p| p.index());
    assert_eq!(out, vec![PN, PE]);
    assert_eq!(placing_in(&events), Some(PerSeat::of([1, 2, 2], 3)));
}

/// North went out after game 3; in game 6 (South 0–6, East 7–11) South takes the last 12 with target 12:
/// S 36 + 12 = 48, E 0 → East goes out in game 6, later than North → East 2nd, North 3rd: `[1, 3, 2]`.
#[test]
fn ba_awa_three_placing_later_out_ranks_higher() {
    let (engine, events) = south_takes_twelve([36, 0, 0], [7, 5, 0], PS, 6, 12, [0, 3, 0]);
    assert_eq!(engine.status(), Status::MatchOver);
    assert_eq!(eliminations_in(&events), vec![PE]);
    assert_eq!(eliminated_of(&engine), vec![0, 3, 6]);
    assert_eq!(placing_in(&events), Some(PerSeat::of([1, 3, 2], 3)));
}

/// East went out after game 2; in game 5 (South 0–6, North 7–11), target 10: S 28 + 12 = 40 (10), N 8 (2 pits):
/// North still holds pits → 2nd, East 3rd: `[1, 2, 3]`.
#[test]
fn ba_awa_three_placing_holder_above_earlier_out() {
    let (engine, events) = south_takes_twelve([28, 8, 0], [7, 0, 5], PN, 5, 10, [0, 0, 2]);
    assert_eq!(engine.status(), Status::MatchOver);
    assert!(eliminations_in(&events).is_empty());
    assert_eq!(placing_in(&events), Some(PerSeat::of([1, 2, 3], 3)));
}

/// The winner need not be South: East wins with 10. Game 2, blocks 4/5/3 (S 0–3, E 4–8, N 9–11), stores S 8,
/// E 28, N 0 (board 12: `[0,0,0,0,3,3,3,3,0,0,0,0]`); East plays pit 4 (3 seeds): pits 5, 6 en passant → East
/// (owner), pit 7 final → East: E 40, S 8, N 0 → East wins, South 2nd, North (out now) 3rd: `[2, 3, 1]`.
#[test]
fn ba_awa_three_east_wins() {
    let mut engine = position3(
        [0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0],
        [8, 0, 28],
        [4, 5, 3],
        PS,
        PE,
        2,
        10,
        [0, 0, 0],
    );
    let steps = run_both(&mut engine, &[sow(4)]);
    assert_eq!(engine.status(), Status::MatchOver);
    assert_eq!(engine.winner(), Some(PE));
    assert_eq!(placing_in(&steps[0]), Some(PerSeat::of([2, 3, 1], 3)));
}

// ---------------------------------------------------------------------------------------------------------------
// Options and the wire shape.
// ---------------------------------------------------------------------------------------------------------------

/// "Any seat may be chosen as first starter": East begins game 1, and the game-1 ownership is 4/4/4 from S1.
#[test]
fn ba_awa_three_east_may_start() {
    let engine = AnyGame::new_match(GameKind::BaAwa, &options3(PE, 11));
    assert_eq!(engine.to_move(), Some(PE));
    assert_eq!(starter_of(&engine), PE);
    assert_eq!(
        owners_of(&engine),
        vec![PS, PS, PS, PS, PE, PE, PE, PE, PN, PN, PN, PN]
    );
    let legal: Vec<Move> = engine.legal_moves().into_iter().collect();
    assert_eq!(legal, (4..8).map(sow).collect::<Vec<_>>());
    // South may not move out of turn, nor East from North's pits.
    assert!(engine.check(&sow(0)).is_err());
    assert!(engine.check(&sow(8)).is_err());
}

/// "There is no chooser option in the three-player game: next_game carries no pits."
#[test]
fn ba_awa_three_next_game_takes_no_pits() {
    let mut engine = position3(
        [2, 0, 0, 0, 2, 0, 2, 0, 3, 0, 0, 3],
        [12, 12, 12],
        [4, 4, 4],
        PS,
        PN,
        1,
        10,
        [0, 0, 0],
    );
    run_both(&mut engine, &[sow(8)]);
    assert_eq!(engine.status(), Status::GameOver);
    assert!(engine
        .check(&Move::NextGame(PitSet::EMPTY.with(5)))
        .is_err());
    assert!(engine.check(&Move::NextGame(PitSet::EMPTY)).is_ok());
}

// ---------------------------------------------------------------------------------------------------------------
// Random matches against the reference model.
// ---------------------------------------------------------------------------------------------------------------

/// xorshift64*, seeded.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

#[derive(Default, Debug)]
#[allow(dead_code)] // read through Debug
struct Coverage {
    matches_over: u32,
    games: u32,
    plies: u32,
    eliminations: u32,
    double_eliminations: u32,
    eliminated_starters: u32,
    passes: u32,
    winners: [u32; 3],
    shared_places: u32,
}

fn random_matches(
    seats: usize,
    matches: u32,
    max_games: u32,
    ply_budget: u32,
    seed: u64,
) -> Coverage {
    let mut rng = Rng(seed);
    let mut cov = Coverage::default();
    for m in 0..matches {
        if cov.plies >= ply_budget {
            break;
        }
        let first = if seats == 3 {
            [S, E, N][rng.below(3)]
        } else {
            [S, N][rng.below(2)]
        };
        let target = [10, 11, 12][rng.below(3)];
        let options = Options {
            first_player: player(first),
            ba_awa_target: target as u8,
            ba_awa_players: seats as u8,
            ..Options::default()
        };
        let mut engine = AnyGame::new_match(GameKind::BaAwa, &options);
        let mut model = Model::new(seats, first, target);
        compare(&engine, &model, &[], &format!("match {m} start"));
        let mut ply = 0u32;
        loop {
            let moves = model.legal_moves();
            if moves.is_empty() || model.game > max_games || cov.plies >= ply_budget {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let starter_before = model.starter;
            let ctx = format!("seed {seed} match {m} game {} ply {ply} {mv:?}", model.game);
            let events = play(&mut engine, &mut model, mv, &ctx);
            ply += 1;
            cov.plies += 1;
            cov.passes += model.passes.len() as u32;
            if matches!(mv, Move::Sow(_)) && model.status != Status::InProgress {
                cov.games += 1;
                cov.eliminations += model.newly_out.len() as u32;
                if model.newly_out.len() == 2 {
                    cov.double_eliminations += 1;
                }
                if model.newly_out.contains(&starter_before) {
                    cov.eliminated_starters += 1;
                }
            }
            if model.status == Status::MatchOver {
                cov.matches_over += 1;
                cov.winners[model.winner.unwrap()] += 1;
                if let Some(p) = model.placing {
                    if p[0] == p[1] || p[1] == p[2] || p[0] == p[2] {
                        cov.shared_places += 1;
                    }
                }
                assert!(placing_in(&events).is_some());
                break;
            }
        }
    }
    cov
}

#[test]
fn ba_awa_three_random_matches_against_the_model() {
    let mut total = Coverage::default();
    for seed in [0x5EED_0001u64, 0x5EED_0002, 0x5EED_0003] {
        let cov = random_matches(3, 60, 200, 18_000, seed);
        eprintln!("three players, seed {seed:#x}: {cov:?}");
        total.matches_over += cov.matches_over;
        total.eliminations += cov.eliminations;
        total.games += cov.games;
    }
    assert!(total.games > 100, "{total:?}");
    assert!(
        total.eliminations > 0,
        "random play met no elimination: {total:?}"
    );
    assert!(total.matches_over > 0, "{total:?}");
}

#[test]
fn ba_awa_three_two_player_unchanged_against_the_model() {
    let cov = random_matches(2, 30, 60, 15_000, 0x2_5EED);
    eprintln!("two players: {cov:?}");
    assert!(cov.games > 20, "{cov:?}");
}

/// BA-5 (two players) still allocates as §4.4: S 28, N 20 → S 7, N 5 → South owns 0–6, and North starts.
#[test]
fn ba_awa_three_two_player_ba5_unchanged() {
    let mut setup = AnyGame::new_match(GameKind::BaAwa, &Options::default()).to_setup();
    setup.pits = vec![0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3].into();
    setup.stores = vec![20, 16].into();
    setup.to_move = Some(PN);
    setup.ply = 20;
    let mut engine = AnyGame::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"));
    run_both(&mut engine, &[sow(10)]);
    assert_eq!(stores_of(&engine), vec![28, 20]);
    assert_eq!(engine.status(), Status::GameOver);
    run_both(&mut engine, &[Move::NextGame(PitSet::EMPTY)]);
    assert_eq!(
        owners_of(&engine),
        vec![PS, PS, PS, PS, PS, PS, PS, PN, PN, PN, PN, PN]
    );
    assert_eq!(engine.to_move(), Some(PN));
    assert_eq!(engine.seats(), 2);
    assert_eq!(eliminated_of(&engine), Vec::<u32>::new());
}

/// A three-player game just over (GameOver), drawn at random: game `g`, maybe one seat out earlier, the pits of the
/// game just played in blocks among the seats still in, and its final winnings (fours) shared among them so that
/// nobody has reached the target (a seat with none goes out now). `None` when the draw ends the match.
fn random_game_over(rng: &mut Rng) -> Option<AnyGame> {
    let game = 2 + rng.below(20) as u32;
    let target = [10u32, 11, 12][rng.below(3)];
    let mut out_in = [0u32; 3];
    if rng.below(2) == 0 {
        out_in[rng.below(3)] = 1 + rng.below(game as usize - 1) as u32;
    }
    let playing: Vec<usize> = (0..3).filter(|&s| out_in[s] == 0).collect();
    // Ownership of the game just played: a block of at least one pit for every seat still in.
    let mut owned = [0u32; 3];
    for &s in &playing {
        owned[s] = 1;
    }
    for _ in playing.len()..12 {
        owned[playing[rng.below(playing.len())]] += 1;
    }
    // Its final winnings, in fours.
    // Half the draws give one seat nearly the target, so that matches end soon.
    let mut won = [0u32; 3];
    let mut left = 12;
    if rng.below(2) == 0 {
        let lead = target - 1 - rng.below(3) as u32;
        won[playing[rng.below(playing.len())]] = lead;
        left -= lead;
    }
    for _ in 0..left {
        won[playing[rng.below(playing.len())]] += 1;
    }
    if won.iter().any(|&w| w >= target) {
        return None;
    }
    for &s in &playing {
        if won[s] == 0 {
            out_in[s] = game;
        }
    }
    let stores = won.map(|w| w * 4);
    let best = *stores.iter().max().unwrap();
    let leaders: Vec<usize> = (0..3).filter(|&s| stores[s] == best).collect();
    let winner = (leaders.len() == 1).then(|| player(leaders[0]));
    // Half the time the starter is a seat going out now (he collected nothing: the last move emptied the board).
    let going_out: Vec<usize> = playing.iter().copied().filter(|&s| won[s] == 0).collect();
    let starter = if !going_out.is_empty() && rng.below(2) == 0 {
        going_out[rng.below(going_out.len())]
    } else {
        playing[rng.below(playing.len())]
    };
    let owner = blocks(owned);
    let setup = Setup {
        kind: GameKind::BaAwa,
        rules_version: RULES_VERSION,
        pits: vec![0; 12].into(),
        stores: stores.to_vec().into(),
        reserves: vec![0; 3].into(),
        to_move: None,
        status: Some(Status::GameOver),
        winner,
        ply: 1 + rng.below(60) as u32,
        game_number: game,
        match_score: won.to_vec().into(),
        variant: VariantSetup::BaAwa {
            owners: owner.iter().map(|&s| Some(player(s))).collect(),
            starter: Some(player(starter)),
            target,
            players: 3,
            eliminated_in: out_in.to_vec().into(),
        },
    };
    Some(AnyGame::from_setup(&setup).unwrap_or_else(|e| panic!("{setup:?} refused: {e}")))
}

/// Random between-games states (allocation by blocks, eliminations, the starter after an eliminated or skipped
/// seat), each played on at random to the end of the match or a few games, against the model.
#[test]
fn ba_awa_three_random_between_games_against_the_model() {
    let mut rng = Rng(0x005E_EDB7);
    let (mut tried, mut matches_over, mut starter_out, mut shared) = (0, 0, 0, 0);
    let mut plies = 0u32;
    while tried < 400 && plies < 24_000 {
        let Some(mut engine) = random_game_over(&mut rng) else {
            continue;
        };
        tried += 1;
        let mut model = model_of(&engine);
        let (last_starter, out_now) = (model.starter, model.out_in);
        if out_now[last_starter] == model.game {
            starter_out += 1;
        }
        let first_game = model.game;
        loop {
            let moves = model.legal_moves();
            if moves.is_empty() || model.game > first_game + 6 {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let ctx = format!("between-games draw {tried} game {} {mv:?}", model.game);
            play(&mut engine, &mut model, mv, &ctx);
            plies += 1;
            if model.game == first_game + 1 && matches!(mv, Move::NextGame(_)) {
                // §4.7 step 6, checked directly as well as through the model.
                let expected = model.after(last_starter)[0];
                assert_eq!(starter_of(&engine), player(expected), "{ctx}: starter");
            }
            if model.status == Status::MatchOver {
                matches_over += 1;
                let p = model.placing.unwrap();
                if p[0] == p[1] || p[1] == p[2] || p[0] == p[2] {
                    shared += 1;
                }
                break;
            }
        }
    }
    eprintln!(
        "between games: {tried} draws, {plies} plies, {matches_over} matches over, {starter_out} starters out, \
         {shared} shared places"
    );
    assert!(starter_out > 0 && matches_over > 0);
}
