#!/usr/bin/env python3
"""Runs Crosspoint's benchmarks and writes BENCHMARKS.md (see scripts/bench and tools/README.md).

One module per section of the report, each measuring and writing its own:

1. kernel.py: the kernel sweep, `crosspoint bench --json` (the real render kernel, offline)
   beside single-threaded OpenBLAS sgemm of the same shapes (sgemm.py).
2. peer.py: the whole process in JACK, jack_mix_box and `crosspoint serve` mixing the same
   48 inputs, CPU time of each process.
3. osc_rate.py: the highest loss-free OSC rate from one client, and send -> first affected
   sample latency (probe.c).
4. recall.py: a 64x64 preset recall, offline and in JACK.
5. saves.py: control (/ping, a fader message) during back-to-back preset saves.
6. memory.py: the resident size of a 64x64 `serve` over a minute of OSC traffic.
7. timing.py (timed bundles and one-period recalls), fanout.py and fanout_report.py (64
   subscribers while 4 clients drag faders), fullstate.py (the full state on /subscribe),
   discovery.py and discovery_report.py (OSCQuery at 8x8, 64x64 and 256x256), page.py (the
   control page in headless Chromium), resize.py (changing size while it plays), groups.py (8 DCAs
   and 8 mute groups in the kernel, settled, beside no groups and, with --baseline-binary, a
   build from before groups), paths.py, stages.py, talk.py (the kernel's SIMD paths, EQ and
   limiters, talkbacks), surfaces.py (MIDI control surfaces: an OSC change to the Mackie Control
   unit's pitch bend, and serve's CPU with two units following 16 fades).

report.py writes the report and splices sections into it; jackrig.py is the private jackd each
benchmark runs on, procstat.py reads CPU and memory from /proc, common.py the rest they share.

`--only recall`, `--only saves`, `--only fanout`, `--only fullstate`, `--only discovery` and
`--only page` (and `--only stages`) run that benchmark alone and replace its section and its rows of the Targets table
in an existing --out (BENCHMARKS.md by default); an --out that does not exist gets that section
alone. `--only timing` replaces its section (it has no rows in the Targets table). `--only resize` and
`--only groups` work as the first ones.
"""
import argparse
import datetime
import os
import shutil
import tempfile

import discovery
import discovery_report
import fanout
import fanout_report
import fullstate
import kernel
import memory
import osc_rate
import page
import paths
import peer
import recall
import resize
import groups
import report
import stages
import surfaces
import talk
import saves
import timing
from common import ROOT, load_average, log, verdict
from jackrig import Rig


def arguments():
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
    parser.add_argument("--surfaces-rounds", type=int, default=3)
    parser.add_argument("--only", choices=["recall", "saves", "timing", "fanout", "fullstate", "discovery", "page", "resize", "groups", "paths",
                                                     "stages", "talk", "surfaces"],
                        help="run only this benchmark and replace its section and targets in an existing --out "
                             "(an --out that does not exist gets that section alone)")
    parser.add_argument("--baseline-binary", help="for groups: a crosspoint binary from before groups, measured beside; "
                             "for paths: one from before the SIMD paths, beside the avx2 path")
    parser.add_argument("--quick", action="store_true", help="short runs, to try the script")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.peer_seconds, args.memory_seconds = 1, 0.2, 3, 10
        args.recall_trials, args.recall_bench_trials, args.timing_trials = 30, 200, 30
        args.saves_rounds, args.fanout_rounds, args.fanout_seconds = 3, 1, 3
    return args


