//! An error's details written straight into their bytes: a bot's illegal move is the one refusal answered often,
//! and building its `google.rpc.Status` as messages (a map, an `Any`, the status) to encode them cost more than
//! the refusal's other work. `api::error`'s tests compare the bytes with tonic-types' for every reason.

use super::writer::Writer;
use crate::api::error::ERROR_DOMAIN;

/// The `grpc-status-details-bin` of a status with one `ErrorInfo` (`reason`, [`ERROR_DOMAIN`], at most one metadata
/// entry): a `google.rpc.Status { code, message, details: [Any { type_url, value: ErrorInfo }] }` in protobuf's
/// wire format, fields in order and defaults left out, as prost writes it.
pub fn error_info_details(
    code: tonic::Code,
    message: &str,
    reason: &str,
    entry: Option<(&str, &str)>,
) -> bytes::Bytes {
    const TYPE_URL: &str = "type.googleapis.com/google.rpc.ErrorInfo";
    let mut w = Writer::with_capacity(96 + message.len());
    w.int32(1, code as i32);
    w.string(2, message);
    w.message(3, |any| {
        any.string(1, TYPE_URL);
        any.message(2, |info| {
            info.string(1, reason);
            info.string(2, ERROR_DOMAIN);
            if let Some((key, value)) = entry {
                info.message(3, |entry| {
                    entry.string(1, key);
                    entry.string(2, value);
                });
            }
        });
    });
    w.buf.into()
}
