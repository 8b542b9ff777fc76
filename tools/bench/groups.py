"""DCAs and mute groups in the render kernel, for BENCHMARKS.md: `crosspoint bench --json` at 64x64 and
256x256, settled and dense, with 8 DCAs and 8 mute groups in use (`--groups`: every source a member of
one of each, the DCAs at -1 ... -8 dB) beside the same binary without groups and, when given, a baseline
binary built from before groups existed; in alternating rounds, the best round's median counting on every
side alike (a shared 2-core machine is noisy). Target: groups in use within 5 % of the baseline, settled."""
from common import best_medians

SIZES = (64, 256)
TARGET = "groups"
HEADING = "## Groups in the kernel (DCAs and mute groups, settled)"


def groups_benchmarks(binary, baseline, rounds, seconds, log):
    """{(side, size): result}; side "baseline" (if a baseline binary is given), "none", "groups"."""
    sides = ([("baseline", baseline, [])] if baseline else []) + [("none", binary, []), ("groups", binary, ["--groups"])]
    best = best_medians(sides, SIZES, rounds, seconds, log, "groups")
    return {"results": best, "rounds": rounds, "seconds": seconds, "baseline": baseline}


def groups_report(measured, binary, verdict):
    """The section's lines, and its rows of the Targets table."""
    best, baseline = measured["results"], measured["baseline"]
    lines, targets = [HEADING, ""], []
    add = lines.append
    reference = "baseline" if baseline else "none"
    add(f"`{binary} bench --inputs N --outputs N --groups` (8 DCAs at -1 ... -8 dB and 8 mute groups, every "
        "source a member of one of each) beside the same without `--groups`"
        + (f" and beside `{baseline}`, built from before groups existed" if baseline else "")
        + f", {measured['rounds']} alternating rounds of {measured['seconds']} s each, the best round's median "
        "per side. Groups reach the kernel as two more gain ramps per source, folded into its gain like its "
        "own level: a settled kernel pays nothing per sample for them.")
    add("")
    head = "| size | " + ("before groups µs | " if baseline else "") + "no groups in use µs | 8 DCAs + 8 mute groups µs | ratio | target | |"
    add(head)
    add("|" + "---|" * (head.count("|") - 1))
    for size in SIZES:
        groups = best[("groups", size)]["us_per_period_median"]
        none = best[("none", size)]["us_per_period_median"]
        ref = best[(reference, size)]["us_per_period_median"]
        ratio = groups / ref
        ok = ratio <= 1.05
        targets.append((f"{TARGET}: {size}x{size} settled, 8 DCAs + 8 mute groups / "
                        + ("before groups" if baseline else "none in use"), ratio, 1.05, ok))
        cells = ([f"{ref:.2f}"] if baseline else []) + [f"{none:.2f}", f"{groups:.2f}", f"{ratio:.3f}", "≤ 1.05", verdict(ok)]
        add(f"| {size}x{size} | " + " | ".join(cells) + " |")
    add("")
    return lines, targets
