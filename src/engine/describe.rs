//! What a client needs to draw any game without knowing its rules (the `DescribeGame` answer).

use super::{GameKind, Player, RULES_VERSION};

/// One pit as a client draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PitInfo {
    /// Index into the state's pits.
    pub index: u8,
    /// Row from the top of the board as South sees it.
    pub row: u8,
    /// Column from South's left.
    pub column: u8,
    /// The player on whose side the pit is.
    pub side: Player,
    /// The pit's name in the rules pages (docs/).
    pub label: String,
    /// A special role ("kuu", "kichwa"), or empty.
    pub role: &'static str,
}

/// How a game is laid out and where its rules come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// Which game.
    pub kind: GameKind,
    /// Rows on the board.
    pub rows: u8,
    /// Pits in each row.
    pub pits_per_row: u8,
    /// Every pit in state order.
    pub pits: Vec<PitInfo>,
    /// The sowing path: anticlockwise round the board, or South's clockwise circuit in Bao la Kete.
    pub sowing_order: Vec<u8>,
    /// Seeds on the board and in reserves at the start.
    pub seed_total: u8,
    /// The specification followed.
    pub rules_source: &'static str,
    /// The version stamped on states.
    pub rules_version: u32,
    /// A one-paragraph summary of the rules.
    pub summary: &'static str,
    /// How many players a match may have.
    pub players: &'static [u8],
    /// Every option of a new match.
    pub options: Vec<OptionInfo>,
}

/// One option of a new match (a field of [`super::Options`]), as `DescribeGame` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The protocol's name of the field.
    pub name: &'static str,
    /// Every value it takes, as a request writes it.
    pub values: &'static [&'static str],
    /// The value when unset.
    pub default_value: &'static str,
    /// The rules page and anchor that define it.
    pub clause: &'static str,
    /// What it chooses.
    pub description: &'static str,
}

/// Who begins the match's first game or round; every game has it.
fn first_player(values: &'static [&'static str], clause: &'static str) -> OptionInfo {
    OptionInfo {
        name: "first_player",
        values,
        default_value: "PLAYER_SOUTH",
        clause,
        description: "who begins the first game (Bosh: the first round)",
    }
}

/// The options of match play every game has (§1 "Endless play across turns"), with `kind`'s match length.
fn across_turns(kind: GameKind) -> [OptionInfo; 2] {
    [
        OptionInfo {
            name: "repetition",
            values: &["true", "false"],
            default_value: "true",
            clause: "docs/common.md#endless-play-across-turns",
            description: "match play: the third occurrence of a position in a game (Bosh: a round) ends it",
        },
        OptionInfo {
            name: "max_games",
            values: &["1", "1000"],
            default_value: match kind {
                GameKind::BaoLaKete => "5",
                GameKind::Bosh | GameKind::BaAwa => "60",
            },
            clause: "docs/common.md#endless-play-across-turns",
            description: "match play: the most games (Bosh: rounds), 1 to 1000; then the leader wins the match",
        },
    ]
}

/// The options of a new match of `kind`.
fn options(kind: GameKind) -> Vec<OptionInfo> {
    let mut options = game_options(kind);
    options.extend(across_turns(kind));
    options
}

/// The options of a new match that belong to `kind`'s own rules.
fn game_options(kind: GameKind) -> Vec<OptionInfo> {
    match kind {
        GameKind::BaAwa => vec![
            first_player(
                &["PLAYER_SOUTH", "PLAYER_NORTH", "PLAYER_EAST"],
                "docs/ba-awa.md#s4.1",
            ),
            OptionInfo {
                name: "ba_awa_target",
                values: &["10", "11", "12"],
                default_value: "10",
                clause: "docs/ba-awa.md#r-4.10",
                description: "the pits a player must win to win the match",
            },
            OptionInfo {
                name: "ba_awa_players",
                values: &["2", "3"],
                default_value: "2",
                clause: "docs/ba-awa.md#s4.7",
                description: "two players, or three (East, second in turn order; PLAYER_EAST may begin only then)",
            },
        ],
        GameKind::Bosh => vec![first_player(
            &["PLAYER_SOUTH", "PLAYER_NORTH"],
            "docs/bosh.md#s3.1",
        )],
        GameKind::BaoLaKete => vec![
            first_player(&["PLAYER_SOUTH", "PLAYER_NORTH"], "docs/bao-la-kete.md#r-2.12"),
            OptionInfo {
                name: "bao_la_kete_starter",
                values: &[
                    "STARTER_RULE_ALTERNATE",
                    "STARTER_RULE_LOSER_STARTS",
                    "STARTER_RULE_WINNER_STARTS",
                ],
                default_value: "STARTER_RULE_ALTERNATE",
                clause: "docs/bao-la-kete.md#r-2.12",
                description: "who begins games 2 and 3: the other player than last time, the loser or the winner",
            },
        ],
    }
}

/// The two-row games: South's row left to right, then North's row from North's left (which is above South's
/// right), so the indices run anticlockwise.
fn two_rows(per_row: u8) -> Vec<PitInfo> {
    let mut pits = Vec::with_capacity(2 * per_row as usize);
    for i in 0..per_row {
        pits.push(PitInfo {
            index: i,
            row: 1,
            column: i,
            side: Player::South,
            label: format!("S{}", i + 1),
            role: "",
        });
    }
    for i in 0..per_row {
        pits.push(PitInfo {
            index: per_row + i,
            row: 0,
            column: per_row - 1 - i,
            side: Player::North,
            label: format!("N{}", i + 1),
            role: "",
        });
    }
    pits
}

