"""Engine timing for BENCHMARKS.md (scripts/bench; `--only timing` alone):

1. Time-tag precision: `crosspoint-probe timetag` (tools/bench/probe_timetag.c) sends
   bundles timed 100-300 ms ahead to a rig on `jackd -R -S` (real-time
   scheduling where the machine allows it) at 64 and at 256 frames a period,
   and finds on crosspoint's recorded output the frame each took effect at,
   against the frame JACK's clock gives for its time tag in the cycle it
   falls in (and, beside, against JACK's map made when the bundle was sent).
2. Whole-scene recalls in one period: `crosspoint bench --recall` at
   64x64 … 512x512 (every parameter moves): the audio thread's period that
   takes the recall (the whole batch applied, then the period rendered),
   beside the period's budget.
"""
import json
import os
import subprocess
import time

HEADING = "## Timed bundles and one-period recalls"
SIZES = (64, 128, 256, 512)


def timetag_run(binary, probe, workdir, rig_class, period, trials, log):
    rig = rig_class(workdir, period=period, realtime=True)
    try:
        rig.serve(binary, 2, 2, 0, f"serve-timing-{period}")
        result = subprocess.run([probe, "timetag", str(rig.osc_port), str(trials)], env=rig.env,
                                capture_output=True, text=True, check=True)
        line = [text for text in result.stdout.splitlines() if text.startswith("{")][-1]
        measured = json.loads(line)
        measured["realtime"] = rig.realtime
        log(f"time tags at {period} frames: p50 {measured['abs_error_frames_p50']}, "
            f"p99 {measured['abs_error_frames_p99']}, max {measured['abs_error_frames_max']} frames")
        return measured
    finally:
        rig.close()


def recall_periods(binary, trials):
    results = {}
    for n in SIZES:
        out = subprocess.run([binary, "bench", "--recall", "--json", "--inputs", str(n), "--outputs", str(n),
                              "--trials", str(trials)], capture_output=True, text=True, check=True).stdout
        results[n] = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    return results


def timing_benchmark(binary, probe, workdir, rig_class, trials, recall_trials, log):
    tags = {period: timetag_run(binary, probe, workdir, rig_class, period, trials, log) for period in (64, 256)}
    log("whole-scene recalls, one period each")
    return {"timetag": tags, "recall": recall_periods(binary, recall_trials), "trials": trials,
            "recall_trials": recall_trials}


def timing_report(result, binary):
    lines = [HEADING, ""]
    add = lines.append
    tags = result["timetag"]
    realtime = all(t["realtime"] for t in tags.values())
    add(f"Time tags: `crosspoint-probe timetag P {result['trials']}` (tools/bench/probe_timetag.c) against "
        f"`{binary} serve --inputs 2 --outputs 2` on `jackd {'-R' if realtime else '-r'} -S -d dummy -r 48000 "
        "-p PERIOD`. Each trial sends a bundle timed 100-300 ms ahead holding `/matrix/1/1 1 0` (the crosspoint "
        "at 0 before); error = the frame of the first moved sample on `crosspoint:out_1` minus the frame JACK's "
        "map gives for its time tag in the cycle the time falls in (its place in that cycle's span, "
        "`jack_get_cycle_times`, read by the probe's own client in that cycle). Beside it, |error| against "
        "JACK's map made when the bundle was sent (`jack_time_to_frames`, 100-300 ms ahead), which moves with the "
        "clock's estimate from period to period.")
    add("")
    add("| frames per period | trials | \\|error\\| p50 (frames) | p99 | largest | target | | against the map made ahead: p50 | p99 | largest |")
    add("|---|---|---|---|---|---|---|---|---|---|")
    for period, t in sorted(tags.items()):
        ok = t["abs_error_frames_p99"] <= 1 and t["seen"] == t["trials"]
        add(f"| {period} | {t['seen']} of {t['trials']} | {t['abs_error_frames_p50']:.0f} | "
            f"{t['abs_error_frames_p99']:.0f} | {t['abs_error_frames_max']:.0f} | ±1 frame | "
            f"{'met' if ok else '**not met**'} | {t.get('ahead_abs_error_frames_p50', float('nan')):.0f} | "
            f"{t.get('ahead_abs_error_frames_p99', float('nan')):.0f} | {t.get('ahead_abs_error_frames_max', float('nan')):.0f} |")
    add("")
    add(f"Whole-scene recalls: `{binary} bench --recall --inputs N --outputs N --trials {result['recall_trials']}`. "
        "Every crosspoint, source and output moves at each recall (presets A and B alternately). The audio thread's "
        "side then runs one 64-frame period, timed alone: it takes the whole batch from its inbox, starts every ramp, "
        "and renders; the bench fails if anything is left for a second period. The budget is the period's length "
        "at 48 kHz: 1,333 µs at 64 frames, 5,333 µs at 256.")
    add("")
    add("| rig | parameters in the batch | that period, median µs | p99 µs | of a 64-frame period (p99) | "
        "of a 256-frame period (p99) |")
    add("|---|---|---|---|---|---|")
    largest_in_64 = None
    for n, r in sorted(result["recall"].items(), key=lambda item: int(item[0])):
        p99 = r["apply_period_us_p99"]
        if p99 <= 1333.3:
            largest_in_64 = n
        add(f"| {n}x{n} | {r['changes']:,} | {r['apply_period_us_median']:.0f} | {p99:.0f} | "
            f"{100 * p99 / 1333.3:.0f} % | {100 * p99 / 5333.3:.0f} % |")
    add("")
    largest = max(int(n) for n in result["recall"])
    add(f"Every recall above, up to {largest}x{largest}, took effect in one period. The largest that also fits a "
        f"64-frame period's budget at the 99th percentile: {largest_in_64 or 'none'}"
        f"{'x' + str(largest_in_64) if largest_in_64 else ''}; larger rigs want a longer period (or the period "
        "that takes the recall runs over its budget once: one late period, never a partial scene).")
    add("")
    return lines


def splice(path, section, note):
    """Replaces this section of an existing report, or adds it at the end."""
    with open(path) as f:
        text = f.read()
    body = "\n".join(section[:2] + [note, ""] + section[2:]) + "\n"
    if HEADING + "\n" in text:
        start = text.index(HEADING + "\n")
        end = text.find("\n## ", start + len(HEADING))
        text = text[:start] + body + (text[end + 1:] if end >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + body
    with open(path, "w") as f:
        f.write(text)
