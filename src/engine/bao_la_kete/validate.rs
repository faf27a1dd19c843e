//! A client's Bao la Kete state validated into a game (docs/bao-la-kete.md §2): its own fields, the hizi-zetu
//! mark, the kuus, the turn, the reserves, the end of a game and the match, every violation reported at once.

use super::*;
use crate::engine::across_turns::MAX_GAMES_LIMIT;

/// Bao la Kete's own fields of a [`Setup`], as read by [`Validate::check_own_fields`].
pub(crate) struct OwnFields {
    /// The stage the client claims (`true` for mtaji), checked against the reserves in step 5.
    mtaji: Option<bool>,
    /// `[South, North]`, when the list has a flag per player.
    kuu_alive: Option<[bool; 2]>,
    mark: Option<HiziZetuMark>,
    game_starter: Option<Player>,
    starter_rule: StarterRule,
}

impl Validate<PITS> for BaoLaKete {
    const SEED_TOTAL: u32 = SEEDS as u32;
    type OwnFields = OwnFields;

    /// §2.2, §2.9: a reserve never grows past its first 12 seeds, a match is played in games (at most `MAX_GAMES_LIMIT`),
    /// not rounds.
    fn check_shared_fields(check: &mut Checker, setup: &Setup) {
        for (i, &reserve) in setup.reserves.iter().enumerate() {
            check.require_at(reserve <= RESERVE as u32, || format!("reserves[{i}]"), || {
                format!("a reserve starts with {RESERVE} seeds and never grows, so {reserve} is too many (§2.2)")
            });
        }
        check.require(setup.status != Some(Status::RoundOver), "status", || {
            "Bao la Kete has games, not rounds; use GAME_OVER".into()
        });
        check.require(setup.game_number <= MAX_GAMES_LIMIT, "game_number", || {
            format!(
                "a match has at most {MAX_GAMES_LIMIT} games (§1 \"Match length\"), so there is no game {}",
                setup.game_number
            )
        });
    }

    /// §2.3, §2.8: which kuus live, the game's starter, the stage and the hizi-zetu mark.
    fn check_own_fields(check: &mut Checker, setup: &Setup) -> Option<OwnFields> {
        let VariantSetup::BaoLaKete {
            mtaji,
            kuu_alive,
            mark,
            game_starter,
            starter_rule,
        } = &setup.variant
        else {
            check.fail(
                "bao_la_kete",
                "a Bao la Kete state carries the bao_la_kete fields (stage, kuu_alive, …)",
            );
            return None;
        };
        let kuu_known = kuu_alive.len() == 2;
        check.require(kuu_known, "bao_la_kete.kuu_alive", || {
            format!(
                "holds one flag per player [South, North], not {}",
                kuu_alive.len()
            )
        });
        check.require(game_starter.is_some(), "bao_la_kete.game_starter", || {
            "the player who began the game must be set".into()
        });
        check.require(mtaji.is_some(), "bao_la_kete.stage", || {
            "the stage must be set: nemo or mtaji".into()
        });
        let mark =
            mark.and_then(|(blockee, pit, setter)| validate_mark(check, blockee, pit, setter));
        Some(OwnFields {
            mtaji: *mtaji,
            kuu_alive: kuu_known.then(|| [kuu_alive[0], kuu_alive[1]]),
            mark,
            game_starter: *game_starter,
            starter_rule: *starter_rule,
        })
    }

    fn assemble(setup: &Setup, pits: [u8; PITS], own: &OwnFields) -> Option<BaoLaKete> {
        let pairs_known = [&setup.reserves, &setup.stores, &setup.match_score]
            .iter()
            .all(|v| v.len() == 2);
        let (Some(status), Some(game_starter), Some(kuu_alive), true) =
            (setup.status, own.game_starter, own.kuu_alive, pairs_known)
        else {
            return None;
        };
        Some(BaoLaKete {
            pits,
            reserves: pair_u8(&setup.reserves),
            stores: pair_u8(&setup.stores),
            kuu_alive,
            mark: own.mark,
            to_move: setup.to_move,
            status,
            winner: setup.winner,
            game_starter,
            starter_rule: own.starter_rule,
            ply: setup.ply,
            game_number: setup.game_number,
            match_score: [
                setup.match_score[0].min(u8::MAX as u32) as u8,
                setup.match_score[1].min(u8::MAX as u32) as u8,
            ],
        })
    }

