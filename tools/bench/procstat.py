"""What a process costs, from /proc: CPU time (the whole process, or thread by thread), resident
memory (in total, in parts, by mapping), and the kernel's count of datagrams dropped on UDP sockets."""
import glob
import os
import re


def cpu_ns(pid):
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError):
            pass
    return total


def thread_cpu(pid):
    """CPU ns so far of each thread of a process, by thread id, with a label: the thread's name, and
    "main thread", or "real-time" for SCHED_FIFO/SCHED_RR (JACK's process thread under jackd -R).
    Unnamed threads carry the process's name."""
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except (OSError, ValueError):
            continue  # the thread ended meanwhile
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        policy = int(stat[stat.rindex(")") + 2:].split()[38])  # field 41 of proc(5)
        role = ", main thread" if int(tid) == pid else ", real-time" if policy in (1, 2) else ""
        threads[int(tid)] = (f"`{name}`{role}", ns)
    return threads


def cpu_by_thread(before, after):
    """CPU ns of each thread between two thread_cpu readings (a thread that started meanwhile counts whole)."""
    return {tid: (label, ns - before.get(tid, (label, 0))[1]) for tid, (label, ns) in after.items()}


def rss_kib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(rf"^{field}:\s+(\d+)", f.read(), re.M).group(1))


def rss_parts(pid):
    """Resident KiB: total, private heap (anon), mapped files (libraries), shared memory (JACK's segment),
    and the proportional set sizes (shared pages divided among the processes that map them)."""
    parts = {field: rss_kib(pid, field) for field in ("VmRSS", "RssAnon", "RssFile", "RssShmem")}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            text = f.read()
        for field in ("Pss", "Pss_Anon", "Pss_File", "Pss_Shmem"):
            match = re.search(rf"^{field}:\s+(\d+)", text, re.M)
            if match:
                parts[field] = int(match.group(1))
    except OSError:
        pass
    return parts


def rss_by_mapping(pid):
    """Resident KiB per mapped file (the executable, each library, each shared-memory file) and for
    anonymous memory (heap, stacks, [anon]), from /proc/PID/smaps; a library's copy-on-write pages
    (relocated data) count with the library."""
    totals = {}
    name = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            header = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
            if header:
                path = header.group(1).replace(" (deleted)", "")
                name = os.path.basename(path) if path.startswith("/") and not path.startswith("/dev/shm/") else path
                name = name or "[anon]"
            elif line.startswith("Rss:"):
                totals[name] = totals.get(name, 0) + int(line.split()[1])
    return totals


def udp_drops(ports):
    """The kernel's count of datagrams dropped on the IPv4 UDP sockets bound to these ports (/proc/net/udp)."""
    wanted = {f"{p:04X}": p for p in ports}
    drops = {}
    with open("/proc/net/udp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            port = wanted.get(fields[1].split(":")[1])
            if port is not None:
                drops[port] = drops.get(port, 0) + int(fields[-1])
    return drops
