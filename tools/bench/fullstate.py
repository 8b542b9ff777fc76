"""The full state on /subscribe, for BENCHMARKS.md (scripts/bench; `--only fullstate` alone).

Against the real `crosspoint serve` on a private jackd, at 64x64 and 256x256:
a few crosspoints are set, then a client subscribes and everything that
arrives is kept until nothing more has for a while.

- UDP: one socket on 127.0.0.1 with a 4 MiB receive buffer (net.core.rmem_max
  here), read by a thread that only stores each datagram and its arrival time;
  decoding waits until the round is over. The rig paces it as a client on
  this machine.
- TCP: one connection, OSC 1.0 length-prefixed framing, read by this thread
  as fast as it can; the rig writes as fast as it reads.
- Time: from just before the `/subscribe` is sent to the arrival of the last
  datagram (or the last byte). Completeness: distinct addresses received
  against the rig's address count (each crosspoint in three forms; each
  source and output with the leaves of the first, and its safes; the master
  and its safe; `/matrix/map`), messages received (each address once), the
  values of the crosspoints set, and the kernel's drop count for the socket.
"""
import os
import socket
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import osc  # tools/lib/osc.py
from common import load_average
from procstat import udp_drops

HEADING = "## Full state on /subscribe"
TARGET = "full state"
SIZES = (64, 256)
RECEIVE_BUFFER = 4 * 1024 * 1024
QUIET_SECONDS = 1.0  # the full state is over when nothing has arrived for this long
LIMIT_SECONDS = 3.0  # the target at 256x256 over loopback
SET = {"/matrix/1/2": 0.5, "/matrix/3/3": 0.25}  # crosspoints set before subscribing: their values must arrive
# Measured once with this benchmark on the code before feedback was paced by destination, for comparison.
BEFORE = ("Before the pacing by destination (8d728eb, this benchmark, one round, load about 2): 64x64 0.367 s over "
          "UDP and 0.356 s over TCP; 256x256 17.6 s over UDP and 16.6 s over TCP, whole too (each 10 ms turn "
          "copied and filtered the whole queue, and sent 10 datagrams).")


class UDPReceiver:
    """A UDP socket whose thread only stores (arrival ns, datagram)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.records = []
        self.running = True
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while self.running:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            self.records.append((time.monotonic_ns(), data))

    def until_quiet(self, limit=120):
        deadline = time.monotonic() + limit
        seen = -1
        while time.monotonic() < deadline and (seen != len(self.records) or not self.records):
            seen = len(self.records)
            time.sleep(QUIET_SECONDS)
        return list(self.records)

    def close(self):
        self.running = False
        self.thread.join(timeout=2)
        self.sock.close()


def udp_round(port):
    receiver = UDPReceiver()
    try:
        started = time.monotonic_ns()
        receiver.sock.sendto(osc.message("/subscribe"), ("127.0.0.1", port))
        records = receiver.until_quiet()
        drops = udp_drops([receiver.sock.getsockname()[1]]).get(receiver.sock.getsockname()[1], 0)
        receiver.sock.sendto(osc.message("/unsubscribe"), ("127.0.0.1", port))
    finally:
        receiver.close()
    messages = [m for _, data in records for m in osc.decode(data)]
    seconds = (records[-1][0] - started) / 1e9 if records else float("nan")
    first = (records[0][0] - started) / 1e9 if records else float("nan")
    return {"seconds": seconds, "first": first, "datagrams": len(records), "messages": messages, "drops": drops}


def tcp_round(port):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        request = osc.frame(osc.message("/subscribe"))
        started = time.monotonic_ns()
        sock.sendall(request)
        sock.settimeout(QUIET_SECONDS)
        chunks, first, last = [], None, started
        while True:
            try:
                chunk = sock.recv(1 << 20)
            except socket.timeout:
                break
            if not chunk:
                break
            chunks.append(chunk)
            last = time.monotonic_ns()
            first = first or last
        sock.sendall(osc.frame(osc.message("/unsubscribe")))
    packets, _ = osc.unframe(b"".join(chunks))
    messages = [m for packet in packets for m in osc.decode(packet)]
    return {"seconds": (last - started) / 1e9, "first": ((first or last) - started) / 1e9, "datagrams": len(packets),
            "messages": messages, "drops": 0}


def expected_count(size, values):
    """The rig's address count, from the leaves of source 1, output 1 and the master in what arrived."""
    def leaves(prefix):
        return {a[len(prefix):] for a in values if a.startswith(prefix)}
    source, output, master = leaves("/source/1/"), leaves("/output/1/"), leaves("/master/")
    # Per channel: a source safe, an output safe and a mix safe.
    return 3 * size * size + size * (len(source) + len(output) + 3) + len(master) + 1 + 1


