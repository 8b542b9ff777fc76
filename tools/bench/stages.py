"""The EQ and the limiters in the render kernel (issue 36), for BENCHMARKS.md: `crosspoint bench --json`
at 64x64 and 256x256, settled and dense, with every EQ on (`--eq`: each source's low cut and four bands,
each output's low cut, high cut and six bands, every band at a few dB) and with every output's limiter on
(`--limiters`) beside the same binary with neither; in alternating rounds, the best round's median per
side (a shared 2-core machine is noisy). Targets at 256x256: the EQ adds at most 25 %, the limiters at
most 15 %."""
from common import best_medians, load_average

SIZES = (64, 256)
TARGET = "stages"
HEADING = "## EQ and limiters in the kernel (settled, every one on)"
SIDES = (("none", []), ("eq", ["--eq"]), ("limiters", ["--limiters"]))
BOUNDS = {"eq": 1.25, "limiters": 1.15}


def stages_benchmarks(binary, rounds, seconds, log):
    """{(side, size): result}; sides "none", "eq", "limiters"."""
    best = best_medians([(side, binary, extra) for side, extra in SIDES], SIZES, rounds, seconds, log, "stages")
    return {"results": best, "rounds": rounds, "seconds": seconds, "load": load_average()}


def stages_report(measured, binary, verdict):
    """The section's lines, and its rows of the Targets table."""
    best = measured["results"]
    lines, targets = [HEADING, ""], []
    add = lines.append
    simd = best[("none", SIZES[-1])].get("simd", "?")
    add(f"`{binary} bench --inputs N --outputs N --eq` (every source's low cut at 80 Hz, 24 dB/octave, and its "
        "four bands on at +3/-4 dB; every output's low cut, high cut at 16 kHz and six bands likewise) and "
        "`--limiters` (every output's limiter on at -1 dBFS, 1 ms lookahead, limiting all the time on the "
        f"benchmark's dense mix) beside the same without, {measured['rounds']} alternating rounds of "
        f"{measured['seconds']} s each, the best round's median per side; the mixing loops and the stages on "
        f"the {simd} path. Sections that pass their input through (a band off) "
        "and groups of eight channels whose EQ is flat, or whose limiters are off, are not run: this is the "
        "worst case.")
    add("")
    head = "| size | neither µs | every EQ on µs | ratio | every limiter on µs | ratio | targets (256x256) | |"
    add(head)
    add("|" + "---|" * (head.count("|") - 1))
    for size in SIZES:
        none = best[("none", size)]["us_per_period_median"]
        eq = best[("eq", size)]["us_per_period_median"]
        limiters = best[("limiters", size)]["us_per_period_median"]
        ratios = {"eq": eq / none, "limiters": limiters / none}
        oks = {side: ratios[side] <= BOUNDS[side] for side in ratios}
        if size == SIZES[-1]:
            for side in ("eq", "limiters"):
                targets.append((f"{TARGET}: {size}x{size} settled, every {'EQ' if side == 'eq' else 'limiter'} on / "
                                "neither", ratios[side], BOUNDS[side], oks[side]))
            mark = verdict(oks["eq"] and oks["limiters"])
            bounds = "≤ 1.25, ≤ 1.15"
        else:
            mark, bounds = "", "—"
        add(f"| {size}x{size} | {none:.2f} | {eq:.2f} | {ratios['eq']:.2f} | {limiters:.2f} | "
            f"{ratios['limiters']:.2f} | {bounds} | {mark} |")
    add("")
    return lines, targets
