//! Durability: whole `mancala` processes killed and restarted on one data directory, and several replicas
//! over one Redis.

#[path = "../support/mod.rs"]
mod support;

mod bot_matches;
mod clocks_redis;
mod cluster_failover;
mod endless;
mod lobby_redis;
mod lobby_three_redis;
mod matches_redis;
mod matches_restart;
mod tenants_redis;
mod tournaments_redis;
mod tournaments_restart;
