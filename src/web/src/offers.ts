// What a seat may do besides sowing, as the server offers it: abort before each seat has sown, claim the win when
// the seat to move has left, and offer, accept, decline or withdraw an end of the game by agreement (the rules'
// §1 "Endless play across turns"). The server decides; a refusal comes back as a sentence.
import { AgreementAction, MancalaError, Status } from "@mancala/client";
import { matches } from "./client";
import { ui, type Session } from "./ui";
import { playerName } from "./words";

/** Shows the buttons and the offer line that fit the session now. */
export function showOffers(s: Session | null): void {
  const buttons = [ui.abort, ui.claim, ui.offerEnd, ui.acceptEnd, ui.declineEnd, ui.withdrawEnd];
  const seated = s && (s.mode === "computer" || s.mode === "friend" || s.mode === "seat") && s.seats.size === 1 && !s.finished;
  if (!s || !seated) {
    for (const b of buttons) b.hidden = true;
    ui.offer.hidden = !(s && s.agreeing.length && !s.finished);
    if (s) ui.offer.textContent = offerWords(s);
    return;
  }
  const me = [...s.seats][0];
  const inGame = s.state.status === Status.IN_PROGRESS;
  // Before the clocks start (timed), or until each seat has sown (untimed, as far as this page saw).
  const seatsInMatch = s.board.seats;
  ui.abort.hidden = s.clocks ? s.clocks.started : s.sown.size >= seatsInMatch || (s.version > 0n && s.sown.size === 0);
  const toMove = s.state.toMove;
  ui.claim.hidden = !(
    inGame &&
    toMove !== me &&
    !s.bots.has(toMove) &&
    !s.connected.has(toMove) &&
    (s.clocks ? s.clocks.started : true)
  );
  const mine = s.agreeing.includes(me);
  const others = s.agreeing.filter((p) => p !== me);
  ui.offerEnd.hidden = !inGame || s.agreeing.length > 0;
  ui.acceptEnd.hidden = !inGame || mine || others.length === 0;
  ui.declineEnd.hidden = ui.acceptEnd.hidden;
  ui.withdrawEnd.hidden = !inGame || !mine;
  ui.offer.textContent = offerWords(s);
  ui.offer.hidden = !inGame || s.agreeing.length === 0;
}

function offerWords(s: Session): string {
  if (!s.agreeing.length) return "";
  const names = s.agreeing.map((p) => (s.seats.has(p) && s.seats.size === 1 ? "You" : playerName(p)));
  const verb = names.length === 1 ? (names[0] === "You" ? "offer" : "offers") : "agree";
  return `${names.join(" and ")} ${verb} to end this game by agreement (it ends as by repetition).`;
}

async function agree(s: Session, action: AgreementAction): Promise<void> {
  await matches.agreeToEnd({ matchId: s.matchId, action, expectedVersion: s.heard });
}

/** Wires the buttons to the session the page shows now (`current()`); errors go to `fail`. */
export function wireOffers(current: () => Session | null, fail: (error: unknown) => void): void {
  const on = (button: HTMLButtonElement, act: (s: Session) => Promise<unknown>) =>
    button.addEventListener("click", async () => {
      const s = current();
      if (!s) return;
      button.disabled = true;
      try {
        await act(s);
      } catch (error) {
        fail(error);
      } finally {
        button.disabled = false;
      }
    });
  on(ui.abort, (s) => matches.abort({ matchId: s.matchId }));
  on(ui.claim, async (s) => {
    try {
      await matches.claimVictory({ matchId: s.matchId });
    } catch (error) {
      // Not yet: say when the server will grant it, if the seat to move stays away.
      const at = error instanceof MancalaError ? Number(error.metadata?.claimable_at_ms ?? 0) : 0;
      if (error instanceof MancalaError && error.reason === "NOT_ABANDONED" && at > 0) {
        const seconds = Math.max(1, Math.ceil((at - Date.now()) / 1000));
        throw new Error(`${playerName(s.state.toMove)} left only a moment ago: you may claim the win in about ${seconds} s if ${playerName(s.state.toMove)} stays away`);
      }
      throw error;
    }
  });
  on(ui.offerEnd, (s) => agree(s, AgreementAction.OFFER));
  on(ui.acceptEnd, (s) => agree(s, AgreementAction.ACCEPT));
  on(ui.declineEnd, (s) => agree(s, AgreementAction.DECLINE));
  on(ui.withdrawEnd, (s) => agree(s, AgreementAction.WITHDRAW));
}

