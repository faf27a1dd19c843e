// The time controls the page offers, as the form writes them: "" untimed, "INITIAL+INCREMENT" in milliseconds
// (Fischer), "day" (correspondence, a day a move).
import type { MessageInitShape, TimeControlSchema } from "@mancala/client";

export function timeControlOf(value: string): MessageInitShape<typeof TimeControlSchema> | undefined {
  if (value === "day") return { control: { case: "correspondence", value: { daysPerMove: 1 } } };
  const fischer = /^(\d+)\+(\d+)$/.exec(value);
  if (!fischer) return undefined;
  return { control: { case: "fischer", value: { initialMs: BigInt(fischer[1]), incrementMs: BigInt(fischer[2]) } } };
}

/** The form's words for a time control: "3 min + 2 s". */
export function timeWords(value: string): string {
  const option = Array.from(document.querySelectorAll<HTMLOptionElement>("#time option")).find((o) => o.value === value);
  return option?.textContent ?? "untimed";
}
