"""MIDI control surfaces (issue 38) for BENCHMARKS.md (`scripts/bench --only surfaces`).

Against the real `crosspoint serve` on a private jackd (dummy backend, 48 kHz):

- Latency, at periods of 64 and 256 frames: a rig of 16x8 with one Mackie
  Control unit (`--mcu xt`); a JACK MIDI client in this process (python's
  `jack` module) takes `crosspoint:xt_out`. Each trial sends
  `/source/{k}/fader ,f v` over UDP, a fader after another and each value
  distinct, and reads JACK's frame clock just before the send; the delay
  is the frame of the pitch bend that carries v, from the recorder's
  process callback, minus that frame. JACK's own clock on both sides: what
  a motor fader sees, less the MIDI cable.
- CPU: a rig of 16x8, 64 frames, with two units (`--mcu a --mcu b`, 16
  strips, both connected to the recorder) while every source's fader fades
  back and forth over 2 s (`/source/{n}/fader ,ff v 2`, all 16 at once),
  beside the same rig and fades without surfaces; in alternating rounds,
  the serve process's CPU time (/proc/PID/task/*/schedstat) over the
  round. Target: at most 1 % of a core more.
"""
import os
import statistics
import sys
import threading
import time

import jack

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import osc  # tools/lib/osc.py
from common import load_average
from procstat import cpu_ns

HEADING = "## MIDI control surfaces"
TARGET = "surfaces"
PERIODS = (64, 256)
TRIALS = 200
GAP = 0.03  # s between trials: a fader's change is fed back at once, so each trial stands alone
FADE_SECONDS = 2.0
BOUND = 1.0  # % of a core


class Recorder:
    """A JACK MIDI client whose input port records (frame, bytes) of every event, from its process callback."""

    def __init__(self, server, name="xp-bench-midi"):
        self.client = jack.Client(name, servername=server, no_start_server=True)
        self.port = self.client.midi_inports.register("in")
        self.events = []
        self.lock = threading.Lock()

        @self.client.set_process_callback
        def process(frames):
            start = self.client.last_frame_time
            found = [(start + offset, bytes(data)) for offset, data in self.port.incoming_midi_events()]
            if found:
                with self.lock:
                    self.events.extend(found)

        self.client.activate()

    def take(self):
        with self.lock:
            events, self.events = self.events, []
        return events

    def close(self):
        self.client.deactivate()
        self.client.close()


def latency(binary, workdir, Rig, period, log):
    """Delays in ms from a fader's OSC change to its pitch bend on the surface's port."""
    rig = Rig(workdir, period=period, realtime=True)
    recorder = None
    try:
        rig.serve(binary, 16, 8, 0, label=f"surfaces-latency-{period}", extra=["--mcu", "xt"])
        rig.wait_for_port("crosspoint:xt_out")
        recorder = Recorder(rig.name)
        rig.connect("crosspoint:xt_out", f"{recorder.client.name}:in")
        time.sleep(0.5)
        recorder.take()
        rate = recorder.client.samplerate
        delays = []
        with osc.Client(rig.osc_port) as client:
            for trial in range(TRIALS):
                strip = trial % 8
                value = 0.1 + 0.8 * ((trial * 37) % 199) / 199
                raw = round(value * 16383)
                wanted = bytes([0xE0 | strip, raw & 0x7F, raw >> 7])
                sent = recorder.client.frame_time
                client.send(f"/source/{strip + 1}/fader", float(value))
                time.sleep(GAP)
                heard = [frame for frame, data in recorder.take() if data == wanted]
                if heard:
                    delays.append((heard[0] - sent) * 1000 / rate)
        log(f"surfaces: {period} frames: {len(delays)} of {TRIALS} changes heard")
        return delays
    finally:
        if recorder:
            recorder.close()
        rig.close()


