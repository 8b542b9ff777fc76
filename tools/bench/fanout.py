"""Feedback fan-out for BENCHMARKS.md (scripts/bench; `--only fanout` alone).

64 subscribers on loopback while 4 clients drag faders at 60 messages a
second each, against the real `crosspoint serve` (8x8) on a private jackd:

- Subscribers: 64 UDP sockets in this process, each sending `/subscribe`
  from its own port, so the rig sends feedback back to that port. One thread
  reads all of them through epoll and only stores what arrives; decoding
  waits until the round is over, so the reader keeps up.
- Dragging clients: a separate process (this file run as
  `fanout.py drag ...`), so that the reader's work never delays a send or its
  time stamp. Client k sends `/source/{k}/fader ,f position` from its own
  socket along a triangle wave in which every position is distinct within
  its 4 s period, so a position that arrives names the message that carried
  it.
- Delay: the kernel's receive time stamp on the subscriber's socket
  (SO_TIMESTAMPNS, CLOCK_REALTIME) minus the time read just before sendto()
  of that same value (time.time_ns(), the same clock). The rig coalesces
  feedback to 30 updates a second per address per client, so only some
  values arrive; each that arrives at all 64 subscribers gives one "delay to
  the last subscriber".
- CPU: the serve process's threads (/proc/PID/task/*/schedstat, field 1)
  over the drag, and over as long with the same subscribers and no drags.
"""
import json
import os
import select
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import osc  # tools/lib/osc.py
from common import load_average
from procstat import cpu_by_thread, thread_cpu, udp_drops

HEADING = "## Feedback fan-out"
TARGET = "feedback fan-out"
SUBSCRIBERS = 64
DRAGGERS = 4
RATE = 60  # messages a second per dragging client
SIZES = (8, 64)  # crosspoint serve's default rig, and a large one: the fan-out must not grow with the rig

# The triangle wave: STEPS messages up from LOW, STEPS down, 2 s each way at
# 60 a second. The way down falls half a step between the way up's values, so
# every position of a period is distinct, 1/300 apart: far more than the
# fader law's round trip in float32 moves a value (about 1e-7).
LOW, HIGH, STEPS = 0.1, 0.9, 120
STEP = (HIGH - LOW) / STEPS

# A Linux socket option that Python's socket module may not name.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
RECEIVE_BUFFER = 4 * 1024 * 1024  # net.core.rmem_max on the build machine
# Feedback is over when nothing has arrived for this long: far more than the 33 ms a coalesced value waits.
QUIET_SECONDS = 0.5


# ---------------------------------------------------------------- the triangle wave

def phase(client, index):
    """Where message `index` of dragging client `client` (1-based) is in the wave, in half steps:
    even on the way up, odd on the way down. The clients start a quarter period apart."""
    step = (index + (client - 1) * STEPS // 2) % (2 * STEPS)
    return 2 * step if step < STEPS else 2 * (2 * STEPS - step) - 1


def position(half_steps):
    return LOW + half_steps * STEP / 2


def half_steps_of(value):
    """The phase a received position stands for, or None if it is no position the wave sends."""
    half_steps = round((value - LOW) / (STEP / 2))
    if 0 <= half_steps < 2 * STEPS and abs(position(half_steps) - value) < STEP / 8:
        return half_steps
    return None


# ---------------------------------------------------------------- dragging clients (child process)

def drag(port, start_ns, seconds):
    """Sends every client's messages on time from its own socket; prints each send's time (ns) as JSON."""
    sockets = {k: socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for k in range(1, DRAGGERS + 1)}
    interval = 1e9 / RATE
    # The clients take turns, evenly spread across each 1/60 s.
    schedule = sorted((start_ns + i * interval + (k - 1) * interval / DRAGGERS, k, i)
                      for k in sockets for i in range(int(seconds * RATE)))
    sent = {k: [] for k in sockets}
    for due, k, i in schedule:
        delay = (due - time.time_ns()) / 1e9
        if delay > 0:
            time.sleep(delay)
        message = osc.message(f"/source/{k}/fader", position(phase(k, i)))
        sent[k].append(time.time_ns())  # read just before the send: what the delay counts from
        sockets[k].sendto(message, ("127.0.0.1", port))
    print(json.dumps({str(k): times for k, times in sent.items()}))


def start_dragging(port, start_ns, seconds):
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "drag", str(port), str(start_ns), str(seconds)],
                            stdout=subprocess.PIPE, text=True)


