// The fader law (`FaderLaw`) and the audio thread's `FastMath` live in
// MixRows, beside the SIMD paths that run them on the audio thread; every
// user of MixCore sees them as before.
@_exported import MixRows
