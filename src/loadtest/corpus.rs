//! The positions a load test sends, and the requests made of them.
//!
//! Positions come from seeded random playouts of whole matches from the standard start, stopped at a random
//! ply, so they look like what clients send: openings, middle games, endgames, finished games waiting for
//! `NextGame`. Each keeps its legal moves and the in-range sowings that are illegal there (an empty pit, the
//! opponent's pit, a game that is over), so refusals are exercised too.
//!
//! Requests are encoded once, here; sending one is a reference-count increment.

use bytes::Bytes;
use prost::Message;

use super::{Config, Error, Rpc};
use crate::api::{convert, pb};
use crate::engine::{AnyGame, GameKind, Move, Options, Player, Rng, Sow, Status, Until};

/// The longest playout used to reach a position, in moves (a few games of a match).
const MAX_PLIES: usize = 240;

/// One position with the moves to send in it.
#[derive(Clone, Debug)]
pub struct Position {
    /// The game.
    pub kind: GameKind,
    /// The state as the protocol carries it.
    pub state: pb::GameState,
    /// Every legal move.
    pub legal: Vec<pb::Move>,
    /// In-range sowings that are illegal here.
    pub illegal: Vec<pb::Move>,
}

/// Positions of every chosen game.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// Per game, in the order asked.
    pub games: Vec<(GameKind, Vec<Position>)>,
}

impl Corpus {
    /// `per_game` positions of each game, the same for the same seed.
    pub fn build(games: &[GameKind], per_game: usize, seed: u64) -> Corpus {
        let games = games
            .iter()
            .enumerate()
            .map(|(i, &kind)| {
                let mut rng = Rng::new(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                (kind, positions(kind, per_game, &mut rng))
            })
            .collect();
        Corpus { games }
    }

    /// Every position, game after game.
    pub fn positions(&self) -> impl Iterator<Item = &Position> {
        self.games.iter().flat_map(|(_, p)| p)
    }
}

/// `count` positions of `kind` where something can still be played (a finished match accepts no move).
fn positions(kind: GameKind, count: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::with_capacity(count);
    // Bounded: a playout that ends the match is retried with a shorter one, and after enough tries the
    // positions are taken from short playouts, which never end a match.
    let mut attempts = 0;
    while out.len() < count {
        attempts += 1;
        let first_player = if rng.below(2) == 0 {
            Player::South
        } else {
            Player::North
        };
        let options = Options {
            first_player,
            ..Options::default()
        };
        let Ok(mut game) = AnyGame::new_match(kind, &options) else {
            return out;
        };
        let max = if attempts > count * 20 { 8 } else { MAX_PLIES };
        let plies = rng.below(max + 1) as u32;
        game.random_playout(rng, Until::MatchEnd, plies);
        if game.status() == Status::MatchOver {
            continue;
        }
        out.push(position(&game));
    }
    out
}

fn position(game: &AnyGame) -> Position {
    let legal = game.legal_moves();
    let illegal = (0..game.kind().pit_count() as u8)
        .map(|pit| Move::Sow(Sow::from(pit)))
        .filter(|mv| game.check(mv).is_err())
        .map(|mv| convert::move_to_pb(&mv))
        .collect();
    Position {
        kind: game.kind(),
        state: convert::state_to_pb(game),
        legal: legal.iter().map(convert::move_to_pb).collect(),
        illegal,
    }
}

/// What the server should answer to a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// OK (`ApplyMove` or `ListLegalMoves` of a legal move or position, `Echo`).
    Ok,
    /// OK, with `ValidateMoveResponse.legal` equal to this.
    Legal(bool),
    /// FAILED_PRECONDITION: `ApplyMove` with an illegal move.
    Refused,
}

/// One pre-encoded request.
#[derive(Clone, Debug)]
pub struct Case {
    /// The encoded request message.
    pub body: Bytes,
    /// The answer the rules give.
    pub expect: Expect,
}

/// The requests of one game for one RPC.
#[derive(Clone, Debug, Default)]
pub struct GameCases {
    /// With a legal move (or no move).
    pub legal: Vec<Case>,
    /// With an illegal move.
    pub illegal: Vec<Case>,
}

