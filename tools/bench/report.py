"""Writing BENCHMARKS.md: the machine's description, the whole report of a full run from the
sections each benchmark module writes, and splicing one section (and its rows of the Targets table)
into an existing report for `--only NAME`."""
import datetime
import os
import platform
import re
import shutil

from common import ROOT, load_average, log, run, verdict


def machine():
    """The Machine table's rows: CPU, memory, system, tools, the commit measured."""
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
    info["build"] = ("swift build -c release; the mixing loops built for SSE2, AVX2 (haswell) and AVX-512 "
                     "(skylake-avx512), the widest the CPU has chosen at start")
    return info


def target_rows(targets):
    """The Targets table's rows: (name, measured, limit, met)."""
    return [f"| {name} | {value:.3f} | {limit} | {verdict(ok)} |" for name, value, limit, ok in targets]


def write_report(path, args, info, started, finished, sections, commands):
    """The report of a full run: the machine, then each (lines, targets) of `sections` in order, then the
    Targets table (every section's rows, in the same order) and the commands."""
    lines, targets = [], []
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
    add(f"| load average at start / end | {started['load']} / {load_average()} |")
    add("")
    add("The machine is a shared 2-core virtual machine: other work can run beside the benchmarks. The kernel "
        f"sweep therefore runs {args.rounds} alternating rounds of ours and of sgemm, and keeps for each "
        "configuration the round with the lowest median, on both sides alike.")
    add("")
    for section, rows in sections:
        lines.extend(section)
        targets.extend(rows)
    add("## Targets")
    add("")
    add("| target | measured | limit | |")
    add("|---|---|---|---|")
    lines.extend(target_rows(targets))
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


def full_run_commands(args, binary):
    """The Commands section of a full run."""
    return [
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
    kept += target_rows(targets)
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
    lines += target_rows(targets)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
