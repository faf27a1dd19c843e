// The board as SVG, drawn from DescribeGame (rows, columns, labels, roles) and a state; and the animation of a
// move, drop by drop, from its events.
import { GameKind, LapSource, Player, type Event, type GameState } from "@mancala/client";
import type { DescribeGameResponse } from "@mancala/client";
import { eventWords, pitName, playerName, seatIndex, seatsInTurnOrder } from "./words";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100;
const BAND = 36;
/** Three-player Ba-awa: the width of East's panel, right of the board (East's pits are at its east end). */
const PANEL = 190;

/** What the board shows: a state, or a moment inside a move's animation. */
export interface View {
  pits: number[];
  /** One per seat, in the protocol's order ([South, North] or [South, North, East]); so are the lists below. */
  stores: number[];
  reserves: number[];
  /** Ba-awa: who owns each pit; otherwise the side of the board. */
  owners: Player[];
  closed: boolean[];
  kuuAlive: boolean[];
  marked: number | null;
  toMove: Player;
  /** Seeds in the sower's hand, during an animation. */
  hand: number;
  /** 2, or 3 for three-player Ba-awa. */
  seats: number;
  /** Three-player Ba-awa: each seat's pits (owned in this game; won, once it is over). */
  standing: number[];
  /** Three-player Ba-awa: the game at whose end each seat was eliminated (0: still in). */
  out: number[];
}

export function viewOf(description: DescribeGameResponse, state: GameState): View {
  const variant = state.variant;
  const three = variant.case === "baAwa" && variant.value.players === 3;
  const seats = three ? 3 : 2;
  const perSeat = (list: readonly number[]) => Array.from({ length: seats }, (_, i) => list[i] ?? 0);
  return {
    pits: [...state.pits],
    stores: perSeat(state.stores),
    reserves: [state.reserves[0] ?? 0, state.reserves[1] ?? 0],
    owners:
      variant.case === "baAwa" && variant.value.owners.length === state.pits.length
        ? [...variant.value.owners]
        : description.pits.map((p) => p.side),
    closed: variant.case === "bosh" ? [...variant.value.closed] : state.pits.map(() => false),
    kuuAlive: variant.case === "baoLaKete" ? [...variant.value.kuuAlive] : [false, false],
    marked: variant.case === "baoLaKete" && variant.value.mark ? variant.value.mark.pit : null,
    toMove: state.toMove,
    hand: 0,
    seats,
    standing: three ? perSeat(state.matchScore) : [],
    out: variant.case === "baAwa" && three ? perSeat(variant.value.eliminatedInGame) : [],
  };
}

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
  parent?: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

export interface Interaction {
  /** Pits a move may start from. */
  legal: Set<number>;
  play(pit: number): void;
  /** The pointer or the focus is on a legal pit (null: left it). */
  hover(pit: number | null): void;
}

export class Board {
  readonly svg: SVGSVGElement;
  private readonly pitGroups: SVGGElement[] = [];
  private readonly counts: SVGTextElement[] = [];
  private readonly seedLayers: SVGGElement[] = [];
  private readonly northInfo: SVGTextElement;
  private readonly southInfo: SVGTextElement;
  private readonly handInfo: SVGTextElement;
  /** Three-player Ba-awa: East's panel and its lines. */
  private readonly eastPanel: SVGGElement | null = null;
  private readonly eastLines: SVGTextElement[] = [];
  private interaction: Interaction | null = null;
  private view: View | null = null;

