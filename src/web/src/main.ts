// The board page: pick a game and a way to play; play against the server's opponent, a friend by link (with a time
// control), two (Ba-awa: or three) on one screen, or a seat of a server-held match by link; watch a match live;
// replay a finished one step by step. This module ties the page together: the session, the moves, the form and the
// links; a match's stream is followed by stream.ts.
import {
  Code,
  create,
  CreateMatchRequestSchema,
  GameKind,
  MancalaError,
  Player,
  Status,
  submitMove,
  type DescribeGameResponse,
  type Event,
  type GameState,
  type LegalMove,
  type Match,
} from "@mancala/client";
import { animate } from "./animate";
import { Board, differences, viewOf } from "./board";
import { explain, lobby, matches, rules, setCredential } from "./client";
import { readClocks, showClocks } from "./clocks";
import { showLobby } from "./lobby";
import { showOffers, wireOffers } from "./offers";
import { hideResult, holding, releaseResult, showMatchEnd, showScore, standing } from "./results";
import { replay } from "./replay";
import { behind, watch } from "./stream";
import { dropDelay, knock, loadSettings, prefersReducedMotion } from "./settings";
import { timeControlOf } from "./time";
import { ui, type Mode, type Session, type Setup } from "./ui";
import { choiceWords, eventWords, gameName, moveWords, playerName, seatCount, statusWords } from "./words";

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
  ui.error.textContent = error instanceof MancalaError ? explain(error) : `${error instanceof Error ? error.message : String(error)}.`;
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

function enqueue(job: () => Promise<void>): void {
  queue = queue.then(job).catch(showError);
}

const pace = {
  delay: dropDelay,
  skipped: () => skipping || behind() || prefersReducedMotion(),
  say,
  drop: knock,
};

