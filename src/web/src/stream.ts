// A server-held match's stream (`WatchMatch`), followed for the page: each message is heard at once (the clocks and
// the offers are live) and shown in its turn (animated, then rendered); a game's result is held until the player
// moves on, then `NextGame` is sent. What it shows with is the page's (main.ts), handed in as a `View`.
import {
  Code,
  MancalaError,
  Player,
  Status,
  submitMove,
  watchMatch,
  type Event,
  type GameState,
  type Match,
  type MatchEvent,
  type WatchMatchResponse,
} from "@mancala/client";
import { matches } from "./client";
import { readClocks, showClocks } from "./clocks";
import { showOffers } from "./offers";
import { holdResult, releaseResult, showMatchEnd } from "./results";
import { ui, type Session } from "./ui";
import { moveWords, playerName } from "./words";

/** What the page lends the stream to show what it hears. */
export interface View {
  /** The page's session now (a stream of an ended session shows nothing more). */
  current(): Session | null;
  /** Runs `job` after the jobs before it: never two animations at once. */
  enqueue(job: () => Promise<void>): void;
  render(s: Session): void;
  showMove(s: Session, before: GameState, events: Event[], after: GameState, heading?: string, over?: boolean): Promise<void>;
  say(text: string): void;
  showError(error: unknown): void;
}

/** Stream messages waiting to be shown: more than two behind, the board catches up without animating. */
let backlog = 0;
/** Against the computer, a game's result stays this long before the next game starts (unless dismissed). */
const RESULT_PAUSE_MS = 5000;

/** Whether the board is so far behind the stream that it should catch up without animating. */
export function behind(): boolean {
  return backlog > 2;
}

/** After a held result: sends `NextGame` when nobody has yet (a refusal because another seat or the bot chooses, or
 * because it came meanwhile, is no error). */
async function sendNextGame(s: Session, view: View): Promise<void> {
  const legal = s.legal.find((m) => m.move?.action.case === "nextGame");
  if (!legal?.move || s.heard !== s.version || s.seats.size === 0) return;
  try {
    await submitMove(matches, { matchId: s.matchId, move: legal.move, expectedVersion: s.heard });
  } catch (error) {
    const quiet = [Code.PermissionDenied, Code.Aborted, Code.FailedPrecondition];
    if (!(error instanceof MancalaError && quiet.includes(error.code))) view.showError(error);
  }
}

/** One message of a WatchMatch stream, as it is heard (before it is shown): the clocks and offers are live. */
function hear(s: Session, message: WatchMatchResponse, view: View): void {
  const k = message.kind;
  if (k.case === "snapshot" && k.value.match) {
    const match = k.value.match;
    s.heard = match.version;
    s.clocks = readClocks(match.clocks, match.timeControl);
    s.agreeing = [...match.agreeing];
    s.connected = new Set(match.seats.filter((seat) => seat.connected).map((seat) => seat.player));
  } else if (k.case === "event") {
    const event = k.value;
    if (event.seq <= s.heard) return;
    s.heard = event.seq;
    if (event.clocks) s.clocks = readClocks(event.clocks, undefined, s.clocks?.correspondence);
    s.agreeing = [...event.agreeing];
    if (event.action.case === "move" && event.action.value.action.case === "sow") s.sown.add(event.player);
    // The player's own clock started: a held result gives way.
    if (s.clocks && s.seats.has(s.clocks.running)) releaseResult();
  } else if (k.case === "presence") {
    if (k.value.connected) s.connected.add(k.value.player);
    else s.connected.delete(k.value.player);
  } else if (k.case === "finished") {
    s.finished = true;
    if (s.clocks) s.clocks = { ...s.clocks, running: Player.UNSPECIFIED };
  }
  if (view.current() === s) {
    showClocks(s);
    showOffers(s);
  }
}

