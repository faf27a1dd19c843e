//! The on-disk shape of records, shared by stores that keep bytes. Protobuf (via prost, already a
//! dependency) so that fields can be added later without a migration; the move is kept in the
//! compact notation of [`crate::engine::notation`], so the stored log reads like an exported one.
//! Public so that the fuzz tests (`tests/fuzz`) can feed it bytes a damaged store or another
//! replica could hand back: decoding them is an error, never a panic.

use super::{Action, BotSeat, EndReason, EventRecord, Finished, MatchId, MatchRecord, StoreError};
use crate::clock::TimeControl;
use crate::engine::{notation, position_line};
use crate::engine::{Options, Player, StarterRule};
use prost::Message;

#[derive(Clone, PartialEq, prost::Message)]
struct StoredHeader {
    #[prost(string, tag = "1")]
    kind: String,
    #[prost(uint32, tag = "2")]
    first_player: u32,
    #[prost(uint32, tag = "3")]
    ba_awa_target: u32,
    #[prost(uint64, tag = "4")]
    created_ms: u64,
    #[prost(bytes = "vec", tag = "5")]
    south_token_hash: Vec<u8>,
    #[prost(bytes = "vec", tag = "6")]
    north_token_hash: Vec<u8>,
    #[prost(uint64, tag = "7")]
    version: u64,
    #[prost(bool, tag = "8")]
    finished: bool,
    #[prost(uint64, tag = "9")]
    finished_at_ms: u64,
    #[prost(uint32, tag = "10")]
    winner: u32,
    #[prost(uint32, tag = "11")]
    resigned: u32,
    /// Absent in records written before tenants: the anonymous tenant.
    #[prost(string, tag = "12")]
    tenant: String,
    #[prost(string, optional, tag = "13")]
    south_player: Option<String>,
    #[prost(string, optional, tag = "14")]
    north_player: Option<String>,
    /// Absent (0) in records written before the idle expiry.
    #[prost(uint64, tag = "15")]
    active_ms: u64,
    #[prost(bool, tag = "16")]
    expired: bool,
    /// Absent for a seat of a person (every seat of a record written before bot seats).
    #[prost(message, optional, tag = "17")]
    south_bot: Option<StoredBot>,
    #[prost(message, optional, tag = "18")]
    north_bot: Option<StoredBot>,
    /// Why the match ended (`EndReason::code`); 0 in records written before reasons, which `resigned` and
    /// `expired` describe.
    #[prost(uint32, tag = "19")]
    end_reason: u32,
    /// The match's time control; absent: untimed.
    #[prost(message, optional, tag = "20")]
    time_control: Option<StoredTimeControl>,
    /// When the server must next act on the match's clocks (a flag, an abort), ms since the epoch; 0: never.
    #[prost(uint64, tag = "21")]
    deadline_ms: u64,
    /// Ba-awa's players: 3, or 0 for two (and in records written before three-player Ba-awa).
    #[prost(uint32, tag = "22")]
    ba_awa_players: u32,
    /// Bao la Kete's starter of later games ([`starter_code`]); 0 (alternately) in older records.
    #[prost(uint32, tag = "23")]
    bao_la_kete_starter: u32,
    /// Three-player Ba-awa's East seat; absent (empty) in two-player matches.
    #[prost(bytes = "vec", tag = "24")]
    east_token_hash: Vec<u8>,
    #[prost(string, optional, tag = "25")]
    east_player: Option<String>,
    #[prost(message, optional, tag = "26")]
    east_bot: Option<StoredBot>,
    /// §1's rules of endless play ([`across_turns_code`]); 0 in records written before them, which replay
    /// without them.
    #[prost(uint32, tag = "27")]
    max_games: u32,
    /// Whether repetition was switched off for the match (only read when `max_games` is set).
    #[prost(bool, tag = "28")]
    repetition_off: bool,
    /// The position the match began from, as a position line ([`position_line`]); empty for the game's
    /// opening (and in records written before matches could begin elsewhere).
    #[prost(string, tag = "29")]
    start: String,
}

