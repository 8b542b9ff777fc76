"""What every benchmark module of tools/bench uses: the repository's root, logging, running a
command, reading its JSON lines, sending one OSC message with `crosspoint send`, the load average,
and the word a target gets in BENCHMARKS.md."""
import json
import os
import subprocess
import sys

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


def send(binary, port, *words):
    run([binary, "send", "--port", str(port), "--wait", "0.2", *words])


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def verdict(ok):
    return "met" if ok else "**not met**"


def best_medians(sides, sizes, rounds, seconds, log, label):
    """`crosspoint bench --json` for each side (name, binary, extra flags) at each size NxN, in alternating
    rounds: {(side, size): the result with the lowest median}. A shared 2-core machine is noisy, and the
    best round counts on every side alike."""
    best = {}
    for r in range(rounds):
        log(f"{label}, round {r + 1}/{rounds} (load {load_average()})")
        for size in sizes:
            for side, path, extra in sides:
                command = [path, "bench", "--json", "--inputs", str(size), "--outputs", str(size),
                           "--seconds", str(seconds)] + extra
                for result in json_lines(run(command)):
                    key = (side, size)
                    if key not in best or result["us_per_period_median"] < best[key]["us_per_period_median"]:
                        best[key] = result
    return best
