// A move's animation from its events: the sower's hand (the seeds lifted) travels from pit to pit and leaves one
// seed in each; captured seeds travel into the store (Bao la Kete: to the hole where they are sown again). The pace
// is the viewer's; skipped, or with reduced motion preferred, the board jumps to the end. Whatever the events showed
// on the way, the board ends on the state after the move exactly.
import { GameKind, LapSource, Player, type Event, type GameState } from "@mancala/client";
import { Board, drawSeeds, el, viewOf, type View } from "./board";
import { eventWords, seatIndex } from "./words";

/** How an animation is paced and interrupted. */
export interface Pace {
  /** Milliseconds per drop. */
  delay(): number;
  /** True once the viewer asked to skip to the end (or prefers reduced motion, or the board must catch up). */
  skipped(): boolean;
  /** Each event's sentence, as it happens. */
  say(text: string): void;
  /** A seed lands (a sound, when the viewer wants one). */
  drop(): void;
}

type Point = { x: number; y: number };

/** Seeds in flight: a small heap with its count, moved by the Web Animations API. */
class Hand {
  readonly group: SVGGElement;
  private readonly seeds: SVGGElement;
  private readonly count: SVGTextElement;
  at: Point;

  constructor(board: Board, at: Point, seeds: number) {
    this.at = at;
    this.group = el("g", { class: "hand", transform: `translate(${at.x} ${at.y})` }, board.flying);
    el("circle", { r: 22, class: "palm" }, this.group);
    this.seeds = el("g", {}, this.group);
    this.count = el("text", { x: 24, y: -18, class: "hand-count", "text-anchor": "start" }, this.group);
    this.set(seeds);
  }

  set(seeds: number): void {
    drawSeeds(this.seeds, seeds, 16, 12);
    this.count.textContent = seeds > 1 ? String(seeds) : "";
  }

  /** Travels to `to` in `ms` (resolves early, and the hand lands, if the animation is cancelled). */
  async move(to: Point, ms: number): Promise<void> {
    const from = this.at;
    this.at = to;
    this.group.setAttribute("transform", `translate(${to.x} ${to.y})`);
    if (ms <= 0) return;
    const lift = Math.min(40, Math.hypot(to.x - from.x, to.y - from.y) / 3);
    const animation = this.group.animate(
      [
        { transform: `translate(${from.x}px, ${from.y}px)` },
        { transform: `translate(${(from.x + to.x) / 2}px, ${(from.y + to.y) / 2 - lift}px)`, offset: 0.5 },
        { transform: `translate(${to.x}px, ${to.y}px)` },
      ],
      { duration: ms, easing: "ease-in-out" },
    );
    try {
      await animation.finished;
    } catch {
      // Cancelled: the board is being settled.
    }
  }

