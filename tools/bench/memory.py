"""Memory, for BENCHMARKS.md: the resident size of `crosspoint serve --inputs 64 --outputs 64`
sampled every 5 s under OSC traffic (tools/bench/probe.c rate), in parts at the start and the end,
and by mapping at the end."""
import subprocess
import time

from common import json_lines, verdict
from jackrig import Rig
from procstat import rss_by_mapping, rss_kib, rss_parts


def memory_benchmark(binary, probe, workdir, seconds, rate):
    rig = Rig(workdir)
    try:
        serve = rig.serve(binary, 64, 64, 0, "serve-64x64")
        port = rig.osc_port
        samples = [(0.0, rss_kib(serve.pid))]
        parts = [rss_parts(serve.pid)]
        traffic = subprocess.Popen([probe, "rate", str(port), str(rate), str(seconds), "64"],
                                   stdout=subprocess.PIPE, text=True)
        start = time.monotonic()
        while traffic.poll() is None:
            time.sleep(5)
            samples.append((time.monotonic() - start, rss_kib(serve.pid)))
        samples.append((time.monotonic() - start, rss_kib(serve.pid)))
        parts.append(rss_parts(serve.pid))
        mappings = rss_by_mapping(serve.pid)
        outcome = json_lines(traffic.stdout.read())
        return {"samples": samples, "parts": parts, "mappings": mappings,
                "traffic": outcome[-1] if outcome else {}}
    finally:
        rig.close()


def memory_report(memory, peer):
    """The "## Memory" section's lines, and its rows of the Targets table; `peer` (the comparison with
    jack_mix_box, or None) for how much of JACK's segment jack_mix_box maps."""
    lines, targets = [], []
    add = lines.append
    add("## Memory")
    add("")
    if memory:
        samples = memory["samples"]
        last = samples[-1][1]
        peak = max(kib for _, kib in samples)
        after10 = next((kib for t, kib in samples if t >= 10), last)
        begin, end = memory["parts"][0], memory["parts"][-1]
        own_peak = end["RssAnon"] + end["RssFile"]
        traffic = memory["traffic"]
        flat = abs(last - after10) <= 1024
        ok_total = peak <= 32 * 1024 and flat
        ok_own = own_peak <= 32 * 1024 and flat
        targets.append(("serve 64x64 VmRSS, all of it (MiB)", peak / 1024, 32, ok_total))
        targets.append(("serve 64x64 RSS without JACK's shared segment (MiB)", own_peak / 1024, 32, ok_own))
        add(f"`crosspoint serve --inputs 64 --outputs 64` under {traffic.get('achieved_rate', 0):.0f} messages/s "
            f"for {samples[-1][0]:.0f} s ({traffic.get('sent', 0)} messages, loss-free: {traffic.get('loss_free')}). "
            "Resident size (VmRSS):")
        add("")
        add("| seconds | " + " | ".join(f"{t:.0f}" for t, _ in samples) + " |")
        add("|---|" + "---|" * len(samples))
        add("| MiB | " + " | ".join(f"{kib / 1024:.1f}" for _, kib in samples) + " |")
        add("")
        add("Where it is, at the start and at the end (MiB):")
        add("")
        add("| | total (VmRSS) | heap and stacks (RssAnon) | libraries and binary (RssFile) | shared memory (RssShmem) |")
        add("|---|---|---|---|---|")
        for label, p in (("start", begin), ("end", end)):
            add(f"| {label} | {p['VmRSS'] / 1024:.1f} | {p['RssAnon'] / 1024:.1f} | {p['RssFile'] / 1024:.1f} | {p['RssShmem'] / 1024:.1f} |")
        if "Pss" in end:
            add(f"| end, proportional (PSS) | {end['Pss'] / 1024:.1f} | {end.get('Pss_Anon', 0) / 1024:.1f} | "
                f"{end.get('Pss_File', 0) / 1024:.1f} | {end.get('Pss_Shmem', 0) / 1024:.1f} |")
        add("")
        add(f"Peak {peak / 1024:.1f} MiB, {last / 1024 - after10 / 1024:+.2f} MiB from 10 s to the end. "
            "The shared memory is JACK's engine segment (`/dev/shm/jack-*`), mapped by every client of the "
            "server and owned by `jackd`" + (f"; `jack_mix_box` maps {memory_peer_shm(peer)}" if peer else "") + ". "
            f"Target ≤ 32 MiB and flat: {verdict(ok_total)} for the whole VmRSS, {verdict(ok_own)} for the "
            "resident size without JACK's segment (heap, stacks, binary, libraries). The libraries' pages are "
            "shared with every other process that maps them; the proportional figure (PSS) without the shared "
            f"memory is {(end.get('Pss_Anon', 0) + end.get('Pss_File', 0)) / 1024:.1f} MiB.")
        mappings = memory.get("mappings")
        if mappings:
            own = {name: kib for name, kib in mappings.items() if not name.startswith("/dev/shm/")}
            shown = sorted(own.items(), key=lambda item: -item[1])[:12]
            rest = sum(own.values()) - sum(kib for _, kib in shown)
            add("")
            add("Without the shared memory, by mapping at the end (resident MiB, from `/proc/PID/smaps`; a "
                "library's relocated, copied-on-write pages count with it):")
            add("")
            add("| mapping | MiB |")
            add("|---|---|")
            for name, kib in shown:
                add(f"| `{name}` | {kib / 1024:.2f} |")
            add(f"| everything else | {rest / 1024:.2f} |")
            add(f"| total | {sum(own.values()) / 1024:.2f} |")
    add("")
    return lines, targets


def memory_peer_shm(peer):
    shm = peer["jack_mix_box"]["rss"]["RssShmem"] / 1024
    total = peer["jack_mix_box"]["rss"]["VmRSS"] / 1024
    return f"{shm:.1f} MiB of it too (VmRSS {total:.1f} MiB in the comparison above)"
