//! The tonic handlers: decode the request, call the engine, encode the answer.
pub mod diagnostics;
pub mod matches;
pub mod rules;
