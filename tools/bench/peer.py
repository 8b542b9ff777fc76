"""The whole process in JACK beside a peer, for BENCHMARKS.md: jack_mix_box (48 mono -> stereo) and
`crosspoint serve --inputs 48 --outputs 2` (every source routed to both outputs) on one
`jackd -r -d dummy -r 48000 -p 64`, fed the same tone (tools/bench/probe.c tone), CPU time of each
process (all threads, /proc/PID/task/*/schedstat) over the same 20 s."""
import time

from common import run, send, verdict
from jackrig import Rig
from procstat import cpu_ns, rss_parts


def peer_comparison(binary, probe, workdir, seconds):
    rig = Rig(workdir)
    try:
        rig.start([probe, "tone", str(seconds + 30)], "tone")
        rig.wait_for_port("xp_tone:out")
        mixbox = None
        for attempt in range(3):  # jack_mix_box sometimes crashes while starting
            mixbox = rig.start(["jack_mix_box", "-n", "mixbox"] + [str(cc) for cc in range(1, 49)], "jack_mix_box")
            try:
                rig.wait_for_port("mixbox:Channel 48", timeout=5)
                time.sleep(0.5)
                if mixbox.poll() is None:
                    break
            except RuntimeError:
                pass
            rig.stop(mixbox)
        if mixbox is None or mixbox.poll() is not None:
            raise RuntimeError("jack_mix_box did not start")
        serve = rig.serve(binary, 48, 2, 0, "serve-48x2")
        port = rig.osc_port
        send(binary, port, "/matrix/*/1", "1")
        send(binary, port, "/matrix/*/2", "1")
        map_reply = run([binary, "send", "--port", str(port), "--wait", "0.3", "/matrix/48/2"])
        for n in range(1, 49):
            rig.connect("xp_tone:out", f"mixbox:Channel {n}")
            rig.connect("xp_tone:out", f"crosspoint:in_{n}")
        for side, m in (("L", 1), ("R", 2)):
            rig.connect(f"mixbox:MAIN {side}", f"system:playback_{m}")
            rig.connect(f"crosspoint:out_{m}", f"system:playback_{m}")
        time.sleep(2)
        before = {"jack_mix_box": cpu_ns(mixbox.pid), "crosspoint": cpu_ns(serve.pid)}
        start = time.monotonic()
        time.sleep(seconds)
        elapsed = time.monotonic() - start
        after = {"jack_mix_box": cpu_ns(mixbox.pid), "crosspoint": cpu_ns(serve.pid)}
        status = run([binary, "send", "--port", str(port), "--wait", "0.3", "/status"], check=False)
        memory = {"jack_mix_box": rss_parts(mixbox.pid), "crosspoint": rss_parts(serve.pid)}
        alive = mixbox.poll() is None and serve.poll() is None
        result = {name: {"cpu_seconds": (after[name] - before[name]) / 1e9,
                         "cpu_percent": (after[name] - before[name]) / 1e9 / elapsed * 100} for name in before}
        for name in result:
            result[name]["rss"] = memory[name]
        result.update(seconds=elapsed, both_alive=alive, routing_check=map_reply.strip(), status=status.strip())
        return result
    finally:
        rig.close()


def peer_report(peer):
    """The "## Whole process in JACK, beside a peer" section's lines, and its rows of the Targets table."""
    lines, targets = [], []
    add = lines.append
    add("## Whole process in JACK, beside a peer")
    add("")
    if peer:
        mix, ours_cpu = peer["jack_mix_box"], peer["crosspoint"]
        ratio = ours_cpu["cpu_seconds"] / mix["cpu_seconds"] if mix["cpu_seconds"] else float("nan")
        add(f"One `jackd -r -d dummy -r 48000 -p 64`; a tone into all 48 inputs of both; both outputs to "
            f"`system:playback_1/2`; CPU time of each whole process (all threads) over the same "
            f"{peer['seconds']:.1f} s.")
        add("")
        add("| process | CPU s | % of one core |")
        add("|---|---|---|")
        add(f"| `jack_mix_box` (jack-mixer), 48 mono channels → stereo | {mix['cpu_seconds']:.3f} | {mix['cpu_percent']:.2f} |")
        add(f"| `crosspoint serve --inputs 48 --outputs 2`, every source to both outputs | {ours_cpu['cpu_seconds']:.3f} | {ours_cpu['cpu_percent']:.2f} |")
        add("")
        ok = ratio <= 0.5
        targets.append(("CPU time vs jack_mix_box", ratio, 0.5, ok))
        add(f"Ratio crosspoint / jack_mix_box: **{ratio:.2f}** (target ≤ 0.5: {verdict(ok)}). "
            f"Routing check (`/matrix/48/2` query): `{peer['routing_check']}`. Both still running at the end: "
            f"{peer['both_alive']}.")
    else:
        add("Not measured in this run.")
    add("")
    return lines, targets
