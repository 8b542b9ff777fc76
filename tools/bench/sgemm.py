#!/usr/bin/env python3
"""The hardware reference for a dense matrix mix: single-threaded OpenBLAS
sgemm through numpy, [frames x N] times [N x N], timed per call.

numpy's matmul on a stack of K matrices calls sgemm once per matrix from C,
so that figure carries no Python overhead (K is kept small enough for the
stack to stay in the L2 cache, as a mixer's buffers do); single Python-level
calls are timed too. The reference is the faster of the two: the strictest
figure for the mixer to be compared with. Run with OPENBLAS_NUM_THREADS=1.

Prints one JSON object per size: n, frames, us_per_call_median (the
reference), us_per_call_batched, us_per_call_python, openblas (kernel and
version as threadpoolctl reports them).
"""
import json
import sys
import time

import numpy as np


def median_us(function, repeats, inner):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        for _ in range(inner):
            function()
        samples.append((time.perf_counter_ns() - start) / inner / 1000)
    samples.sort()
    return samples[len(samples) // 2]


def openblas_info():
    try:
        import threadpoolctl
        for pool in threadpoolctl.threadpool_info():
            if pool.get("internal_api") == "openblas":
                return {"version": pool.get("version"), "architecture": pool.get("architecture"),
                        "threads": pool.get("num_threads")}
    except Exception:
        pass
    return {}


def main():
    sizes = [int(s) for s in sys.argv[1].split(",")] if len(sys.argv) > 1 else [8, 32, 64, 128, 256]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    rng = np.random.default_rng(1)
    info = openblas_info()
    for n in sizes:
        b = rng.standard_normal((n, n), dtype=np.float32)
        stack = max(4, min(64, (512 * 1024) // (frames * n * 4 * 2)))
        a = rng.standard_normal((stack, frames, n), dtype=np.float32)
        c = np.empty((stack, frames, n), np.float32)
        one_a, one_c = a[0], c[0]
        np.matmul(a, b, out=c)
        # Size the repeats so each size runs for about `seconds`.
        probe = median_us(lambda: np.matmul(a, b, out=c), 3, 1) / stack
        repeats = max(15, int(seconds * 1e6 / max(probe * stack, 1) / 2))
        batched = median_us(lambda: np.matmul(a, b, out=c), repeats, 1) / stack
        single = median_us(lambda: np.matmul(one_a, b, out=one_c), max(15, repeats // 4), 32)
        print(json.dumps({"n": n, "frames": frames, "us_per_call_median": round(min(batched, single), 3),
                          "us_per_call_batched": round(batched, 3), "us_per_call_python": round(single, 3),
                          "openblas": info}), flush=True)


if __name__ == "__main__":
    main()
