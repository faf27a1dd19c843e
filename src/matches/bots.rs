//! Bot seats: the seats of a match that the server plays itself, with a built-in opponent of
//! [`crate::engine::search`] at the level chosen at creation.
//!
//! A bot acts when the match waits for it: when its seat is to sow, and between games when it is the seat that
//! chooses the next game's opening (the rules' default chooser, [`Judge::default_chooser`]: Ba-awa's player who
//! won more than six pits, otherwise the player who starts the next game). Then a person may not send that
//! `NextGame` for it (`PERMISSION_DENIED`, as for a sowing out of turn).
//!
//! Who plays. The server that wrote an event plays the bot's answer to it ([`wake`], after a local write or a
//! new match): over a shared store the replicas do not all try. A bot move nobody plays (its server died or
//! restarted between the event and the answer) is found by the sweep ([`Matches::sweep_bots_at`]: once at
//! start-up, then every `bots.sweep_interval_ms`), which over a shared store leaves such a move to the writer
//! for one interval first. Whoever plays it goes through the same check-and-append as a person's move, with the
//! version the bot searched as `expected_version`: a second writer for one version is refused by the store,
//! and the loser drops its move quietly (a debug line and `mancala_bot_moves_dropped_total{reason="lost_race"}`).
//!
//! Reproducible. Each move is searched by a fresh [`Bot`] seeded from the seat's seed (or, without one, the
//! match id) and the version it answers, so the same history gives the same move on any replica and after a
//! restart, and two replicas that both search one move would both find the same. The price: the Monte Carlo
//! tree is not kept from one move to the next, as a bot of one process could.
//!
//! Bounded. A search runs on the engine pool's bot lane ([`EnginePool::run_bot`]), never on the async workers
//! and never behind callers' searches; `bots.max_thinking` searches at once per server (the lane's threads), the
//! others waiting their turn, bots on a clock and bots without taking turns; the engine's match budget bounds
//! each, and the shutdown grace stops them.
//!
//! On time. Under a clock, a move may take a twentieth of what the bot has left ([`think_share`]), and the wait
//! for a thread counts within it: the search is given only what is left of that share when it starts, and a bot
//! whose share runs out before a thread is free gives up its place and chooses with a one-ply look
//! ([`Algorithm::Greedy`], a few moves played: `mancala_bot_moves_hurried_total`). A flood of work can make a bot
//! play worse, never lose on time.

use super::error::MatchError;
use super::slots::{detached, lock, Inner, Slot};
use super::view::Encoder;
use super::{Fresh, Matches};
use crate::config::BotSettings;
use crate::engine::across_turns::AcrossTurns;
use crate::engine::search::{self, Algorithm, Bot, Judge, Limits, Thinker};
use crate::engine::{AnyGame, IllegalMove, Player, Reason, Rng, Status};
use crate::pool::{self, EnginePool, WorkError};
use crate::store::{Action, BotSeat, MatchId};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tracing::Instrument;

/// The bot seats' player: its settings, the engine pool it searches on, and the matches it is playing now.
pub(super) struct Bots {
    settings: BotSettings,
    pool: EnginePool,
    /// Matches with a task of this server playing their bot moves (at most one each).
    pending: Mutex<HashSet<MatchId>>,
}

impl Bots {
    pub(super) fn new(settings: BotSettings, pool: EnginePool) -> Bots {
        Bots {
            settings,
            pool,
            pending: Mutex::new(HashSet::new()),
        }
    }

    pub(super) fn max_level(&self) -> u32 {
        self.settings.max_level
    }
}

/// The seat whose decision the match waits for in `game`: the player to sow, or between games the one who
/// chooses; `None` once the match is over.
pub(super) fn actor(game: &AnyGame) -> Option<Player> {
    match game.status() {
        Status::InProgress => game.to_move(),
        Status::MatchOver => None,
        Status::GameOver | Status::RoundOver => Some(match game {
            AnyGame::BaoLaKete(g) => g.default_chooser(),
            AnyGame::BaAwa(g) => g.default_chooser(),
            AnyGame::Bosh(g) => g.default_chooser(),
        }),
    }
}

/// A decision the match waits for from one of its bots.
struct Turn {
    seat: Player,
    bot: BotSeat,
    game: AnyGame,
    /// The positions of the game so far, which its choice may repeat (§1 "Repetition").
    across: AcrossTurns,
    /// The version the decision answers (and is appended at, plus one).
    version: u64,
    /// When the event it answers was accepted: the think delay counts from it.
    active_ms: u64,
}

