// The board page: pick a game and a way to play; play against the server's opponent, two (Ba-awa: or three) on one
// screen, or a seat of a server-held match by link; watch a match live; replay a finished one step by step.
import {
  Code,
  create,
  CreateMatchRequestSchema,
  GameKind,
  MancalaError,
  MatchStatus,
  Player,
  Status,
  submitMove,
  watchMatch,
  type DescribeGameResponse,
  type Event,
  type GameState,
  type LegalMove,
  type Match,
  type MatchEvent,
  type WatchMatchResponse,
} from "@mancala/client";
import { animate, Board, differences, viewOf } from "./board";
import { explain, matches, rules, setCredential } from "./client";
import {
  choiceWords,
  eventWords,
  gameName,
  moveWords,
  perSeatWords,
  placingOf,
  placingWords,
  playerName,
  seatCount,
  statusWords,
} from "./words";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const ui = {
  setup: $<HTMLFormElement>("setup"),
  game: $<HTMLSelectElement>("game"),
  mode: $<HTMLSelectElement>("mode"),
  level: $<HTMLSelectElement>("level"),
  players: $<HTMLSelectElement>("players"),
  playersField: $("players-field"),
  levelField: $("level-field"),
  matchField: $("match-field"),
  matchId: $<HTMLInputElement>("match-id"),
  error: $("error"),
  play: $("play"),
  title: $("title"),
  status: $("status"),
  board: $("board"),
  choices: $("choices"),
  nextGame: $<HTMLButtonElement>("next-game"),
  resign: $<HTMLButtonElement>("resign"),
  replayControls: $("replay-controls"),
  first: $<HTMLButtonElement>("first"),
  back: $<HTMLButtonElement>("back"),
  forward: $<HTMLButtonElement>("forward"),
  last: $<HTMLButtonElement>("last"),
  step: $("step"),
  speed: $<HTMLInputElement>("speed"),
  skip: $<HTMLButtonElement>("skip"),
  links: $("links"),
  end: $("end"),
  games: $("games"),
  log: $("log"),
};

type Mode = "computer" | "local" | "seat" | "watch" | "replay";

/** One session on the page: a game shown, and who may move on this screen. */
interface Session {
  mode: Mode;
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
  /** Stops the session's stream. */
  stop: AbortController;
  /** Three-player Ba-awa: the placing the server gave at the match's end ([South, North, East]), once known. */
  placing: number[];
}

let session: Session | null = null;
/** Events are shown one after another, never two animations at once. */
let queue: Promise<void> = Promise.resolve();
let skipping = false;
let animating = 0;

const descriptions = new Map<GameKind, DescribeGameResponse>();

async function describe(kind: GameKind): Promise<DescribeGameResponse> {
  let description = descriptions.get(kind);
  if (!description) {
    description = await rules.describeGame({ kind });
    descriptions.set(kind, description);
  }
  return description;
}

function showError(error: unknown): void {
  if (error instanceof MancalaError && error.code === Code.Canceled) return;
  ui.error.textContent = explain(error);
  ui.error.hidden = false;
}

function clearError(): void {
  ui.error.hidden = true;
  ui.error.textContent = "";
}

function say(text: string): void {
  const item = document.createElement("li");
  item.textContent = text;
  ui.log.appendChild(item);
  while (ui.log.childElementCount > 12) ui.log.firstElementChild?.remove();
}

const pace = {
  delay: () => Math.round(900 / Number(ui.speed.value) ** 1.4),
  skipped: () => skipping,
  say,
};

