"""The discovery section of BENCHMARKS.md: what tools/bench/discovery.py
measured at each rig size, and its rows of the Targets table."""

import statistics

from discovery import HEADING, TARGET, ROUNDS, LEAF_REQUESTS, LISTEN_COMMANDS, PING_INTERVAL, p99


def discovery_report(results, binary, verdict):
    """The section's lines and its rows of the Targets table."""
    lines, targets = [HEADING, ""], []
    add = lines.append
    jackd = "-R -S" if results[0]["realtime"] else "-r"
    add(f"`{binary} serve` on `jackd {jackd} -d dummy -r 48000 -p 64`, its OSCQuery server read over loopback by "
        "real clients (tools/bench/discovery.py): Python's http.client reading each answer to its end, the "
        "`websockets` package for LISTEN, and a UDP client in a process of its own timing `/ping` → `/pong` every "
        f"{PING_INTERVAL * 1000:.0f} ms. `GET /`: median of {ROUNDS}, plain and with `Accept-Encoding: gzip` "
        f"(the unpacked answer checked equal to the plain one). Leaf: {LEAF_REQUESTS} requests on one kept-alive "
        f"connection. LISTEN: {LISTEN_COMMANDS} commands then a `/ping` frame, until its `/pong`, per command. "
        "Resident: serve's VmRSS sampled every 2 ms during one `GET /`, highest minus before; 'at rest' is "
        "VmRSS before it (JACK's shared memory included), and 'OSCQuery server' that minus the same rig's with "
        "`--no-http`: the server's threads and buffers, and the namespace built at start.")
    add("")
    add("| rig | nodes | `GET /` | gzip | `GET /` median ms | gzip ms | leaf median ms (p99) | `?VALUE` median ms (p99) "
        "| LISTEN ms | `/ping` p99 ms idle | during `GET /` | resident at rest MiB | OSCQuery server MiB | growth MiB |")
    add("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        size = f"{r['size']}x{r['size']}"
        add(f"| {size} | {r['nodes']} | {r['bytes'] / 1e6:.1f} MB | {r['gzip_bytes'] / 1e6:.2f} MB | "
            f"{statistics.median(r['get_ms']):.1f} | {statistics.median(r['get_gzip_ms']):.1f} | "
            f"{statistics.median(r['leaf_ms']):.3f} ({p99(r['leaf_ms']):.3f}) | "
            f"{statistics.median(r['value_ms']):.3f} ({p99(r['value_ms']):.3f}) | {r['listen_ms']:.4f} | "
            f"{p99(r['ping_idle_ms']):.2f} | {p99(r['ping_during_ms']):.2f} | {r['rss_before_kib'] / 1024:.0f} | "
            f"{(r['rss_before_kib'] - r['rss_without_oscquery_kib']) / 1024:.0f} | {r['rss_growth_kib'] / 1024:.1f} |")
        if r["size"] == 64:
            value = statistics.median(r["get_ms"])
            targets.append((f"{TARGET}: GET / at 64x64, median ms", value, 20, value <= 20))
        if r["size"] == 256:
            value = statistics.median(r["get_ms"])
            targets.append((f"{TARGET}: GET / at 256x256, median ms", value, 400, value <= 400))
            value = p99(r["ping_during_ms"])
            targets.append((f"{TARGET}: /ping p99 during GET / at 256x256, ms", value, 2, value <= 2))
            value = r["rss_growth_kib"] / 1024
            targets.append((f"{TARGET}: resident growth during GET / at 256x256, MiB", value, 50, value <= 50))
    leaf = max(statistics.median(r[key]) for r in results for key in ("leaf_ms", "value_ms"))
    targets.append((f"{TARGET}: one leaf (or ?VALUE), median ms, the slowest rig", leaf, 1, leaf <= 1))
    listen = max(r["listen_ms"] for r in results)
    targets.append((f"{TARGET}: one LISTEN, ms", listen, 0.1, listen <= 0.1))
    add("")
    add("Before the namespace was built once (8d728eb, measured for issue 12 with curl): `GET /` took "
        "175–194 ms at 64x64 and 4.7–4.9 s at 256x256, one leaf `?VALUE` about 80 ms at 64x64 and 3.1–3.3 s at "
        "256x256, 100 LISTENs 8.0 s at 64x64, OSC `/ping` stalled 130 ms during a 256x256 `GET /`, and serve "
        "reached 478 MB resident while answering it: every request rebuilt the whole namespace.")
    add("")
    add("```sh")
    add(f"jackd -n NAME {jackd} -d dummy -r 48000 -p 64 &")
    add(f"{binary} serve --jack-server NAME --no-autostart --osc-port 0 --http-port 0 --inputs N --outputs N &")
    add("curl -s http://127.0.0.1:HTTP/ -o /dev/null -w '%{time_total} %{size_download}\\n'    # GET /")
    add("curl -s --compressed http://127.0.0.1:HTTP/ -o /dev/null    # gzip")
    add("scripts/bench --only discovery    # this section alone")
    add("```")
    add("")
    return lines, targets