/// The bot's turn in `slot` now, if it is one.
fn turn_of<M>(slot: &Slot<M>) -> Option<Turn> {
    let live = lock(&slot.live);
    if live.finished.is_some() {
        return None;
    }
    let seat = actor(&live.game)?;
    let bot = slot.bots[seat.index()]?;
    Some(Turn {
        seat,
        bot,
        game: live.game.clone(),
        across: live.across.clone(),
        version: live.version,
        active_ms: live.active_ms,
    })
}

/// `bot`'s move for `seat` in `game`, steered for or away from a repetition by the positions the match has seen
/// (the search sees one position; the match knows which moves would repeat one a third time).
fn choose_in_match(
    mut bot: Bot,
    game: &AnyGame,
    seat: Player,
    across: &AcrossTurns,
) -> Option<search::Suggestion> {
    let mut found = bot.choose(game, Some(seat))?;
    search::steer(&mut found, game, across);
    Some(found)
}

/// The seed of the bot's search for the move after `version`: a function of the seat's seed (or the match id)
/// and the version alone, so that the same history gives the same move.
fn move_seed(id: &MatchId, seat: Player, bot: &BotSeat, version: u64) -> u64 {
    let base = bot.seed.unwrap_or_else(|| {
        let (high, low) = id.0.split_at(8);
        let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        splitmix(word(high)) ^ word(low)
    });
    splitmix(base ^ splitmix(version ^ (seat.index() as u64) << 63))
}

/// The share of the clock one move may take, wait for a thread included: a twentieth of what is left, so that
/// the bot's time shrinks by a twentieth a move and never runs out (with the moves' bookkeeping, a few
/// milliseconds, on top: far less than a share until the last tens of milliseconds).
fn think_share(left_ms: u64) -> Duration {
    Duration::from_millis(left_ms / 20)
}

/// The one-ply player a bot falls back on when its clock leaves no time to wait for a thread.
const HURRIED: Thinker = Thinker {
    algorithm: Algorithm::Greedy,
    limits: Limits {
        iterations: 0,
        max_depth: 1,
        time: None,
    },
};

/// SplitMix64's finaliser: spreads nearby inputs (consecutive versions) over the whole range.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays the bot's moves of `slot` from this server if one is due now and no task of this server plays them
/// already. Called after this server wrote an event (or created the match), and by the sweep.
pub(super) fn wake<E: Encoder>(inner: &Arc<Inner<E>>, slot: &Arc<Slot<E::Message>>) {
    let Some(bots) = &inner.bots else { return };
    if turn_of(slot).is_none() {
        return;
    }
    if lock(&bots.pending).insert(slot.id) {
        let span = tracing::info_span!("bot", match_id = %slot.id, game = slot.kind.name());
        tokio::spawn(drive(Arc::downgrade(inner), slot.clone()).instrument(span));
    }
}

/// Plays the bots' moves of one match for as long as the match waits for a bot (a bot against a bot: to the
/// end). Holds the manager only while it uses it, so that a server that stops is not kept alive by a bot
/// waiting out its delay.
async fn drive<E: Encoder>(weak: Weak<Inner<E>>, slot: Arc<Slot<E::Message>>) {
    let mut tried = None;
    loop {
        let turn = {
            let Some(inner) = weak.upgrade() else { return };
            let Some(bots) = &inner.bots else { return };
            // Decided under `pending`, as `wake` inserts under it after the event it wakes for is applied: no
            // event is left unanswered between this task's last look and its end.
            let mut pending = lock(&bots.pending);
            match turn_of(&slot) {
                // The same version again: the last try failed without the match moving on.
                Some(turn) if tried != Some(turn.version) => turn,
                _ => {
                    pending.remove(&slot.id);
                    return;
                }
            }
        };
        tried = Some(turn.version);
        if !play(&weak, &slot, turn).await {
            if let Some(inner) = weak.upgrade() {
                if let Some(bots) = &inner.bots {
                    lock(&bots.pending).remove(&slot.id);
                }
            }
            return;
        }
    }
}

