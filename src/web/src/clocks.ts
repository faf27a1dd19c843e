// The clocks of a timed match, shown as the server gives them (`Clocks`): each seat's time left, the running seat's
// counting down smoothly from the moment it was heard (against this page's own clock, so the two machines' clocks
// need not agree), red under ten seconds. The server keeps the time: the page only shows it.
import { Player, type Clocks, type TimeControl } from "@mancala/client";
import { ui, type ClockReading, type Session } from "./ui";
import { playerName, seatIndex, seatsInTurnOrder } from "./words";

const LOW_MS = 10_000;

export function readClocks(
  clocks: Clocks | undefined,
  control: TimeControl | undefined,
  correspondence = false,
): ClockReading | null {
  if (!clocks) return null;
  const running = clocks.flagAtMs > 0n ? clocks.running : Player.UNSPECIFIED;
  return {
    remaining: clocks.remainingMs.map(Number),
    running,
    heardAt: performance.now(),
    flagIn: running === Player.UNSPECIFIED ? 0 : Math.max(0, Number(clocks.flagAtMs - clocks.asOfMs)),
    started: clocks.started,
    correspondence: control ? control.control.case === "correspondence" : correspondence,
  };
}

/** A seat's time left now. */
export function timeLeft(reading: ClockReading, seat: Player, now = performance.now()): number {
  const remaining = reading.remaining[seatIndex(seat)] ?? 0;
  if (reading.running !== seat) return remaining;
  return Math.max(0, Math.min(remaining, reading.flagIn - (now - reading.heardAt)));
}

/** 4:05, 0:09.3 under ten seconds, 2 d 3 h for correspondence. */
export function clockWords(ms: number, correspondence = false): string {
  if (correspondence && ms >= 3_600_000) {
    const hours = Math.floor(ms / 3_600_000);
    return hours >= 24 ? `${Math.floor(hours / 24)} d ${hours % 24} h` : `${hours} h ${Math.floor((ms / 60_000) % 60)} min`;
  }
  const minutes = Math.floor(ms / 60_000);
  const seconds = (ms % 60_000) / 1000;
  if (ms < LOW_MS) return `${minutes}:0${seconds.toFixed(1)}`;
  const whole = Math.floor(seconds);
  return `${minutes}:${whole < 10 ? "0" : ""}${whole}`;
}

let ticking = 0;
let shown: Session | null = null;

/** Shows (or hides) the session's clocks, and keeps the running one counting while it runs. */
export function showClocks(s: Session | null): void {
  shown = s;
  const reading = s?.clocks;
  ui.clocks.hidden = !reading;
  if (!s || !reading) {
    stop();
    return;
  }
  const seats = seatsInTurnOrder(s.board.seats);
  if (ui.clocks.childElementCount !== seats.length) {
    ui.clocks.replaceChildren(
      ...seats.map((seat) => {
        const chip = document.createElement("div");
        chip.className = "clock";
        chip.dataset.seat = playerName(seat).toLowerCase();
        chip.setAttribute("role", "timer");
        return chip;
      }),
    );
  }
  draw();
  if (reading.running !== Player.UNSPECIFIED && !ticking) ticking = window.setInterval(draw, 100);
  if (reading.running === Player.UNSPECIFIED) stop();
}

function stop(): void {
  if (ticking) window.clearInterval(ticking);
  ticking = 0;
}

function draw(): void {
  const s = shown;
  const reading = s?.clocks;
  if (!s || !reading) return stop();
  const now = performance.now();
  for (const chip of Array.from(ui.clocks.children) as HTMLElement[]) {
    const seat = chip.dataset.seat === "north" ? Player.NORTH : chip.dataset.seat === "east" ? Player.EAST : Player.SOUTH;
    const left = timeLeft(reading, seat, now);
    const you = s.seats.has(seat) && s.seats.size === 1 ? " (you)" : "";
    const words = clockWords(left, reading.correspondence);
    const text = `${playerName(seat)}${you} ${words}`;
    if (chip.textContent !== text) chip.textContent = text;
    chip.classList.toggle("running", reading.running === seat);
    chip.classList.toggle("low", left < LOW_MS && !reading.correspondence);
    chip.classList.toggle("flagged", left === 0);
    chip.setAttribute("aria-label", `${playerName(seat)}${you}: ${words} left${reading.running === seat ? ", running" : ""}`);
  }
  if (reading.running === Player.UNSPECIFIED) stop();
}