def summarise(size, result):
    messages = result.pop("messages")
    values = {address: arguments for address, arguments in messages}
    missing_crosspoints = sum(1 for i in range(1, size + 1) for o in range(1, size + 1)
                              for a in (f"/matrix/{i}/{o}", f"/matrix/{i}/{o}/db", f"/matrix/{i}/{o}/fader")
                              if a not in values)
    expected = expected_count(size, values)
    wrong = [a for a, v in SET.items() if not values.get(a) or abs(values[a][0] - v) > 1e-6]
    result.update({"messages": len(messages), "addresses": len(values), "expected": expected,
                   "missing_crosspoints": missing_crosspoints, "wrong_values": wrong,
                   "whole": len(values) == expected and len(messages) == expected and not missing_crosspoints
                   and not wrong and result["drops"] == 0})
    return result


def fullstate_benchmarks(binary, workdir, rig_class, rounds, log, sizes=SIZES):
    results = []
    for size in sizes:
        started = load_average()
        rig = rig_class(workdir, realtime=True)
        try:
            rig.serve(binary, size, size, 0, f"serve-fullstate-{size}")
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                for address, value in SET.items():
                    s.sendto(osc.message(address, value), ("127.0.0.1", rig.osc_port))
            time.sleep(0.5)
            measured = {"udp": [], "tcp": []}
            for r in range(rounds):
                for transport, round_ in (("udp", udp_round), ("tcp", tcp_round)):
                    result = summarise(size, round_(rig.osc_port))
                    measured[transport].append(result)
                    log(f"full state {size}x{size} over {transport}, round {r + 1}/{rounds}: "
                        f"{result['seconds']:.3f} s (first after {result['first']:.3f} s), {result['datagrams']} packets, {result['messages']} messages, "
                        f"{result['addresses']}/{result['expected']} addresses, drops {result['drops']}"
                        f"{'' if result['whole'] else ' NOT WHOLE'} (load {load_average()})")
            results.append({"size": size, "rounds": measured, "realtime": rig.realtime,
                            "load": (started, load_average())})
        finally:
            rig.close()
    return results


def fullstate_report(results, binary, verdict):
    """The section's lines and its rows of the Targets table."""
    lines, targets = [HEADING, ""], []
    add = lines.append
    jackd = "-R -S" if results[0]["realtime"] else "-r"
    rounds = len(results[0]["rounds"]["udp"])
    add(f"`{binary} serve` on `jackd {jackd} -d dummy -r 48000 -p 64`; {', '.join(SET)} set first; then a client "
        "sends `/subscribe` and keeps what arrives until nothing more has for "
        f"{QUIET_SECONDS:g} s (tools/bench/fullstate.py). UDP: a socket on 127.0.0.1 with a 4 MiB receive buffer, "
        "read by a thread that only stores datagrams (paced as a client on this machine: 8 datagrams a "
        "millisecond, 32 at once). TCP: one length-prefixed connection read as fast as Python reads (paced by "
        "the socket). Time = from just before `/subscribe` is sent to the last datagram or byte; median of "
        f"{rounds} rounds per transport, alternating. Whole = every address of the rig once (each crosspoint "
        "in three forms, every strip's leaves, the safes, `/matrix/map`), the set values right, and no drop "
        "counted by the kernel on the socket.")
    add("")
    add("| rig | transport | median s | min s | max s | packets | messages | addresses expected | whole in every round |")
    add("|---|---|---|---|---|---|---|---|---|")
    for result in results:
        size = result["size"]
        for transport in ("udp", "tcp"):
            measured = result["rounds"][transport]
            times = [m["seconds"] for m in measured]
            whole = all(m["whole"] for m in measured)
            add(f"| {size}x{size} | {transport.upper()} | {statistics.median(times):.3f} | {min(times):.3f} | "
                f"{max(times):.3f} | {measured[0]['datagrams']} | {measured[0]['messages']} | "
                f"{measured[0]['expected']} | {'yes' if whole else 'no'} |")
            if size == max(SIZES):
                median = statistics.median(times)
                targets.append((f"{TARGET} {size}x{size} over loopback {transport.upper()}, s (whole: "
                                f"{'yes' if whole else 'no'})", median, f"≤ {LIMIT_SECONDS:g}, whole",
                                whole and median <= LIMIT_SECONDS))
    add("")
    add(BEFORE)
    add("")
    add("```sh")
    add(f"scripts/bench --only fullstate --fullstate-rounds {rounds}    # this section alone")
    add("```")
    add("")
    return lines, targets
