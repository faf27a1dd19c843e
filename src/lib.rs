//! `mancala`: the rules of three mancala games, Bao la Kete, Bosh and Ba-awa, and the gRPC service that
//! serves them. The rules are in docs/ (docs/README.md: §1 all games, §2 Bao la Kete, §3 Bosh, §4 Ba-awa);
//! their section numbers (§2.7 …) are cited throughout.
//!
//! # Module map
//!
//! The module map, its layers (checked by `.ci/layers`, which reads it) and the invariants the code keeps are in
//! `ARCHITECTURE.md` at the repository's root; only [`engine`] builds without the default `server` feature.
//!
//! # The engine in one example per game
//!
//! [`AnyGame`](engine::AnyGame) plays any of the three games; a concrete game type (`BaAwa`, `Bosh`,
//! `BaoLaKete`) with the [`Game`](engine::Game) trait does the same without the dispatch, for hot loops.
//!
//! Ba-awa (§4): a new match, the legal moves, one move and the events it made.
//!
//! ```
//! use mancala::engine::{AnyGame, Event, GameKind, Move, Options, Player, Sow};
//!
//! let mut game = AnyGame::new_match(GameKind::BaAwa, &Options::default());
//! // South moves first, from any of his six pits S1–S6 (0–5), each holding 4 seeds.
//! assert_eq!(game.to_move(), Some(Player::South));
//! assert_eq!(game.legal_moves().len(), 6);
//!
//! let mut events = Vec::new();
//! game.play(&Move::Sow(Sow::from(0)), &mut events).expect("a listed move is legal");
//! // The move starts by lifting S1's 4 seeds and sowing them one by one into the next pits.
//! assert!(matches!(events[0], Event::Lap { origin: 0, seeds: 4, .. }));
//! assert_eq!(events[1], Event::Drop { pit: 1 });
//! // Seeds are never lost: 48 in all, on the board or won.
//! let state = game.to_setup();
//! let seeds: u32 = state.pits.iter().chain(&state.stores).sum();
//! assert_eq!(seeds, 48);
//! ```
//!
//! Bosh (§3), the worked example B-1 of docs/bosh.md: South sows S5 (hole 4), relays from N5 and takes the 5 stones of
//! N1 beyond the empty hole.
//!
//! ```
//! use mancala::engine::{AnyGame, Event, GameKind, Move, Options, Player, Sow};
//!
//! let mut game = AnyGame::new_match(GameKind::Bosh, &Options::default());
//! let mut events = Vec::new();
//! game.play(&Move::Sow(Sow::from(4)), &mut events).expect("S5 holds 4 stones");
//! let laps: Vec<(u8, u8)> = events
//!     .iter()
//!     .filter_map(|e| match *e {
//!         Event::Lap { origin, seeds, .. } => Some((origin, seeds)),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(laps, [(4, 4), (9, 4)]);
//! assert!(events.contains(&Event::Capture {
//!     pit: 5,
//!     seeds: 5,
//!     beneficiary: Player::South,
//!     kichwa: None,
//!     direction: None,
//! }));
//! assert_eq!(game.to_setup().stores, [5, 0]);
//! assert_eq!(game.to_move(), Some(Player::North));
//! ```
//!
//! Bao la Kete (§2): the opening of the nemo stage, where every move places a seed from the reserve; an
//! illegal move is refused with a machine-readable reason and leaves the game as it was.
//!
//! ```
//! use mancala::engine::{AnyGame, GameKind, Move, NoTrace, Options, Player, Reason, Sow};
//!
//! let mut game = AnyGame::new_match(GameKind::BaoLaKete, &Options::default());
//! assert_eq!(game.to_setup().reserves, [22, 22]);
//!
//! // Hole 0 (South's f1) is empty, and a nemo move needs the choices of its capture or sowing.
//! let before = game.clone();
//! let refused = game.play(&Move::Sow(Sow::from(0)), &mut NoTrace).unwrap_err();
//! assert_ne!(refused.reason, Reason::GameOver);
//! assert_eq!(game, before);
//!
//! let first = game.legal_moves()[0];
//! game.play(&first, &mut NoTrace).expect("a listed move is legal");
//! assert_eq!(game.to_setup().reserves, [21, 22]);
//! assert_eq!(game.to_move(), Some(Player::North));
//! ```
//!
//! A state from outside (a client, a file) comes in as a [`Setup`](engine::Setup) and is validated into a game
//! by [`AnyGame::from_setup`](engine::AnyGame::from_setup), which reports every violation at once, each with the
//! path of its field: see [`Setup`](engine::Setup).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "loadtest")]
pub mod arena;
#[cfg(feature = "server")]
pub mod clock;
#[cfg(feature = "server")]
pub mod config;
#[cfg(feature = "loadtest")]
pub mod conformance;
pub mod engine;
#[cfg(feature = "server")]
pub mod identity;
#[cfg(feature = "loadtest")]
pub mod loadtest;
#[cfg(feature = "server")]
pub mod lobby;
#[cfg(feature = "server")]
pub mod matches;
#[cfg(feature = "server")]
pub mod metrics;
#[cfg(feature = "server")]
pub mod middleware;
#[cfg(feature = "server")]
pub mod pool;
#[cfg(feature = "server")]
pub mod rules;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod service;
#[cfg(feature = "server")]
pub mod store;
#[cfg(feature = "server")]
pub mod sync;
#[cfg(feature = "server")]
pub mod telemetry;
#[cfg(feature = "server")]
pub mod tenants_cli;
#[cfg(feature = "server")]
pub mod tls;
#[cfg(feature = "server")]
pub mod tournaments;