/// Searches and plays one bot decision; whether to look for the next one (played, or lost to another writer:
/// the match moved on) rather than stop (the search or the store failed: the sweep tries again later).
async fn play<E: Encoder>(weak: &Weak<Inner<E>>, slot: &Arc<Slot<E::Message>>, turn: Turn) -> bool {
    let game_name = slot.kind.slug();
    let Turn {
        seat,
        bot,
        game,
        across,
        version,
        active_ms,
    } = turn;
    // A level the engine no longer has (its table changed since the match was made): its strongest.
    let Some(thinker) =
        search::level(slot.kind, bot.level).or_else(|| search::level(slot.kind, search::TOP_LEVEL))
    else {
        tracing::warn!(
            level = bot.level,
            "no thinker for this game; the bot cannot play"
        );
        return false;
    };
    let seed = move_seed(&slot.id, seat, &bot, version);
    let (pool, delay, metrics, time) = {
        let Some(inner) = weak.upgrade() else {
            return false;
        };
        let bots = inner.bots.as_ref().expect("only bots play");
        (
            bots.pool.clone(),
            bots.settings.think_delay,
            inner.metrics.clone(),
            inner.time.clone(),
        )
    };
    let started = Instant::now();
    // Under a clock the move's share of it bounds the wait and the search together; also for a move its clock
    // does not run for yet (a first sowing, which the match aborts if it does not come in time).
    let left = {
        let clocks = lock(&slot.live).clocks;
        clocks.control.timed().then(|| match clocks.running {
            Some(running) if running == seat => clocks.remaining_at(time.now_ms())[seat.index()],
            _ => clocks.remaining_ms[seat.index()],
        })
    };
    let deadline = left.map(|left| started + think_share(left));
    let owner = pool::bot_owner(deadline.is_some(), &slot.id.to_string());
    let position = game.clone();
    let hurried_across = across.clone();
    let searched = pool
        .run_bot(owner, deadline, move |time_left| {
            let mut thinker = thinker;
            if let Some(time_left) = time_left {
                // A time-limited search still answers: it starts from every move's static value.
                thinker.limits.time =
                    Some(thinker.limits.time.map_or(time_left, |t| t.min(time_left)));
            }
            choose_in_match(Bot::new(thinker, seed), &position, seat, &across)
        })
        .await;
    let found = match searched {
        Err(WorkError::Late) => {
            metrics.bot_hurried();
            let budget = pool.match_budget();
            let across = hurried_across;
            tokio::task::spawn_blocking(move || {
                budget
                    .run(|| choose_in_match(Bot::new(HURRIED, seed), &game, seat, &across))
                    .map(|(found, _)| found)
                    .map_err(WorkError::from)
            })
            .await
            .unwrap_or(Err(WorkError::ShuttingDown))
        }
        searched => searched,
    };
    let elapsed = started.elapsed();
    metrics.bot_thought(game_name, elapsed);
    let suggestion = match found {
        Ok(Some(suggestion)) => suggestion,
        Ok(None) => return false,
        Err(error) => {
            metrics.bot_dropped("engine");
            tracing::warn!(error = %error, %seat, version, "a bot's search did not finish; the sweep will try again");
            return false;
        }
    };
    // The search started at once; the move waits out the rest of the delay since the event it answers.
    // Under a clock the delay is its own time: never more than a twentieth of what the bot had left.
    let delay_ms = (delay.as_millis() as u64).min(left.map_or(u64::MAX, |left| left / 20));
    let due = active_ms.saturating_add(delay_ms);
    time.sleep_until(due).await;
    let Some(inner) = weak.upgrade() else {
        return false;
    };
    let mv = suggestion.best;
    let held = slot.clone();
    let outcome = detached(async move {
        inner
            .submit(
                &held,
                seat,
                Action::Move(mv),
                Some(version),
                String::new(),
                time.now_ms(),
            )
            .await
    })
    .await;
    match outcome {
        Ok(event) => {
            metrics.bot_moved(game_name);
            tracing::debug!(
                %seat,
                seq = event.seq,
                level = bot.level,
                think_ms = elapsed.as_millis() as u64,
                iterations = suggestion.work.iterations,
                value = suggestion.value,
                "bot moved"
            );
            true
        }
        // Someone else acted first: another replica played this very move, the opponent resigned, the match
        // was purged. Nothing to report; the match, caught up by the submit, says what is next.
        Err(
            MatchError::VersionMismatch { .. }
            | MatchError::NotFound(_)
            | MatchError::Illegal(IllegalMove {
                reason: Reason::MatchOver,
                ..
            }),
        ) => {
            metrics.bot_dropped("lost_race");
            tracing::debug!(
                %seat,
                version,
                "another writer answered first; the bot's move is dropped"
            );
            true
        }
        Err(error) => {
            // An illegal move would be a bug of the search: said loudly, and counted apart.
            let reason = match error {
                MatchError::Illegal(_) => "illegal",
                _ => "store",
            };
            metrics.bot_dropped(reason);
            tracing::warn!(error = %error, %seat, version, "a bot's move could not be played; the sweep will try again");
            false
        }
    }
}

