//! A client's Ba-awa state validated into a game (docs/ba-awa.md §4): its own fields, the pits' owners, the
//! turn, the end of a game, eliminations and the match score, every violation reported at once.

use super::*;

/// Ba-awa's own fields of a [`Setup`], as read by [`Validate::check_own_fields`].
pub(crate) struct OwnFields {
    /// North's and East's pits, when every pit has an owner.
    owned: Option<(u16, u16)>,
    starter: Option<Player>,
    target: u32,
    seats: u8,
    eliminated_in: [u32; 3],
}

impl Validate<PITS> for BaAwa {
    const SEED_TOTAL: u32 = SEEDS as u32;
    type OwnFields = OwnFields;

    /// §4.2, §4.3: Ba-awa has no reserves, its winnings are fours, and it is played in games, not rounds.
    fn check_shared_fields(check: &mut Checker, setup: &Setup) {
        if setup.reserves.iter().any(|&r| r != 0) {
            check.fail("reserves", "Ba-awa has no reserves; every entry must be 0");
        }
        // Winnings are fours (§4.2), except that at the end of a game the starter also takes the seeds left on
        // the board (§4.3): with all 48 seeds those are a multiple of 4 too, in a custom position with fewer
        // they need not be.
        let finished = matches!(setup.status, Some(status) if status != Status::InProgress);
        let starter = match &setup.variant {
            VariantSetup::BaAwa { starter, .. } => starter.map(Player::index),
            _ => None,
        };
        for (i, &store) in setup.stores.iter().enumerate() {
            check.require_at(
                store % FOUR as u32 == 0 || (finished && starter == Some(i)),
                || format!("stores[{i}]"),
                || format!("{store} is not a multiple of 4; Ba-awa's winnings are fours (§4.2)"),
            );
        }
        check.require(setup.status != Some(Status::RoundOver), "status", || {
            "Ba-awa has games, not rounds; use GAME_OVER".into()
        });
    }

    /// §4.1, §4.4, §4.7, R-4.10: the owner of every pit, the game's starter, the match target, the number of
    /// players and who is out.
    fn check_own_fields(check: &mut Checker, setup: &Setup) -> Option<OwnFields> {
        let VariantSetup::BaAwa {
            owners,
            starter,
            target,
            players,
            eliminated_in,
        } = &setup.variant
        else {
            check.fail(
                "ba_awa",
                "a Ba-awa state carries the ba_awa fields (owners, starter, target)",
            );
            return None;
        };
        check.require(matches!(players, 0 | 2 | 3), "ba_awa.players", || {
            format!("Ba-awa is played by 2 or 3 players (0 means 2), not {players}")
        });
        let seats = setup.seats() as u8;
        let owned = check_owners(check, owners, seats);
        check.require(starter.is_some(), "ba_awa.starter", || {
            "the player who began the game must be set".into()
        });
        check.require((10..=12).contains(target), "ba_awa.target", || {
            format!("the match target is 10, 11 or 12 pits, not {target}")
        });
        let mut out = [0u32; 3];
        match (seats, eliminated_in.len()) {
            (_, 0) => {}
            (3, 3) => out.copy_from_slice(eliminated_in),
            (3, n) => check.fail(
                "ba_awa.eliminated_in_game",
                format!("one entry per seat [South, North, East] (0: still in), not {n}"),
            ),
            _ => check.fail(
                "ba_awa.eliminated_in_game",
                "only three-player Ba-awa eliminates players; leave it empty",
            ),
        }
        Some(OwnFields {
            owned,
            starter: *starter,
            target: *target,
            seats,
            eliminated_in: out,
        })
    }

    fn assemble(setup: &Setup, pits: [u8; PITS], own: &OwnFields) -> Option<BaAwa> {
        let (Some(status), Some(starter), Some((north_owned, east_owned))) =
            (setup.status, own.starter, own.owned)
        else {
            return None;
        };
        let mut stores = [0u8; 3];
        for (store, &value) in stores.iter_mut().zip(&setup.stores) {
            *store = value as u8;
        }
        Some(BaAwa {
            pits,
            north_owned,
            east_owned,
            stores,
            seats: own.seats,
            eliminated_in: own.eliminated_in,
            to_move: setup.to_move,
            status,
            winner: setup.winner,
            starter,
            target: own.target as u8,
            ply: setup.ply,
            game_number: setup.game_number,
        })
    }

