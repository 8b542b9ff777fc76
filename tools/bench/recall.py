"""Preset recall, for BENCHMARKS.md (`--only recall` alone): read, parse and prepare of a 64x64
preset with every crosspoint in use (`crosspoint bench --recall`), and in JACK the time from sending
/preset/recall to the first output sample that moves (tools/bench/probe.c recall), beside a plain
message's latency on the same rig."""
import json
import os
import re

from common import json_lines, log, run, verdict
from jackrig import Rig

FADE = 0.05
TARGET = "64x64 preset recall"


def recall_benchmark(binary, probe, workdir, trials, bench_trials):
    """Offline timing of the controller's recall of a 64x64 preset, then the same presets recalled in JACK."""
    label = "serve-recall"
    presets = os.path.join(workdir, f"{label}-state", "presets")  # where Rig.serve points --presets
    offline = json_lines(run([binary, "bench", "--recall", "--json", "--trials", str(bench_trials),
                              "--fade", str(FADE), "--presets", presets]))[-1]
    rig = Rig(workdir)
    try:
        rig.serve(binary, 64, 64, 0, label)
        port = rig.osc_port
        log(f"preset recall in JACK, {trials} trials")
        recall = json.loads(run([probe, "recall", str(port), str(trials), "A", "B", str(FADE)],
                                env=rig.env).strip().splitlines()[-1])
        plain = json.loads(run([probe, "latency", str(port), str(trials)], env=rig.env).strip().splitlines()[-1])
        with open(os.path.join(workdir, f"{label}.log")) as f:
            prepared = [float(x) * 1000 for x in re.findall(r"read and prepared in ([0-9.e+-]+) seconds", f.read())]
        return {"offline": offline, "recall": recall, "plain": plain, "prepared_ms": prepared}
    finally:
        rig.close()


