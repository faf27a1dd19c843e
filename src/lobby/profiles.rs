//! Players' profiles: a player's display name and bot account, read and set, and the tenant's list of them.
//! Apart from challenges and seeks because a profile arranges nothing: it is only read and written through the
//! log (a player's ratings in it are the record's, `record.rs`).

use super::entry::{BotAccount, Entry};
use super::{Lobby, LobbyError, Profile};
use crate::matches::Encoder;

/// The longest display name, in bytes.
pub const MAX_DISPLAY_NAME_BYTES: usize = 64;
/// The longest bot owner, in bytes.
pub const MAX_BOT_OWNER_BYTES: usize = 64;
/// The longest bot description, in bytes.
pub const MAX_BOT_DESCRIPTION_BYTES: usize = 500;

impl<E: Encoder> Lobby<E> {
    /// `player`'s profile, with his presence (online, last seen).
    pub async fn profile(&self, tenant: &str, player: &str) -> Result<Profile, LobbyError> {
        let player = player.to_string();
        let profile = self
            .read(tenant, move |state| state.profile(&player))
            .await?;
        let mut seen = self.seen_now(tenant, vec![profile]).await?;
        Ok(seen.pop().expect("one profile in, one out"))
    }

    /// Sets `player`'s display name and bot account.
    pub async fn update_profile(
        &self,
        tenant: &str,
        player: &str,
        display_name: String,
        bot: Option<BotAccount>,
    ) -> Result<Profile, LobbyError> {
        let mut violations = Vec::new();
        let mut check = |field: &str, text: &str, max: usize| {
            if text.len() > max {
                violations.push(crate::engine::Violation {
                    field: field.into(),
                    description: format!("at most {max} bytes"),
                });
            } else if text.chars().any(char::is_control) {
                violations.push(crate::engine::Violation {
                    field: field.into(),
                    description: "no control characters".into(),
                });
            }
        };
        check("display_name", &display_name, MAX_DISPLAY_NAME_BYTES);
        if let Some(bot) = &bot {
            check("bot.owner", &bot.owner, MAX_BOT_OWNER_BYTES);
            check(
                "bot.description",
                &bot.description,
                MAX_BOT_DESCRIPTION_BYTES,
            );
            if bot.owner.is_empty() {
                violations.push(crate::engine::Violation {
                    field: "bot.owner".into(),
                    description: "a bot account names who runs it".into(),
                });
            }
        }
        if !violations.is_empty() {
            return Err(LobbyError::Invalid(violations));
        }
        let player = player.to_string();
        self.decide(tenant, move |state| {
            let entry = Entry::Profile {
                player: player.clone(),
                display_name: display_name.clone(),
                bot: bot.clone(),
            };
            let mut profile = state.profile(&player);
            profile.display_name = display_name.clone();
            profile.bot = bot.clone();
            Ok((Some(entry), profile))
        })
        .await
    }

    /// Up to `limit` profiles after player id `after`, with their presence, and whether there are more.
    pub async fn profiles(
        &self,
        tenant: &str,
        after: String,
        bots_only: bool,
        limit: usize,
    ) -> Result<(Vec<Profile>, bool), LobbyError> {
        let (page, more) = self
            .read(tenant, move |state| {
                let mut page: Vec<Profile> = state
                    .profiles_after(&after, bots_only)
                    .take(limit + 1)
                    .map(|profile| state.seen_in_log(profile.clone()))
                    .collect();
                let more = page.len() > limit;
                page.truncate(limit);
                (page, more)
            })
            .await?;
        Ok((self.seen_now(tenant, page).await?, more))
    }
}