/** Animates a move's events (unless skipped), then shows the state after it; a game's end goes on the score sheet. */
async function showMove(
  s: Session,
  before: GameState,
  events: Event[],
  after: GameState,
  heading = "",
  over = false,
): Promise<void> {
  ui.log.replaceChildren();
  if (heading) {
    say(heading);
    ui.status.textContent = heading;
  }
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
  if (after.status === Status.IN_PROGRESS) hideResult();
  animating++;
  ui.skip.disabled = false;
  s.board.interact(null);
  try {
    await animate(s.board, before, events, after, pace, over);
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
  const over = s.finished || state.status === Status.MATCH_OVER;
  s.board.show(viewOf(s.description, state, over));
  ui.status.textContent = over ? "The match is over." : statusWords(state);
  hideChoices();
  showScore(s);
  const between = state.status === Status.GAME_OVER || state.status === Status.ROUND_OVER;
  const mine = s.seats.has(state.toMove);
  const sowable = mine && !over && state.status === Status.IN_PROGRESS && animating === 0;
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
  const result = between && !over && s.mode !== "replay";
  if (result) {
    ui.resultText.textContent = `${statusWords(state)} ${standing(s)}`.trim();
    ui.nextGame.textContent = state.status === Status.ROUND_OVER ? "Refill and play the next round" : "Next game";
    ui.result.hidden = false;
  } else if (!holding()) {
    ui.result.hidden = true;
  }
  ui.nextGame.hidden = !(result && s.seats.size > 0);
  ui.resign.hidden = !(s.mode === "computer" || s.mode === "seat" || s.mode === "friend") || over;
  showOffers(s);
  showClocks(s);
  if (sowable && state.kind !== GameKind.BAO_LA_KETE && pits.size === 0) ui.status.textContent += " No move: pass.";
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
  ui.status.textContent = `If you play ${moveWords(s.description, first.move)}${choices}: ${said.join(" ") || "no capture."}`;
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
  s.board.show(viewOf(s.description, s.state));
  s.board.interact(null);
  clearError();
  if (legal.move.action.case === "sow") ui.status.textContent = `${playerName(s.state.toMove)} plays ${moveWords(s.description, legal.move)}…`;
  if (s.mode === "local") {
    const before = s.state;
    const after = legal.result ?? (await rules.applyMove({ state: before, move: legal.move })).state;
    if (!after) return;
    enqueue(async () => {
      const heading =
        legal.move?.action.case === "sow" ? `${playerName(before.toMove)} plays ${moveWords(s.description, legal.move)}.` : "";
      await showMove(s, before, legal.events, after, heading);
      s.state = after;
      s.legal = after.status === Status.MATCH_OVER ? [] : (await rules.listLegalMoves({ state: after })).moves;
      if (session === s) {
        render(s);
        if (after.status === Status.MATCH_OVER) showMatchEnd(s, undefined, true);
      }
    });
    await queue;
    return;
  }
  try {
    // The move comes back through the stream, with its trace and the next moves' previews. A request id makes a
    // retry after a dropped connection safe; the version makes a move on a stale board a refusal.
    await submitMove(matches, { matchId: s.matchId, move: legal.move, expectedVersion: s.heard });
  } catch (error) {
    showError(error);
    render(s);
  }
}

/** The player is ready for the next game: the held result goes, and `NextGame` is sent unless another seat (or the
 * server's bot) already sent it. */
async function nextGame(): Promise<void> {
  const s = session;
  const legal = s?.legal.find((m) => m.move?.action.case === "nextGame");
  if (!s) return;
  if (s.mode === "local") {
    if (legal) await play(s, legal);
    return;
  }
  releaseResult();
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
  add("Watch this match", link({ watch: s.matchId }));
  add("Replay it", link({ replay: s.matchId }));
  if (token && seat) add("Your seat's link (keep it secret)", link({ match: s.matchId, seat: seatParam(seat), token }));
}

/** A friend's match: each other seat's link, to send to whoever plays it. */
function showShare(matchId: string, tokens: { player: Player; token: string }[]): void {
  ui.share.replaceChildren();
  for (const { player, token } of tokens) {
    const id = `share-${seatParam(player)}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = `Send this link to your friend (it plays ${playerName(player)}):`;
    const input = document.createElement("input");
    input.id = id;
    input.readOnly = true;
    input.value = link({ match: matchId, seat: seatParam(player), token });
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "Copy";
    copy.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select and copy";
      }
    });
    const row = document.createElement("div");
    row.className = "share-row";
    row.append(input, copy);
    ui.share.append(label, row);
  }
  ui.share.hidden = tokens.length === 0;
}

/** The credential of the page's link. */
function tokenOf(): string {
  return new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
}

/** A seat as a link names it: "south", "north", "east". */
function seatParam(seat: Player): string {
  return seat === Player.NORTH ? "north" : seat === Player.EAST ? "east" : "south";
}

interface Begin {
  level?: number;
  matchId?: string;
  seat?: Player;
  token?: string;
  players?: number;
  time?: string;
}

async function begin(mode: Mode, kind: GameKind, options: Begin = {}): Promise<void> {
  session?.stop.abort();
  session = null;
  showClocks(null);
  showOffers(null);
  clearError();
  hideResult();
  ui.log.replaceChildren();
  ui.games.replaceChildren();
  ui.end.hidden = true;
  ui.links.replaceChildren();
  ui.share.hidden = true;
  ui.replayControls.hidden = mode !== "replay";
  setCredential(options.token ?? "");
  let match: Match | undefined;
  let tokenForLinks: string | undefined;
  // Three-player Ba-awa: South, East and North (docs/ba-awa.md §4.7).
  const three = kind === GameKind.BA_AWA && options.players === 3;
  const gameOptions = three ? { baAwaPlayers: 3 } : undefined;
  const setup: Setup = { kind, level: options.level ?? 3, players: three ? 3 : 2, time: options.time ?? "" };
  let seat = options.seat;
  if (mode === "computer" || mode === "friend") {
    const level = setup.level;
    const others = three ? [Player.EAST, Player.NORTH] : [Player.NORTH];
    const bots = mode === "computer" ? others.map((player) => ({ player, level })) : [];
    const created = await matches.createMatch(
      create(CreateMatchRequestSchema, { kind, options: gameOptions, bots, timeControl: timeControlOf(setup.time) }),
    );
    match = created.match;
    tokenForLinks = created.tokens.find((t) => t.player === Player.SOUTH)?.token;
    if (!match || !tokenForLinks) throw new Error("the server created no match");
    setCredential(tokenForLinks);
    seat = Player.SOUTH;
    history.replaceState(null, "", link({ match: match.matchId, seat: "south", token: tokenForLinks }));
    if (mode === "friend") showShare(match.matchId, created.tokens.filter((t) => t.player !== Player.SOUTH));
  } else if (mode === "seat" || mode === "watch" || mode === "replay") {
    match = (await matches.getMatch({ matchId: options.matchId ?? "" })).match;
    if (!match) throw new Error("the server sent no match");
    kind = match.kind;
    setup.kind = kind;
    setup.players = match.seats.length === 3 ? 3 : 2;
  }
  const description = await describe(kind);
  const state = match?.state ?? (await rules.newGame({ kind, options: gameOptions })).state;
  if (!state) throw new Error("the server sent no state");
  const seats = seatCount(state);
  const s: Session = {
    mode,
    setup,
    description,
    board: new Board(ui.board, description, seats, seat === Player.NORTH && (mode === "seat" || mode === "friend")),
    state,
    legal: [],
    seats: new Set(
      mode === "local"
        ? seats === 3
          ? [Player.SOUTH, Player.EAST, Player.NORTH]
          : [Player.SOUTH, Player.NORTH]
        : seat && mode !== "watch" && mode !== "replay"
          ? [seat]
          : [],
    ),
    matchId: match?.matchId ?? "",
    version: 0n,
    heard: 0n,
    stop: new AbortController(),
    placing: [],
    clocks: match ? readClocks(match.clocks, match.timeControl) : null,
    agreeing: match ? [...match.agreeing] : [],
    bots: new Set(match?.seats.filter((x) => x.botLevel > 0).map((x) => x.player) ?? []),
    connected: new Set(),
    sown: new Set(),
    finished: false,
    boundToPlayers: !!match && match.seats.length > 0 && match.seats.every((x) => x.playerId !== ""),
  };
  session = s;
  document.body.classList.add("playing");
  ui.game.value = String(kind);
  ui.play.hidden = false;
  const botLevel = match?.seats.find((x) => x.botLevel > 0)?.botLevel ?? setup.level;
  const role =
    mode === "computer"
      ? seats === 3
        ? `you are South, the computer (level ${botLevel}) is East and North`
        : `you are South, the computer (level ${botLevel}) is North`
      : mode === "local"
        ? seats === 3
          ? "three players on this screen"
          : "two players on this screen"
        : mode === "seat" || mode === "friend"
          ? `you play ${playerName(seat ?? Player.UNSPECIFIED)}`
          : mode === "watch"
            ? "watching live"
            : "replay";
  ui.title.textContent = `${gameName(kind)}${seats === 3 ? " for three" : ""}: ${role}`;
  document.title = `${ui.title.textContent} · Mancala`;
  if (mode === "local") {
    s.legal = (await rules.listLegalMoves({ state })).moves;
    render(s);
  } else if (mode === "replay") {
    await replay(s, {
      showMove: (before, event, after, heading) => showMove(s, before, event.events, after, heading),
      render: () => render(s),
      say,
      enqueue,
      current: () => session,
    });
    showLinks(s);
  } else {
    if (match) {
      s.state = match.state ?? state;
      s.version = match.version;
      s.heard = match.version;
    }
    render(s);
    showLinks(s, tokenForLinks ?? options.token, seat);
    void watch(s, { current: () => session, enqueue, render, showMove, say, showError });
  }
}

/** The same again: a new match of the same game, level and time (a friend's: new links to send); between two
 * players of a tenant (the lobby's matches), a rematch offered to the opponent (`OfferRematch`). */
function rematch(): void {
  const s = session;
  if (!s) return;
  if (s.boundToPlayers) {
    lobby
      .offerRematch({ matchId: s.matchId })
      .then((answer) => {
        ui.rematch.hidden = true;
        say(`Rematch offered to ${answer.challenge?.toPlayerId || "your opponent"}: the match opens here when accepted.`);
        location.hash = "lobby&" + new URLSearchParams({ token: tokenOf() }).toString();
      })
      .catch(showError);
    return;
  }
  const mode: Mode = s.mode === "computer" || s.mode === "local" ? s.mode : "friend";
  begin(mode, s.setup.kind, { level: s.setup.level, players: s.setup.players, time: s.setup.time }).catch(showError);
}

// ---- The setup form, the links, the buttons ----

function modeChanged(): void {
  const mode = ui.mode.value;
  ui.levelField.hidden = mode !== "computer";
  ui.timeField.hidden = mode !== "computer" && mode !== "friend";
  const kind = Number(ui.game.value) as GameKind;
  const counts = playerCounts.get(kind) ?? (kind === GameKind.BA_AWA ? [2, 3] : [2]);
  ui.playersField.hidden = !(mode === "computer" || mode === "local" || mode === "friend") || counts.length < 2;
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
  begin(mode, kind, { level: Number(ui.level.value), players, time: ui.time.value }).catch(showError);
});
ui.nextGame.addEventListener("click", () => void nextGame());
ui.newGame.addEventListener("click", () => {
  document.body.classList.remove("playing");
  ui.game.focus();
});
ui.rematch.addEventListener("click", rematch);
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
wireOffers(() => session, showError);
loadSettings();

/** `#watch=ID`, `#replay=ID`, `#match=ID&seat=south&token=T` (a seat's link; seat=north or east too), `#lobby&token=T`
 * (a player token: the tenant's challenges and seeks); `token` also rides on the others. */
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
  } else if (params.has("lobby") && token) {
    setCredential(token);
    started = showLobby((matchId, seatOf) => {
      location.hash = new URLSearchParams({ match: matchId, seat: seatParam(seatOf), token }).toString();
    });
  }
  modeChanged();
  started?.catch(showError);
}

window.addEventListener("hashchange", fromLink);
fromLink();
void gameChanged();