/// The requests of one RPC, per game.
#[derive(Clone, Debug)]
pub struct RpcCases {
    /// The RPC.
    pub rpc: Rpc,
    /// Its weight in the mix.
    pub weight: u32,
    /// One entry per game; a request picks the game first, so every game gets the same share.
    pub games: Vec<GameCases>,
}

/// What a run sends: RPCs with weights, each with its requests.
#[derive(Clone, Debug)]
pub struct Workload {
    /// The RPCs in the mix.
    pub rpcs: Vec<RpcCases>,
    /// Fraction of calls sent with an illegal move, in millionths (where the RPC has illegal requests).
    illegal_ppm: u64,
    total_weight: u64,
}

impl Workload {
    /// The rules mix of `config` over `corpus`.
    pub fn rules(corpus: &Corpus, config: &Config) -> Result<Workload, Error> {
        let rpcs = config
            .mix
            .weights()
            .into_iter()
            .map(|(rpc, weight)| RpcCases {
                rpc,
                weight,
                games: corpus
                    .games
                    .iter()
                    .map(|(_, positions)| game_cases(rpc, positions, config.previews))
                    .collect(),
            })
            .collect();
        Workload::new(rpcs, config.illegal)
    }

    /// `Diagnostics/Echo` with one request of `request_bytes` encoded bytes (as near as the encoding allows).
    pub fn baseline(request_bytes: f64) -> Workload {
        let target = request_bytes.round().max(0.0) as usize;
        let mut payload_len = target;
        // The field's tag and length prefix take 2 to 4 bytes; shrink the payload until the message fits.
        while payload_len > 0 && echo(payload_len).encoded_len() > target {
            payload_len -= 1;
        }
        let body = Bytes::from(echo(payload_len).encode_to_vec());
        Workload::new(
            vec![RpcCases {
                rpc: Rpc::Echo,
                weight: 1,
                games: vec![GameCases {
                    legal: vec![Case {
                        body,
                        expect: Expect::Ok,
                    }],
                    illegal: Vec::new(),
                }],
            }],
            0.0,
        )
        .expect("one RPC with one request")
    }

    fn new(rpcs: Vec<RpcCases>, illegal: f64) -> Result<Workload, Error> {
        let rpcs: Vec<RpcCases> = rpcs
            .into_iter()
            .filter(|r| r.weight > 0 && r.games.iter().any(|g| !g.legal.is_empty()))
            .collect();
        if rpcs.is_empty() {
            return Err(Error::Config(
                "the corpus has no request for the mix".into(),
            ));
        }
        let total_weight = rpcs.iter().map(|r| r.weight as u64).sum();
        Ok(Workload {
            rpcs,
            illegal_ppm: (illegal * 1_000_000.0).round() as u64,
            total_weight,
        })
    }

    /// Picks the next request: the RPC by weight, then a game, then legal or illegal, then a request.
    /// Returns the RPC's index in [`Workload::rpcs`] and the request.
    pub fn pick(&self, rng: &mut Rng) -> (usize, &Case) {
        let mut w = rng.below(self.total_weight as usize) as u64;
        let mut index = 0;
        for (i, r) in self.rpcs.iter().enumerate() {
            if w < r.weight as u64 {
                index = i;
                break;
            }
            w -= r.weight as u64;
        }
        let rpc = &self.rpcs[index];
        let game = &rpc.games[rng.below(rpc.games.len())];
        let illegal = !game.illegal.is_empty() && (rng.below(1_000_000) as u64) < self.illegal_ppm;
        let cases = if illegal || game.legal.is_empty() {
            &game.illegal
        } else {
            &game.legal
        };
        (index, &cases[rng.below(cases.len())])
    }

    /// The mean encoded size of the requests [`Workload::pick`] sends, in bytes.
    pub fn mean_request_bytes(&self) -> f64 {
        let illegal = self.illegal_ppm as f64 / 1_000_000.0;
        let mean = |cases: &[Case]| {
            cases.iter().map(|c| c.body.len() as f64).sum::<f64>() / cases.len().max(1) as f64
        };
        self.rpcs
            .iter()
            .map(|r| {
                let per_game = r
                    .games
                    .iter()
                    .map(|g| match (g.legal.is_empty(), g.illegal.is_empty()) {
                        (false, false) => {
                            (1.0 - illegal) * mean(&g.legal) + illegal * mean(&g.illegal)
                        }
                        (false, true) => mean(&g.legal),
                        (true, _) => mean(&g.illegal),
                    })
                    .sum::<f64>()
                    / r.games.len() as f64;
                per_game * r.weight as f64
            })
            .sum::<f64>()
            / self.total_weight as f64
    }