  remove(): void {
    this.group.remove();
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Plays `events` on `board` from `before` to `after`; ends on `after` exactly (at once when skipped). `mover` is
 * shown as sowing meanwhile.
 */
export async function animate(
  board: Board,
  before: GameState,
  events: Event[],
  after: GameState,
  pace: Pace,
  over = false,
): Promise<void> {
  const d = board.description;
  const view: View = viewOf(d, before);
  const side = seatIndex;
  const storesCaptures = d.kind !== GameKind.BAO_LA_KETE;
  const travel = () => (pace.skipped() ? 0 : Math.round(pace.delay() * 0.8));
  const step = async (factor = 1) => {
    if (pace.skipped()) return;
    board.show(view);
    await sleep(pace.delay() * factor);
  };
  /** Seeds travelling from `from` to `to`; the board changes when they land. */
  const fly = async (from: Point, to: Point, seeds: number, factor = 2) => {
    if (pace.skipped()) return;
    const hand = new Hand(board, from, seeds);
    await hand.move(to, travel() * factor);
    hand.remove();
  };
  for (let e = 0; e < events.length; e++) {
    const event = events[e];
    const words = eventWords(d, event);
    if (words) pace.say(words);
    const k = event.kind;
    if (k.case === "lap") {
      const lap = k.value;
      view.sowing = lap.player;
      // Captures made during this lap (Ba-awa's fours) come right after it, each naming its drop.
      const during: { after: number; pit: number; seeds: number; to: Player }[] = [];
      for (let c = e + 1; c < events.length && events[c].kind.case === "capture"; c++) {
        const capture = events[c].kind.value as { afterDrop: number; pit: number; seeds: number; beneficiary: Player };
        if (capture.afterDrop > 0 && capture.afterDrop < lap.drops.length) {
          during.push({ after: capture.afterDrop, pit: capture.pit, seeds: capture.seeds, to: capture.beneficiary });
        }
      }
      let start: Point;
      if (lap.source === LapSource.RESERVE) {
        view.reserves[side(lap.player)] = Math.max(0, view.reserves[side(lap.player)] - lap.seeds);
        start = board.storeOf(lap.player);
      } else {
        if (lap.source === LapSource.PIT) {
          view.pits[lap.origin] = Math.max(0, (view.pits[lap.origin] ?? 0) - lap.seeds);
          board.flash(lap.origin, "lift");
        }
        start = board.centre(lap.source === LapSource.CAPTURE ? (lap.drops[0] ?? lap.origin) : lap.origin);
      }
      const hand = pace.skipped() ? null : new Hand(board, start, lap.seeds);
      await step(0.6);
      let left = lap.seeds;
      for (let i = 0; i < lap.drops.length; i++) {
        const pit = lap.drops[i];
        await hand?.move(board.centre(pit), travel());
        view.pits[pit] = (view.pits[pit] ?? 0) + 1;
        left = Math.max(0, left - 1);
        hand?.set(left);
        board.flash(pit, "drop");
        if (!pace.skipped()) pace.drop();
        board.show(view);
        for (const capture of during.filter((c) => c.after === i + 1)) {
          await step(0.5);
          view.pits[capture.pit] = Math.max(0, view.pits[capture.pit] - capture.seeds);
          board.flash(capture.pit, "capture");
          board.show(view);
          await fly(board.centre(capture.pit), board.storeOf(capture.to), capture.seeds);
          view.stores[side(capture.to)] += capture.seeds;
        }
        await step(0.25);
      }
      hand?.remove();
      // The captures shown during the lap are done; skip their events' board change below.
      for (let c = 0; c < during.length; c++) {
        const next = events[e + 1 + c]?.kind;
        if (next?.case === "capture") pace.say(eventWords(d, events[e + 1 + c]));
      }
      e += during.length;
    } else if (k.case === "capture") {
      const from = board.centre(k.value.pit);
      view.pits[k.value.pit] = Math.max(0, view.pits[k.value.pit] - k.value.seeds);
      board.flash(k.value.pit, "capture");
      if (!pace.skipped()) board.show(view);
      // Into the beneficiary's store; Bao la Kete: to where the captured seeds are sown again.
      const nextKind = events.slice(e + 1).find((n) => n.kind.case === "lap")?.kind;
      const next = nextKind?.case === "lap" ? nextKind.value : undefined;
      const to = storesCaptures
        ? board.storeOf(k.value.beneficiary)
        : board.centre(next && next.source === LapSource.CAPTURE ? (next.drops[0] ?? next.origin) : k.value.pit);
      await fly(from, to, k.value.seeds);
      if (storesCaptures) view.stores[side(k.value.beneficiary)] += k.value.seeds;
      await step(0.5);
    } else if (k.case === "gameEnd" || k.case === "roundEnd") {
      // The seeds left go to whoever collects them.
      if (k.value.collected > 0 && !pace.skipped()) {
        const pits = view.pits.flatMap((seeds, pit) => (seeds > 0 && !view.closed[pit] ? [pit] : []));
        for (const pit of pits) view.pits[pit] = 0;
        board.show(view);
        await Promise.all(pits.map((pit) => fly(board.centre(pit), board.storeOf(k.value.collector), 3, 3)));
      }
      view.sowing = Player.UNSPECIFIED;
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
  board.show(viewOf(d, after, over));
}
