// The EQ's response as the page draws it: the Audio EQ Cookbook's biquads
// (Robert Bristow-Johnson; shelves in the Q form) and the cuts' Butterworth
// sections, the same formulas as the rig's Sources/Shaping/Cookbook.swift
// and Band+Slopes.swift. PageEQCurveTests holds this copy to the Swift one.

const ln10Over20 = Math.LN10 / 20;

// A band's biquad: { shape, frequency (Hz), gain (dB), q } at sampleRate;
// the frequency kept within 1 Hz and 0.49 fs and q at least 0.001, as the rig runs them.
export function biquad(band, sampleRate) {
  const frequency = Math.min(Math.max(band.frequency, 1), 0.49 * sampleRate);
  const w0 = 2 * Math.PI * frequency / sampleRate;
  const cw = Math.cos(w0), sw = Math.sin(w0);
  const alpha = sw / (2 * Math.max(band.q, 1e-3));
  const a = Math.pow(10, (band.gain || 0) / 40);
  const root = 2 * Math.sqrt(a) * alpha;
  switch (band.shape) {
    case 'peak':
      return [1 + alpha * a, -2 * cw, 1 - alpha * a, 1 + alpha / a, -2 * cw, 1 - alpha / a];
    case 'lowshelf':
      return [a * ((a + 1) - (a - 1) * cw + root), 2 * a * ((a - 1) - (a + 1) * cw),
        a * ((a + 1) - (a - 1) * cw - root), (a + 1) + (a - 1) * cw + root,
        -2 * ((a - 1) + (a + 1) * cw), (a + 1) + (a - 1) * cw - root];
    case 'highshelf':
      return [a * ((a + 1) + (a - 1) * cw + root), -2 * a * ((a - 1) + (a + 1) * cw),
        a * ((a + 1) + (a - 1) * cw - root), (a + 1) - (a - 1) * cw + root,
        2 * ((a - 1) - (a + 1) * cw), (a + 1) - (a - 1) * cw - root];
    case 'lowpass':
      return [(1 - cw) / 2, 1 - cw, (1 - cw) / 2, 1 + alpha, -2 * cw, 1 - alpha];
    case 'highpass':
      return [(1 + cw) / 2, -(1 + cw), (1 + cw) / 2, 1 + alpha, -2 * cw, 1 - alpha];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

// |H| of a biquad [b0, b1, b2, a0, a1, a2] at frequency, in dB.
export function magnitude(c, frequency, sampleRate) {
  const w = 2 * Math.PI * frequency / sampleRate;
  const c1 = Math.cos(w), s1 = Math.sin(w), c2 = Math.cos(2 * w), s2 = Math.sin(2 * w);
  const nr = c[0] + c[1] * c1 + c[2] * c2, ni = -(c[1] * s1 + c[2] * s2);
  const dr = c[3] + c[4] * c1 + c[5] * c2, di = -(c[4] * s1 + c[5] * s2);
  return 10 * Math.log10((nr * nr + ni * ni) / (dr * dr + di * di));
}

// A cut's sections: { shape: 'highpass' | 'lowpass', frequency, slope: 12 | 24 }
// as Butterworth sections of the Qs the rig runs.
export function cutSections(cut) {
  const order = cut.slope / 6;
  const sections = [];
  for (let pair = 0; pair < order / 2; pair++) {
    const angle = Math.PI * (2 * pair + 1) / (2 * order);
    sections.push({ shape: cut.shape, frequency: cut.frequency, gain: 0, q: 1 / (2 * Math.cos(angle)) });
  }
  return sections;
}

// The whole response, in dB, at each of `frequencies`: the sum of every
// section's (bands and the cuts' sections).
export function response(sections, frequencies, sampleRate) {
  const coefficients = sections.map((section) => biquad(section, sampleRate));
  return frequencies.map((f) => coefficients.reduce((sum, c) => sum + magnitude(c, f, sampleRate), 0));
}

// A linear gain for a level in dB (for drawing).
export function gainFromDb(db) {
  return Math.exp(db * ln10Over20);
}