# ---------------------------------------------------------------- subscribers

class Subscribers:
    """64 UDP sockets subscribed to feedback, read by one thread through epoll. The thread only stores
    (subscriber, kernel arrival ns, user-space arrival ns, datagram); everything else happens later."""

    def __init__(self, port, count=SUBSCRIBERS):
        self.port = port
        self.sockets = [self.open_socket() for _ in range(count)]
        self.index = {s.fileno(): n for n, s in enumerate(self.sockets)}
        self.lock = threading.Lock()
        self.records = []
        self.running = True
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    @staticmethod
    def open_socket():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        s.bind(("127.0.0.1", 0))
        s.setblocking(False)
        return s

    def ports(self):
        return [s.getsockname()[1] for s in self.sockets]

    def receive_buffer(self):
        return self.sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)

    def subscribe(self):
        for s in self.sockets:
            s.sendto(osc.message("/subscribe"), ("127.0.0.1", self.port))

    def read(self):
        poller = select.epoll()
        for s in self.sockets:
            poller.register(s.fileno(), select.EPOLLIN)
        while self.running:
            batch = []
            for fd, _ in poller.poll(0.05):
                batch += self.drain(self.sockets[self.index[fd]], self.index[fd])
            if batch:
                with self.lock:
                    self.records += batch
        poller.close()

    @staticmethod
    def drain(sock, n):
        got = []
        while True:
            try:
                data, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(16))
            except BlockingIOError:
                return got
            kernel_ns = None
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    seconds, nanoseconds = struct.unpack("qq", payload[:16])
                    kernel_ns = seconds * 1_000_000_000 + nanoseconds
            got.append((n, kernel_ns, time.time_ns(), data))

    def take(self):
        """What arrived since the last take."""
        with self.lock:
            records, self.records = self.records, []
        return records

    def take_when_quiet(self, limit=60):
        """What arrives until nothing has for QUIET_SECONDS (at most `limit` s): the full state after
        subscribing, or the last values after a drag, however long the rig takes to send them."""
        records, deadline = self.take(), time.monotonic() + limit
        while time.monotonic() < deadline:
            time.sleep(QUIET_SECONDS)
            more = self.take()
            if not more:
                break
            records += more
        return records

    def close(self):
        self.running = False
        self.thread.join(timeout=2)
        for s in self.sockets:
            s.close()


def status(port):
    """The rig's /status, as {name: value}."""
    with osc.Client(port, timeout=2) as client:
        client.send("/status")
        return {address.rsplit("/", 1)[-1]: args[0] for address, args in client.receive() if args}


# ---------------------------------------------------------------- CPU

def measure_cpu(pid, start_ns, seconds):
    """The process's CPU per thread and the wall time over [start_ns, start_ns + seconds]."""
    sleep_until(start_ns)
    before, wall = thread_cpu(pid), time.monotonic_ns()
    sleep_until(start_ns + int(seconds * 1e9))
    after, wall = thread_cpu(pid), time.monotonic_ns() - wall
    return {"threads_ns": cpu_by_thread(before, after), "wall_ns": wall}


def sleep_until(wall_ns):
    delay = (wall_ns - time.time_ns()) / 1e9
    if delay > 0:
        time.sleep(delay)


# ---------------------------------------------------------------- one round

