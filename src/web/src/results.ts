// Results that stay: the match score during play; a game's (or round's) result held on screen until the player
// moves on (or, against the computer, a pause; or at once when the player's clock starts); the match's end with its
// reason in words, a rematch button and a link to the replay.
import { GameKind, MatchEndReason, Player, Status, type GameState, type MatchResult } from "@mancala/client";
import { ui, type Session } from "./ui";
import { perSeatWords, placingOf, placingWords, playerName, seatCount, statusWords } from "./words";

/** The match score line shown during play: "Match: South 1, North 0 · game 2". */
export function showScore(s: Session): void {
  const state = s.state;
  const seats = seatCount(state);
  const unit = state.kind === GameKind.BOSH ? "round" : "game";
  // The standing as the game keeps it: Ba-awa's pits owned, Bosh's open holes, Bao la Kete's games won.
  const what = state.kind === GameKind.BA_AWA ? "pits" : state.kind === GameKind.BOSH ? "open holes" : "games won";
  const score = state.matchScore.length ? `Match (${what}): ${perSeatWords(state.matchScore, seats)}` : "";
  ui.score.textContent = [score, `${unit} ${state.gameNumber}`].filter((w) => w).join(" · ");
}

let release: (() => void) | null = null;
let pause = 0;

/** A game or round just ended: its result and the match score stay until `releaseResult` (the player's click, the
 * pause against the computer, or the player's clock starting). Resolves then. */
export function holdResult(s: Session, pauseMs: number): Promise<void> {
  ui.resultText.textContent = `${statusWords(s.state)} ${standing(s)}`.trim();
  ui.result.hidden = false;
  ui.nextGame.textContent = s.state.status === Status.ROUND_OVER ? "Refill and play the next round" : "Next game";
  ui.resultPause.textContent = "";
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  if (pauseMs > 0) {
    const until = performance.now() + pauseMs;
    const tick = () => {
      const left = Math.ceil((until - performance.now()) / 1000);
      if (left <= 0) return releaseResult();
      ui.resultPause.textContent = `(on in ${left} s)`;
    };
    tick();
    pause = window.setInterval(tick, 250);
  }
  return held;
}

/** Ends the hold (if any); the result panel stays until the next game's first event is shown. */
export function releaseResult(): void {
  window.clearInterval(pause);
  pause = 0;
  ui.resultPause.textContent = "";
  release?.();
  release = null;
}

export function holding(): boolean {
  return release !== null;
}

export function hideResult(): void {
  releaseResult();
  ui.result.hidden = true;
}

/** Between games: the standing in words (two seats: the match score; three: pits, who is out, the placing). */
export function standing(s: Session): string {
  const state = s.state;
  if (seatCount(state) !== 3) {
    // As the game keeps it: Ba-awa's pits, Bosh's open holes, Bao la Kete's games won.
    const what = state.kind === GameKind.BA_AWA ? "pits" : state.kind === GameKind.BOSH ? "open holes" : "games won";
    return state.matchScore.length === 2 ? `Match standing (${what}): South ${state.matchScore[0]}, North ${state.matchScore[1]}.` : "";
  }
  const variant = state.variant;
  const out =
    variant.case === "baAwa"
      ? (["South", "North", "East"] as const)
          .map((name, i) => ({ name, game: variant.value.eliminatedInGame[i] ?? 0 }))
          .filter((seat) => seat.game > 0)
          .map((seat) => `${seat.name} is out (eliminated after game ${seat.game}).`)
      : [];
  const words = [`Pits: ${perSeatWords(state.matchScore, 3)}.`, ...out];
  if (state.status === Status.MATCH_OVER) {
    const placing = placingWords(s.placing.length ? s.placing : placingOf(state));
    if (placing) words.push(placing);
  }
  return words.join(" ");
}

function winnerWords(winner: Player): string {
  return winner === Player.UNSPECIFIED ? "no winner" : `${playerName(winner)} wins`;
}

/** Why a match ended, in plain words. */
export function matchEndWords(result: MatchResult, state: GameState): string {
  const winner = result.winner;
  const loser = (): string => {
    const others = [Player.SOUTH, Player.NORTH].filter((p) => p !== winner);
    return others.length === 1 && winner !== Player.UNSPECIFIED ? playerName(others[0]) : "A player";
  };
  switch (result.reason) {
    case MatchEndReason.PLAYED_OUT:
      return `The match is over: ${winnerWords(winner)}.`;
    case MatchEndReason.RESIGNATION:
      return `${playerName(result.resigned)} resigned: ${winnerWords(winner)}.`;
    case MatchEndReason.EXPIRED:
      return "Nobody played for too long: the match expired with no winner.";
    case MatchEndReason.TIME_FORFEIT:
      return `${state.toMove !== Player.UNSPECIFIED && state.toMove !== winner ? playerName(state.toMove) : loser()} ran out of time: ${winnerWords(winner)} on time.`;
    case MatchEndReason.ABORTED:
      return "The match was aborted before each player had sown: no result.";
    case MatchEndReason.ABANDONED:
      return `${loser()} left the match: ${playerName(winner)} claimed the win.`;
    case MatchEndReason.REPETITION:
      return `A position came up a third time: the game ended by repetition, and that decided the match: ${winnerWords(winner)}.`;
    case MatchEndReason.AGREEMENT:
      return `The players agreed to end the game, and that decided the match: ${winnerWords(winner)}.`;
    case MatchEndReason.MATCH_LENGTH:
      return `The match reached its most games: ${winner === Player.UNSPECIFIED ? "the leaders are level, a draw" : `${playerName(winner)} leads and wins`}.`;
    default:
      return `The match is over: ${winnerWords(winner)}.`;
  }
}

/** Shows the match's end: its reason, the standing, a rematch (when this screen can start one) and the replay. */
export function showMatchEnd(s: Session, result: MatchResult | undefined, rematch: boolean): void {
  hideResult();
  const words = result ? matchEndWords(result, s.state) : statusWords(s.state);
  const score = standing(s);
  ui.endText.textContent = `${words}${score ? ` ${score}` : ""}`;
  ui.rematch.hidden = !rematch;
  ui.endReplay.hidden = !s.matchId;
  ui.endReplay.href = `#${new URLSearchParams({ replay: s.matchId }).toString()}`;
  ui.end.hidden = false;
}
