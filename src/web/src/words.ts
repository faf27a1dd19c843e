// Plain language for what the protocol says with enums: players, moves, Bao la Kete's choices, events.
import {
  Direction,
  EndReason,
  GameKind,
  Kichwa,
  KuuDecision,
  LapSource,
  Player,
  Status,
  type Event,
  type GameState,
  type Move,
} from "@mancala/client";
import type { DescribeGameResponse } from "@mancala/client";

export function playerName(player: Player): string {
  return player === Player.SOUTH
    ? "South"
    : player === Player.NORTH
      ? "North"
      : player === Player.EAST
        ? "East"
        : "nobody";
}

/** A seat's place in the protocol's per-seat lists: [South, North] or, three-player Ba-awa, [South, North, East]. */
export function seatIndex(player: Player): number {
  return player === Player.NORTH ? 1 : player === Player.EAST ? 2 : 0;
}

/** The seats of a game in turn order: South, North; or South, East, North (three-player Ba-awa). */
export function seatsInTurnOrder(seats: number): Player[] {
  return seats === 3 ? [Player.SOUTH, Player.EAST, Player.NORTH] : [Player.SOUTH, Player.NORTH];
}

/** The number of seats of a game: 3 for three-player Ba-awa, else 2. */
export function seatCount(state: GameState): number {
  return state.variant.case === "baAwa" && state.variant.value.players === 3 ? 3 : 2;
}

/** A per-seat list (protocol order) in words, in turn order: "South 5, East 3, North 4". */
export function perSeatWords(values: readonly number[], seats = values.length): string {
  return seatsInTurnOrder(seats)
    .map((p) => `${playerName(p)} ${values[seatIndex(p)] ?? 0}`)
    .join(", ");
}

const ORDINALS = ["", "1st", "2nd", "3rd"];

/** Three-player Ba-awa's placing ([South, North, East], 1 for the winner) in words: "1st South; 2nd North and East". */
export function placingWords(placing: readonly number[]): string {
  const places = [...new Set(placing.filter((p) => p > 0))].sort((a, b) => a - b);
  const parts = places.map((place) => {
    const names = seatsInTurnOrder(placing.length)
      .filter((p) => placing[seatIndex(p)] === place)
      .map(playerName);
    const shared = names.length > 1 ? " (shared)" : "";
    return `${ORDINALS[place] ?? `${place}th`} ${names.join(" and ")}${shared}`;
  });
  return parts.length ? `Placing: ${parts.join("; ")}.` : "";
}

/**
 * Three-player Ba-awa's placing as the rules give it from a finished state (§4.7): the winner first, then whoever
 * still holds pits, then the eliminated, the later out the higher; equals share a place. Empty otherwise.
 */
export function placingOf(state: GameState): number[] {
  if (seatCount(state) !== 3 || state.variant.case !== "baAwa") return [];
  const out = state.variant.value.eliminatedInGame;
  const key = [Player.SOUTH, Player.NORTH, Player.EAST].map((p, i) =>
    state.winner === p ? Number.MAX_SAFE_INTEGER : (out[i] ?? 0) === 0 ? Number.MAX_SAFE_INTEGER - 1 : out[i],
  );
  return key.map((k) => 1 + key.filter((other) => other > k).length);
}

export function gameName(kind: GameKind): string {
  switch (kind) {
    case GameKind.BA_AWA:
      return "Ba-awa";
    case GameKind.BOSH:
      return "Bosh";
    case GameKind.BAO_LA_KETE:
      return "Bao la Kete";
    default:
      return "an unknown game";
  }
}

/** A pit's name as the rules write it ("S3", "N.f5"). */
export function pitName(description: DescribeGameResponse, pit: number): string {
  return description.pits[pit]?.label ?? `pit ${pit}`;
}

export function directionWords(direction: Direction): string {
  switch (direction) {
    case Direction.CLOCKWISE:
      return "clockwise ↻ (along your front row to your right)";
    case Direction.ANTICLOCKWISE:
      return "anticlockwise ↺ (along your front row to your left)";
    default:
      return "";
  }
}

export function kichwaWords(kichwa: Kichwa): string {
  switch (kichwa) {
    case Kichwa.LEFT:
      return "sow the captured seeds from your left end (f1)";
    case Kichwa.RIGHT:
      return "sow the captured seeds from your right end (f8)";
    default:
      return "";
  }
}

export function kuuWords(decision: KuuDecision): string {
  switch (decision) {
    case KuuDecision.STOP:
      return "stop in your kuu (it stays a kuu)";
    case KuuDecision.SAFARI:
      return "safari: lift your kuu and sow on (it stops being a kuu)";
    default:
      return "";
  }
}