/** One message of a WatchMatch stream, shown in its turn. */
async function onWatch(s: Session, message: WatchMatchResponse, view: View): Promise<void> {
  const k = message.kind;
  if (k.case === "snapshot" && k.value.match) {
    adopt(s, k.value.match);
    view.render(s);
    if (view.current() === s) ui.board.dataset.showing = ui.board.dataset.shown = String(s.version);
  } else if (k.case === "event") {
    await onEvent(s, k.value, view);
  } else if (k.case === "finished") {
    ui.resign.hidden = true;
    if (k.value.result?.placing.length) s.placing = [...k.value.result.placing];
    if (view.current() === s) {
      view.render(s);
      showMatchEnd(s, k.value.result, s.seats.size > 0 && s.mode !== "local");
    }
  } else if (k.case === "presence") {
    view.say(`${playerName(k.value.player)} ${k.value.connected ? "is here" : "left"}.`);
  }
}

function adopt(s: Session, match: Match): void {
  if (!match.state) return;
  s.state = match.state;
  s.version = match.version;
  s.legal = match.previews;
}

const ENDINGS = new Set(["resignation", "expiry", "flag", "abort", "claim"]);

async function onEvent(s: Session, event: MatchEvent, view: View): Promise<void> {
  if (event.seq <= s.version || !event.state) return;
  const before = s.state;
  s.version = event.seq;
  // What the board is showing, as the stream's seq, for whatever automates the page (a bot's harness, the tests
  // that check a spectator keeps step with the player): `showing` as the move starts, `shown` once it is drawn.
  if (view.current() === s) ui.board.dataset.showing = String(event.seq);
  const who = playerName(event.player);
  const action = event.action;
  const over = event.state.status === Status.MATCH_OVER || ENDINGS.has(action.case ?? "");
  if (action.case === "move") {
    const heading =
      action.value.action.case === "sow" ? `${who} plays ${moveWords(s.description, action.value)}.` : "Next game.";
    await view.showMove(s, before, event.events, event.state, heading, over);
  } else if (action.case === "endAgreement") {
    const verbs = ["acts on", "offers to end the game", "agrees to end the game", "declines to end the game", "withdraws the offer"];
    const heading = `${who} ${verbs[action.value.action] ?? verbs[0]}.`;
    if (event.events.length) await view.showMove(s, before, event.events, event.state, heading, over);
    else view.say(heading);
  } else if (action.case === "resignation") {
    view.say(`${who} resigns.`);
  } else if (action.case === "expiry") {
    view.say("The match expired: nobody played.");
  } else if (action.case === "flag") {
    view.say(`${who}'s time ran out.`);
  } else if (action.case === "abort") {
    view.say(`${who === "nobody" ? "The server" : who} aborted the match.`);
  } else if (action.case === "claim") {
    view.say(`${who} claims the win: the opponent left.`);
  }
  s.state = event.state;
  s.legal = event.previews;
  if (over) s.finished = true;
  if (view.current() !== s) return;
  view.render(s);
  ui.board.dataset.shown = String(event.seq);
  const between = event.state.status === Status.GAME_OVER || event.state.status === Status.ROUND_OVER;
  if (between && s.seats.size > 0) {
    // The result stays until the player moves on (against the computer: a pause), then the next game starts.
    await holdResult(s, s.mode === "computer" ? RESULT_PAUSE_MS : 0);
    if (view.current() === s) await sendNextGame(s, view);
  }
}

/** Follows a match's stream until the session ends (the package resumes it after a disconnect from the last seq). */
export async function watch(s: Session, view: View): Promise<void> {
  try {
    for await (const message of watchMatch(matches, s.matchId, { previews: true, signal: s.stop.signal })) {
      hear(s, message, view);
      if (message.kind.case === "heartbeat") continue;
      backlog++;
      view.enqueue(async () => {
        try {
          await onWatch(s, message, view);
        } finally {
          backlog--;
        }
      });
    }
  } catch (error) {
    if (!s.stop.signal.aborted) view.showError(error);
  }
}

