#![forbid(unsafe_code)]
pub mod engine;
#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "server")]
pub mod service;
#[cfg(feature = "server")]
pub mod config;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod telemetry;
