"""Control during preset saves, for BENCHMARKS.md (`--only saves` alone): on a 64x64 `serve`,
bursts of 100 back-to-back /preset/save from one client, while a second client's /ping round trip and
a third client's fader message (send -> first affected sample) are timed, beside the same with no
saves (tools/bench/probe.c saves)."""
import json
import os

from common import log, run, send, verdict
from jackrig import Rig

TARGET = "fader message during preset saves"


def saves_benchmark(binary, probe, workdir, rounds, saves):
    """Control while presets are written: /ping round trips and a fader message's latency, with and without
    bursts of back-to-back saves of a 64x64 scene with every crosspoint in use."""
    label = "serve-saves"
    rig = Rig(workdir)
    try:
        rig.serve(binary, 64, 64, 0, label)
        port = rig.osc_port
        send(binary, port, "/matrix/*/*", "0.5")  # every crosspoint in the files, as in the recall benchmark
        log(f"control during preset saves, {rounds} rounds of {saves} saves")
        result = json.loads(run([probe, "saves", str(port), str(rounds), str(saves)], env=rig.env)
                            .strip().splitlines()[-1])
        presets = os.path.join(workdir, f"{label}-state", "presets")
        result["file_bytes"] = os.path.getsize(os.path.join(presets, "bench-0.json"))
        df = run(["df", "-T", presets], check=False).strip().splitlines()
        result["file_system"] = df[-1].split()[1] if len(df) > 1 else "?"
        return result
    finally:
        rig.close()


def saves_report(result, binary, rounds, saves):
    """The "## Control during preset saves" section's lines, and its rows of the Targets table."""
    lines, targets = [], []
    add = lines.append
    add("## Control during preset saves")
    add("")
    if not result:
        add("Not measured in this run.")
        add("")
        return lines, targets
    d, w = result["during_saves"], result["without_saves"]
    period = result["period_ms"]
    limit = period + 1
    add(f"`crosspoint serve --inputs 64 --outputs 64` on `jackd -r -d dummy -r 48000 -p 64`, every crosspoint in "
        f"use, so each preset file is {result['file_bytes'] / 1024:.0f} KiB (on {result['file_system']}, written "
        f"durably: temporary file, fsync, rename, directory fsync). {result['rounds']} rounds; in each, one client "
        f"sends {result['saves_per_round']} `/preset/save` back to back (10 names in turn) and waits for every "
        f"reply (a burst took p50 {result['burst_ms_p50']:.1f} ms, {result['burst_ms_min']:.1f}–"
        f"{result['burst_ms_max']:.1f} ms; {result['saved']} saved, {result['refused']} refused, "
        f"{result['unanswered']} unanswered), then nothing is saved for as long again. Through both halves a "
        "second client sends `/ping` and waits for `/pong`, again and again 2 ms apart, and a third sets `/matrix/1/1` to "
        "0, waits for output 1 to read 0, sends `/matrix/1/1 1 0` and times `sendto()` to the JACK callback that "
        "first sees output 1 move (tools/bench/probe.c saves; input 1 held at 1.0).")
    add("")

    def share(f, k):
        total = sum(f[f"cycles_{c}"] for c in ("0", "1", "2", "3_or_more"))
        return f"{100 * f[k] / total:.0f} %" if total else "–"

    add("| | without saves | during saves |")
    add("|---|---|---|")
    add(f"| `/ping` round trip, p50 ms | {w['ping_ms_p50']:.3f} | {d['ping_ms_p50']:.3f} |")
    add(f"| `/ping` round trip, p99 ms | {w['ping_ms_p99']:.3f} | {d['ping_ms_p99']:.3f} |")
    add(f"| `/ping` round trip, max ms | {w['ping_ms_max']:.3f} | {d['ping_ms_max']:.3f} |")
    add(f"| pings (unanswered) | {w['pings']} ({w['unanswered_pings']}) | {d['pings']} ({d['unanswered_pings']}) |")
    add(f"| `/matrix/1/1` → first affected sample seen, p50 ms | {w['fader_ms_p50']:.3f} | {d['fader_ms_p50']:.3f} |")
    add(f"| `/matrix/1/1` → first affected sample seen, p99 ms | {w['fader_ms_p99']:.3f} | {d['fader_ms_p99']:.3f} |")
    add(f"| `/matrix/1/1` → first affected sample seen, max ms | {w['fader_ms_max']:.3f} | {d['fader_ms_max']:.3f} |")
    add(f"| seen in the first cycle after the send / one later / two / more | {share(w, 'cycles_0')} / "
        f"{share(w, 'cycles_1')} / {share(w, 'cycles_2')} / {share(w, 'cycles_3_or_more')} | {share(d, 'cycles_0')} / "
        f"{share(d, 'cycles_1')} / {share(d, 'cycles_2')} / {share(d, 'cycles_3_or_more')} |")
    add(f"| fader messages (not seen within 1 s) | {w['faders']} ({w['unseen_faders']}) | {d['faders']} ({d['unseen_faders']}) |")
    add("")
    ok = d["fader_ms_p99"] <= limit and d["unseen_faders"] == 0
    targets.append((f"{TARGET}: send → first affected sample, p99 (ms)", d["fader_ms_p99"], round(limit, 4), ok))
    add(f"Target: a fader message sent while presets are being written reaches the audio in the next period, as "
        f"any message does (the OSC latency target: p99 within one period plus 1 ms, {limit:.3f} ms): "
        f"{verdict(ok)}; without saves, in the same run, p99 {w['fader_ms_p99']:.3f} ms: "
        f"{verdict(w['fader_ms_p99'] <= limit)} by the same limit. The saves are written on the preset writer's "
        "thread; the thread that handles OSC only checks each save and hands it over (docs/presets.md).")
    add("")
    add("```sh")
    add("jackd -n NAME -r -d dummy -r 48000 -p 64 &")
    add(f"{binary} serve --inputs 64 --outputs 64 --jack-server NAME --no-autostart --osc-port 0 --http-port 0 &")
    add(f"{binary} send --port P '/matrix/*/*' 0.5")
    add(f"crosspoint-probe saves P {rounds} {saves}")
    add("scripts/bench --only saves    # this section alone")
    add("```")
    add("")
    return lines, targets