def run_round(serve_pid, port, subscribers, seconds):
    """An idle window (subscribers, no drags), then a drag; what was sent, what arrived, and CPU in each."""
    subscribers.take()
    idle = measure_cpu(serve_pid, time.time_ns() + 100_000_000, seconds)
    idle["datagrams"] = len(subscribers.take())
    start_ns = time.time_ns() + 500_000_000  # time for the child to start
    dragger = start_dragging(port, start_ns, seconds)
    try:
        busy = measure_cpu(serve_pid, start_ns, seconds)
        output, _ = dragger.communicate(timeout=seconds + 30)
    finally:
        if dragger.poll() is None:
            dragger.kill()
            dragger.wait()
    sent = {int(k): times for k, times in json.loads(output).items()}
    records = subscribers.take_when_quiet()
    return {"idle": idle, "drag": busy, "sent": sent, "records": records, "seconds": seconds}


# ---------------------------------------------------------------- analysis

def arrivals(records):
    """Every /source/{k}/fader value received, as (subscriber, k, value, kernel ns); and the counts of all
    datagrams and messages, and the largest datagram, per subscriber."""
    faders, datagrams, messages, largest = [], {}, {}, 0
    for n, kernel_ns, _, data in records:
        datagrams[n] = datagrams.get(n, 0) + 1
        largest = max(largest, len(data))
        for address, args in osc.decode(data):
            messages[n] = messages.get(n, 0) + 1
            parts = address.split("/")
            if len(parts) == 4 and parts[1] == "source" and parts[3] == "fader" and args:
                faders.append((n, int(parts[2]), args[0], kernel_ns))
    return faders, datagrams, messages, largest


def match_sends(faders, sent):
    """Pairs each received fader value with the message that carried it: the latest send of that position
    by that client before the arrival. Returns {(k, index): {subscriber: delay ns}} (first arrival only),
    and the numbers of values that match no send, of arrivals older than one already received, and of
    values that arrived again at the same subscriber."""
    sends = {}  # (k, phase) -> [(send ns, index)], in order
    for k, times in sent.items():
        for i, t in enumerate(times):
            sends.setdefault((k, phase(k, i)), []).append((t, i))
    delays, unmatched, out_of_order, repeated, newest = {}, 0, 0, 0, {}
    for n, k, value, kernel_ns in sorted(faders, key=lambda a: a[3]):
        half_steps = half_steps_of(value)
        earlier = [(t, i) for t, i in sends.get((k, half_steps), []) if t <= kernel_ns]
        if half_steps is None or not earlier:
            unmatched += 1
            continue
        t, i = earlier[-1]
        if i < newest.get((n, k), -1):
            out_of_order += 1
        newest[(n, k)] = max(i, newest.get((n, k), -1))
        at = delays.setdefault((k, i), {})
        if n in at:
            repeated += 1
        else:
            at[n] = kernel_ns - t
    return delays, unmatched, out_of_order, repeated


def final_values_missing(faders, sent, subscriber_count):
    """For each client's last message: how many subscribers' last received value at its address is not it."""
    last = {}
    for n, k, value, kernel_ns in sorted(faders, key=lambda a: a[3]):
        last[(n, k)] = value
    missing = 0
    for k, times in sent.items():
        final = position(phase(k, len(times) - 1))
        missing += sum(1 for n in range(subscriber_count) if abs(last.get((n, k), -1) - final) >= STEP / 8)
    return missing


def p99(values):
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def median(values):
    return statistics.median(values) if values else float("nan")


