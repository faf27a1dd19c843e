//! The service from outside: the server in-process on 127.0.0.1:0 or the `mancala` binary as one process,
//! talked to over a real channel (Rules, Matches, Diagnostics, health, reflection, `/metrics`, OTLP traces, the
//! load generator), and the configuration layers the binary loads before it binds.

#[path = "../support/mod.rs"]
mod support;

mod bad_input;
mod bao_la_kete_api;
mod bot_seats;
mod browsers;
mod caller_limits;
mod choosers;
mod clocks;
mod config;
mod conformance;
mod connections;
mod descriptors;
mod diagnostics;
mod endless;
mod engine_work;
mod examples;
mod fair_engine;
mod loadtest;
mod lobby;
mod lobby_three;
mod matches_api;
mod metrics;
mod opponent_api;
mod otlp;
mod players;
mod rules_api;
mod server;
mod tenants;
mod three_players;
mod tls;
mod tournaments;
