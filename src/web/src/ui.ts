// The page's elements (index.html), looked up once, and the session the page shows.
import type { DescribeGameResponse, GameState, LegalMove, Player } from "@mancala/client";
import type { Board } from "./board";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export const ui = {
  setup: $<HTMLFormElement>("setup"),
  newGame: $<HTMLButtonElement>("new-game"),
  game: $<HTMLSelectElement>("game"),
  mode: $<HTMLSelectElement>("mode"),
  level: $<HTMLSelectElement>("level"),
  players: $<HTMLSelectElement>("players"),
  time: $<HTMLSelectElement>("time"),
  playersField: $("players-field"),
  levelField: $("level-field"),
  timeField: $("time-field"),
  matchField: $("match-field"),
  matchId: $<HTMLInputElement>("match-id"),
  error: $("error"),
  lobby: $("lobby"),
  lobbyBody: $("lobby-body"),
  play: $("play"),
  title: $("title"),
  score: $("score"),
  share: $("share"),
  clocks: $("clocks"),
  status: $("status"),
  board: $("board"),
  choices: $("choices"),
  result: $("result"),
  resultText: $("result-text"),
  resultPause: $("result-pause"),
  nextGame: $<HTMLButtonElement>("next-game"),
  end: $("end"),
  endText: $("end-text"),
  rematch: $<HTMLButtonElement>("rematch"),
  endReplay: $<HTMLAnchorElement>("end-replay"),
  offer: $("offer"),
  abort: $<HTMLButtonElement>("abort"),
  claim: $<HTMLButtonElement>("claim"),
  offerEnd: $<HTMLButtonElement>("offer-end"),
  acceptEnd: $<HTMLButtonElement>("accept-end"),
  declineEnd: $<HTMLButtonElement>("decline-end"),
  withdrawEnd: $<HTMLButtonElement>("withdraw-end"),
  resign: $<HTMLButtonElement>("resign"),
  replayControls: $("replay-controls"),
  first: $<HTMLButtonElement>("first"),
  back: $<HTMLButtonElement>("back"),
  forward: $<HTMLButtonElement>("forward"),
  last: $<HTMLButtonElement>("last"),
  step: $("step"),
  speed: $<HTMLInputElement>("speed"),
  skip: $<HTMLButtonElement>("skip"),
  sound: $<HTMLInputElement>("sound"),
  links: $("links"),
  games: $("games"),
  log: $("log"),
};

export type Mode = "computer" | "friend" | "local" | "seat" | "watch" | "replay";

/** How the session was set up: enough to start the same again (a rematch). */
export interface Setup {
  kind: number;
  level: number;
  players: number;
  /** The time control as the form gives it ("" untimed, "MS+MS" Fischer, "day"). */
  time: string;
}

/** The clocks as last heard, against this page's own clock (so the two machines' clocks need not agree). */
export interface ClockReading {
  remaining: number[];
  running: Player;
  /** performance.now() when heard. */
  heardAt: number;
  /** The running seat's time to its flag when heard (0: no clock runs). */
  flagIn: number;
  started: boolean;
  /** Correspondence: the clocks show days and hours. */
  correspondence: boolean;
}

/** One session on the page: a game shown, and who may move on this screen. */
export interface Session {
  mode: Mode;
  setup: Setup;
  description: DescribeGameResponse;
  board: Board;
  state: GameState;
  /** The legal moves now, each with its preview. */
  legal: LegalMove[];
  /** The seats this screen plays. */
  seats: Set<Player>;
  matchId: string;
  /** The match's version (the seq of the last event shown). */
  version: bigint;
  /** The newest version heard from the stream (events may wait behind an animation or a result). */
  heard: bigint;
  /** Stops the session's stream. */
  stop: AbortController;
  /** Three-player Ba-awa: the placing the server gave at the match's end ([South, North, East]), once known. */
  placing: number[];
  /** Timed matches: the clocks as last heard. */
  clocks: ClockReading | null;
  /** The seats agreeing to end the game being played (AgreeToEnd), as last heard. */
  agreeing: Player[];
  /** Seats played by the server's bot. */
  bots: Set<Player>;
  /** Seats with an open stream, as last heard. */
  connected: Set<Player>;
  /** Seats seen sowing (an untimed match may be aborted until each has). */
  sown: Set<Player>;
  /** The match is over (the stream said so). */
  finished: boolean;
  /** Every seat is bound to a player of the tenant (a lobby match): a rematch is offered with `OfferRematch`. */
  boundToPlayers: boolean;
}
