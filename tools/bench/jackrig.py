"""A private jackd on the dummy backend, and `crosspoint serve` and the other processes each benchmark
starts on it (every one ended by close())."""
import os
import re
import signal
import subprocess
import time

from common import log


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