  constructor(
    container: HTMLElement,
    readonly description: DescribeGameResponse,
    /** 2, or 3 for three-player Ba-awa (East's panel right of the board). */
    readonly seats = 2,
  ) {
    container.replaceChildren();
    const width = description.pitsPerRow * CELL;
    const height = description.rows * CELL + 2 * BAND;
    const panel = seats === 3 ? PANEL : 0;
    this.svg = el("svg", {
      viewBox: `0 0 ${width + panel} ${height}`,
      class: `board game-${GameKind[description.kind].toLowerCase()}${seats === 3 ? " three-players" : ""}`,
      role: "group",
      "aria-label": `${description.name} board`,
    });
    // Narrow boards (Bosh) are not blown up to the page's width: the same pit size for every game.
    this.svg.style.maxWidth = `${Math.round((width + panel) * 1.27)}px`;
    container.appendChild(this.svg);
    el("rect", { x: 2, y: BAND - 6, width: width - 4, height: description.rows * CELL + 12, rx: 24, class: "wood" }, this.svg);
    if (description.rows === 4) {
      // Bao la Kete: each player's two rows; the line between the front rows.
      el("line", { x1: 10, x2: width - 10, y1: BAND + 2 * CELL, y2: BAND + 2 * CELL, class: "divider" }, this.svg);
    }
    this.northInfo = el("text", { x: width / 2, y: BAND - 11, class: "side-info", "text-anchor": "middle" }, this.svg);
    this.southInfo = el("text", { x: width / 2, y: height - 9, class: "side-info", "text-anchor": "middle" }, this.svg);
    this.handInfo = el("text", { x: width - 8, y: BAND - 11, class: "hand", "text-anchor": "end" }, this.svg);
    if (seats === 3) {
      // East's seat: a panel beside the east end of the board, where East's pits of game 1 are (S5, S6, N1, N2).
      const x = width + 14;
      const w = panel - 18;
      this.eastPanel = el("g", { class: "east-panel", role: "group", "aria-label": "East" }, this.svg);
      el("rect", { x, y: BAND - 6, width: w, height: description.rows * CELL + 12, rx: 18, class: "panel" }, this.eastPanel);
      const lines = [
        { y: BAND + 34, cls: "east-name" },
        { y: BAND + 64, cls: "east-turn" },
        { y: BAND + 100, cls: "east-line" },
        { y: BAND + 128, cls: "east-line" },
        { y: BAND + 176, cls: "east-order" },
      ];
      for (const line of lines) {
        this.eastLines.push(el("text", { x: x + w / 2, y: line.y, class: line.cls, "text-anchor": "middle" }, this.eastPanel));
      }
    }
    for (const pit of description.pits) {
      const cx = pit.column * CELL + CELL / 2;
      const cy = BAND + pit.row * CELL + CELL / 2;
      const group = el("g", { class: "pit", "data-pit": pit.index, transform: `translate(${cx} ${cy})` }, this.svg);
      if (pit.role === "kuu") {
        el("rect", { x: -38, y: -38, width: 76, height: 76, rx: 14, class: "hole" }, group);
      } else {
        el("circle", { r: 38, class: "hole" }, group);
      }
      this.seedLayers.push(el("g", { class: "seeds" }, group));
      const count = el("text", { y: 9, class: "count", "text-anchor": "middle" }, group);
      const labelY = pit.row < description.rows / 2 ? -41 : 49;
      el("text", { y: labelY, class: "label", "text-anchor": "middle" }, group).textContent =
        pit.role ? `${pit.label} ${pit.role}` : pit.label;
      group.addEventListener("click", () => this.activate(pit.index));
      group.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          this.activate(pit.index);
        }
      });
      for (const [type, on] of [
        ["mouseenter", true],
        ["focus", true],
        ["mouseleave", false],
        ["blur", false],
      ] as const) {
        group.addEventListener(type, () => {
          if (this.interaction?.legal.has(pit.index)) this.interaction.hover(on ? pit.index : null);
        });
      }
      this.pitGroups.push(group);
      this.counts.push(count);
    }
  }

  private activate(pit: number): void {
    if (this.interaction?.legal.has(pit)) this.interaction.play(pit);
  }

  /** Draws `view`; `changed` pits are marked (a preview's differences). */
  show(view: View, changed: Set<number> = new Set()): void {
    this.view = view;
    const d = this.description;
    view.pits.forEach((seeds, i) => {
      const group = this.pitGroups[i];
      const closed = view.closed[i] ?? false;
      const owner = view.owners[i] ?? Player.UNSPECIFIED;
      const info = d.pits[i];
      const isKuu = info?.role === "kuu" && view.kuuAlive[info.side === Player.SOUTH ? 0 : 1];
      group.classList.toggle("south", owner === Player.SOUTH);
      group.classList.toggle("north", owner === Player.NORTH);
      group.classList.toggle("east", owner === Player.EAST);
      group.classList.toggle("closed", closed);
      group.classList.toggle("dead-kuu", info?.role === "kuu" && !isKuu);
      group.classList.toggle("marked", view.marked === i);
      group.classList.toggle("changed", changed.has(i));
      this.counts[i].textContent = closed ? "×" : String(seeds);
      this.drawSeeds(i, closed ? 0 : seeds);
      const owned = d.kind === GameKind.BA_AWA ? `, owned by ${playerName(owner)}` : "";
      const role = closed ? ", closed" : isKuu ? ", kuu" : "";
      group.setAttribute("aria-label", `${pitName(d, i)}: ${seeds} seeds${owned}${role}`);
    });
    const side = (p: 0 | 1) => {
      const name = p === 0 ? "South" : "North";
      const parts = [`${name}${view.toMove === (p === 0 ? Player.SOUTH : Player.NORTH) ? " ▶ to move" : ""}`];
      if (view.seats === 3) {
        const out = view.out[p] ?? 0;
        if (out > 0) parts.push(`out after game ${out}`);
        else parts.push(...this.standing(view, p === 0 ? Player.SOUTH : Player.NORTH));
        return parts.join(" · ");
      }
      if (d.kind !== GameKind.BAO_LA_KETE || view.stores[p]) parts.push(`store ${view.stores[p]}`);
      if (d.kind !== GameKind.BA_AWA) parts.push(`reserve ${view.reserves[p]}`);
      return parts.join(" · ");
    };
    this.northInfo.textContent = side(1);
    this.southInfo.textContent = side(0);
    if (this.eastPanel) {
      const toMove = view.toMove === Player.EAST;
      const [first, second] = this.standing(view, Player.EAST);
      this.eastLines[0].textContent = "East";
      this.eastLines[1].textContent = toMove ? "▶ to move" : "";
      this.eastLines[2].textContent = first ?? "";
      this.eastLines[3].textContent = second ?? "";
      this.eastPanel.classList.toggle("to-move", toMove);
      this.eastPanel.classList.toggle("out", (view.out[2] ?? 0) > 0);
      this.eastPanel.setAttribute("aria-label", `East${toMove ? ", to move" : ""}: ${[first, second].filter((w) => w).join(", ")}`);
      // The turn order of the seats still in the match.
      const order = seatsInTurnOrder(3)
        .filter((p) => (view.out[seatIndex(p)] ?? 0) === 0)
        .map((p) => playerName(p)[0]);
      this.eastLines[4].textContent = `turns: ${order.join(" → ")}`;
    }
    this.handInfo.textContent = view.hand ? `in hand: ${view.hand}` : "";
    this.refreshLegal();
  }

  /** Three-player Ba-awa: a seat's store and pits, or that it is out of the match. */
  private standing(view: View, seat: Player): string[] {
    const i = seatIndex(seat);
    const out = view.out[i] ?? 0;
    if (out > 0) return ["out", `after game ${out}`];
    const pits = view.standing[i] ?? 0;
    return [`store ${view.stores[i] ?? 0}`, `${pits} ${pits === 1 ? "pit" : "pits"}`];
  }

  private drawSeeds(pit: number, seeds: number): void {
    const layer = this.seedLayers[pit];
    const shown = Math.min(seeds, 24);
    if (layer.childElementCount === shown) return;
    layer.replaceChildren();
    for (let s = 0; s < shown; s++) {
      // A sunflower spiral: evenly spread, the same for the same count.
      const r = 29 * Math.sqrt((s + 0.5) / Math.max(shown, 8));
      const a = s * 2.39996;
      el("circle", { cx: (r * Math.cos(a)).toFixed(1), cy: (r * Math.sin(a)).toFixed(1), r: 5.2, class: "seed" }, layer);
    }
  }

  /** Lets the player choose among `legal` pits, or nobody (null). */
  interact(interaction: Interaction | null): void {
    this.interaction = interaction;
    this.refreshLegal();
  }

  private refreshLegal(): void {
    this.pitGroups.forEach((group, i) => {
      const legal = this.interaction?.legal.has(i) ?? false;
      group.classList.toggle("legal", legal);
      if (legal) {
        group.setAttribute("tabindex", "0");
        group.setAttribute("role", "button");
      } else {
        group.removeAttribute("tabindex");
        group.removeAttribute("role");
      }
    });
  }

  /** Marks `pit` for a moment (a drop, a capture), by a class the style animates. */
  flash(pit: number, kind: "drop" | "lift" | "capture"): void {
    const group = this.pitGroups[pit];
    if (!group) return;
    group.classList.remove(kind);
    // Restarts the CSS animation of the class.
    void group.getBoundingClientRect();
    group.classList.add(kind);
  }

  /** Ends every flash at once (an animation is over or was skipped). */
  settle(): void {
    for (const group of this.pitGroups) group.classList.remove("drop", "lift", "capture");
  }

  current(): View | null {
    return this.view;
  }
}

