"""OSC on loopback, for BENCHMARKS.md: the highest loss-free message rate from one client
(tools/bench/probe.c rate) and the latency from sending a message to the first affected output
sample (probe.c latency), on an 8x8 `crosspoint serve`."""
import json

from common import log, run, verdict
from jackrig import Rig

RATES = [10_000, 20_000, 30_000, 40_000, 50_000, 75_000, 100_000, 150_000, 200_000]


def osc_benchmarks(binary, probe, workdir, rates, rate_seconds, trials):
    rig = Rig(workdir)
    try:
        rig.serve(binary, 8, 8, 0, "serve-8x8")
        port = rig.osc_port
        latency = json.loads(run([probe, "latency", str(port), str(trials)], env=rig.env).strip().splitlines()[-1])
        ladder = []
        for rate in rates:
            result = json.loads(run([probe, "rate", str(port), str(rate), str(rate_seconds), "64"]).strip().splitlines()[-1])
            ladder.append(result)
            log(f"OSC rate {rate}/s: achieved {result['achieved_rate']}/s, loss free: {result['loss_free']}")
        return latency, ladder
    finally:
        rig.close()


def osc_report(latency, ladder):
    """The "## OSC" section's lines (the rate ladder, then the latency), and its rows of the Targets table."""
    lines, targets = [], []
    add = lines.append
    add("## OSC")
    add("")
    if ladder:
        add("One client on loopback (tools/bench/probe.c), each message its own UDP datagram to "
            "`/matrix/n/m ,ff value 0` over 64 crosspoints of an 8x8 `serve`; afterwards a last distinct value "
            "to each of the 64, then a query of each. Loss-free = the kernel dropped no datagram on the server's "
            "socket (`/proc/net/udp`) and every queried value equals the last one sent.")
        add("")
        add("| requested msg/s | achieved msg/s | messages | kernel drops | final mismatches | server caught up after s | loss-free |")
        add("|---|---|---|---|---|---|---|")
        best = 0
        for r in ladder:
            add(f"| {r['requested_rate']:.0f} | {r['achieved_rate']:.0f} | {r['sent']} | {r['kernel_drops']} | "
                f"{r['final_mismatches'] + r['unanswered_queries']} | {r['catch_up_seconds']:.3f} | {r['loss_free']} |")
            if r["loss_free"]:
                best = max(best, r["achieved_rate"])
        ok = best >= 100_000
        targets.append(("loss-free OSC rate (msg/s)", best, 100_000, ok))
        add("")
        add(f"Highest loss-free rate measured: **{best:.0f} messages/s** (target ≥ 100,000: {verdict(ok)}). "
            "A rate counts only if the server also caught up (answered a `/ping` sent after the last message) "
            "within 10 s.")
    if latency:
        add("")
        limit = latency["period_ms"] + 1
        ok = latency["seen_ms_p99"] <= limit
        targets.append(("OSC latency p99 (ms)", latency["seen_ms_p99"], limit, ok))
        add(f"Latency from `sendto()` of `/matrix/1/1 1 0` to the first affected output sample, {latency['measured']} "
            "trials, input 1 held at 1.0 by a JACK client, output 1 read by another; both times on JACK's "
            "microsecond clock (`jack_get_time`). The sample is taken as produced when the reading client's "
            "process callback, which runs right after the mixer's in the same cycle, sees it.")
        add("")
        add("| | p50 ms | p99 ms | max ms |")
        add("|---|---|---|---|")
        add(f"| send → first affected sample seen | {latency['seen_ms_p50']:.3f} | {latency['seen_ms_p99']:.3f} | {latency['seen_ms_max']:.3f} |")
        add("")
        add(f"Target: p99 ≤ one period + 1 ms = {limit:.3f} ms: {verdict(ok)}. (JACK's frame clock, "
            "`jack_frames_to_time`, is not used: on the dummy backend it is offset from the callbacks by "
            "milliseconds, in either direction.)")
    add("")
    return lines, targets