impl<E: Encoder> Matches<E> {
    /// Plays every bot move that is due and that no task of this server plays (see the module doc), as if the
    /// clock read `now_ms`: over a shared store only those whose event is older than the think delay and
    /// `grace` (left that long to the server that wrote it). How many matches it woke.
    pub async fn sweep_bots_at(&self, now_ms: u64, grace: Duration) -> Result<usize, MatchError> {
        let Some(bots) = &self.inner.bots else {
            return Ok(0);
        };
        let wait = bots.settings.think_delay + grace;
        let cutoff = now_ms.saturating_sub(wait.as_millis() as u64);
        let due = self
            .unfinished_where("listing matches for their bots", move |record| {
                record.bots.iter().any(Option::is_some) && record.active_ms <= cutoff
            })
            .await?;
        let mut woken = 0;
        for id in due {
            if lock(&bots.pending).contains(&id) {
                continue;
            }
            let Ok(slot) = self.slot("match_id", &id.to_string(), Fresh::Now).await else {
                continue;
            };
            if turn_of(&slot).is_some() {
                wake(&self.inner, &slot);
                woken += 1;
            }
        }
        if woken > 0 {
            tracing::info!(count = woken, "bot moves nobody was playing resumed");
        }
        Ok(woken)
    }

    /// Runs [`Matches::sweep_bots_at`] at once, then every `bots.sweep_interval_ms` (with a random quarter
    /// either way over a shared store, so that replicas do not sweep in step), until the returned guard is
    /// dropped. `None` without bots.
    pub fn spawn_bot_sweeper(&self) -> Option<BotSweeper> {
        let settings = &self.inner.bots.as_ref()?.settings;
        let every = settings.sweep_interval;
        let shared = self.inner.store.shared();
        // Over a store of this server alone, a due move no task plays is nobody's: no need to wait for it.
        let grace = match (shared, every) {
            (false, _) => Duration::ZERO,
            (true, every) => every.unwrap_or(Duration::from_secs(10)),
        };
        let weak = Arc::downgrade(&self.inner);
        let mut rng = Rng::new(self.inner.time.now_ms() ^ u64::from(std::process::id()) << 32);
        Some(BotSweeper::spawn(async move {
            loop {
                let Some(inner) = weak.upgrade() else { break };
                let matches = Matches { inner };
                let now = matches.inner.time.now_ms();
                if let Err(error) = matches.sweep_bots_at(now, grace).await {
                    tracing::warn!(error = %error, "the sweep for bot moves failed");
                }
                drop(matches);
                let Some(every) = every else { break };
                let pause = if shared {
                    let quarter = (every.as_millis() as usize / 4).max(1);
                    every - Duration::from_millis(quarter as u64)
                        + Duration::from_millis(rng.below(2 * quarter) as u64)
                } else {
                    every
                };
                tokio::time::sleep(pause).await;
            }
        }))
    }
}

/// The background sweep for bot moves; stops when dropped.
pub type BotSweeper = crate::sync::TaskGuard;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moves_seed_depends_on_the_seat_seed_and_version_only() {
        let id = MatchId([7; 16]);
        let other = MatchId([9; 16]);
        let seeded = BotSeat {
            level: 3,
            seed: Some(42),
        };
        let unseeded = BotSeat {
            level: 3,
            seed: None,
        };
        let seed = |id, bot, v| move_seed(id, Player::North, bot, v);
        assert_eq!(seed(&id, &seeded, 5), seed(&other, &seeded, 5));
        assert_ne!(seed(&id, &seeded, 5), seed(&id, &seeded, 6));
        assert_ne!(seed(&id, &unseeded, 5), seed(&other, &unseeded, 5));
        assert_ne!(
            move_seed(&id, Player::South, &seeded, 5),
            move_seed(&id, Player::North, &seeded, 5)
        );
    }
}
