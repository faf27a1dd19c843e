// Replay: a finished (or running) match's history, one event at a time from its first state, with the buttons or
// the keys (← →, Home, End). The last step shows how the match ended, and nobody "to move".
import { MatchStatus, Player, type GameState, type MatchEvent } from "@mancala/client";
import { viewOf } from "./board";
import { matches, rules } from "./client";
import { matchEndWords, standing } from "./results";
import { ui, type Session } from "./ui";
import { moveWords, playerName } from "./words";

export interface ReplayHooks {
  /** Animates one event from `before` to `after`. */
  showMove(before: GameState, event: MatchEvent, after: GameState, heading: string): Promise<void>;
  /** Shows the session's state as it stands (no moves: a replay plays none). */
  render(): void;
  say(text: string): void;
  /** Runs after everything shown before it (the page's one queue of animations). */
  enqueue(job: () => Promise<void>): void;
  current(): Session | null;
}

let keys: ((e: KeyboardEvent) => void) | null = null;

export async function replay(s: Session, hooks: ReplayHooks): Promise<void> {
  const history = await matches.getHistory({ matchId: s.matchId });
  const match = history.match;
  if (!match) throw new Error("the server sent no match");
  const first = (await rules.newGame({ kind: match.kind, options: match.options })).state;
  if (!first) throw new Error("the server sent no first state");
  const states: GameState[] = [first, ...history.events.map((e) => e.state ?? first)];
  const last = history.events.length;
  const finished = match.status === MatchStatus.FINISHED && match.result;
  let at = 0;
  const show = () => {
    s.state = states[at];
    s.legal = [];
    s.finished = at === last && !!finished;
    hooks.render();
    if (s.finished) s.board.show(viewOf(s.description, s.state, true));
    ui.step.textContent = `step ${at} of ${last}`;
    ui.first.disabled = ui.back.disabled = at === 0;
    ui.forward.disabled = ui.last.disabled = at === last;
    ui.end.hidden = !s.finished;
    if (s.finished && match.result) {
      s.placing = [...match.result.placing];
      const score = standing(s);
      ui.endText.textContent = `${matchEndWords(match.result, s.state)}${score ? ` ${score}` : ""}`;
      ui.rematch.hidden = true;
      ui.endReplay.hidden = true;
    }
  };
  const go = (to: number) => {
    if (hooks.current() !== s) return;
    at = Math.max(0, Math.min(last, to));
    show();
  };
  const forward = () => {
    if (at >= last || hooks.current() !== s) return;
    const event = history.events[at];
    const before = states[at];
    at += 1;
    ui.forward.disabled = true;
    const to = at;
    hooks.enqueue(async () => {
      const heading =
        event.action.case === "move"
          ? `${playerName(event.player)} plays ${moveWords(s.description, event.action.value)}.`
          : event.player !== Player.UNSPECIFIED
            ? `${playerName(event.player)}: ${event.action.case ?? "event"}.`
            : "";
      await hooks.showMove(before, event, states[to], heading);
      if (at === to) show();
    });
  };
  ui.first.onclick = () => go(0);
  ui.back.onclick = () => go(at - 1);
  ui.last.onclick = () => go(last);
  ui.forward.onclick = forward;
  if (keys) document.removeEventListener("keydown", keys);
  keys = (e: KeyboardEvent) => {
    if (hooks.current() !== s || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    const act = { ArrowRight: forward, ArrowLeft: () => go(at - 1), Home: () => go(0), End: () => go(last) }[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };
  document.addEventListener("keydown", keys);
  show();
  hooks.say(`${last} events. Step with ← and →, Home and End.`);
}
