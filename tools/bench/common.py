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
