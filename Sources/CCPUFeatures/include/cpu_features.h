#ifndef CROSSPOINT_CPU_FEATURES_H
#define CROSSPOINT_CPU_FEATURES_H

/// The SIMD levels this CPU (and its operating system, which must save the
/// wider registers) can run, as bits: 1 x86-64 baseline (SSE2), 2 x86-64-v3
/// (AVX2, FMA and the rest of the level), 4 x86-64-v4 (AVX-512 F, BW, CD,
/// DQ, VL), 8 aarch64 (NEON). Asked once, on the control side, at start.
int crosspoint_simd_levels(void);

#endif