/** Animates a move's events (unless skipped), then shows the state after it; a game's end goes on the score sheet. */
async function showMove(s: Session, before: GameState, events: Event[], after: GameState, heading = ""): Promise<void> {
  ui.log.replaceChildren();
  if (heading) say(heading);
  for (const event of events) {
    if (event.kind.case === "matchEnd" && event.kind.value.placing.length) s.placing = [...event.kind.value.placing];
    if (event.kind.case === "elimination") {
      const item = document.createElement("li");
      item.textContent = `After game ${before.gameNumber}: ${eventWords(s.description, event)}`;
      ui.games.appendChild(item);
    }
    if (event.kind.case === "gameEnd" || event.kind.case === "roundEnd") {
      const item = document.createElement("li");
      const what = event.kind.case === "gameEnd" ? "Game" : "Round";
      item.textContent = `${what} ${before.gameNumber}: ${eventWords(s.description, event)}`;
      ui.games.appendChild(item);
    }
  }
  animating++;
  ui.skip.disabled = false;
  s.board.interact(null);
  try {
    await animate(s.board, before, events, after, pace);
  } finally {
    animating--;
    if (animating === 0) {
      skipping = false;
      ui.skip.disabled = true;
    }
  }
}

/** Shows `s.state` and lets this screen's seats move. */
function render(s: Session): void {
  const state = s.state;
  s.board.show(viewOf(s.description, state));
  ui.status.textContent = statusWords(state);
  hideChoices();
  const between = state.status === Status.GAME_OVER || state.status === Status.ROUND_OVER;
  const mine = s.seats.has(state.toMove);
  const sowable = mine && state.status === Status.IN_PROGRESS && animating === 0;
  const pits = new Set(
    sowable ? s.legal.flatMap((m) => (m.move?.action.case === "sow" ? [m.move.action.value.pit] : [])) : [],
  );
  s.board.interact(
    sowable
      ? {
          legal: pits,
          play: (pit) => choose(s, pit),
          hover: (pit) => preview(s, pit === null ? [] : movesFrom(s, pit)),
        }
      : null,
  );
  ui.nextGame.hidden = !(between && s.seats.size > 0 && s.legal.some((m) => m.move?.action.case === "nextGame"));
  ui.nextGame.textContent = state.status === Status.ROUND_OVER ? "Refill and play the next round" : "Next game";
  ui.resign.hidden = !(s.mode === "computer" || s.mode === "seat") || state.status === Status.MATCH_OVER;
  showEnd(s);
  if (sowable && state.kind !== GameKind.BAO_LA_KETE && pits.size === 0) ui.status.textContent += " No move: pass.";
}

function showEnd(s: Session): void {
  const state = s.state;
  if (state.status === Status.IN_PROGRESS) {
    ui.end.hidden = true;
    return;
  }
  let score = state.matchScore.length === 2 ? ` Match standing: South ${state.matchScore[0]}, North ${state.matchScore[1]}.` : "";
  if (seatCount(state) === 3) score = ` ${threeStanding(s)}`;
  ui.end.textContent = `${statusWords(state)}${score}`;
  ui.end.classList.toggle("match-over", state.status === Status.MATCH_OVER);
  ui.end.hidden = false;
}

