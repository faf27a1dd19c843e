// The page: gets a player token from the app's backend (renewed before it expires), creates a Ba-awa match
// against the server's bot, follows it with the resumable watchMatch and plays with submitMove.
import {
  createClient,
  createWebTransport,
  GameKind,
  MancalaError,
  Matches,
  Player,
  playerToken,
  submitMove,
  watchMatch,
  type Credential,
  type GameState,
  type Move,
} from "@mancala/client";

const $ = (id: string) => document.getElementById(id) as HTMLElement;

interface Issued {
  credential: Credential;
  expiresAtMs: number;
  /** The mancala server's URL, as the backend knows it. */
  server: string;
}

/** A player token for `player` from the app's backend (which holds the API key). */
async function issue(player: string): Promise<Issued> {
  const answer = await fetch(`/api/token?player=${encodeURIComponent(player)}`, { method: "POST" });
  if (!answer.ok) throw new Error(await answer.text());
  const body = (await answer.json()) as { token: string; expiresAtMs: string; server: string };
  return { credential: playerToken(body.token), expiresAtMs: Number(body.expiresAtMs), server: body.server };
}

async function play(player: string): Promise<void> {
  let issued = await issue(player);
  // Asked before every call and reconnect: a new token a minute before this one expires.
  const credential = async () => {
    if (issued.expiresAtMs - Date.now() < 60_000) issued = await issue(player);
    return issued.credential;
  };
  const matches = createClient(Matches, createWebTransport({ baseUrl: issued.server, credential }));
  const created = await matches.createMatch({
    kind: GameKind.BA_AWA,
    players: [{ player: Player.SOUTH, playerId: player }],
    bots: [{ player: Player.NORTH, level: 2 }],
  });
  const matchId = created.match!.matchId;
  for await (const message of watchMatch(matches, matchId)) {
    const k = message.kind;
    if (k.case === "snapshot") draw(k.value.match!.state!, k.value.match!.legalMoves, k.value.match!.version);
    if (k.case === "event") draw(k.value.state!, k.value.legalMoves, k.value.seq);
    if (k.case === "finished") $("status").textContent = `Over: ${Player[k.value.result?.winner ?? 0]} wins.`;
  }

  function draw(state: GameState, legal: Move[], version: bigint): void {
    const mine = state.toMove === Player.SOUTH;
    $("status").textContent = mine ? "Your move." : "The computer thinks…";
    const row = (from: number, reversed: boolean) => {
      const pits = state.pits.slice(from, from + 6).map((seeds, i) => ({ seeds, pit: from + i }));
      return (reversed ? pits.reverse() : pits).map(({ seeds, pit }) => {
        const button = document.createElement("button");
        button.textContent = String(seeds);
        const move = legal.find((m) => m.action.case === "sow" && m.action.value.pit === pit);
        button.disabled = !mine || !move;
        button.onclick = () =>
          submitMove(matches, { matchId, move: move!, expectedVersion: version }).catch(
            (e: MancalaError) => ($("status").textContent = `${e.reason || e.code}: ${e.rawMessage}`),
          );
        return button;
      });
    };
    $("north").replaceChildren(...row(6, true));
    $("south").replaceChildren(...row(0, false));
    // Between games the next game is the only legal move.
    const next = legal.find((m) => m.action.case === "nextGame");
    if (next) {
      const button = document.createElement("button");
      button.textContent = "Next game";
      button.onclick = () => void submitMove(matches, { matchId, move: next, expectedVersion: version });
      $("south").append(button);
    }
  }
}

$("start").addEventListener("submit", (event) => {
  event.preventDefault();
  play(($("player") as HTMLInputElement).value).catch((e) => ($("status").textContent = String(e)));
});