/// The match length a header stores: the match's limit (1 to 1000), never 0, which marks a record written before
/// §1's rules of endless play.
fn across_turns_code(kind: crate::engine::GameKind, options: &Options) -> u32 {
    options.max_games_for(kind)
}

/// The options' rules of endless play from a header's fields: those it stored, or none for an older record.
fn code_across_turns(
    kind: crate::engine::GameKind,
    options: Options,
    max_games: u32,
    repetition_off: bool,
) -> Options {
    if max_games == 0 {
        options.without_across_turns()
    } else {
        Options {
            repetition: !repetition_off,
            max_games: Options::max_games_read(kind, max_games),
            ..options
        }
    }
}

/// A time control as stored (the lobby's entries keep it too).
#[derive(Clone, PartialEq, prost::Message)]
pub struct StoredTimeControl {
    /// 1 Fischer, 2 delay, 3 correspondence.
    #[prost(uint32, tag = "1")]
    pub kind: u32,
    /// The initial time.
    #[prost(uint64, tag = "2")]
    pub initial_ms: u64,
    /// The increment (Fischer) or the delay.
    #[prost(uint64, tag = "3")]
    pub extra_ms: u64,
    /// Days per move (correspondence).
    #[prost(uint32, tag = "4")]
    pub days: u32,
}

/// `control` as stored; `None` for an untimed match.
pub fn stored_time_control(control: TimeControl) -> Option<StoredTimeControl> {
    let (kind, initial_ms, extra_ms, days) = match control {
        TimeControl::Untimed => return None,
        TimeControl::Fischer {
            initial_ms,
            increment_ms,
        } => (1, initial_ms, increment_ms, 0),
        TimeControl::Delay {
            initial_ms,
            delay_ms,
        } => (2, initial_ms, delay_ms, 0),
        TimeControl::Correspondence { days } => (3, 0, 0, days),
    };
    Some(StoredTimeControl {
        kind,
        initial_ms,
        extra_ms,
        days,
    })
}

/// The time control [`stored_time_control`] wrote (`None`: untimed).
pub fn time_control(stored: Option<StoredTimeControl>) -> Result<TimeControl, StoreError> {
    let Some(t) = stored else {
        return Ok(TimeControl::Untimed);
    };
    Ok(match t.kind {
        1 => TimeControl::Fischer {
            initial_ms: t.initial_ms,
            increment_ms: t.extra_ms,
        },
        2 => TimeControl::Delay {
            initial_ms: t.initial_ms,
            delay_ms: t.extra_ms,
        },
        3 => TimeControl::Correspondence { days: t.days },
        other => return Err(StoreError::Failed(format!("unknown time control {other}"))),
    })
}

