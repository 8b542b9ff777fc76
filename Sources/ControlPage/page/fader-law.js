// The console fader law, mirrored from the rig's
// Sources/MixCore/FaderLaw.swift (keep the two the same):
//   f >= 0.5    : dB = 40f - 30   (0.75 -> 0 dB, 1.0 -> +10 dB)
//   f >= 0.25   : dB = 80f - 50   (0.5 -> -10 dB)
//   f >= 0.0625 : dB = 160f - 70  (0.25 -> -30 dB)
//   otherwise   : dB = 480f - 90  (0 -> -90 dB = off)
// Levels up to +12 dB (linear 4) continue the top segment past f = 1.

export const FLOOR_DB = -90;
export const UNITY_POSITION = 0.75;

export function dbFromPosition(f) {
  if (f >= 0.5) return 40 * f - 30;
  if (f >= 0.25) return 80 * f - 50;
  if (f >= 0.0625) return 160 * f - 70;
  return 480 * f - 90;
}

export function positionFromDb(db) {
  if (db <= FLOOR_DB) return 0;
  if (db >= -10) return (db + 30) / 40;
  if (db >= -30) return (db + 50) / 80;
  if (db >= -60) return (db + 70) / 160;
  return (db + 90) / 480;
}

export function dbFromGain(gain) {
  if (!(gain > 0)) return FLOOR_DB;
  return Math.max(FLOOR_DB, 20 * Math.log10(gain));
}

export function gainFromDb(db) {
  if (db <= FLOOR_DB) return 0;
  return Math.pow(10, db / 20);
}

export function positionFromGain(gain) {
  return positionFromDb(dbFromGain(gain));
}

export function gainFromPosition(f) {
  return gainFromDb(dbFromPosition(f));
}

/** "-6.0 dB", "-inf dB" for silence. */
export function formatDb(db) {
  if (db <= FLOOR_DB) return '-inf dB';
  const rounded = Math.round(db * 10) / 10;
  return `${(Object.is(rounded, -0) ? 0 : rounded).toFixed(1)} dB`;
}