def measure(name, args, workdir):
    """The results of one benchmark."""
    b, p = args.binary, args.probe
    if name == "kernel":
        return kernel.kernel_sweep(b, args.rounds, args.seconds)
    if name == "peer":
        return peer.peer_comparison(b, p, workdir, args.peer_seconds)
    if name == "osc":
        return osc_rate.osc_benchmarks(b, p, workdir, osc_rate.RATES, 1 if args.quick else 2, 50 if args.quick else 300)
    if name == "recall":
        return recall.recall_benchmark(b, p, workdir, args.recall_trials, args.recall_bench_trials)
    if name == "saves":
        return saves.saves_benchmark(b, p, workdir, args.saves_rounds, args.saves)
    if name == "memory":
        return memory.memory_benchmark(b, p, workdir, args.memory_seconds, 5000)
    if name == "timing":
        return timing.timing_benchmark(b, p, workdir, Rig, args.timing_trials, max(20, args.recall_bench_trials // 20),
                                       log)
    if name == "fanout":
        return fanout.fanout_benchmarks(b, workdir, Rig, args.fanout_rounds, args.fanout_seconds, log)
    if name == "fullstate":
        return fullstate.fullstate_benchmarks(b, workdir, Rig, args.fullstate_rounds, log)
    if name == "discovery":
        return discovery.discovery_benchmarks(b, workdir, Rig, log)
    if name == "page":
        return page.page_benchmarks(b, p, workdir, Rig, log)
    if name == "resize":
        return resize.resize_benchmarks(b, workdir, Rig, log)
    if name == "groups":
        return groups.groups_benchmarks(b, args.baseline_binary, args.rounds, args.seconds, log)
    if name == "paths":
        return paths.paths_benchmarks(b, args.baseline_binary, args.rounds, args.seconds, log)
    if name == "stages":
        return stages.stages_benchmarks(b, args.rounds, args.seconds, log)
    if name == "talk":
        return talk.talk_benchmarks(b, args.rounds, args.seconds, log)
    if name == "surfaces":
        return surfaces.surfaces_benchmarks(b, workdir, Rig, 1 if args.quick else args.surfaces_rounds, log)
    raise ValueError(name)


def section(name, result, args, binary):
    """One benchmark's section of the report, as (lines, rows of the Targets table), and the prefix of
    those rows' names (what --only replaces)."""
    if name == "recall":
        return recall.recall_report(result, binary, args.recall_trials, args.recall_bench_trials), recall.TARGET
    if name == "saves":
        return saves.saves_report(result, binary, args.saves_rounds, args.saves), saves.TARGET
    if name == "fanout":
        return fanout_report.fanout_report(result, binary, verdict), fanout.TARGET
    if name == "fullstate":
        return fullstate.fullstate_report(result, binary, verdict), fullstate.TARGET
    if name == "discovery":
        return discovery_report.discovery_report(result, binary, verdict), discovery.TARGET
    if name == "page":
        return page.page_report(result, binary, verdict), page.TARGET
    if name == "resize":
        return resize.resize_report(result, binary, verdict), resize.TARGET
    if name == "groups":
        return groups.groups_report(result, binary, verdict), groups.TARGET
    if name == "paths":
        return paths.paths_report(result, binary, verdict), paths.TARGET
    if name == "stages":
        return stages.stages_report(result, binary, verdict), stages.TARGET
    if name == "talk":
        return talk.talk_report(result, binary, verdict), talk.TARGET
    if name == "surfaces":
        return surfaces.surfaces_report(result, binary, verdict), surfaces.TARGET
    raise ValueError(name)


# The order of a full run: each benchmark in turn, with its line in the log.
FULL_RUN = [("kernel", None), ("peer", "whole process beside jack_mix_box"), ("osc", "OSC rate and latency"),
            ("recall", "preset recall"), ("saves", "control during preset saves"), ("memory", "memory"),
            ("timing", "timed bundles and one-period recalls"), ("fanout", "feedback fan-out"),
            ("fullstate", "full state on /subscribe"), ("discovery", "discovery"), ("page", "the control page"),
            ("resize", "changing size while it plays"), ("groups", "DCAs and mute groups in the kernel"),
            ("paths", "the kernel on every SIMD path"), ("stages", "EQ and limiters in the kernel"),
            ("talk", "talkbacks and the listen in the kernel"), ("surfaces", "MIDI control surfaces")]


def write_full_run(args, info, started, results):
    """BENCHMARKS.md from a full run's results: the report with the sections of run.py's own modules,
    then the sections of timing, fan-out, full state, discovery and the page spliced in."""
    finished = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    binary = os.path.relpath(args.binary, ROOT)
    sections = [kernel.kernel_report(*results["kernel"]), peer.peer_report(results["peer"]),
                osc_rate.osc_report(*results["osc"]), section("recall", results["recall"], args, binary)[0],
                section("saves", results["saves"], args, binary)[0],
                memory.memory_report(results["memory"], results["peer"])]
    report.write_report(args.out, args, info, started, finished, sections, report.full_run_commands(args, binary))
    timing.splice(args.out, timing.timing_report(results["timing"], binary), "")
    for name in ("fanout", "fullstate", "discovery", "page", "resize", "groups", "paths", "stages", "talk", "surfaces"):
        (lines, targets), prefix = section(name, results[name], args, binary)
        note = fanout_report.full_run_note(results[name]) if name == "fanout" else "(From the run above.)"
        report.splice_section(args.out, lines, targets, prefix, note)


def only(args, info, started, workdir):
    """`--only NAME`: that benchmark alone, its section replaced in --out (or written alone)."""
    binary = os.path.relpath(args.binary, ROOT)
    result = measure(args.only, args, workdir)
    if args.only == "timing":
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
        note = (f"(This section comes from a partial run, `scripts/bench --only timing`, on {when} (UTC) at "
                f"{info['commit']}, load average {started['load']} / {load_average()}.)")
        timing.splice(args.out, timing.timing_report(result, binary), note)
        log(f"replaced the timing section of {args.out}")
        return
    (lines, targets), prefix = section(args.only, result, args, binary)
    report.replace_or_write(args, info, started, lines, targets, prefix)


def main():
    args = arguments()
    started = {"load": load_average()}
    info = report.machine()
    workdir = tempfile.mkdtemp(prefix="crosspoint-bench-")  # kept when a benchmark fails: its logs are there
    if args.only:
        only(args, info, started, workdir)
        shutil.rmtree(workdir, ignore_errors=True)
        return
    results = {}
    for name, words in FULL_RUN:
        if words:
            log(words)
        results[name] = measure(name, args, workdir)
    write_full_run(args, info, started, results)
    shutil.rmtree(workdir, ignore_errors=True)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