    /// §4.3, §4.4, §4.7: who is out, a game in play or a game that is over, then the match score either way.
    fn check_position(&self, check: &mut Checker, setup: &Setup, _: &OwnFields) {
        if self.seats == 3 {
            self.check_eliminations(check);
        }
        match self.status {
            Status::InProgress => self.check_turn(check),
            _ => self.check_game_end(check),
        }
        self.check_match_score(check, &setup.match_score);
    }
}

/// §4.1, §4.4 step 3, §4.7 step 4: every pit has an owner who plays in this game. With two players, the one with
/// more pits keeps his whole row; with three, each owns one block of consecutive pits, South's from pit 0, then
/// East's, then North's. Returns North's and East's pits when every pit is owned.
fn check_owners(check: &mut Checker, owners: &[Option<Player>], seats: u8) -> Option<(u16, u16)> {
    if owners.len() != PITS {
        check.fail(
            "ba_awa.owners",
            format!("one owner per pit: 12, not {}", owners.len()),
        );
        return None;
    }
    // Each pit's bit goes to its owner's mask, the fourth taking the pits with none: no branch per pit, since a
    // valid state has nothing to report (`report_unowned_pits` says what is wrong with the others).
    let mut by_seat = [0u16; 4];
    for (pit, owner) in owners.iter().enumerate() {
        by_seat[owner.map_or(3, Player::index)] |= 1 << pit;
    }
    let [south, north, east, unowned] = by_seat;
    let (east, unseated) = if seats == 3 { (east, 0) } else { (0, east) };
    let all_seated = unowned | unseated == 0;
    if !all_seated {
        report_unowned_pits(check, owners, seats);
    }
    let owned = [south, north, east];
    let [_, north_owned, east_owned] = owned;
    if seats == 3 {
        let blocks = allocate_blocks(owned.map(|pits| pits.count_ones() as u8 * FOUR));
        check.require(blocks == (north_owned, east_owned), "ba_awa.owners", || {
            "each player owns one block of consecutive pits: South's from S1 (pit 0), then East's, then North's (§4.7)".into()
        });
    } else {
        check.require(north_owned & SOUTH_ROW == 0 || north_owned & NORTH_ROW == NORTH_ROW, "ba_awa.owners", || {
            "the player with more pits keeps his whole row and the other owns pits of his own row only (§4.4)".into()
        });
    }
    all_seated.then_some((north_owned, east_owned))
}

/// Reports each pit [`check_owners`] found without an owner who plays in this game, in pit order.
#[cold]
#[inline(never)]
fn report_unowned_pits(check: &mut Checker, owners: &[Option<Player>], seats: u8) {
    for (pit, owner) in owners.iter().enumerate() {
        match owner {
            Some(owner) if owner.index() < seats as usize => {}
            Some(_) => check.fail(
                format!("ba_awa.owners[{pit}]"),
                "East plays only in three-player Ba-awa (ba_awa.players = 3)",
            ),
            None => check.fail(
                format!("ba_awa.owners[{pit}]"),
                if seats == 3 {
                    "every pit is owned by South, East or North"
                } else {
                    "every pit is owned by South or North"
                },
            ),
        }
    }
}

impl BaAwa {
    /// §4.7 step 2: a player out of the match owns no pits, has won nothing, neither moves nor begins a game,
    /// and went out at the end of this game or an earlier one.
    fn check_eliminations(&self, check: &mut Checker) {
        for seat in Player::ALL {
            let game = self.eliminated_in[seat.index()];
            if game == 0 {
                continue;
            }
            let this_game = game == self.game_number && self.status != Status::InProgress;
            check.require_at(
                game < self.game_number || this_game,
                || format!("ba_awa.eliminated_in_game[{}]", seat.index()),
                || {
                    format!(
                        "{seat} cannot have gone out in game {game}: this is game {} and a player goes out at the end \
                         of a game (§4.7)",
                        self.game_number
                    )
                },
            );
            check.require_at(
                self.owned_by(seat) == 0 || this_game,
                || format!("ba_awa.eliminated_in_game[{}]", seat.index()),
                || format!("{seat} is out of the match, so he owns no pits (§4.7)"),
            );
            check.require_at(
                self.stores[seat.index()] == 0,
                || format!("stores[{}]", seat.index()),
                || format!("{seat} is out of the match, so he wins nothing (§4.7)"),
            );
            check.require(
                self.to_move != Some(seat) && (self.starter != seat || this_game),
                "ba_awa.eliminated_in_game",
                || {
                    format!(
                        "{seat} is out of the match, so he neither moves nor begins a game (§4.7)"
                    )
                },
            );
        }
    }

