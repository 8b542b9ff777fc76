#!/usr/bin/env python3
"""Runs Crosspoint's benchmarks and writes BENCHMARKS.md (see scripts/bench).

1. Kernel sweep: `crosspoint bench --json` (the real render kernel, offline)
   beside single-threaded OpenBLAS sgemm of the same shapes (tools/bench/sgemm.py),
   in alternating rounds; per configuration the best round's median counts,
   on both sides alike (a shared 2-core machine is noisy).
2. Whole process in JACK: jack_mix_box (48 mono -> stereo) and
   `crosspoint serve --inputs 48 --outputs 2` (every source routed to both
   outputs) on one `jackd -r -d dummy -r 48000 -p 64`, fed the same tone, CPU
   time of each process (all threads, /proc/PID/task/*/schedstat) over the
   same 20 s.
3. OSC: highest loss-free message rate from one client on loopback, and
   send -> first affected sample latency (tools/bench/probe.c).
4. Preset recall: read, parse and prepare of a 64x64 preset with every
   crosspoint in use (`crosspoint bench --recall`), and in JACK the time from
   sending /preset/recall to the first output sample that moves
   (tools/bench/probe.c recall), beside a plain message's latency on the same rig.
5. Control during preset saves: on a 64x64 `serve`, bursts of 100
   back-to-back /preset/save from one client, while a second client's /ping
   round trip and a third client's fader message (send -> first affected
   sample) are timed, beside the same with no saves (tools/bench/probe.c saves).
6. Memory: resident size of `serve` at 64x64 over a minute of OSC traffic.
7. Timed bundles and one-period recalls (timing.py), and feedback fan-out:
   64 subscribers while 4 clients drag faders (fanout.py), the full state on
   /subscribe (fullstate.py), OSCQuery discovery at 8x8, 64x64 and
   256x256 (discovery.py), and the control page in headless Chromium
   (page.py), in their own modules.

`--only recall`, `--only saves`, `--only fanout`, `--only fullstate`, `--only discovery` and `--only page` run
that benchmark alone
and replace its section and its rows of the Targets table in an existing --out
(BENCHMARKS.md by default); an --out that does not exist gets that section alone.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import discovery
import discovery_report
import fanout
import fanout_report
import fullstate
import page
import timing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def log(*words):
    print("bench:", *words, file=sys.stderr, flush=True)


def run(command, env=None, check=True):
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def sgemm_env():
    # OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE may be set on this kind of machine
    # for old OpenBLAS builds; they slow a current numpy. Unset both for this
    # command only (the kernel used is recorded in the results).
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["OPENBLAS_NUM_THREADS"] = "1"
    return env


# ---------------------------------------------------------------- machine

def machine():
    info = {}
    lscpu = run(["lscpu"], check=False)
    for key in ["Model name", "Vendor ID", "CPU(s)", "Thread(s) per core", "L1d cache", "L2 cache", "L3 cache",
                "Hypervisor vendor"]:
        match = re.search(rf"^{re.escape(key)}:\s*(.+)$", lscpu, re.M)
        if match:
            info[key] = match.group(1).strip()
    flags = re.search(r"^Flags:\s*(.+)$", lscpu, re.M)
    if flags:
        have = flags.group(1).split()
        info["vector units"] = " ".join(f for f in ["sse4_2", "avx", "avx2", "fma", "avx512f"] if f in have)
    with open("/proc/meminfo") as f:
        info["memory"] = f"{int(f.readline().split()[1]) // 1024 // 1024} GiB"
    try:
        with open("/etc/os-release") as f:
            info["os"] = re.search(r'PRETTY_NAME="([^"]+)"', f.read()).group(1)
    except Exception:
        info["os"] = platform.platform()
    info["kernel"] = platform.release()
    info["swift"] = run(["swift", "--version"], check=False).strip().splitlines()[0] if shutil.which("swift") else "?"
    info["jackd"] = (run(["jackd", "--version"], check=False).strip().splitlines() or ["?"])[0]
    commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], check=False).strip()
    dirty = run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--",
                 "Sources", "Tests", "Package.swift", "tools", "scripts"], check=False).strip()
    info["commit"] = commit + (" (with uncommitted changes to the code)" if dirty else "")
    info["build"] = "swift build -c release; MixCore compiled with -O -target-cpu haswell (AVX2, FMA)"
    return info


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# ---------------------------------------------------------------- kernel sweep

def kernel_sweep(binary, rounds, seconds):
    ours, reference = {}, {}
    for r in range(rounds):
        log(f"kernel sweep, round {r + 1}/{rounds} (load {load_average()})")
        for result in json_lines(run([binary, "bench", "--json", "--seconds", str(seconds)])):
            key = (result["inputs"], result["density"], result["ramping"])
            if key not in ours or result["us_per_period_median"] < ours[key]["us_per_period_median"]:
                ours[key] = result
        for result in json_lines(run([sys.executable, os.path.join(ROOT, "tools/bench/sgemm.py"),
                                      "8,32,64,128,256", "64", str(seconds)], env=sgemm_env())):
            n = result["n"]
            if n not in reference or result["us_per_call_median"] < reference[n]["us_per_call_median"]:
                reference[n] = result
    return ours, reference


# ---------------------------------------------------------------- JACK helpers

class Rig:
    """A private jackd on the dummy backend, and the processes started on it."""

    def __init__(self, workdir, period=64, realtime=False):
        self.name = f"xp-bench-{os.getpid()}"
        self.env = dict(os.environ, JACK_DEFAULT_SERVER=self.name)
        self.workdir = workdir
        self.processes = []
        # Real-time scheduling (-R, synchronous -S) where asked and allowed
        # (root, or rtprio): what a stage machine runs.
        self.realtime = realtime and subprocess.run(["chrt", "-f", "10", "true"], capture_output=True).returncode == 0
        mode = ["-R", "-S"] if self.realtime else ["-r"]
        # JACK2 keeps at most 8 servers per machine: while other work (a test
        # suite) holds them, wait and try again.
        for attempt in range(30):
            self.jackd = self.start(["jackd", "-n", self.name] + mode + ["-d", "dummy", "-r", "48000",
                                                                         "-p", str(period)], "jackd")
            for _ in range(50):
                if self.jackd.poll() is not None:
                    break
                if subprocess.run(["jack_lsp"], env=self.env, capture_output=True).returncode == 0:
                    return
                time.sleep(0.1)
            self.stop(self.jackd)
            self.processes.remove(self.jackd)
            log("jackd did not start, trying again")
            time.sleep(2)
        raise RuntimeError("jackd did not start")

    def start(self, command, label, env=None):
        out = open(os.path.join(self.workdir, f"{label}.log"), "w")
        process = subprocess.Popen(command, env=env or self.env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def stop(self, process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def close(self):
        for process in reversed(self.processes):
            self.stop(process)

    def ports(self):
        return subprocess.run(["jack_lsp"], env=self.env, capture_output=True, text=True).stdout.splitlines()

    def wait_for_port(self, port, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if port in self.ports():
                return
            time.sleep(0.1)
        raise RuntimeError(f"no JACK port {port}")

    def connect(self, a, b):
        subprocess.run(["jack_connect", a, b], env=self.env, capture_output=True)

    def serve(self, binary, inputs, outputs, port, label="serve", extra=()):
        state = os.path.join(self.workdir, f"{label}-state")
        os.makedirs(os.path.join(state, "presets"), exist_ok=True)
        process = self.start([binary, "serve", "--inputs", str(inputs), "--outputs", str(outputs),
                              "--osc-port", str(port), "--http-port", "0", "--no-autostart", "--jack-server", self.name,
                              "--presets", os.path.join(state, "presets"),
                              "--state", os.path.join(state, "state.json"), *extra], label)
        log_path = os.path.join(self.workdir, f"{label}.log")
        deadline = time.time() + 20
        while time.time() < deadline:
            with open(log_path) as f:
                ready = re.search(r"ready: OSC on UDP port (\d+)", f.read())
            if ready:
                self.osc_port = int(ready.group(1))
                return process
            if process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"crosspoint serve did not become ready:\n{open(log_path).read()}")


def cpu_ns(pid):
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError):
            pass
    return total


def rss_kib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(rf"^{field}:\s+(\d+)", f.read(), re.M).group(1))


def rss_parts(pid):
    """Resident KiB: total, private heap (anon), mapped files (libraries), shared memory (JACK's segment),
    and the proportional set sizes (shared pages divided among the processes that map them)."""
    parts = {field: rss_kib(pid, field) for field in ("VmRSS", "RssAnon", "RssFile", "RssShmem")}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            text = f.read()
        for field in ("Pss", "Pss_Anon", "Pss_File", "Pss_Shmem"):
            match = re.search(rf"^{field}:\s+(\d+)", text, re.M)
            if match:
                parts[field] = int(match.group(1))
    except OSError:
        pass
    return parts


def send(binary, port, *words):
    run([binary, "send", "--port", str(port), "--wait", "0.2", *words])


# ---------------------------------------------------------------- end to end

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


def rss_by_mapping(pid):
    """Resident KiB per mapped file (the executable, each library, each shared-memory file) and for
    anonymous memory (heap, stacks, [anon]), from /proc/PID/smaps; a library's copy-on-write pages
    (relocated data) count with the library."""
    totals = {}
    name = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            header = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
            if header:
                path = header.group(1).replace(" (deleted)", "")
                name = os.path.basename(path) if path.startswith("/") and not path.startswith("/dev/shm/") else path
                name = name or "[anon]"
            elif line.startswith("Rss:"):
                totals[name] = totals.get(name, 0) + int(line.split()[1])
    return totals


RECALL_FADE = 0.05
RECALL_TARGET = "64x64 preset recall"


def recall_benchmark(binary, probe, workdir, trials, bench_trials):
    """Offline timing of the controller's recall of a 64x64 preset, then the same presets recalled in JACK."""
    label = "serve-recall"
    presets = os.path.join(workdir, f"{label}-state", "presets")  # where Rig.serve points --presets
    offline = json_lines(run([binary, "bench", "--recall", "--json", "--trials", str(bench_trials),
                              "--fade", str(RECALL_FADE), "--presets", presets]))[-1]
    rig = Rig(workdir)
    try:
        rig.serve(binary, 64, 64, 0, label)
        port = rig.osc_port
        log(f"preset recall in JACK, {trials} trials")
        recall = json.loads(run([probe, "recall", str(port), str(trials), "A", "B", str(RECALL_FADE)],
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
    add(f"Offline, the controller's own handling of `/preset/recall B {RECALL_FADE}` and `A` in turn "
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
        f"fade to land, then sends `/preset/recall B {RECALL_FADE}` (then `A`, and so on) and takes the time from "
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
    targets.append((f"{RECALL_TARGET}: read, parse and prepare, median (ms)", o["recall_first_read_us_median"] / 1000, 5, ok_median))
    targets.append((f"{RECALL_TARGET}: read, parse and prepare, p99 (ms)", o["recall_first_read_us_p99"] / 1000, 5, ok_p99))
    targets.append((f"{RECALL_TARGET}: send → crossfade start, p99 (ms)", r["latency_ms_p99"], round(limit, 4), ok_start))
    add(f"Targets: parse and prepare at most 5 ms: {verdict(ok_median)} for the median, {verdict(ok_p99)} for the p99. "
        f"The crossfade starts in the period after receipt, i.e. within one period plus 1 ms for the wakeups "
        f"(the OSC latency target's allowance), {limit:.3f} ms, at p99: {verdict(ok_start)}.")
    if after:
        ok_after = pct(after, 0.99) <= limit
        targets.append((f"{RECALL_TARGET}: prepared → crossfade start, p99 (ms)", pct(after, 0.99), round(limit, 4),
                        ok_after))
        add(f"From the end of the preparation, within {limit:.3f} ms at p99: {verdict(ok_after)}.")
    add("")
    add("```sh")
    add(f"{binary} bench --recall --json --trials {bench_trials} --fade {RECALL_FADE} --presets DIR    # writes A and B to DIR")
    add("jackd -n NAME -r -d dummy -r 48000 -p 64 &")
    add(f"{binary} serve --inputs 64 --outputs 64 --jack-server NAME --no-autostart --osc-port 0 --http-port 0 --presets DIR &")
    add(f"crosspoint-probe recall P {trials} A B {RECALL_FADE}")
    add(f"crosspoint-probe latency P {trials}")
    add("scripts/bench --only recall    # this section alone")
    add("```")
    add("")
    return lines, targets


def splice_recall(path, section, targets, note):
    """Replaces the recall section and the recall rows of the Targets table of an existing report."""
    splice_section(path, section, targets, RECALL_TARGET, note)


def splice_section(path, section, targets, target_prefix, note, before="## Memory"):
    """Replaces a section (its heading is section[0]) and its rows of the Targets table (those starting
    with target_prefix) in an existing report; a section the report lacks goes in before `before`."""
    with open(path) as f:
        text = f.read()
    heading = section[0] + "\n"
    section = section[:2] + [note, ""] + section[2:]
    if heading in text:
        start = text.index(heading)
        end = text.index("\n## ", start) + 1
    else:
        start = end = text.index(before + "\n")
    text = text[:start] + "\n".join(section) + "\n" + text[end:]
    lines = text.split("\n")
    table = lines.index("## Targets")
    last = next(i for i in range(table, len(lines)) if lines[i].startswith("|"))
    while last + 1 < len(lines) and lines[last + 1].startswith("|"):
        last += 1
    kept = [line for line in lines[table:last + 1] if not line.startswith(f"| {target_prefix}")]
    kept += [f"| {name} | {value:.3f} | {limit} | {verdict(ok)} |" for name, value, limit, ok in targets]
    lines = lines[:table] + kept + lines[last + 1:]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def replace_or_write(args, info, started, section, targets, target_prefix):
    """For `--only NAME`: replaces the section and its Targets rows in --out, or writes a report of that
    section alone when --out does not exist yet."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    source = (f"a partial run, `scripts/bench --only {args.only}`, on {when} (UTC) at {info['commit']}, load average "
              f"{started['load']} / {load_average()}")
    if os.path.exists(args.out):
        splice_section(args.out, section, targets, target_prefix,
                       f"(This section and its rows of the Targets table come from {source}; the rest of the "
                       "file from the run above.)")
        log(f"replaced (or added) the {section[0][3:]} section of {args.out}")
    else:
        write_partial_report(args.out, info, section, targets, f"Written by {source}.")
        log(f"wrote {args.out}")


def write_partial_report(path, info, section, targets, note):
    """A report with one section, for a partial run whose --out does not exist yet."""
    lines = ["# Benchmarks (partial run)", "", note, "", "## Machine", "", "| | |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in info.items()]
    lines += [""] + section + ["## Targets", "", "| target | measured | limit | |", "|---|---|---|---|"]
    lines += [f"| {name} | {value:.3f} | {limit} | {verdict(ok)} |" for name, value, limit, ok in targets]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


SAVES_TARGET = "fader message during preset saves"


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
    targets.append((f"{SAVES_TARGET}: send → first affected sample, p99 (ms)", d["fader_ms_p99"], round(limit, 4), ok))
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


def memory_benchmark(binary, probe, workdir, seconds, rate):
    rig = Rig(workdir)
    try:
        serve = rig.serve(binary, 64, 64, 0, "serve-64x64")
        port = rig.osc_port
        samples = [(0.0, rss_kib(serve.pid))]
        parts = [rss_parts(serve.pid)]
        traffic = subprocess.Popen([probe, "rate", str(port), str(rate), str(seconds), "64"],
                                   stdout=subprocess.PIPE, text=True)
        start = time.monotonic()
        while traffic.poll() is None:
            time.sleep(5)
            samples.append((time.monotonic() - start, rss_kib(serve.pid)))
        samples.append((time.monotonic() - start, rss_kib(serve.pid)))
        parts.append(rss_parts(serve.pid))
        mappings = rss_by_mapping(serve.pid)
        outcome = json_lines(traffic.stdout.read())
        return {"samples": samples, "parts": parts, "mappings": mappings,
                "traffic": outcome[-1] if outcome else {}}
    finally:
        rig.close()


# ---------------------------------------------------------------- report

def verdict(ok):
    return "met" if ok else "**not met**"


def write_report(path, args, info, ours, reference, peer, latency, ladder, recall, saves, memory, started, finished,
                 commands):
    lines = []
    add = lines.append
    add("# Benchmarks")
    add("")
    add(f"Written by `scripts/bench` on {finished} (UTC). Every figure below comes from that one run; "
        "`scripts/bench` reproduces them (about 10 minutes). How the kernel works and what the targets mean: "
        "[docs/performance.md](docs/performance.md).")
    add("")
    add("## Machine")
    add("")
    add("| | |")
    add("|---|---|")
    for key, value in info.items():
        add(f"| {key} | {value} |")
    add(f"| load average at start / end | {started['load']} / {finished_load()} |")
    add("")
    add("The machine is a shared 2-core virtual machine: other work can run beside the benchmarks. The kernel "
        f"sweep therefore runs {args.rounds} alternating rounds of ours and of sgemm, and keeps for each "
        "configuration the round with the lowest median, on both sides alike.")
    add("")
    add("## Render kernel, offline (per 64-frame period at 48 kHz)")
    add("")
    arch = next(iter(reference.values()))["openblas"]
    add(f"Reference: numpy {numpy_version()} with OpenBLAS {arch.get('version', '?')} "
        f"(kernel {arch.get('architecture', '?')}), one thread, [64 x N] times [N x N] sgemm. "
        "Ratio = ours / sgemm of the same N (for 5% density: ours / dense sgemm).")
    add("")
    add("| size | mode | crosspoints in use | median µs | p99 µs | DSP load % | sgemm µs | ratio | target | |")
    add("|---|---|---|---|---|---|---|---|---|---|")
    targets = []
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
    section, recall_targets = recall_report(recall, os.path.relpath(args.binary, ROOT), args.recall_trials,
                                            args.recall_bench_trials)
    lines.extend(section)
    targets.extend(recall_targets)
    section, saves_targets = saves_report(saves, os.path.relpath(args.binary, ROOT), args.saves_rounds, args.saves)
    lines.extend(section)
    targets.extend(saves_targets)
    add("## Memory")
    add("")
    if memory:
        samples = memory["samples"]
        first, last = samples[0][1], samples[-1][1]
        peak = max(kib for _, kib in samples)
        after10 = next((kib for t, kib in samples if t >= 10), last)
        begin, end = memory["parts"][0], memory["parts"][-1]
        own_peak = end["RssAnon"] + end["RssFile"]
        traffic = memory["traffic"]
        flat = abs(last - after10) <= 1024
        ok_total = peak <= 32 * 1024 and flat
        ok_own = own_peak <= 32 * 1024 and flat
        targets.append(("serve 64x64 VmRSS, all of it (MiB)", peak / 1024, 32, ok_total))
        targets.append(("serve 64x64 RSS without JACK's shared segment (MiB)", own_peak / 1024, 32, ok_own))
        add(f"`crosspoint serve --inputs 64 --outputs 64` under {traffic.get('achieved_rate', 0):.0f} messages/s "
            f"for {samples[-1][0]:.0f} s ({traffic.get('sent', 0)} messages, loss-free: {traffic.get('loss_free')}). "
            "Resident size (VmRSS):")
        add("")
        add("| seconds | " + " | ".join(f"{t:.0f}" for t, _ in samples) + " |")
        add("|---|" + "---|" * len(samples))
        add("| MiB | " + " | ".join(f"{kib / 1024:.1f}" for _, kib in samples) + " |")
        add("")
        add("Where it is, at the start and at the end (MiB):")
        add("")
        add("| | total (VmRSS) | heap and stacks (RssAnon) | libraries and binary (RssFile) | shared memory (RssShmem) |")
        add("|---|---|---|---|---|")
        for label, p in (("start", begin), ("end", end)):
            add(f"| {label} | {p['VmRSS'] / 1024:.1f} | {p['RssAnon'] / 1024:.1f} | {p['RssFile'] / 1024:.1f} | {p['RssShmem'] / 1024:.1f} |")
        if "Pss" in end:
            add(f"| end, proportional (PSS) | {end['Pss'] / 1024:.1f} | {end.get('Pss_Anon', 0) / 1024:.1f} | "
                f"{end.get('Pss_File', 0) / 1024:.1f} | {end.get('Pss_Shmem', 0) / 1024:.1f} |")
        add("")
        add(f"Peak {peak / 1024:.1f} MiB, {last / 1024 - after10 / 1024:+.2f} MiB from 10 s to the end. "
            "The shared memory is JACK's engine segment (`/dev/shm/jack-*`), mapped by every client of the "
            "server and owned by `jackd`" + (f"; `jack_mix_box` maps {memory_peer_shm(peer)}" if peer else "") + ". "
            f"Target ≤ 32 MiB and flat: {verdict(ok_total)} for the whole VmRSS, {verdict(ok_own)} for the "
            "resident size without JACK's segment (heap, stacks, binary, libraries). The libraries' pages are "
            "shared with every other process that maps them; the proportional figure (PSS) without the shared "
            f"memory is {(end.get('Pss_Anon', 0) + end.get('Pss_File', 0)) / 1024:.1f} MiB.")
        mappings = memory.get("mappings")
        if mappings:
            own = {name: kib for name, kib in mappings.items() if not name.startswith("/dev/shm/")}
            shown = sorted(own.items(), key=lambda item: -item[1])[:12]
            rest = sum(own.values()) - sum(kib for _, kib in shown)
            add("")
            add("Without the shared memory, by mapping at the end (resident MiB, from `/proc/PID/smaps`; a "
                "library's relocated, copied-on-write pages count with it):")
            add("")
            add("| mapping | MiB |")
            add("|---|---|")
            for name, kib in shown:
                add(f"| `{name}` | {kib / 1024:.2f} |")
            add(f"| everything else | {rest / 1024:.2f} |")
            add(f"| total | {sum(own.values()) / 1024:.2f} |")
    add("")
    add("## Targets")
    add("")
    add("| target | measured | limit | |")
    add("|---|---|---|---|")
    for name, value, limit, ok in targets:
        add(f"| {name} | {value:.3f} | {limit} | {verdict(ok)} |")
    add("")
    add("## Commands")
    add("")
    add("```sh")
    for command in commands:
        add(command)
    add("```")
    add("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def memory_peer_shm(peer):
    shm = peer["jack_mix_box"]["rss"]["RssShmem"] / 1024
    total = peer["jack_mix_box"]["rss"]["VmRSS"] / 1024
    return f"{shm:.1f} MiB of it too (VmRSS {total:.1f} MiB in the comparison above)"


def finished_load():
    return load_average()


def numpy_version():
    try:
        import numpy
        return numpy.__version__
    except Exception:
        return "?"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/crosspoint"))
    parser.add_argument("--probe", required=True)
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--peer-seconds", type=float, default=20)
    parser.add_argument("--memory-seconds", type=float, default=60)
    parser.add_argument("--recall-trials", type=int, default=100)
    parser.add_argument("--recall-bench-trials", type=int, default=1000)
    parser.add_argument("--timing-trials", type=int, default=200)
    parser.add_argument("--saves-rounds", type=int, default=20)
    parser.add_argument("--saves", type=int, default=100, help="back-to-back saves per round")
    parser.add_argument("--fanout-rounds", type=int, default=3)
    parser.add_argument("--fanout-seconds", type=float, default=10, help="of dragging per round (and as long idle)")
    parser.add_argument("--fullstate-rounds", type=int, default=3)
    parser.add_argument("--only", choices=["recall", "saves", "timing", "fanout", "fullstate", "discovery", "page"],
                        help="run only this benchmark and replace its section and targets in an existing --out "
                             "(an --out that does not exist gets that section alone)")
    parser.add_argument("--quick", action="store_true", help="short runs, to try the script")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.peer_seconds, args.memory_seconds = 1, 0.2, 3, 10
        args.recall_trials, args.recall_bench_trials, args.timing_trials = 30, 200, 30
        args.saves_rounds, args.fanout_rounds, args.fanout_seconds = 3, 1, 3
    started = {"load": load_average()}
    info = machine()
    workdir = tempfile.mkdtemp(prefix="crosspoint-bench-")
    if args.only == "timing":
        result = timing.timing_benchmark(args.binary, args.probe, workdir, Rig, args.timing_trials,
                                         max(20, args.recall_bench_trials // 20), log)
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
        note = (f"(This section comes from a partial run, `scripts/bench --only timing`, on {when} (UTC) at "
                f"{info['commit']}, load average {started['load']} / {load_average()}.)")
        timing.splice(args.out, timing.timing_report(result, os.path.relpath(args.binary, ROOT)), note)
        shutil.rmtree(workdir, ignore_errors=True)
        log(f"replaced the timing section of {args.out}")
        return
    if args.only == "recall":
        recall = recall_benchmark(args.binary, args.probe, workdir, args.recall_trials, args.recall_bench_trials)
        section, targets = recall_report(recall, os.path.relpath(args.binary, ROOT), args.recall_trials,
                                         args.recall_bench_trials)
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
        note = (f"(This section and its rows of the Targets table come from a partial run, `scripts/bench --only "
                f"recall`, on {when} (UTC) at {info['commit']}, load average {started['load']} / {load_average()}; "
                "the rest of the file from the run above.)")
        splice_recall(args.out, section, targets, note)
        shutil.rmtree(workdir, ignore_errors=True)
        log(f"replaced the preset recall section of {args.out}")
        return
    if args.only == "saves":
        saves = saves_benchmark(args.binary, args.probe, workdir, args.saves_rounds, args.saves)
        section, targets = saves_report(saves, os.path.relpath(args.binary, ROOT), args.saves_rounds, args.saves)
        replace_or_write(args, info, started, section, targets, SAVES_TARGET)
        shutil.rmtree(workdir, ignore_errors=True)
        return
    if args.only == "fanout":
        results = fanout.fanout_benchmarks(args.binary, workdir, Rig, args.fanout_rounds, args.fanout_seconds, log)
        section, targets = fanout_report.fanout_report(results, os.path.relpath(args.binary, ROOT), verdict)
        replace_or_write(args, info, started, section, targets, fanout.TARGET)
        shutil.rmtree(workdir, ignore_errors=True)
        return
    if args.only == "discovery":
        results = discovery.discovery_benchmarks(args.binary, workdir, Rig, log)
        section, targets = discovery_report.discovery_report(results, os.path.relpath(args.binary, ROOT), verdict)
        replace_or_write(args, info, started, section, targets, discovery.TARGET)
        shutil.rmtree(workdir, ignore_errors=True)
        return
    if args.only == "page":
        results = page.page_benchmarks(args.binary, args.probe, workdir, Rig, log)
        section, targets = page.page_report(results, os.path.relpath(args.binary, ROOT), verdict)
        replace_or_write(args, info, started, section, targets, page.TARGET)
        shutil.rmtree(workdir, ignore_errors=True)
        return
    if args.only == "fullstate":
        results = fullstate.fullstate_benchmarks(args.binary, workdir, Rig, args.fullstate_rounds, log)
        section, targets = fullstate.fullstate_report(results, os.path.relpath(args.binary, ROOT), verdict)
        replace_or_write(args, info, started, section, targets, fullstate.TARGET)
        shutil.rmtree(workdir, ignore_errors=True)
        return
    ours, reference = kernel_sweep(args.binary, args.rounds, args.seconds)
    log("whole process beside jack_mix_box")
    peer = peer_comparison(args.binary, args.probe, workdir, args.peer_seconds)
    log("OSC rate and latency")
    latency, ladder = osc_benchmarks(args.binary, args.probe, workdir,
                                     [10_000, 20_000, 30_000, 40_000, 50_000, 75_000, 100_000, 150_000, 200_000],
                                     1 if args.quick else 2, 50 if args.quick else 300)
    log("preset recall")
    recall = recall_benchmark(args.binary, args.probe, workdir, args.recall_trials, args.recall_bench_trials)
    log("control during preset saves")
    saves = saves_benchmark(args.binary, args.probe, workdir, args.saves_rounds, args.saves)
    log("memory")
    memory = memory_benchmark(args.binary, args.probe, workdir, args.memory_seconds, 5000)
    log("timed bundles and one-period recalls")
    timed = timing.timing_benchmark(args.binary, args.probe, workdir, Rig, args.timing_trials,
                                    max(20, args.recall_bench_trials // 20), log)
    log("feedback fan-out")
    fanned = fanout.fanout_benchmarks(args.binary, workdir, Rig, args.fanout_rounds, args.fanout_seconds, log)
    log("full state on /subscribe")
    full_state = fullstate.fullstate_benchmarks(args.binary, workdir, Rig, args.fullstate_rounds, log)
    log("discovery")
    discovered = discovery.discovery_benchmarks(args.binary, workdir, Rig, log)
    log("the control page")
    paged = page.page_benchmarks(args.binary, args.probe, workdir, Rig, log)
    finished = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    binary = os.path.relpath(args.binary, ROOT)
    commands = [
        "scripts/bench    # all of the below, and writes this file",
        f"{binary} bench --json --seconds {args.seconds}    # the kernel sweep, {args.rounds} rounds",
        f"env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 python3 tools/bench/sgemm.py 8,32,64,128,256 64 {args.seconds}",
        "jackd -n NAME -r -d dummy -r 48000 -p 64 &",
        "crosspoint-probe tone SECONDS &    # tools/bench/probe.c: a 440 Hz tone into all 96 inputs",
        "jack_mix_box -n mixbox 1 2 … 48 &",
        f"{binary} serve --inputs 48 --outputs 2 --jack-server NAME --no-autostart --osc-port 0 --http-port 0 &    # the OSC port it prints: P",
        f"{binary} send --port P '/matrix/*/1' 1; {binary} send --port P '/matrix/*/2' 1",
        f"# CPU: sum of field 1 of /proc/PID/task/*/schedstat, before and after {args.peer_seconds:.0f} s",
        f"{binary} serve --inputs 8 --outputs 8 --jack-server NAME --no-autostart --osc-port 0 --http-port 0 &",
        "crosspoint-probe latency P TRIALS",
        "crosspoint-probe rate P RATE 2 64    # for RATE in 10000 … 200000",
        f"{binary} serve --inputs 64 --outputs 64 --jack-server NAME --no-autostart --osc-port 0 --http-port 0 &",
        f"{binary} send --port P '/matrix/*/*' 0.5; crosspoint-probe saves P {args.saves_rounds} {args.saves}    # on another 64x64 serve",
        f"crosspoint-probe rate P 5000 {args.memory_seconds:.0f} 64    # VmRSS every 5 s",
    ]
    write_report(args.out, args, info, ours, reference, peer, latency, ladder, recall, saves, memory, started, finished,
                 commands)
    timing.splice(args.out, timing.timing_report(timed, binary), "")
    section, targets = fanout_report.fanout_report(fanned, binary, verdict)
    splice_section(args.out, section, targets, fanout.TARGET, fanout_report.full_run_note(fanned))
    section, targets = fullstate.fullstate_report(full_state, binary, verdict)
    splice_section(args.out, section, targets, fullstate.TARGET, "(From the run above.)")
    section, targets = discovery_report.discovery_report(discovered, binary, verdict)
    splice_section(args.out, section, targets, discovery.TARGET, "(From the run above.)")
    section, targets = page.page_report(paged, binary, verdict)
    splice_section(args.out, section, targets, page.TARGET, "(From the run above.)")
    shutil.rmtree(workdir, ignore_errors=True)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
