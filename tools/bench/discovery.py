"""OSCQuery discovery for BENCHMARKS.md (scripts/bench; `--only discovery` alone).

Against the real `crosspoint serve` on a private jackd, at 8x8, 64x64 and
256x256, through real clients on loopback:

- `GET /`: the whole namespace, read to its end by Python's http.client
  (plain, and with `Accept-Encoding: gzip`, the compressed bytes counted
  and unpacked to check them); the median of ROUNDS.
- One leaf, `GET /matrix/1/1` and `GET /matrix/1/1?VALUE`: LEAF_REQUESTS
  each on one kept-alive connection; the median and p99.
- `LISTEN`: LISTEN_COMMANDS text frames on one WebSocket (the `websockets`
  package), then an OSC `/ping` as a binary frame; the time until its
  `/pong` arrives, divided by the number of commands.
- `/ping` while `GET /` is answered: a UDP client pings the rig every
  PING_INTERVAL and times each `/pong`, during ROUNDS whole `GET /` and
  as long idle; the p99 of each.
- Resident size: VmRSS of serve sampled every 2 ms during one `GET /`,
  the highest minus the size just before; and the same rig started again
  with `--no-http`, for what the OSCQuery server and its namespace hold.
"""
import gzip
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import osc  # tools/lib/osc.py
from procstat import rss_kib

HEADING = "## Discovery (OSCQuery)"
TARGET = "discovery"
SIZES = (8, 64, 256)
ROUNDS = 5
LEAF_REQUESTS = 200
LISTEN_COMMANDS = 100
PING_INTERVAL = 0.005


def http_port(log_path, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(log_path) as f:
            found = re.search(r"OSCQuery: serving HTTP and WebSocket.*?port=(\d+)|port=(\d+).*OSCQuery: serving HTTP",
                              f.read())
        if found:
            return int(found.group(1) or found.group(2))
        time.sleep(0.1)
    raise RuntimeError("no OSCQuery port in the log")


def get(port, path, compressed=False, connection=None):
    """(seconds, bytes on the wire, body) of one GET, read to its end."""
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Accept-Encoding": "gzip"} if compressed else {}
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status}")
    if own:
        connection.close()
    wire = len(body)
    if response.getheader("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return elapsed, wire, body


class Pinger:
    """Pings the rig over UDP every PING_INTERVAL and times each `/pong`, in a process of its own (this
    file run as `discovery.py ping PORT`): in this one, the reading of a 40 MB answer would hold Python's
    lock and delay the pings' time stamps, not the rig."""

    def __init__(self, osc_port):
        self.osc_port = osc_port
        self.process = None

    def start(self):
        self.process = subprocess.Popen([sys.executable, __file__, "ping", str(self.osc_port)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # Wait for its first /pong, so that the round measured starts with it running.
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the pinger did not start")

    def stop(self):
        """Every round trip time, in seconds."""
        output, _ = self.process.communicate("stop\n", timeout=30)
        return json.loads(output)


def ping_until_told(osc_port):
    """The pinger's process: pings until a line arrives on stdin, then prints the times as JSON."""
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client.bind(("127.0.0.1", 0))
    client.settimeout(1)
    ping = osc.message("/ping")
    times = []
    told = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), told.set()), daemon=True).start()
    while not told.is_set():
        started = time.perf_counter()
        client.sendto(ping, ("127.0.0.1", osc_port))
        try:
            while b"/pong" not in client.recv(65536):
                pass
            times.append(time.perf_counter() - started)
        except socket.timeout:
            times.append(1.0)
        if len(times) == 1:
            print("ready", flush=True)
        time.sleep(PING_INTERVAL)
    print(json.dumps(times), flush=True)