/** The choices of a sowing in plain words; empty for a move without any. */
export function choiceWords(move: Move): string {
  if (move.action.case !== "sow") return "";
  const sow = move.action.value;
  const words = [directionWords(sow.direction), kichwaWords(sow.kichwa), kuuWords(sow.kuuDecision)].filter(
    (w) => w,
  );
  if (words.length === 0) return "";
  const text = words.join(", then ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function moveWords(description: DescribeGameResponse, move: Move): string {
  if (move.action.case === "nextGame") {
    const pits = move.action.value.pits;
    return pits.length ? `next game, choosing ${pits.map((p) => pitName(description, p)).join(", ")}` : "next game";
  }
  if (move.action.case === "sow") {
    const choice = choiceWords(move);
    return `${pitName(description, move.action.value.pit)}${choice ? ` (${choice.toLowerCase()})` : ""}`;
  }
  return "a move";
}

function endReason(reason: EndReason): string {
  switch (reason) {
    case EndReason.FEW_SEEDS_LEFT:
      return "eight or fewer seeds were left";
    case EndReason.BOTH_STUCK:
      return "neither player could move";
    case EndReason.PLAYER_EMPTY:
      return "the player to move had no stones";
    case EndReason.BAO_HAMNA:
      return "a front row was emptied by a capture";
    case EndReason.NO_LEGAL_MOVE:
      return "the player to move had no legal move";
    case EndReason.OWN_FRONT_ROW_EMPTIED:
      return "a player emptied his own front row";
    case EndReason.RESIGNATION:
      return "a player resigned";
    case EndReason.REPETITION:
      return "the same position came up a third time: ended by repetition";
    case EndReason.AGREEMENT:
      return "the players agreed to end it";
    default:
      return "the rules ended it";
  }
}

function wins(winner: Player, what: string): string {
  return winner === Player.UNSPECIFIED ? `the ${what} is drawn` : `${playerName(winner)} wins the ${what}`;
}

function winnerWords(winner: Player): string {
  return winner === Player.UNSPECIFIED ? "a draw" : `${playerName(winner)} wins`;
}

/** One sentence for one event, or "" for the laps (the animation shows those). */
export function eventWords(description: DescribeGameResponse, event: Event): string {
  const pit = (p: number) => pitName(description, p);
  const k = event.kind;
  switch (k.case) {
    case "lap": {
      const from =
        k.value.source === LapSource.RESERVE
          ? `places a seed from the reserve in ${pit(k.value.origin)}`
          : k.value.source === LapSource.CAPTURE
            ? `sows the ${k.value.seeds} captured seeds from ${pit(k.value.drops[0] ?? k.value.origin)}`
            : `lifts ${k.value.seeds} from ${pit(k.value.origin)} and sows them`;
      return `${playerName(k.value.player)} ${from}.`;
    }
    case "capture":
      return `${playerName(k.value.beneficiary)} captures ${k.value.seeds} from ${pit(k.value.pit)}.`;
    case "noCapture":
      return `No capture: ${pit(k.value.emptyPit)} and ${pit(k.value.beyondPit)} are both empty.`;
    case "pass":
      return `${playerName(k.value.player)} cannot move and passes.`;
    case "gameEnd": {
      const collected = k.value.collected
        ? ` ${playerName(k.value.collector)} takes the ${k.value.collected} seeds left.`
        : "";
      return `The game is over (${endReason(k.value.reason)}): ${winnerWords(k.value.winner)}.${collected}`;
    }
    case "roundEnd":
      return `The round is over (${endReason(k.value.reason)}); ${playerName(k.value.collector)} takes the ${k.value.collected} stones left. Totals: South ${k.value.totals[0] ?? 0}, North ${k.value.totals[1] ?? 0}.`;
    case "matchEnd":
      if (k.value.matchScore.length === 3) {
        const placing = placingWords(k.value.placing);
        return `The match is over: ${winnerWords(k.value.winner)} (pits: ${perSeatWords(k.value.matchScore)}).${placing ? ` ${placing}` : ""}`;
      }
      return `The match is over: ${winnerWords(k.value.winner)} (${k.value.matchScore.join(" to ")}).`;
    case "allocation":
      if (k.value.pitsOwned.length === 3) {
        const owned = perSeatWords(k.value.pitsOwned).replace(/^South (\d+)/, "South owns $1 pits");
        return `Next game: ${owned}; ${playerName(k.value.starter)} starts.`;
      }
      return `Next game: South owns ${k.value.pitsOwned[0] ?? 0} pits, North ${k.value.pitsOwned[1] ?? 0}; ${playerName(k.value.starter)} starts.`;
    case "elimination":
      return `${playerName(k.value.player)} won no pit and is out of the match (eliminated).`;
    case "refill": {
      const opened = k.value.opened.map(pit).join(", ") || "none";
      const closed = k.value.closed.map(pit).join(", ");
      return `Refill: ${playerName(k.value.player)} opens ${opened} with 4 stones each${closed ? `; ${closed} closed` : ""}; ${k.value.reserve} left in reserve.`;
    }
    case "taxation":
      return k.value.sixSeedRule
        ? `Six-seed rule: all ${k.value.seeds} seeds are lifted from the kuu ${pit(k.value.pit)}, which stops being a kuu.`
        : `Taxation: only ${k.value.seeds} seeds are taken from the kuu ${pit(k.value.pit)}.`;
    case "kuuDestroyed":
      return `${playerName(k.value.owner)}'s kuu ${pit(k.value.pit)} is no longer a kuu.`;
    case "kuuStop":
      return `The move stops in the kuu ${pit(k.value.pit)}.`;
    case "safari":
      return `Safari: the kuu ${pit(k.value.pit)} is lifted (${k.value.seeds} seeds) and sowing goes on.`;
    case "markSet":
      return `Hizi zetu: ${k.value.mark ? pit(k.value.mark.pit) : "a hole"} is marked.`;
    case "markCleared":
      return `The hizi-zetu mark is cleared.`;
    default:
      return "";
  }
}

/** Where the game stands, in a sentence. */
export function statusWords(state: GameState): string {
  const game = `game ${state.gameNumber}`;
  switch (state.status) {
    case Status.IN_PROGRESS:
      return `${playerName(state.toMove)} to move (${state.kind === GameKind.BOSH ? `round ${state.gameNumber}` : game}, move ${state.ply + 1}).`;
    case Status.ROUND_OVER:
      return `Round ${state.gameNumber} is over: ${wins(state.winner, "round")}. Refill and play the next round.`;
    case Status.GAME_OVER:
      return `Game ${state.gameNumber} is over: ${wins(state.winner, "game")}. The match goes on.`;
    case Status.MATCH_OVER:
      return `The match is over: ${winnerWords(state.winner)}.`;
    default:
      return "";
  }
}