    /// §4.1, §4.3, §4.4 step 2, R-4.6, §4.7: a game in play has more than 8 seeds on the board and no owner of a
    /// winning number of pits; game 1 keeps its first ownership; its starter moves first, and the player to
    /// move can move.
    fn check_turn(&self, check: &mut Checker) {
        check.require(self.seeds_on_board() > LAST_SEEDS, "pits", || {
            "with 8 or fewer seeds on the board the game is over (§4.3)".into()
        });
        let owned = self.match_score();
        for &player in Player::seated(self.seats as usize) {
            let pits = owned.get(player);
            let out = self.eliminated_in[player.index()] != 0;
            check.require((pits > 0 || out) && pits < self.target, "ba_awa.owners", || {
                if pits == 0 {
                    format!("{player} owns no pits, so he is out of the match (§4.7) or it is over (§4.4 step 2)")
                } else {
                    format!(
                        "{player} owns {pits} pits: with a target of {} the match would be over (§4.4 step 2)",
                        self.target
                    )
                }
            });
        }
        check.require(
            self.game_number > 1
                || (self.north_owned, self.east_owned) == game_one_ownership(self.seats),
            "ba_awa.owners",
            || {
                if self.seats == 3 {
                    "in game 1 South owns S1–S4, East S5–N2 and North N3–N6 (§4.7)".into()
                } else {
                    "in game 1 each player owns his own row (§4.1)".into()
                }
            },
        );
        check.require(
            self.ply > 0 || self.to_move == Some(self.starter),
            "to_move",
            || "before the first move of a game its starter is to move".into(),
        );
        if let Some(mover) = self.to_move {
            check.require_can_move(
                || self.can_move(mover),
                "to_move",
                || format!("{mover} has no legal move, so he would have passed (R-4.6)"),
            );
        }
    }

    /// §4.3, §4.4 step 2, §4.7 steps 2–3: a finished game has an empty board, and its status, winner and the
    /// players it put out follow from the winnings.
    fn check_game_end(&self, check: &mut Checker) {
        check.require(self.seeds_on_board() == 0, "pits", || {
            "at the end of a game the starter has taken every seed left (§4.3)".into()
        });
        // The outcome as the game's end found it: the seats it put out were still in then.
        let mut before = self.clone();
        for out in &mut before.eliminated_in {
            if *out == self.game_number {
                *out = 0;
            }
        }
        let outcome = before.outcome_of_game();
        check.require(outcome.status == self.status, "status", || {
            format!("with these winnings the status is {:?}", outcome.status)
        });
        check.require(outcome.winner == self.winner, "winner", || {
            match outcome.winner {
                Some(p) => format!("with these winnings the winner is {p}"),
                None => "with equal winnings there is no winner".into(),
            }
        });
        for seat in Player::ALL {
            let went_out = outcome.eliminated >> seat.index() & 1 == 1;
            check.require_at(
                went_out == (self.eliminated_in[seat.index()] == self.game_number),
                || format!("ba_awa.eliminated_in_game[{}]", seat.index()),
                || {
                    if went_out {
                        format!(
                            "{seat} won no pits in game {}, so he went out at its end (§4.7)",
                            self.game_number
                        )
                    } else {
                        format!(
                            "{seat} won pits in game {}, so he did not go out then",
                            self.game_number
                        )
                    }
                },
            );
        }
    }

    /// §4.4 step 1: the match score is the pits owned while a game is played, the pits won once it is over.
    fn check_match_score(&self, check: &mut Checker, claimed: &[u32]) {
        let score = self.match_score();
        // Compared in place: the expected list is only built to be reported.
        let score = score.as_slice();
        let matches =
            claimed.len() == score.len() && claimed.iter().zip(score).all(|(&c, &s)| c == s as u32);
        check.require(matches, "match_score", || {
            let expected: Vec<u32> = score.iter().map(|&s| s as u32).collect();
            format!(
                "Ba-awa's match score is {expected:?} here: pits owned in play, pits won once over"
            )
        });
    }
}
