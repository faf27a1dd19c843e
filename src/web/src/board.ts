// The board as SVG, drawn from DescribeGame (rows, columns, labels, roles) and a state: a wooden board with each
// game's own layout (Bao la Kete's four rows, Bosh's closed holes, Ba-awa's owned pits), seeds drawn as seeds, and a
// layer above the pits where seeds travel during an animation (animate.ts). Turned half a turn when the player on
// this screen sits North, so that his row is always the one nearest to him.
import { GameKind, Player, type GameState } from "@mancala/client";
import type { DescribeGameResponse } from "@mancala/client";
import { pitName, playerName, seatIndex, seatsInTurnOrder } from "./words";

const SVG = "http://www.w3.org/2000/svg";
/** A pit's cell: wide enough for a 44 px touch target on a 360 px phone (Bao la Kete's eight columns). */
const CELL = 100;
/** A row: the hole and its label (28 units: at least 12 px on a 360 px phone). */
const ROW = 124;
const BAND = 46;
/** Three-player Ba-awa: the width of East's panel, right of the board (East's pits are at its east end). */
const PANEL = 190;
const HOLE = 37;

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
  /** The seat sowing right now (an animation): shown as "sowing" rather than "to move". */
  sowing: Player;
  /** 2, or 3 for three-player Ba-awa. */
  seats: number;
  /** Three-player Ba-awa: each seat's pits (owned in this game; won, once it is over). */
  standing: number[];
  /** Three-player Ba-awa: the game at whose end each seat was eliminated (0: still in). */
  out: number[];
  /** The match is over: nobody is to move. */
  over: boolean;
}

export function viewOf(description: DescribeGameResponse, state: GameState, over = false): View {
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
    toMove: over ? Player.UNSPECIFIED : state.toMove,
    sowing: Player.UNSPECIFIED,
    seats,
    standing: three ? perSeat(state.matchScore) : [],
    out: variant.case === "baAwa" && three ? perSeat(variant.value.eliminatedInGame) : [],
    over,
  };
}

export function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
  parent?: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

