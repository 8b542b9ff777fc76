"""The render kernel's sweep for BENCHMARKS.md: `crosspoint bench --json` (the real render kernel,
offline) beside single-threaded OpenBLAS sgemm of the same shapes (tools/bench/sgemm.py), in
alternating rounds; per configuration the best round's median counts, on both sides alike (a shared
2-core machine is noisy)."""
import os
import sys

from common import ROOT, json_lines, load_average, log, run, verdict

HEADING = "## Render kernel, offline (per 64-frame period at 48 kHz)"


def sgemm_env(coretype=None):
    # OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE may be set on this kind of machine
    # for old OpenBLAS builds; they slow a current numpy. Unset both for this
    # command only (the kernel used is recorded in the results), unless a
    # kernel is asked for.
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["OPENBLAS_NUM_THREADS"] = "1"
    if coretype:
        env["OPENBLAS_CORETYPE"] = coretype
    return env


def binary_env():
    """The binary's environment: its own choice of SIMD path (no CROSSPOINT_SIMD)."""
    env = dict(os.environ)
    env.pop("CROSSPOINT_SIMD", None)
    return env


def coretypes(binary):
    """OpenBLAS's own choice (None), and its kernel at the width of the path the binary chooses here
    (paths.CORETYPE): the reference is sgemm at the CPU's full width, whatever OpenBLAS makes of the CPU."""
    from paths import CORETYPE
    first = run([binary, "bench", "--inputs", "2", "--outputs", "2", "--seconds", "0.05"], env=binary_env(),
                check=False).splitlines()
    words = first[0].split() if first else []
    path = words[3] if len(words) > 3 and words[:3] == ["#", "SIMD", "path:"] else None
    return [None, CORETYPE[path]] if path in CORETYPE else [None]


def kernel_sweep(binary, rounds, seconds):
    ours, reference = {}, {}
    kernels = coretypes(binary)
    for r in range(rounds):
        log(f"kernel sweep, round {r + 1}/{rounds} (load {load_average()})")
        for result in json_lines(run([binary, "bench", "--json", "--seconds", str(seconds)], env=binary_env())):
            key = (result["inputs"], result["density"], result["ramping"])
            if key not in ours or result["us_per_period_median"] < ours[key]["us_per_period_median"]:
                ours[key] = result
        for coretype in kernels:
            for result in json_lines(run([sys.executable, os.path.join(ROOT, "tools/bench/sgemm.py"),
                                          "8,32,64,128,256", "64", str(seconds)], env=sgemm_env(coretype))):
                n = result["n"]
                if n not in reference or result["us_per_call_median"] < reference[n]["us_per_call_median"]:
                    reference[n] = result
    return ours, reference


def numpy_version():
    try:
        import numpy
        return numpy.__version__
    except Exception:
        return "?"


def kernel_report(ours, reference):
    """The section's lines, and its rows of the Targets table."""
    lines, targets = [], []
    add = lines.append
    add(HEADING)
    add("")
    arch = next(iter(reference.values()))["openblas"]
    kernels = sorted({r["openblas"].get("architecture", "?") for r in reference.values()})
    add(f"Reference: numpy {numpy_version()} with OpenBLAS {arch.get('version', '?')} "
        f"(kernel {', '.join(kernels)}: per size the faster of OpenBLAS's own choice and its kernel at the "
        "width of the SIMD path the binary chooses here), one thread, [64 x N] times [N x N] sgemm. "
        "Ratio = ours / sgemm of the same N (for 5% density: ours / dense sgemm).")
    add("")
    add("| size | mode | crosspoints in use | median µs | p99 µs | DSP load % | sgemm µs | ratio | target | |")
    add("|---|---|---|---|---|---|---|---|---|---|")
    for n in (8, 32, 64, 128, 256):
        ref = reference[n]["us_per_call_median"]
        for density, ramping, mode in ((1.0, False, "settled, dense"), (1.0, True, "every crosspoint ramping"),
                                       (0.05, False, "settled, 5% density")):
            r = ours[(n, density, ramping)]
            ratio = r["us_per_period_median"] / ref
            if ramping:
                limit = 3.0
            elif density < 1:
                limit = 0.1 if n == 64 else None
            else:
                limit = {64: 1.0, 256: 1.5}.get(n)
            mark = ""
            if limit is not None:
                ok = ratio <= limit
                mark = verdict(ok)
                targets.append((f"{n}x{n} {mode}", ratio, limit, ok))
            add(f"| {n}x{n} | {mode} | {r['active_crosspoints']} | {r['us_per_period_median']:.2f} | "
                f"{r['us_per_period_p99']:.2f} | {r['dsp_load_percent']:.3f} | {ref:.2f} | {ratio:.2f} | "
                f"{'≤ ' + str(limit) + 'x' if limit is not None else ''} | {mark} |")
    add("")
    return lines, targets