def recall_report(result, binary, trials, bench_trials):
    """The "## Preset recall" section's lines, and its rows of the Targets table."""
    lines, targets = [], []
    add = lines.append
    add("## Preset recall")
    add("")
    if not result:
        add("Not measured in this run.")
        return lines, targets
    o, r, plain, prepared = result["offline"], result["recall"], result["plain"], result["prepared_ms"]
    add(f"Two 64x64 presets, A and B, written by `crosspoint bench --recall` with the real preset writer: every "
        f"crosspoint in use and every level different between them, so each recall moves "
        f"{o['changes']} parameters (the 4096 crosspoints, 64 source volumes and pans, 64 output volumes); "
        f"{o['file_bytes'] / 1024:.0f} KiB each.")
    add("")
    add(f"Offline, the controller's own handling of `/preset/recall B {FADE}` and `A` in turn "
        f"(`Controller.handle`: read the file, parse and check it, fit it to the rig, work out every parameter "
        f"that moves, hand the batch to the mixer's queue), {o['trials']} recalls, the queue drained between them "
        "as the audio thread would:")
    add("")
    add("| | median ms | p99 ms |")
    add("|---|---|---|")
    add(f"| recall, the file unchanged since its last recall (kept parsed; `stat` only) | {o['recall_us_median'] / 1000:.3f} | {o['recall_us_p99'] / 1000:.3f} |")
    add(f"| recall, the file read: read, parse, check, prepare (a first recall, or after an edit) | {o['recall_first_read_us_median'] / 1000:.3f} | {o['recall_first_read_us_p99'] / 1000:.3f} |")
    add(f"| of it: read, parse and check (`PresetStore.load`) | {o['load_us_median'] / 1000:.3f} | {o['load_us_p99'] / 1000:.3f} |")
    add(f"| of it: parse and check (`PresetCoding.decode`) | {o['decode_us_median'] / 1000:.3f} | {o['decode_us_p99'] / 1000:.3f} |")
    add("")
    period = r["period_ms"]
    limit = period + 1
    add(f"In JACK: `crosspoint serve --inputs 64 --outputs 64` on `jackd -r -d dummy -r 48000 -p 64`, with A and B "
        f"in its presets directory; input 1 held at 1.0 by a JACK client, output 1 watched by another "
        f"(tools/bench/probe.c). A and B give output 1 different gains from input 1. Each trial waits for the last "
        f"fade to land, then sends `/preset/recall B {FADE}` (then `A`, and so on) and takes the time from "
        f"`sendto()` to the watching client's callback that first sees a sample of output 1 move, on JACK's "
        f"microsecond clock; {r['measured']} trials, {r['refused']} refused. A plain message on the same rig "
        f"(`/matrix/1/1 1 0`, {plain['measured']} trials) for comparison:")
    add("")
    add("| | p50 ms | p99 ms | max ms | p50 periods | p99 periods |")
    add("|---|---|---|---|---|---|")
    add(f"| `/preset/recall` → first sample of the crossfade | {r['latency_ms_p50']:.3f} | {r['latency_ms_p99']:.3f} | "
        f"{r['latency_ms_max']:.3f} | {r['periods_p50']:.2f} | {r['periods_p99']:.2f} |")
    add(f"| `/matrix/1/1` → first affected sample | {plain['seen_ms_p50']:.3f} | {plain['seen_ms_p99']:.3f} | "
        f"{plain['seen_ms_max']:.3f} | {plain['seen_ms_p50'] / period:.2f} | {plain['seen_ms_p99'] / period:.2f} |")
    add("")
    cycles = [r["cycles_0"], r["cycles_1"], r["cycles_2"], r["cycles_3_or_more"]]
    share = [100 * c / max(1, r["measured"]) for c in cycles]
    add(f"Where the crossfade started, counted in JACK cycles from the first cycle whose watching callback ran after "
        f"the send: in that cycle (the period after receipt) {cycles[0]} times ({share[0]:.0f} %), one cycle later "
        f"{cycles[1]} ({share[1]:.0f} %), two later {cycles[2]} ({share[2]:.0f} %), three or more later "
        f"{cycles[3]} ({share[3]:.0f} %).")
    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(p * (len(values) - 1) + 0.5))]
    after = []
    if prepared:
        add("The server's own log of each recall (\"read and prepared in\", receipt to the batch in the queue): "
            f"p50 {pct(prepared, 0.5):.3f} ms, p99 {pct(prepared, 0.99):.3f} ms, max {max(prepared):.3f} ms over "
            f"{len(prepared)} recalls.")
        # The log's first recall is the probe's initial one of A; then one per trial, in order.
        if len(prepared) == len(r["latency_ms_each"]) + 1:
            after = [lat - prep for lat, prep in zip(r["latency_ms_each"], prepared[1:]) if lat >= 0]
    if after:
        add(f"Taking each recall's own preparation time off its latency leaves the time from the batch in the queue to "
            f"the first sample of the crossfade: p50 {pct(after, 0.5):.3f} ms, p99 {pct(after, 0.99):.3f} ms, max "
            f"{max(after):.3f} ms (a plain message, from its sending: p50 {plain['seen_ms_p50']:.3f} ms, p99 "
            f"{plain['seen_ms_p99']:.3f} ms).")
    add("")
    # The parse-and-prepare target is judged on recalls that do read the file.
    ok_median = o["recall_first_read_us_median"] / 1000 <= 5
    ok_p99 = o["recall_first_read_us_p99"] / 1000 <= 5
    ok_start = r["latency_ms_p99"] <= limit
    targets.append((f"{TARGET}: read, parse and prepare, median (ms)", o["recall_first_read_us_median"] / 1000, 5, ok_median))
    targets.append((f"{TARGET}: read, parse and prepare, p99 (ms)", o["recall_first_read_us_p99"] / 1000, 5, ok_p99))
    targets.append((f"{TARGET}: send → crossfade start, p99 (ms)", r["latency_ms_p99"], round(limit, 4), ok_start))
    add(f"Targets: parse and prepare at most 5 ms: {verdict(ok_median)} for the median, {verdict(ok_p99)} for the p99. "
        f"The crossfade starts in the period after receipt, i.e. within one period plus 1 ms for the wakeups "
        f"(the OSC latency target's allowance), {limit:.3f} ms, at p99: {verdict(ok_start)}.")
    if after:
        ok_after = pct(after, 0.99) <= limit
        targets.append((f"{TARGET}: prepared → crossfade start, p99 (ms)", pct(after, 0.99), round(limit, 4),
                        ok_after))
        add(f"From the end of the preparation, within {limit:.3f} ms at p99: {verdict(ok_after)}.")
    add("")
    add("```sh")
    add(f"{binary} bench --recall --json --trials {bench_trials} --fade {FADE} --presets DIR    # writes A and B to DIR")
    add("jackd -n NAME -r -d dummy -r 48000 -p 64 &")
    add(f"{binary} serve --inputs 64 --outputs 64 --jack-server NAME --no-autostart --osc-port 0 --http-port 0 --presets DIR &")
    add(f"crosspoint-probe recall P {trials} A B {FADE}")
    add(f"crosspoint-probe latency P {trials}")
    add("scripts/bench --only recall    # this section alone")
    add("```")
    add("")
    return lines, targets