/** Seeds drawn as seeds: small ellipses turned this way and that, in a sunflower spiral (the same for a count). */
export function drawSeeds(layer: SVGGElement, seeds: number, radius = 27, max = 24): void {
  const shown = Math.min(seeds, max);
  if (layer.childElementCount === shown) return;
  layer.replaceChildren();
  for (let s = 0; s < shown; s++) {
    const r = radius * Math.sqrt((s + 0.5) / Math.max(shown, 8));
    const a = s * 2.39996;
    const x = (r * Math.cos(a)).toFixed(1);
    const y = (r * Math.sin(a)).toFixed(1);
    el("ellipse", { cx: x, cy: y, rx: 7.6, ry: 5.4, transform: `rotate(${(s * 67) % 180} ${x} ${y})`, class: "seed" }, layer);
  }
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
  /** Where seeds travel during an animation, above the pits. */
  readonly flying: SVGGElement;
  private readonly pitGroups: SVGGElement[] = [];
  private readonly counts: SVGTextElement[] = [];
  private readonly seedLayers: SVGGElement[] = [];
  private readonly centres: { x: number; y: number }[] = [];
  private readonly northInfo: SVGTextElement;
  private readonly southInfo: SVGTextElement;
  private readonly width: number;
  private readonly height: number;
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
    /** The player on this screen sits North: North's rows are drawn nearest (at the bottom). */
    readonly turned = false,
  ) {
    container.replaceChildren();
    const width = description.pitsPerRow * CELL;
    const height = description.rows * ROW + 2 * BAND;
    this.width = width;
    this.height = height;
    const panel = seats === 3 ? PANEL : 0;
    this.svg = el("svg", {
      viewBox: `0 0 ${width + panel} ${height}`,
      class: `board game-${GameKind[description.kind].toLowerCase()}${seats === 3 ? " three-players" : ""}`,
      role: "group",
      "aria-label": `${description.name} board${turned ? ", North nearest" : ""}`,
    });
    // Narrow boards (Bosh) are not blown up to the page's width: the same pit size for every game.
    this.svg.style.maxWidth = `${Math.round((width + panel) * 1.1)}px`;
    container.appendChild(this.svg);
    const defs = el("defs", {}, this.svg);
    const grain = el("linearGradient", { id: "grain", x1: 0, y1: 0, x2: 1, y2: 0.3 }, defs);
    for (const [offset, color] of [
      [0, "#9c6530"],
      [0.35, "#b57a3c"],
      [0.6, "#8f5a29"],
      [1, "#a86f36"],
    ] as const) {
      el("stop", { offset, "stop-color": color }, grain);
    }
    const hollow = el("radialGradient", { id: "hollow", cx: 0.5, cy: 0.42, r: 0.6 }, defs);
    el("stop", { offset: 0, "stop-color": "#4a2a10" }, hollow);
    el("stop", { offset: 1, "stop-color": "#6f4320" }, hollow);
    el("rect", { x: 2, y: BAND - 8, width: width - 4, height: description.rows * ROW + 16, rx: 30, class: "wood" }, this.svg);
    if (description.rows === 4) {
      // Bao la Kete: each player's two rows; the line between the front rows.
      el("line", { x1: 14, x2: width - 14, y1: BAND + 2 * ROW, y2: BAND + 2 * ROW, class: "divider" }, this.svg);
    }
    this.northInfo = el("text", { x: width / 2, y: BAND - 14, class: "side-info", "text-anchor": "middle" }, this.svg);
    this.southInfo = el("text", { x: width / 2, y: height - 10, class: "side-info", "text-anchor": "middle" }, this.svg);
    if (turned) [this.northInfo, this.southInfo] = [this.southInfo, this.northInfo];
    if (seats === 3) {
      // East's seat: a panel beside the east end of the board, where East's pits of game 1 are (S5, S6, N1, N2).
      const x = width + 14;
      const w = panel - 18;
      this.eastPanel = el("g", { class: "east-panel", role: "group", "aria-label": "East" }, this.svg);
      el("rect", { x, y: BAND - 8, width: w, height: description.rows * ROW + 16, rx: 18, class: "panel" }, this.eastPanel);
      for (const [dy, cls] of [
        [34, "east-name"],
        [70, "east-turn"],
        [112, "east-line"],
        [146, "east-line"],
        [200, "east-order"],
      ] as const) {
        this.eastLines.push(el("text", { x: x + w / 2, y: BAND + dy, class: cls, "text-anchor": "middle" }, this.eastPanel));
      }
    }
    for (const pit of description.pits) {
      const row = turned ? description.rows - 1 - pit.row : pit.row;
      const column = turned ? description.pitsPerRow - 1 - pit.column : pit.column;
      const cx = column * CELL + CELL / 2;
      const cy = BAND + row * ROW + ROW / 2;
      this.centres.push({ x: cx, y: cy });
      const group = el("g", { class: "pit", "data-pit": pit.index, transform: `translate(${cx} ${cy})` }, this.svg);
      // The whole cell takes a tap: the touch target is the cell, not only the hole.
      el("rect", { x: -CELL / 2, y: -ROW / 2, width: CELL, height: ROW, class: "hit" }, group);
      if (pit.role === "kuu") {
        el("rect", { x: -HOLE, y: -HOLE, width: 2 * HOLE, height: 2 * HOLE, rx: 14, class: "hole" }, group);
      } else {
        el("circle", { r: HOLE, class: "hole" }, group);
      }
      this.seedLayers.push(el("g", { class: "seeds" }, group));
      // The count on a badge at the hole's rim, so that the seeds stay in view.
      el("circle", { cx: 29, cy: 27, r: 19, class: "badge" }, group);
      const count = el("text", { x: 29, y: 37, class: "count", "text-anchor": "middle" }, group);
      const labelY = row < description.rows / 2 ? -HOLE - 8 : HOLE + 30;
      // The label alone (a cell has no room for "kichwa" at a readable size): the kuu is the square hole, and the
      // roles are read out in the pit's name.
      el("text", { y: labelY, class: "label", "text-anchor": "middle", "aria-hidden": "true" }, group).textContent = pit.label;
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
    this.flying = el("g", { class: "flying", "aria-hidden": "true" }, this.svg);
  }

  /** The centre of a pit, in the board's units. */
  centre(pit: number): { x: number; y: number } {
    return this.centres[pit] ?? { x: this.width / 2, y: this.height / 2 };
  }

  /** Where a seat's store (captured seeds) and reserve are shown: its side's line, or East's panel. */
  storeOf(seat: Player): { x: number; y: number } {
    if (seat === Player.EAST) return { x: this.width + PANEL / 2, y: BAND + 130 };
    const nearest = (seat === Player.SOUTH) !== this.turned;
    return { x: this.width / 2, y: nearest ? this.height - 22 : 22 };
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
      drawSeeds(this.seedLayers[i], closed ? 0 : seeds);
      const owned = d.kind === GameKind.BA_AWA ? `, owned by ${playerName(owner)}` : "";
      const role = closed ? ", closed" : isKuu ? ", kuu" : info?.role === "kichwa" ? ", kichwa" : "";
      group.setAttribute("aria-label", `${pitName(d, i)}: ${seeds} seeds${owned}${role}`);
    });
    const turn = (p: Player) => (view.sowing === p ? " ▶ sowing" : view.sowing === Player.UNSPECIFIED && view.toMove === p ? " ▶ to move" : "");
    const side = (p: 0 | 1) => {
      const seat = p === 0 ? Player.SOUTH : Player.NORTH;
      const parts = [`${playerName(seat)}${turn(seat)}`];
      if (view.seats === 3) {
        const out = view.out[p] ?? 0;
        if (out > 0) parts.push(`out after game ${out}`);
        else parts.push(...this.standing(view, seat));
        return parts.join(" · ");
      }
      if (d.kind !== GameKind.BAO_LA_KETE || view.stores[p]) parts.push(`store ${view.stores[p]}`);
      if (d.kind !== GameKind.BA_AWA) parts.push(`reserve ${view.reserves[p]}`);
      return parts.join(" · ");
    };
    this.fit(this.northInfo, side(1));
    this.fit(this.southInfo, side(0));
    if (this.eastPanel) {
      const toMove = turn(Player.EAST) !== "";
      const [first, second] = this.standing(view, Player.EAST);
      this.eastLines[0].textContent = "East";
      this.eastLines[1].textContent = turn(Player.EAST).replace(" ▶ ", "▶ ");
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
    this.refreshLegal();
  }

  /** Sets a line beside the board, squeezed to the board's width when it is longer (a narrow board, Bosh). */
  private fit(line: SVGTextElement, text: string): void {
    if (line.textContent === text) return;
    line.textContent = text;
    line.removeAttribute("textLength");
    line.removeAttribute("lengthAdjust");
    const room = this.width - 16;
    if (line.getComputedTextLength() > room) {
      line.setAttribute("textLength", String(room));
      line.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }

  /** Three-player Ba-awa: a seat's store and pits, or that it is out of the match. */
  private standing(view: View, seat: Player): string[] {
    const i = seatIndex(seat);
    const out = view.out[i] ?? 0;
    if (out > 0) return ["out", `after game ${out}`];
    const pits = view.standing[i] ?? 0;
    return [`store ${view.stores[i] ?? 0}`, `${pits} ${pits === 1 ? "pit" : "pits"}`];
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

  /** Ends every flash and every travelling seed at once (an animation is over or was skipped). */
  settle(): void {
    for (const group of this.pitGroups) group.classList.remove("drop", "lift", "capture");
    this.flying.replaceChildren();
  }

  current(): View | null {
    return this.view;
  }
}

/** The pits whose seeds differ between two states (for a preview). */
export function differences(a: GameState, b: GameState): Set<number> {
  const changed = new Set<number>();
  a.pits.forEach((seeds, i) => {
    if (b.pits[i] !== seeds) changed.add(i);
  });
  return changed;
}