def analyse_round(result, subscriber_count=SUBSCRIBERS):
    faders, datagrams, messages, largest = arrivals(result["records"])
    delays, unmatched, out_of_order, repeated = match_sends(faders, result["sent"])
    complete = [d for d in delays.values() if len(d) == subscriber_count]
    to_last = [max(d.values()) / 1e6 for d in complete]
    to_first = [min(d.values()) / 1e6 for d in complete]
    seconds = result["seconds"]
    per_address = sum(len(d) for d in delays.values()) / seconds / subscriber_count / len(result["sent"])
    lags = [(user - kernel) / 1e6 for _, kernel, user, _ in result["records"] if kernel]
    last_sent = max(t for times in result["sent"].values() for t in times)
    last_arrival = max((kernel for _, kernel, _, _ in result["records"] if kernel), default=last_sent)
    return {
        "sent": sum(len(t) for t in result["sent"].values()),
        "values_arrived": len(delays),
        "values_at_all": len(complete),
        "values_per_second_per_subscriber_per_address": per_address,
        "to_last_ms": to_last,
        "to_first_ms": to_first,
        "unmatched": unmatched,
        "out_of_order": out_of_order,
        "repeated": repeated,
        "final_missing": final_values_missing(faders, result["sent"], subscriber_count),
        "tail_ms": (last_arrival - last_sent) / 1e6,
        "datagrams_per_second_per_subscriber": sum(datagrams.values()) / seconds / subscriber_count,
        "messages_per_second_per_subscriber": sum(messages.values()) / seconds / subscriber_count,
        "largest_datagram": largest,
        "reader_lag_ms_p99": p99(lags) if lags else float("nan"),
        "reader_lag_ms_max": max(lags) if lags else float("nan"),
        "cpu_drag_percent": cpu_percent(result["drag"]),
        "cpu_idle_percent": cpu_percent(result["idle"]),
        "idle_datagrams": result["idle"]["datagrams"],
        "threads_drag_ns": result["drag"]["threads_ns"],
        "threads_idle_ns": result["idle"]["threads_ns"],
        "wall_ns": result["drag"]["wall_ns"] + result["idle"]["wall_ns"],
    }


def cpu_percent(window):
    return 100 * sum(ns for _, ns in window["threads_ns"].values()) / window["wall_ns"]


# ---------------------------------------------------------------- the benchmark

def fanout_benchmarks(binary, workdir, rig_class, rounds, seconds, log, sizes=SIZES):
    """The benchmark on a rig of each size in turn."""
    return [fanout_benchmark(binary, workdir, rig_class, rounds, seconds, log, size) for size in sizes]


def fanout_benchmark(binary, workdir, rig_class, rounds, seconds, log, size):
    """`rounds` rounds of an idle window and a drag of `seconds` each, on one rig of `size` x `size` and
    one set of subscribers."""
    started = load_average()
    rig = rig_class(workdir, realtime=True)
    subscribers = None
    try:
        serve = rig.serve(binary, size, size, 0, "serve-fanout")
        subscribers = Subscribers(rig.osc_port)
        subscribers.subscribe()
        initial = subscribers.take_when_quiet()  # the full state, paced, to every subscriber
        subscribed = status(rig.osc_port).get("subscribers")
        log(f"feedback fan-out, {size}x{size}: {subscribed} subscribers, full state in {len(initial)} datagrams")
        measured = []
        for r in range(rounds):
            log(f"feedback fan-out, round {r + 1}/{rounds} (load {load_average()})")
            measured.append(analyse_round(run_round(serve.pid, rig.osc_port, subscribers, seconds)))
            m = measured[-1]
            log(f"  delay to the last subscriber p50 {median(m['to_last_ms']):.2f} ms, "
                f"p99 {p99(m['to_last_ms']):.2f} ms; CPU {m['cpu_drag_percent']:.1f} % "
                f"(idle {m['cpu_idle_percent']:.1f} %); final values missing {m['final_missing']}")
        drops = udp_drops(subscribers.ports() + [rig.osc_port])
        return {"size": size, "rounds": measured, "seconds": seconds, "realtime": rig.realtime, "subscribed": subscribed,
                "initial_datagrams": len(initial), "receive_buffer": subscribers.receive_buffer(),
                "subscriber_drops": sum(drops.get(p, 0) for p in subscribers.ports()),
                "serve_drops": drops.get(rig.osc_port, 0), "serve_alive": serve.poll() is None,
                "load": (started, load_average())}
    finally:
        if subscribers:
            subscribers.close()
        rig.close()


if __name__ == "__main__" and sys.argv[1:2] == ["drag"]:
    drag(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
