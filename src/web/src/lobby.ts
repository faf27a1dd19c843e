// The lobby, where the page runs with a player token (`#lobby&token=…`): the player's pending challenges (to him:
// accept or decline; his own: cancel) and open seeks, live from his event stream (`WatchPlayerEvents`, which
// restates what stands on every connect); the tenant's open challenges and other players' seeks, which anyone may
// take (`ListChallenges` with `open`, asked again on each of his events and every few seconds: nobody's stream
// carries other players' seeks to him); a seek with a time control, or a challenge to a player; a match that starts
// for him opens on the board.
import {
  DeclineReason,
  GameKind,
  SeekStatus,
  watchPlayerEvents,
  type Challenge,
  type Player,
  type Seek,
} from "@mancala/client";
import { lobby } from "./client";
import { timeControlOf } from "./time";
import { ui } from "./ui";
import { gameName } from "./words";

let stop: AbortController | null = null;

/** How often the tenant's open challenges and seeks are asked for again while the lobby shows. */
const OPEN_EVERY_MS = 3000;

function button(text: string, act: () => Promise<unknown>, fail: (e: unknown) => void): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", () => {
    b.disabled = true;
    act()
      .catch(fail)
      .finally(() => (b.disabled = false));
  });
  return b;
}

function challengeWords(c: Challenge, me: "to" | "from" | "open"): string {
  const who =
    me === "to"
      ? `${c.fromPlayerId} challenges you`
      : me === "open"
        ? `${c.fromPlayerId} challenges anyone`
        : `You challenge ${c.toPlayerId || "anyone with the id"}`;
  const timed = c.timeControl?.control.case ? "timed" : "untimed";
  return `${who}: ${gameName(c.kind)}, ${c.rated ? "rated" : "casual"}, ${timed} (id ${c.challengeId}).`;
}

/** Opens the lobby for the player whose token the page holds; `open` goes to a match that starts for him. */
export async function showLobby(open: (matchId: string, seat: Player) => void): Promise<void> {
  stop?.abort();
  stop = new AbortController();
  const signal = stop.signal;
  ui.lobby.hidden = false;
  const fail = (error: unknown) => {
    ui.error.textContent = error instanceof Error ? error.message : String(error);
    ui.error.hidden = false;
  };
  const challenges = new Map<string, { c: Challenge; mine: "to" | "from" | "open" }>();
  const seeks = new Map<string, Seek>();
  let openSeeks: Seek[] = [];
  const list = document.createElement("ul");
  list.className = "lobby-list";
  const form = document.createElement("form");
  form.className = "lobby-form";
  form.innerHTML = `
    <label>Challenge player id <input name="to" autocomplete="off" placeholder="empty: a seek"></label>
    <label class="inline"><input type="checkbox" name="fallback"> play the computer if nobody comes in 30 s</label>
    <button type="submit">Seek or challenge</button>`;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const kind = Number(ui.game.value) as GameKind;
    const timeControl = timeControlOf(ui.time.value);
    const to = String(data.get("to") ?? "").trim();
    const act = to
      ? lobby.createChallenge({ toPlayerId: to, kind, timeControl })
      : data.get("fallback")
        ? lobby.seek({ kind, timeControl, fallbackBotLevel: 3, fallbackAfterMs: 30_000 })
        : lobby.seek({ kind, timeControl });
    act.catch(fail);
  });
  ui.lobbyBody.replaceChildren(form, list);
  const draw = () => {
    const items: HTMLLIElement[] = [];
    for (const { c, mine } of challenges.values()) {
      const item = document.createElement("li");
      item.append(challengeWords(c, mine), " ");
      if (mine === "from") item.append(button("Cancel", () => lobby.cancelChallenge({ challengeId: c.challengeId }), fail));
      else if (mine === "open") item.append(button("Accept", () => lobby.acceptChallenge({ challengeId: c.challengeId }), fail));
      else
        item.append(
          button("Accept", () => lobby.acceptChallenge({ challengeId: c.challengeId }), fail),
          " ",
          button("Decline", () => lobby.declineChallenge({ challengeId: c.challengeId, reason: DeclineReason.LATER }), fail),
        );
      items.push(item);
    }
    for (const seek of seeks.values()) {
      const item = document.createElement("li");
      item.append(`Your seek: ${gameName(seek.kind)}, ${seek.timeControl?.control.case ? "timed" : "untimed"}, waiting for an opponent. `);
      item.append(button("Cancel", () => lobby.cancelSeek({ seekId: seek.seekId }), fail));
      items.push(item);
    }
    for (const seek of openSeeks) {
      // Another's seek is taken by seeking the same: the server pairs the two.
      const item = document.createElement("li");
      item.append(`${seek.playerId} seeks: ${gameName(seek.kind)}, ${seek.rated ? "rated" : "casual"}, ${seek.timeControl?.control.case ? "timed" : "untimed"}. `);
      const { kind, options, rated, timeControl } = seek;
      item.append(button("Accept", () => lobby.seek({ kind, options, rated, timeControl }), fail));
      items.push(item);
    }
    if (!items.length) {
      const item = document.createElement("li");
      item.textContent = "No challenge or seek is pending: seek an opponent (the game and time of the form above), or challenge a player.";
      items.push(item);
    }
    list.replaceChildren(...items);
  };
  // Which challenges are to the player, which his own and which anyone's, and the others' seeks: the server's lists.
  const refresh = async () => {
    const lists = await lobby.listChallenges({ open: true }, { signal });
    challenges.clear();
    for (const c of lists.incoming) challenges.set(c.challengeId, { c, mine: "to" });
    for (const c of lists.outgoing) challenges.set(c.challengeId, { c, mine: "from" });
    for (const c of lists.openChallenges) challenges.set(c.challengeId, { c, mine: "open" });
    openSeeks = lists.openSeeks;
  };
  draw();
  const poll = setInterval(() => {
    refresh()
      .then(draw)
      .catch((error) => signal.aborted || fail(error));
  }, OPEN_EVERY_MS);
  signal.addEventListener("abort", () => clearInterval(poll));
  try {
    await refresh();
    draw();
    for await (const event of watchPlayerEvents(lobby, { signal })) {
      const e = event.event;
      if (e.case === "challenge") {
        await refresh();
      } else if (e.case === "seek") {
        if (e.value.status === SeekStatus.OPEN) seeks.set(e.value.seekId, e.value);
        else seeks.delete(e.value.seekId);
        await refresh();
      } else if (e.case === "matchStarted") {
        challenges.delete(e.value.challengeId);
        seeks.delete(e.value.seekId);
        if (!event.restated) {
          draw();
          ui.lobby.hidden = true;
          stop?.abort();
          open(e.value.matchId, e.value.seat);
          return;
        }
      }
      draw();
    }
  } catch (error) {
    if (!signal.aborted) fail(error);
  }
}
