// The viewer's own settings, kept in this browser: the sowing speed and the sound of seeds landing. Reduced motion
// (the system's setting) makes every animation instant.
import { ui } from "./ui";

const store = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();

const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)");

export function loadSettings(): void {
  const speed = store?.getItem("mancala.speed");
  if (speed && /^(10|[1-9])$/.test(speed)) ui.speed.value = speed;
  const sound = store?.getItem("mancala.sound");
  if (sound) ui.sound.checked = sound === "on";
  ui.speed.addEventListener("change", () => store?.setItem("mancala.speed", ui.speed.value));
  ui.sound.addEventListener("change", () => store?.setItem("mancala.sound", ui.sound.checked ? "on" : "off"));
}

/** Milliseconds per seed dropped: 900 at the slowest setting, 36 at the fastest. */
export function dropDelay(): number {
  return Math.round(900 / Number(ui.speed.value) ** 1.4);
}

export function prefersReducedMotion(): boolean {
  return reduced?.matches ?? false;
}

let audio: AudioContext | null = null;

/** A short knock of wood, when the sound is on (the audio starts only after the viewer has used the page). */
export function knock(): void {
  if (!ui.sound.checked || !navigator.userActivation?.hasBeenActive) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "triangle";
    tone.frequency.setValueAtTime(520, now);
    tone.frequency.exponentialRampToValueAtTime(180, now + 0.06);
    gain.gain.setValueAtTime(0.12, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.08);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.09);
  } catch {
    // No audio on this device: silence.
  }
}
