"""The talkbacks and the listen in the render kernel (issue 37), for BENCHMARKS.md: `crosspoint bench --json`
at 64x64 and 256x256, settled and dense, with two talkbacks talking at -6 dB (talkback 1 into outputs 3 and 5,
talkback 2 into 7 and 8, each dimming the rest of what they carry by 20 dB) and output 1 in the listen
(`--talk`), and the same with both talkbacks into every output (`--talk-to-all`), beside the same binary with
neither talkbacks nor listen ports; in alternating rounds, the best round's median per side (a shared 2-core
machine is noisy). Target, `--talk` at both sizes: within 3 %. "Talk to all" is reported beside it."""
from common import best_medians, load_average

SIZES = (64, 256)
TARGET = "talk"
HEADING = "## Talkbacks and the listen in the kernel (settled, two talking, one output listened to)"
SIDES = (("none", []), ("talk", ["--talk"]), ("all", ["--talk-to-all"]))
BOUND = 1.03


def talk_benchmarks(binary, rounds, seconds, log):
    """{(side, size): result}; sides "none", "talk" and "all"."""
    best = best_medians([(side, binary, extra) for side, extra in SIDES], SIZES, rounds, seconds, log, "talk")
    return {"results": best, "rounds": rounds, "seconds": seconds, "load": load_average()}


def talk_report(measured, binary, verdict):
    """The section's lines, and its rows of the Targets table."""
    best = measured["results"]
    lines, targets = [HEADING, ""], []
    add = lines.append
    simd = best[("none", SIZES[-1])].get("simd", "?")
    add(f"`{binary} bench --inputs N --outputs N --talk` (two talkbacks talking at -6 dB, talkback 1 into "
        "outputs 3 and 5, talkback 2 into 7 and 8, each dimming the rest of what they carry by 20 dB; output 1 "
        "in the listen, AFL) and `--talk-to-all` (both talkbacks into every output, the engineer's 'talk to "
        "all') beside the same without talkbacks or listen ports, "
        f"{measured['rounds']} alternating rounds of {measured['seconds']} s each, the best round's median per "
        f"side, load {measured['load']}; the mixing loops and the sends on the {simd} path. The target is for "
        "`--talk`; talking to all adds a pass over every output's buffer after the mix, reported beside it.")
    add("")
    head = "| size | neither µs | talking and listening µs | ratio | target | | talking to all µs | ratio |"
    add(head)
    add("|" + "---|" * (head.count("|") - 1))
    for size in SIZES:
        none = best[("none", size)]["us_per_period_median"]
        talk = best[("talk", size)]["us_per_period_median"]
        every = best[("all", size)]["us_per_period_median"]
        ratio = talk / none
        ok = ratio <= BOUND
        targets.append((f"{TARGET}: {size}x{size} settled, two talkbacks talking and a listen / neither", ratio,
                        BOUND, ok))
        add(f"| {size}x{size} | {none:.2f} | {talk:.2f} | {ratio:.3f} | ≤ {BOUND} | {verdict(ok)} | {every:.2f} | "
            f"{every / none:.3f} |")
    add("")
    return lines, targets
