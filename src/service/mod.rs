//! The tonic handlers: decode the request, call the engine, encode the answer; [`auth`] in front of them.
pub mod admin;
pub mod auth;
pub mod diagnostics;
pub mod lobby;
pub mod matches;
pub mod players;
pub mod rules;
pub mod tournaments;