    /// §2.2–§2.9: the kuus, the reserves, the match, then a game in play or a game that is over.
    fn check_position(&self, check: &mut Checker, _: &Setup, own: &OwnFields) {
        self.check_kuu(check);
        self.check_reserves(check);
        self.check_match(check);
        match (self.status, self.to_move) {
            (Status::InProgress, Some(mover)) => self.check_turn(check, mover, own.mtaji),
            _ => self.check_game_end(check),
        }
    }
}

/// The mark's own fields (§2.8): both players set and different, the hole in the blockee's front row.
fn validate_mark(
    check: &mut Checker,
    blockee: Option<Player>,
    pit: u32,
    setter: Option<Player>,
) -> Option<HiziZetuMark> {
    check.require(blockee.is_some(), "bao_la_kete.mark.blockee", || {
        "a mark names the blockee".into()
    });
    check.require(setter.is_some(), "bao_la_kete.mark.setter", || {
        "a mark names its setter".into()
    });
    let (blockee, setter) = (blockee?, setter?);
    let mut ok = true;
    if blockee == setter {
        check.fail(
            "bao_la_kete.mark.setter",
            "a player marks a hole of his opponent, never his own (§2.8)",
        );
        ok = false;
    }
    let in_front = pit < PITS as u32 && owner(pit as u8) == blockee && is_front(pit as u8);
    if !in_front {
        check.fail(
            "bao_la_kete.mark.pit",
            format!("hole {pit} is not in {blockee}'s front row, where a mark always is (§2.8)"),
        );
        ok = false;
    }
    ok.then_some(HiziZetuMark {
        blockee,
        pit: pit as u8,
        setter,
    })
}

impl BaoLaKete {
    /// a living kuu never holds fewer than its minimum.
    fn check_kuu(&self, check: &mut Checker) {
        for player in Player::BOTH {
            let i = player.index();
            let seeds = self.pits[kuu(player) as usize];
            check.require_at(!self.kuu_alive[i] || seeds >= KUU_MIN, || format!("bao_la_kete.kuu_alive[{i}]"), || {
                format!("{player}'s kuu holds {seeds} seeds, but a living kuu never holds fewer than {KUU_MIN} (R-2.3)")
            });
        }
    }

    /// §2.3, §2.7 B2, §2.8, §2.9: the claimed stage matches the mover's reserve, stores are empty, both front rows
    /// are occupied, a mark stands where it may, and the player to move has a legal move.
    fn check_turn(&self, check: &mut Checker, mover: Player, mtaji: Option<bool>) {
        let nemo = self.is_nemo(mover);
        if let Some(mtaji) = mtaji {
            check.require(mtaji != nemo, "bao_la_kete.stage", || {
                let (stage, reserve) = (if nemo { "nemo" } else { "mtaji" }, self.reserves[mover.index()]);
                format!("{mover} is to move with {reserve} reserve seeds, so the stage is {stage} (§2.3)")
            });
        }
        check.require(self.stores == [0, 0], "stores", || {
            "captured seeds are sown back at once; a store holds seeds only after a winning capture (§2.7 B2)"
                .into()
        });
        let fronts = Player::BOTH.map(|p| self.front_occupied(p));
        for player in Player::BOTH {
            check.require(fronts[player.index()], "pits", || {
                format!("{player}'s front row is empty, so the game would be over (§2.9)")
            });
        }
        if let Some(mark) = self.mark {
            self.check_mark(check, mark);
        }
        // Looking for a legal move needs a state sound in every other respect.
        if fronts == [true, true] && check.is_clean() {
            check.require_can_move(
                || self.has_legal_move(mover),
                "to_move",
                || format!("{mover} has no legal move, so he would have lost (§2.9)"),
            );
        }
    }

    /// §2.7 B2, §2.8: a finished game has no mark, and only its winner's store holds seeds.
    fn check_game_end(&self, check: &mut Checker) {
        check.require(self.mark.is_none(), "bao_la_kete.mark", || {
            "a finished game has no hizi-zetu mark".into()
        });
        if let Some(winner) = self.winner {
            let loser = winner.opponent();
            check.require_at(
                self.stores[loser.index()] == 0,
                || format!("stores[{}]", loser.index()),
                || {
                    "only the winner's store can hold seeds, those of his winning capture (§2.7 B2)"
                        .into()
                },
            );
        }
    }

