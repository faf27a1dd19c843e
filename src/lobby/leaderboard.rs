//! The leaderboards: a tenant's players ranked in one game ([`TenantState::ranked`](super::state::TenantState::ranked)),
//! a page at a time, each with his presence. Apart from the profiles because it orders them rather than looks one
//! up; the order is the log's (shared by every replica), the presence the presence store's.

use super::{Lobby, LobbyError, Profile};
use crate::engine::GameKind;
use crate::matches::Encoder;

/// A player's place on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// From 1.
    pub rank: u32,
    /// The player, his standing in the board's game among the others, and his presence.
    pub profile: Profile,
}

impl<E: Encoder> Lobby<E> {
    /// Up to `limit` players of `tenant`'s leaderboard in `kind` from place `skip` (0: the top), bot accounts only if
    /// `bots_only`, and whether more follow.
    pub async fn leaderboard(
        &self,
        tenant: &str,
        kind: GameKind,
        bots_only: bool,
        skip: usize,
        limit: usize,
    ) -> Result<(Vec<Ranked>, bool), LobbyError> {
        let (page, more) = self
            .read(tenant, move |state| {
                let ranked = state.ranked(kind, bots_only);
                let page: Vec<Profile> = ranked
                    .iter()
                    .skip(skip)
                    .take(limit)
                    .map(|profile| state.seen_in_log((*profile).clone()))
                    .collect();
                (page, ranked.len() > skip.saturating_add(limit))
            })
            .await?;
        let page = self.seen_now(tenant, page).await?;
        Ok((
            page.into_iter()
                .zip(skip + 1..)
                .map(|(profile, rank)| Ranked {
                    rank: u32::try_from(rank).unwrap_or(u32::MAX),
                    profile,
                })
                .collect(),
            more,
        ))
    }
}
