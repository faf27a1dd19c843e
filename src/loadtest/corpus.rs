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
use crate::api::{convert, pb, wire};
use crate::engine::{AnyGame, GameKind, Move, Options, Player, Rng, Sow, Status, Until};
use crate::service::diagnostics::MAX_RESIZED_ANSWER_BYTES;

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
        // A third of Ba-awa's positions are three-player games (docs/ba-awa.md §4.7).
        let players = if kind == GameKind::BaAwa && rng.below(3) == 0 {
            3
        } else {
            2
        };
        let seats = Player::seated(players);
        let options = Options {
            first_player: seats[rng.below(seats.len())],
            ba_awa_players: players as u8,
            ..Options::default()
        };
        let mut game = AnyGame::new_match(kind, &options);
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
    /// The encoded size of the answer message, as the server makes it (0 for a refusal, which is a status
    /// with no message): what the baseline's Echo answers with.
    pub response_bytes: usize,
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
    /// Its name in reports: the method, or for the baseline the rules call each Echo stands for.
    pub label: &'static str,
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
                label: rpc.name(),
                weight,
                games: corpus
                    .games
                    .iter()
                    .map(|(_, positions)| game_cases(rpc, positions, config))
                    .collect(),
            })
            .collect();
        Workload::new(rpcs, config.illegal)
    }

    /// The baseline of `rules`: for every rules request, a `Diagnostics/Echo` whose request and answer are as
    /// large as the rules call's (as near as the encoding allows), picked in the same proportions. The
    /// comparison then moves the same message bytes both ways, and what differs is the rules' work. (A refusal
    /// answers with a status, its message and details in the trailers, 160–380 bytes; its Echo answers with an
    /// empty message. Refusals cost the server what answers do: BENCHMARKS.md.)
    pub fn baseline(rules: &Workload) -> Workload {
        let mirror = |cases: &[Case]| -> Vec<Case> {
            cases
                .iter()
                .map(|c| echo_case(c.body.len(), c.response_bytes))
                .collect()
        };
        let rpcs = rules
            .rpcs
            .iter()
            .map(|r| RpcCases {
                rpc: Rpc::Echo,
                label: r.rpc.echo_label(),
                weight: r.weight,
                games: r
                    .games
                    .iter()
                    .map(|g| GameCases {
                        legal: mirror(&g.legal),
                        illegal: mirror(&g.illegal),
                    })
                    .collect(),
            })
            .collect();
        Workload {
            rpcs,
            illegal_ppm: rules.illegal_ppm,
            total_weight: rules.total_weight,
        }
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
        self.mean_of(|c| c.body.len())
    }

    /// The mean encoded size of the answers to the requests [`Workload::pick`] sends, in bytes.
    pub fn mean_response_bytes(&self) -> f64 {
        self.mean_of(|c| c.response_bytes)
    }

    /// The mean of `size` over the requests, weighted as [`Workload::pick`] picks them.
    fn mean_of(&self, size: impl Fn(&Case) -> usize) -> f64 {
        let illegal = self.illegal_ppm as f64 / 1_000_000.0;
        let mean = |cases: &[Case]| {
            cases.iter().map(|c| size(c) as f64).sum::<f64>() / cases.len().max(1) as f64
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

/// An Echo whose request encodes to `request_bytes` and whose answer encodes to `response_bytes`, each as near
/// as the encoding allows: a length prefix takes 1 to 3 bytes, so a message can come out a few bytes short, and
/// a request carries the answer's size (2 to 6 bytes), so it is never smaller than that. Echo resizes answers
/// up to [`MAX_RESIZED_ANSWER_BYTES`] (rules answers are a few KiB at most); a larger one is mirrored at that.
pub fn echo_case(request_bytes: usize, response_bytes: usize) -> Case {
    let answer = |len: usize| pb::EchoResponse {
        payload: vec![0; len],
    };
    let response_bytes = response_bytes.min(MAX_RESIZED_ANSWER_BYTES);
    let response_payload = largest_fitting(response_bytes, |len| answer(len).encoded_len());
    let request = |len: usize| pb::EchoRequest {
        payload: vec![0x5a; len],
        response_payload_bytes: Some(response_payload as u32),
    };
    let request_payload = largest_fitting(request_bytes, |len| request(len).encoded_len());
    Case {
        body: Bytes::from(request(request_payload).encode_to_vec()),
        expect: Expect::Ok,
        response_bytes: answer(response_payload).encoded_len(),
    }
}

/// The largest payload length whose message (`encoded_len` of it) is at most `target` bytes, or 0.
fn largest_fitting(target: usize, encoded_len: impl Fn(usize) -> usize) -> usize {
    let mut len = target;
    while len > 0 && encoded_len(len) > target {
        len -= 1;
    }
    len
}

/// The requests of `rpc` for every position of one game, each with the size of the answer the rules service
/// makes to it (asked in process, the same code the server runs).
fn game_cases(rpc: Rpc, positions: &[Position], config: &Config) -> GameCases {
    let mut cases = GameCases::default();
    for p in positions {
        match rpc {
            Rpc::ValidateMove => {
                for (moves, legal, out) in [
                    (&p.legal, true, &mut cases.legal),
                    (&p.illegal, false, &mut cases.illegal),
                ] {
                    out.extend(moves.iter().map(|mv| {
                        let body = Bytes::from(validate_request(p, mv).encode_to_vec());
                        Case {
                            response_bytes: answer_bytes(Rpc::ValidateMove, &body),
                            body,
                            expect: Expect::Legal(legal),
                        }
                    }));
                }
            }
            Rpc::ApplyMove => {
                for (moves, expect, out) in [
                    (&p.legal, Expect::Ok, &mut cases.legal),
                    (&p.illegal, Expect::Refused, &mut cases.illegal),
                ] {
                    out.extend(moves.iter().map(|mv| {
                        let body = Bytes::from(apply_request(p, mv, config.events).encode_to_vec());
                        Case {
                            response_bytes: answer_bytes(Rpc::ApplyMove, &body),
                            body,
                            expect,
                        }
                    }));
                }
            }
            Rpc::ListLegalMoves => {
                let body = Bytes::from(list_request(p, config.previews).encode_to_vec());
                cases.legal.push(Case {
                    response_bytes: answer_bytes(Rpc::ListLegalMoves, &body),
                    body,
                    expect: Expect::Ok,
                })
            }
            Rpc::Echo => {}
        }
    }
    cases
}

/// The encoded size of the server's answer to `body`, a request of `rpc`: decoded as the server decodes it, its
/// engine work done as the server does it (without a budget: the corpus' positions are ordinary ones), the answer
/// encoded as the server encodes it. A refusal is a status without a message: 0.
fn answer_bytes(rpc: Rpc, body: &Bytes) -> usize {
    let answered = match rpc {
        Rpc::ValidateMove => wire::ValidateMoveCall::decode(body.clone())
            .ok()
            .and_then(|call| call.into_engine().verdict().ok())
            .map(|verdict| wire::verdict(verdict).as_bytes().len()),
        Rpc::ApplyMove => wire::ApplyMoveCall::decode(body.clone())
            .ok()
            .and_then(|call| {
                let (request, skip_events) = call.into_engine();
                request
                    .played(skip_events, |game, events| {
                        wire::apply_move(game, events).as_bytes().len()
                    })
                    .ok()
            }),
        Rpc::ListLegalMoves => wire::ListLegalMovesCall::decode(body.clone())
            .ok()
            .and_then(|call| {
                let (state, with_previews) = call.into_engine();
                let game = crate::rules::listed(&state).ok()?;
                Some(
                    wire::list_legal_moves(&game, with_previews)
                        .as_bytes()
                        .len(),
                )
            }),
        Rpc::Echo => None,
    };
    answered.unwrap_or(0)
}

/// `ValidateMove` of `mv` in `p`.
pub fn validate_request(p: &Position, mv: &pb::Move) -> pb::ValidateMoveRequest {
    pb::ValidateMoveRequest {
        state: Some(p.state.clone()),
        r#move: Some(mv.clone()),
    }
}

/// `ApplyMove` of `mv` in `p`, asking for the move's events or not.
pub fn apply_request(p: &Position, mv: &pb::Move, events: bool) -> pb::ApplyMoveRequest {
    pb::ApplyMoveRequest {
        state: Some(p.state.clone()),
        r#move: Some(mv.clone()),
        skip_events: !events,
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
    fn an_echo_case_is_as_large_as_asked_both_ways() {
        // Every request carries the answer's size: 2 to 4 bytes here, so none is smaller than 8.
        for request in [8, 9, 100, 127, 128, 129, 130, 131, 300, 20_000] {
            for response in [0, 1, 2, 3, 4, 127, 128, 129, 130, 300, 20_000, 65_536] {
                let case = echo_case(request, response);
                let len = case.body.len();
                assert!(len <= request && len + 6 >= request, "{request} → {len}");
                let answer = case.response_bytes;
                assert!(
                    answer <= response && answer + 3 >= response,
                    "{response} → {answer}"
                );
                let sent = pb::EchoRequest::decode(case.body.clone()).expect("decodes");
                let echoed = pb::EchoResponse {
                    payload: vec![0; sent.response_payload_bytes.expect("set") as usize],
                };
                assert_eq!(echoed.encoded_len(), answer);
            }
        }
    }

    #[test]
    fn the_baseline_mirrors_every_request_and_answer_of_the_rules() {
        let corpus = Corpus::build(&implemented_games(), 24, 3);
        let config = Config {
            illegal: 0.2,
            ..Config::default()
        };
        let rules = Workload::rules(&corpus, &config).expect("a workload");
        let baseline = Workload::baseline(&rules);
        assert_eq!(rules.rpcs.len(), baseline.rpcs.len());
        for (r, b) in rules.rpcs.iter().zip(&baseline.rpcs) {
            assert_eq!((b.rpc, b.weight), (Rpc::Echo, r.weight));
            assert_eq!(b.label, r.rpc.echo_label());
            for (rg, bg) in r.games.iter().zip(&b.games) {
                for (rc, bc) in rg
                    .legal
                    .iter()
                    .chain(&rg.illegal)
                    .zip(bg.legal.iter().chain(&bg.illegal))
                {
                    assert!(bc.body.len() <= rc.body.len() && bc.body.len() + 6 >= rc.body.len());
                    assert!(bc.response_bytes <= rc.response_bytes);
                    assert!(bc.response_bytes + 3 >= rc.response_bytes);
                }
            }
        }
        // Answers really were asked for: a rules answer is never empty except a refusal's.
        let apply = rules
            .rpcs
            .iter()
            .find(|r| r.rpc == Rpc::ApplyMove)
            .expect("apply");
        assert!(apply
            .games
            .iter()
            .flat_map(|g| &g.legal)
            .all(|c| c.response_bytes > 0));
        assert!(apply
            .games
            .iter()
            .flat_map(|g| &g.illegal)
            .all(|c| c.response_bytes == 0));
        let mean = |w: &Workload| (w.mean_request_bytes(), w.mean_response_bytes());
        let ((rq, rs), (bq, bs)) = (mean(&rules), mean(&baseline));
        assert!(bq <= rq && bq + 6.0 >= rq, "{bq} vs {rq}");
        assert!(bs <= rs && bs + 3.0 >= rs, "{bs} vs {rs}");
    }

    #[test]
    fn apply_move_without_events_is_sent_and_sized_as_such() {
        let corpus = Corpus::build(&implemented_games(), 24, 5);
        let apply_only = |events| Config {
            mix: "apply=100".parse().expect("a mix"),
            events,
            ..Config::default()
        };
        let with = Workload::rules(&corpus, &apply_only(true)).expect("a workload");
        let without = Workload::rules(&corpus, &apply_only(false)).expect("a workload");
        let skipped = |w: &Workload| {
            let case = &w.rpcs[0].games[0].legal[0];
            pb::ApplyMoveRequest::decode(case.body.clone())
                .expect("decodes")
                .skip_events
        };
        assert!(!skipped(&with) && skipped(&without));
        assert!(without.mean_response_bytes() < with.mean_response_bytes());
    }
}