def cpu_round(binary, workdir, Rig, surfaces, seconds, label):
    """The serve process's CPU, in % of a core, over `seconds` of fades on every source."""
    rig = Rig(workdir, period=64, realtime=True)
    recorder = None
    try:
        extra = ["--mcu", "a", "--mcu", "b"] if surfaces else []
        process = rig.serve(binary, 16, 8, 0, label=label, extra=extra)
        if surfaces:
            recorder = Recorder(rig.name)
            for unit in ("a", "b"):
                rig.wait_for_port(f"crosspoint:{unit}_out")
                rig.connect(f"crosspoint:{unit}_out", f"{recorder.client.name}:in")
        time.sleep(1)
        with osc.Client(rig.osc_port) as client:
            before, started, high = cpu_ns(process.pid), time.monotonic(), True
            while time.monotonic() - started < seconds:
                for n in range(1, 17):
                    client.send(f"/source/{n}/fader", 0.9 if high else 0.2, FADE_SECONDS)
                high = not high
                time.sleep(FADE_SECONDS)
            used, took = cpu_ns(process.pid) - before, time.monotonic() - started
        heard = len(recorder.take()) if recorder else 0
        return 100 * used / (took * 1e9), heard
    finally:
        if recorder:
            recorder.close()
        rig.close()


def surfaces_benchmarks(binary, workdir, Rig, rounds, log):
    results = {"latency": {}, "cpu": {"none": [], "two": []}, "heard": [], "load": load_average(), "rounds": rounds}
    for period in PERIODS:
        results["latency"][period] = latency(binary, workdir, Rig, period, log)
    seconds = 10 * FADE_SECONDS
    for r in range(rounds):
        for side in ("none", "two"):
            cpu, heard = cpu_round(binary, workdir, Rig, side == "two", seconds, f"surfaces-cpu-{side}-{r}")
            results["cpu"][side].append(cpu)
            if side == "two":
                results["heard"].append(heard)
            log(f"surfaces: round {r + 1}, {side}: {cpu:.2f} % of a core")
    results["seconds"] = seconds
    return results


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def surfaces_report(measured, binary, verdict):
    """The section's lines, and its rows of the Targets table."""
    lines, targets = [HEADING, ""], []
    add = lines.append
    add(f"`{binary} serve --mcu xt` (16x8) on a private jackd, dummy backend, 48 kHz: an OSC change of a "
        f"source's fader (`/source/k/fader ,f`, {TRIALS} changes {int(GAP * 1000)} ms apart, each value distinct) "
        "to its pitch bend on `crosspoint:xt_out`, both ends on JACK's frame clock (the frame read just before the "
        "send; the frame of the event in a JACK MIDI client's process callback). Load at the start "
        f"{measured['load']}.")
    add("")
    add("| period | changes heard | median ms | p99 ms | most ms | one period ms |")
    add("|---|---|---|---|---|---|")
    for period, delays in measured["latency"].items():
        if not delays:
            add(f"| {period} | 0 of {TRIALS} | | | | |")
            continue
        add(f"| {period} | {len(delays)} of {TRIALS} | {statistics.median(delays):.2f} | "
            f"{percentile(delays, 99):.2f} | {max(delays):.2f} | {period / 48:.2f} |")
    add("")
    none, two = measured["cpu"]["none"], measured["cpu"]["two"]
    more = min(two) - min(none)
    ok = more <= BOUND
    targets.append(("surfaces: serve's CPU with two MCU units following 16 fades, more than without (% of a core)",
                    more, BOUND, ok))
    add(f"CPU of `serve` (all its threads) while all 16 sources fade back and forth over {FADE_SECONDS:.0f} s, "
        f"{measured['seconds']:.0f} s a round, {measured['rounds']} alternating rounds, 64 frames: with two "
        "Mackie Control units (`--mcu a --mcu b`, 16 strips, both recorded) beside the same without surfaces. "
        f"The units were sent {', '.join(str(h) for h in measured['heard'])} MIDI events a round.")
    add("")
    add("| | without surfaces | two MCU units | more | target |")
    add("|---|---|---|---|---|")
    add(f"| % of a core, best round | {min(none):.2f} | {min(two):.2f} | {more:+.2f} | ≤ {BOUND} {verdict(ok)} |")
    add(f"| % of a core, every round | {', '.join(f'{c:.2f}' for c in none)} | "
        f"{', '.join(f'{c:.2f}' for c in two)} | | |")
    add("")
    return lines, targets
