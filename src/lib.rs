#![forbid(unsafe_code)]
pub mod engine;
#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "server")]
pub mod service;