/** Three-player Ba-awa between games or at the end: the pits won, who is out, and the placing at the match's end. */
function threeStanding(s: Session): string {
  const state = s.state;
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

function movesFrom(s: Session, pit: number): LegalMove[] {
  return s.legal.filter((m) => m.move?.action.case === "sow" && m.move.action.value.pit === pit);
}

/** Shows what `moves[0]` would do (the board after it, the changed pits marked), or the board as it is. */
function preview(s: Session, moves: LegalMove[]): void {
  const first = moves[0];
  if (!first?.result || !first.move) {
    s.board.svg.classList.remove("previewing");
    s.board.show(viewOf(s.description, s.state));
    ui.status.textContent = statusWords(s.state);
    return;
  }
  s.board.svg.classList.add("previewing");
  // The board after the move, still marked with whose turn it is now.
  s.board.show({ ...viewOf(s.description, first.result), toMove: s.state.toMove }, differences(s.state, first.result));
  const said = first.events
    .filter((e) => e.kind.case !== "lap")
    .map((e) => eventWords(s.description, e))
    .filter((w) => w);
  const choices = moves.length > 1 ? ` (one of ${moves.length} ways; choose after clicking)` : "";
  ui.status.textContent = `Preview of ${moveWords(s.description, first.move)}${choices}: ${said.join(" ") || "no capture."}`;
}

/** A pit was chosen: play its move, or offer its choices (Bao la Kete's direction, kichwa, stop or safari). */
function choose(s: Session, pit: number): void {
  const moves = movesFrom(s, pit);
  if (moves.length === 1 && moves[0].move) {
    void play(s, moves[0]);
    return;
  }
  ui.choices.replaceChildren();
  const heading = document.createElement("p");
  heading.textContent = `How do you play ${s.description.pits[pit]?.label ?? pit}?`;
  ui.choices.appendChild(heading);
  for (const legal of moves) {
    if (!legal.move) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.textContent = choiceWords(legal.move);
    button.addEventListener("click", () => void play(s, legal));
    button.addEventListener("mouseenter", () => preview(s, [legal]));
    button.addEventListener("focus", () => preview(s, [legal]));
    button.addEventListener("mouseleave", () => preview(s, []));
    ui.choices.appendChild(button);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => {
    hideChoices();
    preview(s, []);
  });
  ui.choices.appendChild(cancel);
  ui.choices.hidden = false;
  (ui.choices.querySelector("button.choice") as HTMLButtonElement | null)?.focus();
}

function hideChoices(): void {
  ui.choices.hidden = true;
  ui.choices.replaceChildren();
}

/** Plays `legal` for the seat to move: locally from its preview, or on the server. */
async function play(s: Session, legal: LegalMove): Promise<void> {
  if (!legal.move) return;
  hideChoices();
  s.board.svg.classList.remove("previewing");
  s.board.interact(null);
  clearError();
  if (s.mode === "local") {
    const before = s.state;
    const after = legal.result ?? (await rules.applyMove({ state: before, move: legal.move })).state;
    if (!after) return;
    queue = queue.then(async () => {
      const heading =
        legal.move?.action.case === "sow" ? `${playerName(before.toMove)} plays ${moveWords(s.description, legal.move)}.` : "";
      await showMove(s, before, legal.events, after, heading);
      s.state = after;
      s.legal = after.status === Status.MATCH_OVER ? [] : (await rules.listLegalMoves({ state: after })).moves;
      if (session === s) render(s);
    });
    await queue.catch(showError);
    return;
  }
  try {
    // The move comes back through the stream, with its trace and the next moves' previews. A request id makes a
    // retry after a dropped connection safe; the version makes a move on a stale board a refusal.
    await submitMove(matches, { matchId: s.matchId, move: legal.move, expectedVersion: s.version });
  } catch (error) {
    showError(error);
    render(s);
  }
}

async function nextGame(): Promise<void> {
  const s = session;
  const legal = s?.legal.find((m) => m.move?.action.case === "nextGame");
  if (s && legal) await play(s, legal);
}

/** One message of a WatchMatch stream. */
async function onWatch(s: Session, message: WatchMatchResponse): Promise<void> {
  const k = message.kind;
  if (k.case === "snapshot" && k.value.match) {
    adopt(s, k.value.match);
    render(s);
  } else if (k.case === "event") {
    await onEvent(s, k.value);
  } else if (k.case === "finished") {
    ui.resign.hidden = true;
    if (k.value.result) {
      say(resultWords(k.value.result.winner, k.value.result.reason));
      if (k.value.result.placing.length) {
        s.placing = [...k.value.result.placing];
        say(placingWords(s.placing));
        if (session === s) showEnd(s);
      }
    }
  } else if (k.case === "presence") {
    say(`${playerName(k.value.player)} ${k.value.connected ? "is here" : "left"}.`);
  }
}

function resultWords(winner: Player, reason: number): string {
  const how = reason === 2 ? " by resignation" : reason === 3 ? " (expired: nobody played)" : "";
  return `The match is finished${how}: ${winner === Player.UNSPECIFIED ? "no winner" : `${playerName(winner)} wins`}.`;
}

function adopt(s: Session, match: Match): void {
  if (!match.state) return;
  s.state = match.state;
  s.version = match.version;
  s.legal = match.previews;
}

async function onEvent(s: Session, event: MatchEvent): Promise<void> {
  if (event.seq <= s.version || !event.state) return;
  const before = s.state;
  s.version = event.seq;
  const who = playerName(event.player);
  if (event.action.case === "move") {
    await showMove(s, before, event.events, event.state, `${who} plays ${moveWords(s.description, event.action.value)}.`);
  } else if (event.action.case === "resignation") {
    say(`${who} resigns.`);
  } else if (event.action.case === "expiry") {
    say("The match expired: nobody played.");
  }
  s.state = event.state;
  s.legal = event.previews;
  if (session === s) render(s);
}

/** Follows a match's stream until the session ends (the package resumes it after a disconnect from the last seq). */
async function watch(s: Session): Promise<void> {
  try {
    for await (const message of watchMatch(matches, s.matchId, { previews: true, signal: s.stop.signal })) {
      queue = queue.then(() => onWatch(s, message)).catch(showError);
    }
  } catch (error) {
    if (!s.stop.signal.aborted) showError(error);
  }
}

function link(params: Record<string, string>): string {
  return `${location.origin}${location.pathname}#${new URLSearchParams(params).toString()}`;
}

function showLinks(s: Session, token?: string, seat?: Player): void {
  ui.links.replaceChildren();
  const add = (text: string, href: string) => {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    ui.links.append(a, " ");
  };
  add("Link to watch this match", link({ watch: s.matchId }));
  add("Link to replay it", link({ replay: s.matchId }));
  if (token && seat) add("Your seat's link (keep it secret)", link({ match: s.matchId, seat: seatParam(seat), token }));
}

/** A seat as a link names it: "south", "north", "east". */
function seatParam(seat: Player): string {
  return seat === Player.NORTH ? "north" : seat === Player.EAST ? "east" : "south";
}

async function begin(
  mode: Mode,
  kind: GameKind,
  options: { level?: number; matchId?: string; seat?: Player; token?: string; players?: number } = {},
): Promise<void> {
  session?.stop.abort();
  session = null;
  clearError();
  ui.log.replaceChildren();
  ui.games.replaceChildren();
  ui.end.hidden = true;
  ui.links.replaceChildren();
  ui.replayControls.hidden = mode !== "replay";
  setCredential(options.token ?? "");
  let match: Match | undefined;
  let tokenForLinks: string | undefined;
  // Three-player Ba-awa: South, East and North (docs/ba-awa.md §4.7).
  const three = kind === GameKind.BA_AWA && options.players === 3;
  const gameOptions = three ? { baAwaPlayers: 3 } : undefined;
  if (mode === "computer") {
    const level = options.level ?? 3;
    const bots = three
      ? [
          { player: Player.EAST, level },
          { player: Player.NORTH, level },
        ]
      : [{ player: Player.NORTH, level }];
    const created = await matches.createMatch(create(CreateMatchRequestSchema, { kind, options: gameOptions, bots }));
    match = created.match;
    tokenForLinks = created.tokens.find((t) => t.player === Player.SOUTH)?.token;
    if (!match || !tokenForLinks) throw new Error("the server created no match");
    setCredential(tokenForLinks);
    history.replaceState(null, "", link({ match: match.matchId, seat: "south", token: tokenForLinks }));
  } else if (mode === "seat" || mode === "watch" || mode === "replay") {
    match = (await matches.getMatch({ matchId: options.matchId ?? "" })).match;
    if (!match) throw new Error("the server sent no match");
    kind = match.kind;
  }
  const description = await describe(kind);
  const state = match?.state ?? (await rules.newGame({ kind, options: gameOptions })).state;
  if (!state) throw new Error("the server sent no state");
  const seats = seatCount(state);
  const s: Session = {
    mode,
    description,
    board: new Board(ui.board, description, seats),
    state,
    legal: [],
    seats: new Set(
      mode === "local"
        ? seats === 3
          ? [Player.SOUTH, Player.EAST, Player.NORTH]
          : [Player.SOUTH, Player.NORTH]
        : mode === "computer"
          ? [Player.SOUTH]
          : mode === "seat" && options.seat
            ? [options.seat]
            : [],
    ),
    matchId: match?.matchId ?? "",
    version: 0n,
    stop: new AbortController(),
    placing: [],
  };
  session = s;
  ui.game.value = String(kind);
  ui.play.hidden = false;
  const role =
    mode === "computer"
      ? seats === 3
        ? `you are South, the computer (level ${options.level}) is East and North`
        : `you are South, the computer (level ${options.level}) is North`
      : mode === "local"
        ? seats === 3
          ? "three players on this screen"
          : "two players on this screen"
        : mode === "seat"
          ? `you play ${playerName(options.seat ?? Player.UNSPECIFIED)}`
          : mode === "watch"
            ? "watching live"
            : "replay";
  ui.title.textContent = `${gameName(kind)}${seats === 3 ? " for three" : ""}: ${role}`;
  if (mode === "local") {
    s.legal = (await rules.listLegalMoves({ state })).moves;
    render(s);
  } else if (mode === "replay") {
    await replay(s);
  } else {
    if (match) {
      s.state = match.state ?? state;
      s.version = match.version;
    }
    render(s);
    showLinks(s, tokenForLinks ?? options.token, options.seat ?? (mode === "computer" ? Player.SOUTH : undefined));
    void watch(s);
  }
  document.title = `${ui.title.textContent} · Mancala`;
}

/** Replay: the history's events one at a time, from the match's first state. */
async function replay(s: Session): Promise<void> {
  const history = await matches.getHistory({ matchId: s.matchId });
  const match = history.match;
  if (!match) throw new Error("the server sent no match");
  const first = (await rules.newGame({ kind: match.kind, options: match.options })).state;
  if (!first) throw new Error("the server sent no first state");
  const states: GameState[] = [first, ...history.events.map((e) => e.state ?? first)];
  let at = 0;
  const show = () => {
    s.state = states[at];
    s.legal = [];
    render(s);
    ui.step.textContent = `step ${at} of ${history.events.length}`;
    ui.first.disabled = ui.back.disabled = at === 0;
    ui.forward.disabled = ui.last.disabled = at === history.events.length;
    if (at === history.events.length && match.status === MatchStatus.FINISHED && match.result) {
      s.placing = [...match.result.placing];
      const standing = seatCount(s.state) === 3 ? ` ${threeStanding(s)}` : "";
      ui.end.textContent = `${resultWords(match.result.winner, match.result.reason)}${standing}`;
      ui.end.hidden = false;
    }
  };
  const go = (to: number) => {
    if (session !== s) return;
    at = Math.max(0, Math.min(history.events.length, to));
    show();
  };
  ui.first.onclick = () => go(0);
  ui.back.onclick = () => go(at - 1);
  ui.last.onclick = () => go(history.events.length);
  ui.forward.onclick = () => {
    if (at >= history.events.length) return;
    const event = history.events[at];
    const before = states[at];
    at += 1;
    ui.forward.disabled = true;
    queue = queue
      .then(async () => {
        const heading =
          event.action.case === "move" ? `${playerName(event.player)} plays ${moveWords(s.description, event.action.value)}.` : "";
        await showMove(s, before, event.events, states[at], heading);
        show();
      })
      .catch(showError);
  };
  show();
  say(`${history.events.length} events; the notation:`);
  say(history.notation.trim().split("\n").slice(0, 1).join(""));
  showLinks(s);
}

// ---- The setup form, the links, the buttons ----

function modeChanged(): void {
  const mode = ui.mode.value;
  ui.levelField.hidden = mode !== "computer";
  const kind = Number(ui.game.value) as GameKind;
  const counts = playerCounts.get(kind) ?? (kind === GameKind.BA_AWA ? [2, 3] : [2]);
  ui.playersField.hidden = !(mode === "computer" || mode === "local") || counts.length < 2;
  const local = ui.mode.querySelector<HTMLOptionElement>('option[value="local"]');
  const three = !ui.playersField.hidden && ui.players.value === "3";
  if (local) local.textContent = three ? "three players on this screen" : "two players on this screen";
  ui.matchField.hidden = mode !== "watch" && mode !== "replay";
  ui.game.disabled = mode === "watch" || mode === "replay";
  ui.matchId.required = !ui.matchField.hidden;
}

/** The player counts each game allows (DescribeGame's `players`), once asked. */
const playerCounts = new Map<GameKind, number[]>();

/** Fills the Players choice from DescribeGame: its `players`, and the `ba_awa_players` option's default. */
async function gameChanged(): Promise<void> {
  const kind = Number(ui.game.value) as GameKind;
  modeChanged();
  if (!playerCounts.has(kind)) {
    try {
      const description = await describe(kind);
      const counts = description.players.length ? [...description.players] : [2];
      playerCounts.set(kind, counts);
      if (kind === GameKind.BA_AWA && counts.length > 1) {
        const chosen = ui.players.value;
        const fallback =
          description.options.find((o) => o.name === "ba_awa_players")?.defaultValue.replace(/^0$/, "2") ?? "2";
        ui.players.replaceChildren(
          ...counts.map((n) => {
            const option = document.createElement("option");
            option.value = String(n);
            option.textContent = String(n);
            return option;
          }),
        );
        ui.players.value = counts.map(String).includes(chosen) ? chosen : fallback;
      }
    } catch {
      // An older server, or none yet: keep the page's own choice.
    }
  }
  if (Number(ui.game.value) === kind) modeChanged();
}

ui.mode.addEventListener("change", modeChanged);
ui.game.addEventListener("change", () => void gameChanged());
ui.players.addEventListener("change", modeChanged);
ui.setup.addEventListener("submit", (e) => {
  e.preventDefault();
  const mode = ui.mode.value as Mode;
  const kind = Number(ui.game.value) as GameKind;
  const matchId = ui.matchId.value.trim().toLowerCase();
  if ((mode === "watch" || mode === "replay") && !/^[0-9a-f]{32}$/.test(matchId)) {
    ui.error.textContent = "A match id is 32 hexadecimal digits (from a match link, or from CreateMatch).";
    ui.error.hidden = false;
    ui.matchId.focus();
    return;
  }
  if (mode === "watch" || mode === "replay") {
    location.hash = new URLSearchParams({ [mode]: matchId }).toString();
    return;
  }
  history.replaceState(null, "", location.pathname);
  const players = ui.playersField.hidden ? 2 : Number(ui.players.value);
  begin(mode, kind, { level: Number(ui.level.value), players }).catch(showError);
});
ui.nextGame.addEventListener("click", () => void nextGame());
ui.resign.addEventListener("click", async () => {
  const s = session;
  if (!s || !confirm("Resign this match?")) return;
  try {
    await matches.resign({ matchId: s.matchId });
  } catch (error) {
    showError(error);
  }
});
ui.skip.addEventListener("click", () => {
  skipping = true;
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !ui.choices.hidden) {
    hideChoices();
    if (session) preview(session, []);
  }
});

/** `#watch=ID`, `#replay=ID`, `#match=ID&seat=south&token=T` (a seat's link; seat=north or east too); `token` also rides on the others. */
function fromLink(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token") ?? undefined;
  const seatName = params.get("seat");
  const seat = seatName === "north" ? Player.NORTH : seatName === "east" ? Player.EAST : Player.SOUTH;
  const kind = Number(ui.game.value) as GameKind;
  let started: Promise<void> | null = null;
  if (params.get("watch")) {
    ui.mode.value = "watch";
    ui.matchId.value = params.get("watch") ?? "";
    started = begin("watch", kind, { matchId: params.get("watch") ?? "", token });
  } else if (params.get("replay")) {
    ui.mode.value = "replay";
    ui.matchId.value = params.get("replay") ?? "";
    started = begin("replay", kind, { matchId: params.get("replay") ?? "", token });
  } else if (params.get("match") && token) {
    started = begin("seat", kind, { matchId: params.get("match") ?? "", seat, token });
  }
  modeChanged();
  started?.catch(showError);
}

window.addEventListener("hashchange", fromLink);
fromLink();
void gameChanged();