def listen_seconds(port):
    """Seconds per LISTEN: LISTEN_COMMANDS of them, then a `/ping` frame, until its `/pong`."""
    from websockets.sync.client import connect
    with connect(f"ws://127.0.0.1:{port}/", max_size=None) as ws:
        started = time.perf_counter()
        for n in range(LISTEN_COMMANDS):
            ws.send('{"COMMAND":"LISTEN","DATA":"/matrix/1/%d"}' % (n % 8 + 1))
        ws.send(osc.message("/ping"))
        while True:
            frame = ws.recv(timeout=30)
            if isinstance(frame, bytes) and frame.startswith(b"/pong"):
                break
        return (time.perf_counter() - started) / LISTEN_COMMANDS


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def discovery_benchmark(binary, workdir, rig_class, size, log):
    rig = rig_class(workdir, realtime=True)
    try:
        serve = rig.serve(binary, size, size, 0, f"serve-discovery-{size}")
        port = http_port(f"{workdir}/serve-discovery-{size}.log")
        nodes_checked = None
        plain, packed = [], []
        for _ in range(ROUNDS):
            seconds, wire, body = get(port, "/")
            plain.append(seconds)
            size_plain = wire
            seconds, wire, unpacked = get(port, "/", compressed=True)
            packed.append(seconds)
            size_packed = wire
            if unpacked != body:
                raise RuntimeError("the gzip answer differs from the plain one")
            nodes_checked = body.count(b'"FULL_PATH"')
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        leaf = [get(port, "/matrix/1/1", connection=connection)[0] for _ in range(LEAF_REQUESTS)]
        value = [get(port, "/matrix/1/1?VALUE", connection=connection)[0] for _ in range(LEAF_REQUESTS)]
        connection.close()
        listen = listen_seconds(port)

        # Resident size while one GET / is answered.
        before = rss_kib(serve.pid)
        peak = [before]
        sampling = True

        def sample():
            while sampling:
                peak[0] = max(peak[0], rss_kib(serve.pid))
                time.sleep(0.002)
        sampler = threading.Thread(target=sample)
        sampler.start()
        get(port, "/")
        sampling = False
        sampler.join()

        pinger = Pinger(rig.osc_port)
        pinger.start()
        idle_started = time.perf_counter()
        time.sleep(max(1.0, sum(plain)))
        idle = pinger.stop()
        pinger.start()
        for _ in range(ROUNDS):
            get(port, "/")
        during = pinger.stop()
        rig.stop(serve)
        # The same rig without the OSCQuery server: what the server and its namespace hold.
        bare = rig.serve(binary, size, size, 0, f"serve-discovery-{size}-bare", extra=("--no-http",))
        time.sleep(1)
        bare_kib = rss_kib(bare.pid)
        result = {
            "size": size, "nodes": nodes_checked, "bytes": size_plain, "gzip_bytes": size_packed,
            "get_ms": [s * 1000 for s in plain], "get_gzip_ms": [s * 1000 for s in packed],
            "leaf_ms": [s * 1000 for s in leaf], "value_ms": [s * 1000 for s in value],
            "listen_ms": listen * 1000, "rss_before_kib": before, "rss_growth_kib": peak[0] - before,
            "rss_without_oscquery_kib": bare_kib,
            "ping_idle_ms": [s * 1000 for s in idle], "ping_during_ms": [s * 1000 for s in during],
            "idle_seconds": time.perf_counter() - idle_started, "serve_alive": serve.poll() is None,
            "realtime": rig.realtime,
        }
        log(f"discovery {size}x{size}: {nodes_checked} nodes, {size_plain / 1e6:.1f} MB "
            f"({size_packed / 1e6:.2f} MB gzip); GET / {statistics.median(result['get_ms']):.1f} ms "
            f"(gzip {statistics.median(result['get_gzip_ms']):.1f} ms); leaf {statistics.median(result['leaf_ms']):.3f} ms, "
            f"?VALUE {statistics.median(result['value_ms']):.3f} ms; LISTEN {result['listen_ms']:.4f} ms; "
            f"RSS +{result['rss_growth_kib'] / 1024:.1f} MiB; /ping p99 idle {p99(result['ping_idle_ms']):.2f} ms, "
            f"during GET / {p99(result['ping_during_ms']):.2f} ms")
        return result
    finally:
        rig.close()


def discovery_benchmarks(binary, workdir, rig_class, log, sizes=SIZES):
    return [discovery_benchmark(binary, workdir, rig_class, size, log) for size in sizes]


if __name__ == "__main__" and sys.argv[1:2] == ["ping"]:
    ping_until_told(int(sys.argv[2]))