/** How an animation is paced and interrupted. */
export interface Pace {
  /** Milliseconds per drop. */
  delay(): number;
  /** True once the viewer asked to skip to the end. */
  skipped(): boolean;
  /** Each event's sentence, as it happens. */
  say(text: string): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Plays `events` on `board` from `before` to `after`, drop by drop; ends on `after` exactly, whatever the events
 * showed on the way (and at once when skipped).
 */
export async function animate(
  board: Board,
  before: GameState,
  events: Event[],
  after: GameState,
  pace: Pace,
): Promise<void> {
  const d = board.description;
  const view = viewOf(d, before);
  // The seat's place in the per-seat lists (stores, reserves): South 0, North 1, East 2 (three-player Ba-awa).
  const side = seatIndex;
  const storesCaptures = d.kind !== GameKind.BAO_LA_KETE;
  const step = async (factor = 1) => {
    if (pace.skipped()) return;
    board.show(view);
    await sleep(pace.delay() * factor);
  };
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    const words = eventWords(d, event);
    if (words) pace.say(words);
    const k = event.kind;
    if (k.case === "lap") {
      const lap = k.value;
      // Captures made during this lap (Ba-awa's fours) come right after it, each naming its drop.
      const during: { after: number; pit: number; seeds: number; to: Player }[] = [];
      for (let c = e + 1; c < events.length && events[c].kind.case === "capture"; c++) {
        const capture = events[c].kind.value as { afterDrop: number; pit: number; seeds: number; beneficiary: Player };
        if (capture.afterDrop > 0 && capture.afterDrop < lap.drops.length) {
          during.push({ after: capture.afterDrop, pit: capture.pit, seeds: capture.seeds, to: capture.beneficiary });
        }
      }
      if (lap.source === LapSource.PIT) {
        view.pits[lap.origin] = Math.max(0, (view.pits[lap.origin] ?? 0) - lap.seeds);
        board.flash(lap.origin, "lift");
      } else if (lap.source === LapSource.RESERVE) {
        view.reserves[side(lap.player)] = Math.max(0, view.reserves[side(lap.player)] - lap.seeds);
      }
      view.hand = lap.seeds;
      await step();
      for (let i = 0; i < lap.drops.length; i++) {
        const pit = lap.drops[i];
        view.pits[pit] = (view.pits[pit] ?? 0) + 1;
        view.hand = Math.max(0, view.hand - 1);
        board.flash(pit, "drop");
        for (const capture of during.filter((c) => c.after === i + 1)) {
          await step();
          view.pits[capture.pit] = Math.max(0, view.pits[capture.pit] - capture.seeds);
          view.stores[side(capture.to)] += capture.seeds;
          board.flash(capture.pit, "capture");
        }
        await step();
      }
      // The captures shown during the lap are done; skip their events' board change below.
      for (let c = 0; c < during.length; c++) {
        const next = events[e + 1 + c]?.kind;
        if (next?.case === "capture") pace.say(eventWords(d, events[e + 1 + c]));
      }
      e += during.length;
    } else if (k.case === "capture") {
      view.pits[k.value.pit] = Math.max(0, view.pits[k.value.pit] - k.value.seeds);
      if (storesCaptures) view.stores[side(k.value.beneficiary)] += k.value.seeds;
      board.flash(k.value.pit, "capture");
      await step(2);
    } else if (k.case === "refill") {
      for (const pit of k.value.opened) {
        view.pits[pit] = 4;
        view.closed[pit] = false;
        board.flash(pit, "drop");
      }
      for (const pit of k.value.closed) {
        view.pits[pit] = 0;
        view.closed[pit] = true;
      }
      view.reserves[side(k.value.player)] = k.value.reserve;
      view.stores[side(k.value.player)] = 0;
      await step(3);
    } else if (k.case === "taxation" || k.case === "safari" || k.case === "kuuStop") {
      board.flash(k.value.pit, k.case === "kuuStop" ? "drop" : "lift");
      await step(3);
    } else if (k.case === "kuuDestroyed") {
      view.kuuAlive[side(k.value.owner)] = false;
      await step(2);
    } else if (k.case === "allocation") {
      view.owners = [...k.value.owners];
      if (view.seats === 3 && k.value.pitsOwned.length === 3) view.standing = [...k.value.pitsOwned];
      await step(3);
    } else if (k.case === "elimination") {
      if (view.seats === 3) view.out[seatIndex(k.value.player)] = before.gameNumber;
      await step(2);
    } else if (k.case === "markSet" || k.case === "markCleared") {
      view.marked = k.case === "markSet" && k.value.mark ? k.value.mark.pit : null;
      await step(2);
    } else if (words) {
      await step(2);
    }
  }
  board.settle();
  board.show(viewOf(d, after));
}

/** The pits whose seeds differ between two states (for a preview). */
export function differences(a: GameState, b: GameState): Set<number> {
  const changed = new Set<number>();
  a.pits.forEach((seeds, i) => {
    if (b.pits[i] !== seeds) changed.add(i);
  });
  return changed;
}
