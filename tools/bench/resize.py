"""A rig that changes size while it plays, for BENCHMARKS.md: at 64x64 and 256x256 (jackd -R where
allowed, 64 frames), 200 resizes alternately one source more and back: the time from sending
/rig/inputs to the new port `in_{n+1}` existing in JACK (a JACK client's port-registration callback),
and how long the new kernel waited beyond the next period (`/status/resize_frames`, counted by the audio thread
in frames); the resident size before and after."""
import socket
import statistics
import time

import jack
from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder

from procstat import rss_kib

SIZES = (64, 256)
ROUNDS = 100
TARGET = "changing size"


def message(address, *ints):
    builder = OscMessageBuilder(address=address)
    for value in ints:
        builder.add_arg(value, "i")
    return builder.build().dgram


def status(sock, port):
    """The rig's /status, as {name: value}."""
    sock.sendto(message("/status"), ("127.0.0.1", port))
    values, deadline = {}, time.monotonic() + 2
    while time.monotonic() < deadline and "access" not in values:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        # A bundle: "#bundle\0", a time tag, then size-prefixed messages.
        offset = 16 if data.startswith(b"#bundle") else 0
        while offset < len(data):
            size = int.from_bytes(data[offset:offset + 4], "big") if offset else len(data)
            chunk = data[offset + 4:offset + 4 + size] if offset else data
            reply = OscMessage(chunk)
            if reply.address.startswith("/status/"):
                values[reply.address[len("/status/"):]] = reply.params[0]
            offset = offset + 4 + size if offset else len(data)
    return values


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def resize_benchmarks(binary, workdir, Rig, log):
    results = {}
    for n in SIZES:
        rig = Rig(workdir, period=64, realtime=True)
        try:
            serve = rig.serve(binary, n, n, 0, f"resize-{n}")
            watcher = jack.Client(f"xp-resize-watch-{n}", servername=rig.name, no_start_server=True)
            registered = {}

            @watcher.set_port_registration_callback
            def noted(port, register):
                if register:
                    registered[port.name] = time.monotonic()

            watcher.activate()
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind(("127.0.0.1", 0))
            sock.settimeout(0.2)
            # Ten resizes first: memory a rig that changed size once holds
            # (the allocator's pools for kernels and namespaces of this size).
            for k in range(10):
                sock.sendto(message("/rig/inputs", n + 1 if k % 2 == 0 else n), ("127.0.0.1", rig.osc_port))
                time.sleep(0.1)
            time.sleep(3)
            rss_before = rss_kib(serve.pid)
            ports_ms, period_ms, rss = [], [], [rss_before]
            for k in range(2 * ROUNDS):
                size = n + 1 if k % 2 == 0 else n
                wanted = f"crosspoint:in_{n + 1}"
                registered.pop(wanted, None)
                sent = time.monotonic()
                sock.sendto(message("/rig/inputs", size), ("127.0.0.1", rig.osc_port))
                if size > n:
                    while wanted not in registered and time.monotonic() - sent < 5:
                        time.sleep(0.0002)
                    if wanted in registered:
                        ports_ms.append((registered[wanted] - sent) * 1000)
                else:
                    time.sleep(0.05)
                frames = status(sock, rig.osc_port).get("resize_frames", -1)
                if frames >= 0:
                    period_ms.append(frames / 48)
                if (k + 1) % ROUNDS == 0:
                    time.sleep(2)  # the namespace of the last size, then memory given back
                    rss.append(rss_kib(serve.pid))
            rss_after = rss[-1]
            watcher.deactivate()
            watcher.close()
            results[n] = {"ports_ms": ports_ms, "period_ms": period_ms, "rss": rss, "realtime": rig.realtime}
            log(f"resize {n}x{n}: ports median {statistics.median(ports_ms):.2f} ms, wait beyond the next period median "
                f"{statistics.median(period_ms):.3f} ms, RSS {' -> '.join(map(str, rss))} KiB")
        finally:
            rig.close()
    return results


def resize_report(results, binary, verdict):
    """The section's lines, and its rows of the Targets table."""
    lines, targets = [], []
    add = lines.append
    add("## Changing size while it plays")
    add("")
    add(f"`{binary} serve --inputs N --outputs N` on a private `jackd -d dummy -p 64 -r 48000`"
        f"{' -R' if all(r['realtime'] for r in results.values()) else ''}; {2 * ROUNDS} messages `/rig/inputs N+1`, "
        "`/rig/inputs N` in turn over UDP (tools/bench/resize.py). **Ports**: from sending to JACK's "
        "port-registration callback for `crosspoint:in_{N+1}` in a watching client (the supervisor registers it "
        "once nudged). **First period**: `/status/resize_frames`, the frames the new kernel waited beyond the next "
        "period after its hand-over, counted by the audio thread's own frame clock (0: the next period rendered at the "
        "new size, as it should; the control side's work before the hand-over is in the Ports column). **Memory**: "
        "resident size after ten resizes (to warm the allocator's pools), after 100 and after 200 (glibc's "
        "own slack moves it by a few MiB either way; freed memory is given back after each change of size): a leak "
        "would grow from the first hundred to the second.")
    add("")
    add(f"| rig | ports exist: median | p99 | wait beyond the next period: median | p99 | RSS warmed | after {ROUNDS} | after {2 * ROUNDS} |")
    add("|---|---|---|---|---|---|---|---|")
    for n, r in results.items():
        add(f"| {n}x{n} | {statistics.median(r['ports_ms']):.2f} ms | {percentile(r['ports_ms'], 0.99):.2f} ms | "
            f"{statistics.median(r['period_ms']):.3f} ms | {percentile(r['period_ms'], 0.99):.3f} ms | "
            + " | ".join(f"{kib / 1024:.1f} MiB" for kib in r["rss"]) + " |")
    add("")
    worst_period = max(percentile(r["period_ms"], 0.99) for r in results.values())
    worst_ports = max(percentile(r["ports_ms"], 0.99) for r in results.values())
    # A leak grows with every resize: the second hundred against the first.
    growth = max(r["rss"][2] - r["rss"][1] for r in results.values()) / 1024
    # The next period takes the new kernel: no wait beyond it.
    targets.append((f"{TARGET}: wait beyond the next period, p99 ms", worst_period, 0, worst_period <= 0))
    targets.append((f"{TARGET}: new port in JACK, p99 ms", worst_ports, 100, worst_ports <= 100))
    targets.append((f"{TARGET}: resident growth over the second 100 resizes, MiB", growth, 16, growth <= 16))
    return lines, targets