    /// How many distinct requests there are.
    pub fn distinct_requests(&self) -> usize {
        self.rpcs
            .iter()
            .flat_map(|r| &r.games)
            .map(|g| g.legal.len() + g.illegal.len())
            .sum()
    }
}

fn echo(payload_len: usize) -> pb::EchoRequest {
    pb::EchoRequest {
        payload: vec![0x5a; payload_len],
    }
}

/// The requests of `rpc` for every position of one game.
fn game_cases(rpc: Rpc, positions: &[Position], previews: bool) -> GameCases {
    let mut cases = GameCases::default();
    for p in positions {
        match rpc {
            Rpc::ValidateMove => {
                for (moves, legal, out) in [
                    (&p.legal, true, &mut cases.legal),
                    (&p.illegal, false, &mut cases.illegal),
                ] {
                    out.extend(moves.iter().map(|mv| Case {
                        body: validate_request(p, mv).encode_to_vec().into(),
                        expect: Expect::Legal(legal),
                    }));
                }
            }
            Rpc::ApplyMove => {
                for (moves, expect, out) in [
                    (&p.legal, Expect::Ok, &mut cases.legal),
                    (&p.illegal, Expect::Refused, &mut cases.illegal),
                ] {
                    out.extend(moves.iter().map(|mv| Case {
                        body: apply_request(p, mv).encode_to_vec().into(),
                        expect,
                    }));
                }
            }
            Rpc::ListLegalMoves => cases.legal.push(Case {
                body: list_request(p, previews).encode_to_vec().into(),
                expect: Expect::Ok,
            }),
            Rpc::Echo => {}
        }
    }
    cases
}

/// `ValidateMove` of `mv` in `p`.
pub fn validate_request(p: &Position, mv: &pb::Move) -> pb::ValidateMoveRequest {
    pb::ValidateMoveRequest {
        state: Some(p.state.clone()),
        r#move: Some(mv.clone()),
    }
}

/// `ApplyMove` of `mv` in `p`.
pub fn apply_request(p: &Position, mv: &pb::Move) -> pb::ApplyMoveRequest {
    pb::ApplyMoveRequest {
        state: Some(p.state.clone()),
        r#move: Some(mv.clone()),
    }
}

/// `ListLegalMoves` of `p`.
pub fn list_request(p: &Position, previews: bool) -> pb::ListLegalMovesRequest {
    pb::ListLegalMovesRequest {
        state: Some(p.state.clone()),
        skip_previews: !previews,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loadtest::implemented_games;

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        let games = implemented_games();
        let a = Corpus::build(&games, 16, 7);
        let b = Corpus::build(&games, 16, 7);
        let states = |c: &Corpus| c.positions().map(|p| p.state.clone()).collect::<Vec<_>>();
        assert_eq!(states(&a), states(&b));
        assert_eq!(a.positions().count(), 16 * games.len());
    }

    #[test]
    fn every_position_has_a_move_and_every_move_is_what_the_engine_says() {
        let corpus = Corpus::build(&implemented_games(), 32, 1);
        for p in corpus.positions() {
            assert!(!p.legal.is_empty(), "a position with nothing to play");
            let game = convert::game_state("state", Some(p.state.clone())).expect("a valid state");
            for mv in &p.legal {
                let mv = convert::game_move("move", p.kind, Some(mv)).expect("a valid move");
                assert!(game.check(&mv).is_ok());
            }
            for mv in &p.illegal {
                let mv = convert::game_move("move", p.kind, Some(mv)).expect("a valid move");
                assert!(game.check(&mv).is_err());
            }
        }
    }

    #[test]
    fn the_baseline_request_is_as_large_as_asked() {
        for size in [
            0.0, 1.0, 2.0, 3.0, 100.4, 127.0, 128.0, 129.0, 300.0, 20_000.0,
        ] {
            let w = Workload::baseline(size);
            let len = w.rpcs[0].games[0].legal[0].body.len() as f64;
            assert!(
                len <= size.round() && len >= size.round() - 3.0,
                "{size} → {len}"
            );
        }
    }
}
