//! Helpers shared by every test binary, each written once. A binary includes this module with
//! `#[path = "../support/mod.rs"] mod support;` and uses what it needs; the rest is dead code there.
#![allow(dead_code)]

pub mod addresses;
pub mod bots;
pub mod examples;
pub mod lobby;
pub mod replica;
pub mod server;
pub mod timed;
pub mod tls;
