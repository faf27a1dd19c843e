//! Starting a match: from the game's opening or from a position its creator chose, its seats' tokens made, its
//! header written to the store before anyone hears of it.

use super::bots;
use super::error::{store_failed, MatchError};
use super::slots::{self, detached, lock, random_token, token_hash, Slot};
use super::{too_many_active, Created, Encoder, Lifecycle, Matches, Owner};
use crate::clock::Clocks;
use crate::engine::{position_line, AnyGame, GameKind, Options, Player};
use crate::store::{MatchId, MatchRecord, StoreError, StoredMatch, SEATS};
use std::sync::Arc;

impl<E: Encoder> Matches<E> {
    /// Starts a match of `kind` for `owner`: its view and a token for each seat not bound to a player.
    pub async fn create(
        &self,
        kind: GameKind,
        options: Options,
        owner: Owner,
    ) -> Result<Created, MatchError> {
        let id = MatchId::random()
            .map_err(|e| store_failed("reading the OS random generator", None, e))?;
        self.create_with_id(id, kind, options, owner).await
    }

    /// [`Matches::create`] from a position in play instead of the game's opening (a puzzle, an adjourned game, a
    /// test of an ending): the match is `start`'s game, its options taking from the position what the position
    /// says ([`position_line::match_options`]); its log replays from `start`, which its header keeps.
    pub async fn create_from(
        &self,
        start: AnyGame,
        options: Options,
        owner: Owner,
    ) -> Result<Created, MatchError> {
        let options = position_line::match_options(options, &start)
            .map_err(|(field, problem)| MatchError::invalid(field, problem))?;
        let id = MatchId::random()
            .map_err(|e| store_failed("reading the OS random generator", None, e))?;
        self.begin(id, start.kind(), options, Some(Arc::new(start)), owner)
            .await
    }

    /// [`Matches::create`] with the id chosen by the caller (the lobby, which records the id first). If the store
    /// already has a match of that id it is left as it is, so a creation retried (by this server or another) is
    /// made once; the answer then holds no tokens, which only a first creation could have handed out.
    pub async fn create_with_id(
        &self,
        id: MatchId,
        kind: GameKind,
        options: Options,
        owner: Owner,
    ) -> Result<Created, MatchError> {
        self.begin(id, kind, options, None, owner).await
    }

    /// Makes the match: its seats' tokens, its clocks, its header in the store, then the slot that holds it.
    async fn begin(
        &self,
        id: MatchId,
        kind: GameKind,
        options: Options,
        start: Option<Arc<AnyGame>>,
        owner: Owner,
    ) -> Result<Created, MatchError> {
        self.check_bots(&owner)?;
        if let Err(problem) = owner.time_control.check(self.inner.clock.max_initial_ms) {
            return Err(MatchError::invalid("time_control", problem));
        }
        if let Some(creator) = &owner.creator {
            self.room_for_one_more_of(&owner.tenant, creator).await?;
        }
        let creator = owner.creator.clone();
        let game = match &start {
            Some(start) => AnyGame::clone(start),
            None => AnyGame::new_match(kind, &options),
        };
        let mut tokens = [None, None, None];
        let mut token_hashes = [[0; 32]; SEATS];
        for &seat in Player::seated(options.seats(kind)) {
            // A bot seat has no credential at all: nobody but the server acts for it.
            if owner.players[seat.index()].is_none() && owner.bots[seat.index()].is_none() {
                let token = random_token()?;
                token_hashes[seat.index()] = token_hash(&token);
                tokens[seat.index()] = Some(token);
            }
        }
        let created_ms = self.inner.time.now_ms();
        let clocks = Clocks::new(
            owner.time_control,
            self.inner.abort_after_ms(),
            created_ms,
            &game,
        );
        let record = MatchRecord {
            id,
            kind,
            options,
            start,
            created_ms,
            token_hashes,
            tenant: owner.tenant,
            players: owner.players,
            bots: owner.bots,
            active_ms: created_ms,
            version: 0,
            finished: None,
            time_control: owner.time_control,
            deadline_ms: slots::next_deadline(&clocks, None),
        };
        let max_active = self.max_active(&record.tenant);
        let slot = Slot::replayed(
            StoredMatch {
                record: record.clone(),
                events: Vec::new(),
            },
            self.inner.settings.watcher_buffer,
            self.inner.abort_after_ms(),
            created_ms,
        )
        .map_err(MatchError::Internal)?;
        let view = slot.view(created_ms);
        let inner = self.inner.clone();
        let tenant = record.tenant.clone();
        let slot = Arc::new(slot);
        let held = slot.clone();
        detached(async move {
            match inner.store.create(&record, max_active).await {
                Ok(()) => {}
                Err(StoreError::TooManyActive { active }) => return Err(too_many_active(active)),
                Err(e) => return Err(store_failed("creating a match", Some(id), e)),
            }
            // Checked and inserted under one lock: two creations of the same id at once (the lobby's creator and
            // a stream making sure of it) install one slot, count one match and tell of it once.
            match lock(&inner.slots).entry(id) {
                std::collections::hash_map::Entry::Occupied(_) => return Ok(()),
                std::collections::hash_map::Entry::Vacant(vacant) => {
                    vacant.insert(held.clone());
                }
            }
            inner.store.follow_match(&id, true);
            inner.watch_clocks(&held);
            inner.metrics.matches_active_add(1);
            if let (Some(identity), Some(creator)) = (&inner.identity, &creator) {
                identity.created().add(creator, id);
            }
            inner.tell(Lifecycle::Created(record));
            Ok(())
        })
        .await?;
        tracing::info!(match_id = %id, game = kind.name(), tenant, "match created");
        // A bot that opens the match thinks at once.
        bots::wake(&self.inner, &slot);
        Ok(Created { view, tokens })
    }

    /// Refuses bot seats this manager cannot play: none configured, a level out of range, a seat also bound
    /// to a player.
    fn check_bots(&self, owner: &Owner) -> Result<(), MatchError> {
        let mut violations = Vec::new();
        for seat in Player::ALL {
            let Some(bot) = owner.bots[seat.index()] else {
                continue;
            };
            let field = "bots".to_string();
            match self.max_bot_level() {
                None => violations.push(crate::engine::Violation {
                    field,
                    description: "this server plays no bot seats".into(),
                }),
                Some(max) if !(1..=max).contains(&bot.level) => {
                    violations.push(crate::engine::Violation {
                        field,
                        description: format!("{seat}'s level is 1 to {max} on this server"),
                    })
                }
                Some(_) if owner.players[seat.index()].is_some() => {
                    violations.push(crate::engine::Violation {
                        field,
                        description: format!(
                            "{seat} is bound to a player; a seat is a player's or the bot's"
                        ),
                    })
                }
                Some(_) => {}
            }
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(MatchError::Invalid(violations))
        }
    }
}
