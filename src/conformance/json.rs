//! The protocol's messages as proto3 JSON (the canonical mapping: camelCase names, enums by name, defaults left
//! out), the form every state and move of the suite is written in, read by prost-reflect from the descriptors.

use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};
use serde_json::Value;

use crate::api::{self, convert, pb};
use crate::engine::AnyGame;

/// Reads and writes the protocol's messages as JSON.
#[derive(Clone, Debug)]
pub struct Json {
    pool: DescriptorPool,
}

impl Json {
    /// The protocol's descriptors, as compiled into the binary.
    pub fn new() -> Result<Json, String> {
        DescriptorPool::decode(api::FILE_DESCRIPTOR_SET)
            .map(|pool| Json { pool })
            .map_err(|e| format!("cannot read the descriptor set: {e}"))
    }

    fn descriptor(&self, name: &str) -> Result<MessageDescriptor, String> {
        self.pool
            .get_message_by_name(name)
            .ok_or_else(|| format!("{name} is not in the descriptor set"))
    }

    /// `message`, a `name` (e.g. `mancala.v1.GameState`), as JSON.
    pub fn to_value<M: Message>(&self, name: &str, message: &M) -> Result<Value, String> {
        let dynamic =
            DynamicMessage::decode(self.descriptor(name)?, message.encode_to_vec().as_slice())
                .map_err(|e| format!("cannot read a {name}: {e}"))?;
        serde_json::to_value(&dynamic).map_err(|e| format!("cannot write a {name} as JSON: {e}"))
    }

    /// A `name` from its JSON (unknown fields refused).
    pub fn from_value<M: Message + Default>(&self, name: &str, value: &Value) -> Result<M, String> {
        let dynamic = DynamicMessage::deserialize(self.descriptor(name)?, value)
            .map_err(|e| format!("not a {name}: {e}"))?;
        M::decode(dynamic.encode_to_vec().as_slice()).map_err(|e| format!("not a {name}: {e}"))
    }

    /// A `GameState` in JSON text, checked by the rules into a game (every violation named when it is not one).
    pub fn game_state(&self, text: &str) -> Result<AnyGame, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("the state is not JSON: {e}"))?;
        let state: pb::GameState = self.from_value("mancala.v1.GameState", &value)?;
        convert::game_state("state", Some(state)).map_err(|e| match e {
            convert::DecodeError::Invalid(violations) => {
                let all: Vec<String> = violations
                    .iter()
                    .map(|v| format!("{}: {}", v.field, v.description))
                    .collect();
                format!("the state is not valid: {}", all.join("; "))
            }
        })
    }
}
