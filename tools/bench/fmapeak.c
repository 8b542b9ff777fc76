/* The FMA units' peak on this CPU at each SIMD path's width, for the SIMD
 * paths section of BENCHMARKS.md (tools/bench/paths.py): twelve independent
 * chains of multiply-adds (enough to hide the units' latency), counted in
 * single-precision lanes per microsecond. sse2 has no fused multiply-add:
 * its peak is a multiplication and an addition per lane, as the sse2 path
 * runs. Prints one JSON object, {"sse2": R, "avx2": R, "avx512": R}, with
 * only the widths this CPU has. Build: cc -O2 -o fmapeak fmapeak.c */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define ROUNDS 100000000L
#define CHAINS(T, SET, OP, LANES, NAME)                                                        \
    static double NAME(void) {                                                                 \
        T a[12], b = SET(0.9999f), c = SET(1e-5f);                                             \
        for (int j = 0; j < 12; j++) a[j] = SET(0.1f + 0.01f * j);                             \
        double t0 = now();                                                                     \
        for (long i = 0; i < ROUNDS; i++) {                                                    \
            a[0] = OP(a[0], b, c); a[1] = OP(a[1], b, c); a[2] = OP(a[2], b, c);                 \
            a[3] = OP(a[3], b, c); a[4] = OP(a[4], b, c); a[5] = OP(a[5], b, c);                 \
            a[6] = OP(a[6], b, c); a[7] = OP(a[7], b, c); a[8] = OP(a[8], b, c);                 \
            a[9] = OP(a[9], b, c); a[10] = OP(a[10], b, c); a[11] = OP(a[11], b, c);             \
        }                                                                                      \
        double t = now() - t0;                                                                 \
        volatile float sink = 0;                                                               \
        for (int j = 0; j < 12; j++) sink += ((float *)&a[j])[0];                              \
        (void)sink;                                                                            \
        return ROUNDS * 12.0 * LANES / t / 1e6;                                                \
    }

#define SSE_OP(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)
CHAINS(__m128, _mm_set1_ps, SSE_OP, 4, sse2)
__attribute__((target("avx2,fma"))) CHAINS(__m256, _mm256_set1_ps, _mm256_fmadd_ps, 8, avx2)
__attribute__((target("avx512f"))) CHAINS(__m512, _mm512_set1_ps, _mm512_fmadd_ps, 16, avx512)

int main(void) {
    __builtin_cpu_init();
    printf("{\"sse2\": %.1f", sse2());
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) printf(", \"avx2\": %.1f", avx2());
    if (__builtin_cpu_supports("avx512f")) printf(", \"avx512\": %.1f", avx512());
    printf("}\n");
    return 0;
}
