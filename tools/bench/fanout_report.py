"""The feedback fan-out section of BENCHMARKS.md: tables, checks and threads
for each rig size that tools/bench/fanout.py measured."""

import statistics

CPU_LIMIT_PERCENT = 5.0  # issue 35: the whole process, 64 subscribers, 4 faders dragged

from fanout import HEADING, TARGET, SUBSCRIBERS, DRAGGERS, RATE, LOW, HIGH, QUIET_SECONDS, median, p99


def fanout_report(results, binary, verdict):
    """The section's lines and its rows of the Targets table (every final value at every subscriber), for
    the results of each rig size."""
    lines, targets = [HEADING, ""], []
    add = lines.append
    first = results[0]
    jackd = "-R -S" if first["realtime"] else "-r"
    sizes = " and ".join(f"{r['size']}x{r['size']}" for r in results)
    add(f"`{binary} serve` (rigs of {sizes}; 8x8 is the default) on `jackd {jackd} -d dummy -r 48000 -p 64`; "
        f"{SUBSCRIBERS} subscribers on loopback, each a UDP socket that sent `/subscribe` from its own port "
        f"(`/status` counted {first['subscribed']}), all read by one thread through epoll "
        "(tools/bench/fanout.py). Meanwhile "
        f"{DRAGGERS} clients, each from its own socket, drag `/source/{{k}}/fader` (k = 1…{DRAGGERS}) at {RATE} "
        f"messages a second for {first['seconds']:.0f} s a round, along a triangle wave {LOW}…{HIGH} "
        f"(2 s each way; every position in a period distinct, so a value that arrives names its message). "
        "The dragging clients are not subscribed, so the no-echo rule plays no part. Delay = the kernel's "
        "receive time stamp on the subscriber's socket (`SO_TIMESTAMPNS`) minus the time read just before "
        "`sendto()` of that exact value; feedback is coalesced to 30 updates a second per address per client, "
        "so only some values arrive, and each that reached all "
        f"{SUBSCRIBERS} subscribers gives one delay to the last of them. "
        f"{len(first['rounds'])} rounds on the same rig; each starts with as long with the same subscribers and no drags "
        "(idle). CPU = serve's threads (`/proc/PID/task/*/schedstat`, field 1) over the window, as a share of "
        "one core.")
    add("")
    for result in results:
        add_size(add, targets, result, verdict)
    add("```sh")
    add("jackd -n NAME " + jackd + " -d dummy -r 48000 -p 64 &")
    add(f"{binary} serve --jack-server NAME --no-autostart --osc-port 0 --http-port 0 [--inputs 64 --outputs 64] &")
    add(f"scripts/bench --only fanout --fanout-rounds {len(first['rounds'])} --fanout-seconds {first['seconds']:g}"
        "    # this section alone: the subscribers and drags of tools/bench/fanout.py")
    add("```")
    add("")
    return lines, targets


def add_size(add, targets, result, verdict):
    """One rig size's table, checks, threads and final values."""
    rounds, size = result["rounds"], f"{result['size']}x{result['size']}"
    add(f"### {size}")
    add("")
    add("| round | values sent | values arrived (at all 64) | arrived per s per subscriber per address | "
        "delay to the last subscriber, median ms | p99 ms | to the first, median ms | final values missing | "
        "serve CPU % dragging | idle |")
    add("|---|---|---|---|---|---|---|---|---|---|")
    for number, m in enumerate(rounds, 1):
        add(row(str(number), [m]))
    add(row("all rounds", rounds))
    add("")
    add_receiver_check(add, result, rounds)
    add_threads(add, rounds)
    # Issue 35: serve's whole CPU while the faders are dragged, the rounds' mean, at most 5 % of a core.
    cpu = statistics.mean(m["cpu_drag_percent"] for m in rounds)
    targets.append((f"{TARGET}, {size}: serve's CPU while dragging (% of a core, mean of the rounds)",
                    round(cpu, 3), CPU_LIMIT_PERCENT, cpu <= CPU_LIMIT_PERCENT))
    missing = sum(m["final_missing"] for m in rounds)
    ok = missing == 0
    targets.append((f"{TARGET}, {size}: final drag values missing at a subscriber (of "
                    f"{DRAGGERS * SUBSCRIBERS * len(rounds)})", missing, 0, ok))
    add(f"Every drag's final value reached every subscriber (the last value each holds at that address, once "
        f"nothing more arrived for {QUIET_SECONDS} s): "
        f"{verdict(ok)} ({missing} missing of {DRAGGERS * SUBSCRIBERS * len(rounds)}).")
    add("")