    /// §2.3: the starter places a seed first, so he has as many reserve seeds as the other player or one fewer;
    /// with equal reserves (above 0) it is the starter's turn, with one fewer the other player's.
    fn check_reserves(&self, check: &mut Checker) {
        let starter = self.game_starter;
        let (mine, theirs) = (
            self.reserves[starter.index()],
            self.reserves[starter.opponent().index()],
        );
        let placed_one_more = theirs.checked_sub(mine);
        check.require(matches!(placed_one_more, Some(0 | 1)), "reserves", || {
            format!(
                "{starter} began the game, so his reserve equals {}'s or is one smaller, not {mine} against {theirs} (§2.3)",
                starter.opponent()
            )
        });
        if let (Status::InProgress, Some(mover), Some(diff)) =
            (self.status, self.to_move, placed_one_more)
        {
            let expected = match diff {
                0 if mine > 0 => Some(starter),
                1 => Some(starter.opponent()),
                _ => None,
            };
            if let Some(expected) = expected {
                check.require(mover == expected, "to_move", || {
                    format!("with these reserves it is {expected}'s turn: players alternate placing seeds (§2.3)")
                });
            }
        }
    }

    /// §2.9: two won games win the match; §1: a game drawn by repetition or agreement counts for neither, so a
    /// game's number is at least one more than the games won before it.
    fn check_match(&self, check: &mut Checker) {
        let [south, north] = self.match_score;
        let played = south as u32 + north as u32;
        let decided = |check: &mut Checker, before: u32| {
            check.require(self.game_number > before, "game_number", || {
                format!(
                    "{played} games have been won, so this is game {} at least (drawn games count for neither, §1)",
                    before + 1
                )
            });
        };
        match (self.status, self.winner) {
            (Status::InProgress, _) => {
                check.require(south <= 1 && north <= 1, "match_score", || {
                    "while a game is played neither player has won two games yet".into()
                });
                decided(check, played);
            }
            (Status::GameOver, None) => {
                check.require(south <= 1 && north <= 1, "match_score", || {
                    "after a drawn game neither player has won two games yet".into()
                });
                decided(check, played);
            }
            (Status::MatchOver | Status::RoundOver, None) => check.fail(
                "winner",
                "a Bao la Kete match ends with a winner: the player who won two games (§2.9)",
            ),
            (Status::GameOver | Status::MatchOver | Status::RoundOver, Some(winner)) => {
                let (mine, theirs) = (
                    self.match_score[winner.index()],
                    self.match_score[winner.opponent().index()],
                );
                let needed = if self.status == Status::MatchOver {
                    WINS_FOR_MATCH
                } else {
                    1
                };
                check.require(mine == needed && theirs <= 1, "match_score", || {
                    if self.status == Status::MatchOver {
                        format!("the match winner has won {WINS_FOR_MATCH} games and the other at most 1")
                    } else {
                        format!("after a game won by {winner} the score is 1 game for him, and the match goes on")
                    }
                });
                decided(check, played.saturating_sub(1));
            }
        }
    }

    /// §2.8: a mark stands only in the mtaji stage, on an occupied hole that is not a living kuu, and its setter
    /// can capture it with the first lap of a move.
    fn check_mark(&self, check: &mut Checker, mark: HiziZetuMark) {
        check.require(self.reserves == [0, 0], "bao_la_kete.mark", || {
            "a mark is set only once both reserves are empty (§2.8)".into()
        });
        check.require(
            self.pits[mark.pit as usize] > 0,
            "bao_la_kete.mark.pit",
            || {
                "the marked hole is empty; a mark is cleared as soon as its hole is emptied (§2.8)"
                    .into()
            },
        );
        check.require(
            !(mark.pit == kuu(mark.blockee) && self.kuu_alive[mark.blockee.index()]),
            "bao_la_kete.mark.pit",
            || "a living kuu cannot be marked (§2.8)".into(),
        );
        check.require(
            self.threatened_holes(mark.setter)
                .contains(mark.pit as usize),
            "bao_la_kete.mark.pit",
            || {
                format!(
                    "{} has no capture move whose first capture is the marked hole (§2.8)",
                    mark.setter
                )
            },
        );
        if self.to_move == Some(mark.blockee) {
            check.require(self.threatened_holes(mark.blockee).is_empty(), "bao_la_kete.mark", || {
                format!(
                    "a mark is set only when its blockee threatens nothing, so {} has no capture (§2.8)",
                    mark.blockee
                )
            });
        }
    }
}
