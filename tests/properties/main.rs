//! Properties every game must have, over random reachable positions (GUIDE §6).

#[path = "../support/mod.rs"]
mod support;

mod engine_properties;