def row(label, rounds):
    to_last = [x for m in rounds for x in m["to_last_ms"]]
    to_first = [x for m in rounds for x in m["to_first_ms"]]
    mean = lambda key: statistics.mean(m[key] for m in rounds)
    return (f"| {label} | {sum(m['sent'] for m in rounds)} | {sum(m['values_arrived'] for m in rounds)} "
            f"({sum(m['values_at_all'] for m in rounds)}) | "
            f"{mean('values_per_second_per_subscriber_per_address'):.1f} | {median(to_last):.2f} | "
            f"{p99(to_last):.2f} | {median(to_first):.2f} | {sum(m['final_missing'] for m in rounds)} | "
            f"{mean('cpu_drag_percent'):.2f} | {mean('cpu_idle_percent'):.2f} |")


def add_receiver_check(add, result, rounds):
    lag = max(m["reader_lag_ms_max"] for m in rounds)
    add(f"The receiving side kept up: the kernel dropped {result['subscriber_drops']} datagrams on the "
        f"{SUBSCRIBERS} subscriber sockets (`/proc/net/udp`, receive buffers {result['receive_buffer'] // 1024} "
        f"KiB) and {result['serve_drops']} on serve's; the reader took each datagram from its socket within "
        f"{max(m['reader_lag_ms_p99'] for m in rounds):.2f} ms of its arrival at p99 (at most {lag:.1f} ms), "
        "and delays are counted from the kernel's time stamps, not from the reader. Each subscriber received "
        f"{mean_of(rounds, 'datagrams_per_second_per_subscriber'):.0f} datagrams ("
        f"{mean_of(rounds, 'messages_per_second_per_subscriber'):.0f} messages: every level in its three forms) a "
        f"second, the largest {max(m['largest_datagram'] for m in rounds)} bytes; "
        f"{sum(m['unmatched'] for m in rounds)} fader values matched no message sent, "
        f"{sum(m['out_of_order'] for m in rounds)} arrived after a later one, "
        f"{sum(m['repeated'] for m in rounds)} arrived twice at the same subscriber, and "
        f"{sum(m['idle_datagrams'] for m in rounds)} datagrams came in the idle windows. The last feedback "
        f"of a round arrived at most {max(m['tail_ms'] for m in rounds):.0f} ms after the round's last drag "
        f"message; the full state on subscribing took {result['initial_datagrams']} datagrams in all. Serve "
        f"still running at the end: {result['serve_alive']}.")
    add("")


def mean_of(rounds, key):
    return statistics.mean(m[key] for m in rounds)


def add_threads(add, rounds):
    """Serve's CPU by thread, all rounds together (one serve process throughout): where the fan-out's time
    goes. Threads under 0.1 % in both windows are summed in one row."""
    wall = sum(m["wall_ns"] for m in rounds) / 2  # each round's idle and drag windows are as long
    labels, drag, idle = {}, {}, {}
    for m in rounds:
        for totals, key in ((drag, "threads_drag_ns"), (idle, "threads_idle_ns")):
            for tid, (label, ns) in m[key].items():
                labels[tid] = label
                totals[tid] = totals.get(tid, 0) + ns
    share = lambda totals, tid: 100 * totals.get(tid, 0) / wall
    shown = [tid for tid in sorted(labels, key=lambda t: -drag.get(t, 0))
             if max(share(drag, tid), share(idle, tid)) >= 0.1]
    rest = [tid for tid in labels if tid not in shown]
    add("Serve's CPU by thread, % of one core, all rounds (unnamed threads show the process's name):")
    add("")
    add("| thread | id | dragging | idle |")
    add("|---|---|---|---|")
    for tid in shown:
        add(f"| {labels[tid]} | {tid} | {share(drag, tid):.2f} | {share(idle, tid):.2f} |")
    add(f"| {len(rest)} others | | {sum(share(drag, t) for t in rest):.2f} | {sum(share(idle, t) for t in rest):.2f} |")
    add("")


def full_run_note(results):
    """The line under the heading in a full run (a partial run's note says where the section came from)."""
    return f"(Load average at the start / end of this section: {results[0]['load'][0]} / {results[-1]['load'][1]}.)"
