#![forbid(unsafe_code)]
#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "server")]
pub mod config;
pub mod engine;
#[cfg(feature = "server")]
pub mod matches;
#[cfg(feature = "server")]
pub mod metrics;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod service;
#[cfg(feature = "server")]
pub mod store;
#[cfg(feature = "server")]
pub mod telemetry;
