#include "frames.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define WIDE __attribute__((target("avx512f")))

/// Rows 0–3 (or 4–7) of two 8×8 blocks, a block in each half of the
/// vectors, transposed within each 128-bit lane: lane q of the k-th result
/// holds the four rows' element 4q + k.
static inline WIDE void quads(__m512 r0, __m512 r1, __m512 r2, __m512 r3, __m512 u[4]) {
    __m512 t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpackhi_ps(r0, r1);
    __m512 t2 = _mm512_unpacklo_ps(r2, r3), t3 = _mm512_unpackhi_ps(r2, r3);
    u[0] = _mm512_shuffle_ps(t0, t2, 0x44);
    u[1] = _mm512_shuffle_ps(t0, t2, 0xEE);
    u[2] = _mm512_shuffle_ps(t1, t3, 0x44);
    u[3] = _mm512_shuffle_ps(t1, t3, 0xEE);
}

/// Lanes 0 and 2 of `a` and of `b` as (a0, b0, a2, b2), and lanes 1 and 3
/// as (a1, b1, a3, b3): the last stage of the transpose, and the first of
/// its inverse.
static inline WIDE __m512 evenLanes(__m512 a, __m512 b) {
    const __m512i index = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
    return _mm512_permutex2var_ps(a, index, b);
}

static inline WIDE __m512 oddLanes(__m512 a, __m512 b) {
    const __m512i index = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    return _mm512_permutex2var_ps(a, index, b);
}

/// Channels l and 8 + l's eight samples from `offset`, side by side.
static inline WIDE __m512 row(float *const *channels, int l, size_t offset) {
    __m512 low = _mm512_castps256_ps512(_mm256_loadu_ps(channels[l] + offset));
    __m256d high = _mm256_castps_pd(_mm256_loadu_ps(channels[8 + l] + offset));
    return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(low), high, 1));
}

static WIDE void frames_from_channels16(float *const *channels, size_t offset, size_t count, float *frames) {
    for (; count >= 8; count -= 8, offset += 8, frames += 128) {
        __m512 u[4], v[4];
        quads(row(channels, 0, offset), row(channels, 1, offset), row(channels, 2, offset), row(channels, 3, offset), u);
        quads(row(channels, 4, offset), row(channels, 5, offset), row(channels, 6, offset), row(channels, 7, offset), v);
        for (int k = 0; k < 4; k++) {
            _mm512_storeu_ps(frames + 16 * k, evenLanes(u[k], v[k]));
            _mm512_storeu_ps(frames + 16 * (4 + k), oddLanes(u[k], v[k]));
        }
    }
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 16; l++) frames[16 * k + l] = channels[l][offset + k];
}

static WIDE void channels_from_frames16(const float *frames, float *const *channels, size_t offset, size_t count) {
    for (; count >= 8; count -= 8, offset += 8, frames += 128) {
        __m512 u[4], v[4], f[8];
        for (int k = 0; k < 8; k++) f[k] = _mm512_loadu_ps(frames + 16 * k);
        for (int k = 0; k < 4; k++) {
            u[k] = evenLanes(f[k], f[4 + k]);
            v[k] = oddLanes(f[k], f[4 + k]);
        }
        __m512 r[8];
        quads(u[0], u[1], u[2], u[3], r);
        quads(v[0], v[1], v[2], v[3], r + 4);
        for (int l = 0; l < 8; l++) {
            _mm256_storeu_ps(channels[l] + offset, _mm512_castps512_ps256(r[l]));
            _mm256_storeu_ps(channels[8 + l] + offset, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(r[l]), 1)));
        }
    }
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 16; l++) channels[l][offset + k] = frames[16 * k + l];
}

#define AVX __attribute__((target("avx")))

/// `quads` for one 8×8 block: lane q of the k-th result holds rows 0–3's
/// element 4q + k.
static inline AVX void quads8(__m256 r0, __m256 r1, __m256 r2, __m256 r3, __m256 u[4]) {
    __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    u[0] = _mm256_shuffle_ps(t0, t2, 0x44);
    u[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
    u[2] = _mm256_shuffle_ps(t1, t3, 0x44);
    u[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
}

static AVX void frames_from_channels8(float *const *channels, size_t offset, size_t count, float *frames) {
    for (; count >= 8; count -= 8, offset += 8, frames += 64) {
        __m256 u[4], v[4];
        quads8(_mm256_loadu_ps(channels[0] + offset), _mm256_loadu_ps(channels[1] + offset),
               _mm256_loadu_ps(channels[2] + offset), _mm256_loadu_ps(channels[3] + offset), u);
        quads8(_mm256_loadu_ps(channels[4] + offset), _mm256_loadu_ps(channels[5] + offset),
               _mm256_loadu_ps(channels[6] + offset), _mm256_loadu_ps(channels[7] + offset), v);
        for (int k = 0; k < 4; k++) {
            _mm256_storeu_ps(frames + 8 * k, _mm256_permute2f128_ps(u[k], v[k], 0x20));
            _mm256_storeu_ps(frames + 8 * (4 + k), _mm256_permute2f128_ps(u[k], v[k], 0x31));
        }
    }
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 8; l++) frames[8 * k + l] = channels[l][offset + k];
}

static AVX void channels_from_frames8(const float *frames, float *const *channels, size_t offset, size_t count) {
    for (; count >= 8; count -= 8, offset += 8, frames += 64) {
        __m256 u[4], v[4], r[8];
        for (int k = 0; k < 4; k++) {
            __m256 early = _mm256_loadu_ps(frames + 8 * k), late = _mm256_loadu_ps(frames + 8 * (4 + k));
            u[k] = _mm256_permute2f128_ps(early, late, 0x20);
            v[k] = _mm256_permute2f128_ps(early, late, 0x31);
        }
        quads8(u[0], u[1], u[2], u[3], r);
        quads8(v[0], v[1], v[2], v[3], r + 4);
        for (int l = 0; l < 8; l++) _mm256_storeu_ps(channels[l] + offset, r[l]);
    }
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 8; l++) channels[l][offset + k] = frames[8 * k + l];
}

#else

static void frames_from_channels8(float *const *channels, size_t offset, size_t count, float *frames) {
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 8; l++) frames[8 * k + l] = channels[l][offset + k];
}

static void channels_from_frames8(const float *frames, float *const *channels, size_t offset, size_t count) {
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 8; l++) channels[l][offset + k] = frames[8 * k + l];
}

static void frames_from_channels16(float *const *channels, size_t offset, size_t count, float *frames) {
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 16; l++) frames[16 * k + l] = channels[l][offset + k];
}

static void channels_from_frames16(const float *frames, float *const *channels, size_t offset, size_t count) {
    for (size_t k = 0; k < count; k++)
        for (int l = 0; l < 16; l++) channels[l][offset + k] = frames[16 * k + l];
}

#endif

void crosspoint_frames_from_channels(float *const *channels, int lanes, size_t offset, size_t count, float *frames) {
    if (lanes == 16) frames_from_channels16(channels, offset, count, frames);
    else frames_from_channels8(channels, offset, count, frames);
}

void crosspoint_channels_from_frames(const float *frames, float *const *channels, int lanes, size_t offset, size_t count) {
    if (lanes == 16) channels_from_frames16(frames, channels, offset, count);
    else channels_from_frames8(frames, channels, offset, count);
}
