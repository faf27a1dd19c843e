//! The Players service's answers beyond a profile (`players.proto`): who the caller is, and a leaderboard's lines.

use super::convert::kind_to_pb;
use super::lobby::profile_pb;
use super::pb;
use crate::engine::GameKind;
use crate::lobby::{Profile, Ranked};

/// `WhoAmI`'s answer: `tenant` and the credential's kind, and for a player token his profile.
pub fn who_am_i_pb(
    tenant: &str,
    caller: pb::CallerKind,
    profile: Option<&Profile>,
) -> pb::WhoAmIResponse {
    pb::WhoAmIResponse {
        tenant_id: tenant.to_string(),
        caller: caller as i32,
        player_id: profile.map(|p| p.player.clone()).unwrap_or_default(),
        display_name: profile.map(|p| p.display_name.clone()).unwrap_or_default(),
        is_bot: profile.is_some_and(|p| p.bot.is_some()),
        profile: profile.map(profile_pb),
    }
}

/// One line of `kind`'s leaderboard.
pub fn leaderboard_entry_pb(kind: GameKind, ranked: &Ranked) -> pb::LeaderboardEntry {
    let p = &ranked.profile;
    let standing = p.standing(kind);
    let rating = profile_pb(p)
        .ratings
        .into_iter()
        .find(|r| r.kind == kind_to_pb(kind) as i32);
    pb::LeaderboardEntry {
        rank: ranked.rank,
        player_id: p.player.clone(),
        display_name: p.display_name.clone(),
        is_bot: p.bot.is_some(),
        rating,
        games: standing.wins + standing.losses + standing.draws,
        last_seen_at_ms: p.last_seen_ms,
        online: p.online,
    }
}