/// The reason a stored match ended: its code, or for a record written before reasons, what its flags say.
pub fn end_reason(
    code: u32,
    resigned: Option<Player>,
    expired: bool,
) -> Result<EndReason, StoreError> {
    match (code, EndReason::of_code(code)) {
        (_, Some(reason)) => Ok(reason),
        (0, None) if expired => Ok(EndReason::Expired),
        (0, None) if resigned.is_some() => Ok(EndReason::Resignation),
        (0, None) => Ok(EndReason::PlayedOut),
        (other, None) => Err(StoreError::Failed(format!(
            "stored end reason {other} is unknown"
        ))),
    }
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredBot {
    #[prost(uint32, tag = "1")]
    level: u32,
    #[prost(uint64, optional, tag = "2")]
    seed: Option<u64>,
}

fn stored_bot(bot: &Option<BotSeat>) -> Option<StoredBot> {
    bot.map(|bot| StoredBot {
        level: bot.level,
        seed: bot.seed,
    })
}

fn bot_seat(bot: Option<StoredBot>) -> Option<BotSeat> {
    bot.map(|bot| BotSeat {
        level: bot.level,
        seed: bot.seed,
    })
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredEvent {
    #[prost(uint64, tag = "1")]
    seq: u64,
    /// The event in notation: "S 3", "N next 6 7", "S resign".
    #[prost(string, tag = "2")]
    line: String,
    #[prost(string, tag = "3")]
    request_id: String,
    #[prost(uint64, tag = "4")]
    at_ms: u64,
}

/// A seat in the stored records (the lobby's too): 0 none, 1 South, 2 North.
pub fn player_code(player: Option<Player>) -> u32 {
    match player {
        None => 0,
        Some(Player::South) => 1,
        Some(Player::North) => 2,
        Some(Player::East) => 3,
    }
}

/// Bao la Kete's starter rule in the stored records (the lobby's too): 0 alternately, 1 the loser, 2 the
/// winner.
pub fn starter_code(rule: StarterRule) -> u32 {
    match rule {
        StarterRule::Alternate => 0,
        StarterRule::LoserStarts => 1,
        StarterRule::WinnerStarts => 2,
    }
}

/// The rule [`starter_code`] wrote; an error for any other number.
pub fn code_starter(code: u32) -> Result<StarterRule, StoreError> {
    match code {
        0 => Ok(StarterRule::Alternate),
        1 => Ok(StarterRule::LoserStarts),
        2 => Ok(StarterRule::WinnerStarts),
        other => Err(StoreError::Failed(format!(
            "stored starter rule {other} is unknown"
        ))),
    }
}

/// Ba-awa's number of players in the stored records: 3, or 0 for two.
pub fn players_code(options: &Options) -> u32 {
    if options.ba_awa_players == 3 {
        3
    } else {
        0
    }
}

/// The number of players [`players_code`] wrote; an error for any other number.
pub fn code_players(code: u32) -> Result<u8, StoreError> {
    match code {
        0 | 2 => Ok(2),
        3 => Ok(3),
        other => Err(StoreError::Failed(format!(
            "stored number of players {other} is unknown"
        ))),
    }
}

/// The seat [`player_code`] wrote; an error for any other number.
pub fn code_player(code: u32) -> Result<Option<Player>, StoreError> {
    match code {
        0 => Ok(None),
        1 => Ok(Some(Player::South)),
        2 => Ok(Some(Player::North)),
        3 => Ok(Some(Player::East)),
        other => Err(StoreError::Failed(format!(
            "stored player code {other} is unknown"
        ))),
    }
}

/// The header as bytes.
pub fn encode_match(record: &MatchRecord) -> Vec<u8> {
    StoredHeader {
        kind: record.kind.slug().to_string(),
        first_player: player_code(Some(record.options.first_player)),
        ba_awa_target: record.options.ba_awa_target as u32,
        created_ms: record.created_ms,
        south_token_hash: record.token_hashes[0].to_vec(),
        north_token_hash: record.token_hashes[1].to_vec(),
        version: record.version,
        finished: record.finished.is_some(),
        finished_at_ms: record.finished.map_or(0, |f| f.at_ms),
        winner: player_code(record.finished.and_then(|f| f.winner)),
        resigned: player_code(record.finished.and_then(|f| f.resigned)),
        tenant: record.tenant.clone(),
        south_player: record.players[0].clone(),
        north_player: record.players[1].clone(),
        active_ms: record.active_ms,
        expired: record.finished.is_some_and(|f| f.expired()),
        south_bot: stored_bot(&record.bots[0]),
        north_bot: stored_bot(&record.bots[1]),
        end_reason: record.finished.map_or(0, |f| f.reason.code()),
        time_control: stored_time_control(record.time_control),
        deadline_ms: record.deadline_ms.unwrap_or(0),
        ba_awa_players: players_code(&record.options),
        bao_la_kete_starter: starter_code(record.options.bao_la_kete_starter),
        // A two-player match writes no East seat, so its header is the same bytes as before East.
        east_token_hash: if record.token_hashes[2] == [0; 32] {
            Vec::new()
        } else {
            record.token_hashes[2].to_vec()
        },
        east_player: record.players[2].clone(),
        east_bot: stored_bot(&record.bots[2]),
        max_games: across_turns_code(record.kind, &record.options),
        repetition_off: !record.options.repetition,
        start: record
            .start
            .as_deref()
            .map(position_line::write)
            .unwrap_or_default(),
    }
    .encode_to_vec()
}

/// The header of match `id` from bytes.
pub fn decode_match(id: MatchId, bytes: &[u8]) -> Result<MatchRecord, StoreError> {
    let h =
        StoredHeader::decode(bytes).map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?;
    let kind = crate::engine::GameKind::from_slug(&h.kind)
        .ok_or_else(|| StoreError::Failed(format!("match {id}: unknown game {:?}", h.kind)))?;
    let hash = |bytes: &[u8]| -> Result<[u8; 32], StoreError> {
        bytes
            .try_into()
            .map_err(|_| StoreError::Failed(format!("match {id}: bad token hash")))
    };
    Ok(MatchRecord {
        id,
        kind,
        options: code_across_turns(
            kind,
            Options {
                first_player: code_player(h.first_player)?.unwrap_or(Player::South),
                ba_awa_target: u8::try_from(h.ba_awa_target)
                    .map_err(|_| StoreError::Failed(format!("match {id}: bad target")))?,
                ba_awa_players: code_players(h.ba_awa_players)?,
                bao_la_kete_starter: code_starter(h.bao_la_kete_starter)?,
                ..Options::default()
            },
            h.max_games,
            h.repetition_off,
        ),
        start: if h.start.is_empty() {
            None
        } else {
            let start = position_line::read(kind, &h.start)
                .map_err(|e| StoreError::Failed(format!("match {id}: start: {e}")))?;
            Some(std::sync::Arc::new(start))
        },
        created_ms: h.created_ms,
        token_hashes: [
            hash(&h.south_token_hash)?,
            hash(&h.north_token_hash)?,
            if h.east_token_hash.is_empty() {
                [0; 32]
            } else {
                hash(&h.east_token_hash)?
            },
        ],
        version: h.version,
        tenant: h.tenant,
        players: [h.south_player, h.north_player, h.east_player],
        bots: [
            bot_seat(h.south_bot),
            bot_seat(h.north_bot),
            bot_seat(h.east_bot),
        ],
        active_ms: h.active_ms,
        finished: if h.finished {
            let resigned = code_player(h.resigned)?;
            Some(Finished {
                at_ms: h.finished_at_ms,
                winner: code_player(h.winner)?,
                resigned,
                reason: end_reason(h.end_reason, resigned, h.expired)?,
            })
        } else {
            None
        },
        time_control: time_control(h.time_control)
            .map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?,
        deadline_ms: (h.deadline_ms != 0).then_some(h.deadline_ms),
    })
}

/// The two fields of a header that a check-and-append reads: prost skips the others without decoding them.
#[derive(Clone, PartialEq, prost::Message)]
struct StoredProgress {
    #[prost(uint64, tag = "7")]
    version: u64,
    #[prost(bool, tag = "8")]
    finished: bool,
}

/// The version of match `id`'s header `bytes`, and whether the match is over: what the embedded store's
/// check-and-append needs, read without decoding the rest of the header.
pub fn decode_progress(id: MatchId, bytes: &[u8]) -> Result<(u64, bool), StoreError> {
    let p = StoredProgress::decode(bytes)
        .map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?;
    Ok((p.version, p.finished))
}

/// An event as bytes.
pub fn encode_event(event: &EventRecord) -> Vec<u8> {
    StoredEvent {
        seq: event.seq,
        line: notation::event_line(event.player, &event.action),
        request_id: event.request_id.clone(),
        at_ms: event.at_ms,
    }
    .encode_to_vec()
}

/// An event of a match of `record.kind` from bytes.
pub fn decode_event(record: &MatchRecord, bytes: &[u8]) -> Result<EventRecord, StoreError> {
    let id = record.id;
    let e =
        StoredEvent::decode(bytes).map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?;
    let (player, action): (Player, Action) = notation::parse_event_line(record.kind, &e.line)
        .map_err(|err| StoreError::Failed(format!("match {id} event {}: {err}", e.seq)))?;
    Ok(EventRecord {
        seq: e.seq,
        player,
        action,
        request_id: e.request_id,
        at_ms: e.at_ms,
    })
}
