#include "cpu_features.h"

int crosspoint_simd_levels(void) {
#if defined(__x86_64__)
    /* __builtin_cpu_supports reads CPUID (and XGETBV: the OS saves the
       AVX and AVX-512 registers) once, through the compiler runtime. The
       level names are those of the x86-64 psABI: what -target-cpu haswell
       and skylake-avx512 may use is within them. */
    __builtin_cpu_init();
    int levels = 1;
    if (__builtin_cpu_supports("x86-64-v3")) levels |= 2;
    if (__builtin_cpu_supports("x86-64-v4")) levels |= 4;
    return levels;
#elif defined(__aarch64__)
    return 8; /* NEON (Advanced SIMD) is part of every aarch64 CPU. */
#else
    return 0;
#endif
}