/// Bao la Kete: per player 8 front holes then 8 back holes, each numbered from the owner's own left.
fn bao_la_kete_pits() -> Vec<PitInfo> {
    let mut pits = Vec::with_capacity(32);
    for (player, base) in [(Player::South, 0u8), (Player::North, 16)] {
        for (back, prefix) in [(false, "f"), (true, "b")] {
            for i in 0..8u8 {
                let (row, column) = match (player, back) {
                    (Player::South, false) => (2, i),
                    (Player::South, true) => (3, i),
                    (_, false) => (1, 7 - i),
                    (_, true) => (0, 7 - i),
                };
                let role = match (back, i) {
                    (false, 4) => "kuu",
                    (false, 0) | (false, 7) => "kichwa",
                    _ => "",
                };
                pits.push(PitInfo {
                    index: base + if back { 8 } else { 0 } + i,
                    row,
                    column,
                    side: player,
                    label: format!(
                        "{}{}{}",
                        if player == Player::South { "S." } else { "N." },
                        prefix,
                        i + 1
                    ),
                    role,
                });
            }
        }
    }
    pits
}

const SOURCE: &str =
    "docs/README.md in the mancala repository, built from Mancala World and the sources it lists";

/// Describes `kind`.
pub(crate) fn describe(kind: GameKind) -> Description {
    match kind {
        GameKind::BaAwa => Description {
            kind,
            rows: 2,
            pits_per_row: 6,
            pits: two_rows(6),
            sowing_order: (0..12).collect(),
            seed_total: 48,
            rules_source: SOURCE,
            rules_version: RULES_VERSION,
            summary: "Ba-awa (Ghana), docs/ba-awa.md: 4 seeds in each of 12 pits. Sow anticlockwise from a pit you own; a \
                      last seed in an occupied pit relays it. A pit made to hold exactly 4 is captured: by its owner \
                      when a seed is still in hand, by the mover for the last seed (which ends the move). With 8 or \
                      fewer seeds left the game's starter takes them. Fours won become pits owned in the next game; \
                      the match is won at the target (10 by default). Three may play: each starts with four pits, and \
                      a player who wins none is out.",
            players: &[2, 3],
            options: options(kind),
        },
        GameKind::Bosh => Description {
            kind,
            rows: 2,
            pits_per_row: 5,
            pits: two_rows(5),
            sowing_order: (0..10).collect(),
            seed_total: 40,
            rules_source: SOURCE,
            rules_version: RULES_VERSION,
            summary: "Bosh (Somalia), docs/bosh.md: 4 stones in each of 10 holes. Sow anticlockwise; if the hole after \
                      the last stone holds stones, lift it and go on; if it is empty, capture the hole beyond it. A \
                      player with no stones at his turn forfeits the rest; between rounds holes that cannot be filled \
                      with 4 are closed. A player left with fewer than 4 stones loses the match.",
            players: &[2],
            options: options(kind),
        },
        GameKind::BaoLaKete => Description {
            kind,
            rows: 4,
            pits_per_row: 8,
            pits: bao_la_kete_pits(),
            sowing_order: (0..8).chain((8..16).rev()).collect(),
            seed_total: 64,
            rules_source: SOURCE,
            rules_version: RULES_VERSION,
            summary: "Bao la Kete (Lamu, Kenya), docs/bao-la-kete.md: four rows of eight, each player sowing \
                      round his own two rows. In the nemo stage each move places a reserve seed; afterwards \
                      (mtaji) moves lift a hole. Captures from the opponent's front row are mandatory and are sown \
                      back from a kichwa. The kuu (f5) has special powers. Emptying the opponent's front row \
                      wins (Bao hamna).",
            players: &[2],
            options: options(kind),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_lists_every_pit_once_in_state_order() {
        for kind in GameKind::ALL {
            let d = describe(kind);
            assert_eq!(d.pits.len(), (d.rows * d.pits_per_row) as usize);
            for (i, pit) in d.pits.iter().enumerate() {
                assert_eq!(pit.index as usize, i);
            }
            let mut cells: Vec<_> = d.pits.iter().map(|p| (p.row, p.column)).collect();
            cells.sort();
            cells.dedup();
            assert_eq!(cells.len(), d.pits.len(), "{kind:?}: two pits share a cell");
        }
    }

    /// A client is sent to the rules page a description names, so the page must be in the repository.
    #[test]
    fn every_description_names_a_rules_page_that_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for kind in GameKind::ALL {
            let d = describe(kind);
            for text in [d.rules_source, d.summary] {
                let start = text
                    .find("docs/")
                    .unwrap_or_else(|| panic!("{kind:?}: no docs/ page named in {text:?}"));
                let page: String = text[start..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || "/-_.".contains(*c))
                    .collect();
                let page = page.trim_end_matches('.');
                assert!(root.join(page).is_file(), "{kind:?}: {page} does not exist");
            }
        }
    }

    #[test]
    fn two_row_games_put_north_1_above_south_last() {
        let d = describe(GameKind::BaAwa);
        assert_eq!((d.pits[6].row, d.pits[6].column), (0, 5));
        let bao = describe(GameKind::BaoLaKete);
        // South's f_i faces North's f_(9-i): S f1 (index 0) is in the column of N f8 (index 23).
        assert_eq!(bao.pits[0].column, bao.pits[23].column);
        assert_eq!(bao.pits[4].role, "kuu");
    }
}
