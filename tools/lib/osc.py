"""OSC for Crosspoint's Python tools, on python-osc (PyPI `python-osc`).

The one place the tools encode and decode OSC; the benchmarks in
tools/bench and the page drivers in tools/page import it. A tool outside
tools/lib finds it with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
    import osc

- message(address, *args): one message as bytes; types by value, as
  python-osc gives them: int `i`, float `f`, str `s` (True/False `T`/`F`).
- decode(packet): every message of a packet as (address, [arguments]),
  bundles opened, nested ones too, in the order they were sent.
- frame(packet) / unframe(stream): OSC 1.0's TCP framing, each packet after
  its length as a big-endian int32 (what the rig speaks on TCP besides SLIP).
- Client(port): a UDP socket of its own (bound to `bind`, any port), which
  sends to the rig and reads its replies with a timeout; query() asks for
  an address's value.
"""
import socket
import struct
import time

from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder


def message(address, *args):
    """One OSC message, its types taken from the values (python-osc's rule)."""
    builder = OscMessageBuilder(address=address)
    for arg in args:
        builder.add_arg(arg)
    return builder.build().dgram


def decode(packet):
    """Every message of a packet as (address, arguments), bundles opened, in order."""
    if OscBundle.dgram_is_bundle(packet):
        return [found for content in OscBundle(packet) for found in _contents(content)]
    parsed = OscMessage(packet)
    return [(parsed.address, list(parsed.params))]


def _contents(content):
    if isinstance(content, OscBundle):
        return [found for inner in content for found in _contents(inner)]
    return [(content.address, list(content.params))]


def frame(packet):
    """A packet framed for OSC 1.0 over TCP: its length (big-endian int32), then the packet."""
    return struct.pack(">i", len(packet)) + packet


def unframe(stream):
    """The whole packets of an OSC 1.0 TCP stream, and the bytes left after the last one."""
    packets, offset = [], 0
    while offset + 4 <= len(stream):
        (size,) = struct.unpack_from(">i", stream, offset)
        if offset + 4 + size > len(stream):
            break
        packets.append(stream[offset + 4:offset + 4 + size])
        offset += 4 + size
    return packets, stream[offset:]


class Client:
    """Another client of the rig over UDP: its own socket, bound to `bind` on any port, so the rig's
    replies (and feedback, once subscribed) come back to it."""

    def __init__(self, port, host="127.0.0.1", bind="127.0.0.1", timeout=0.2):
        self.target = (host, port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((bind, 0))
        self.timeout = timeout
        self.sock.settimeout(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def send(self, address, *args):
        self.sock.sendto(message(address, *args), self.target)

    def receive(self, timeout=None):
        """The messages of the next packet that arrives within `timeout` s (the socket's own timeout
        when None), or [] if none does."""
        self.sock.settimeout(self.timeout if timeout is None else timeout)
        try:
            data, _ = self.sock.recvfrom(65536)
        except socket.timeout:
            return []
        return decode(data)

    def query(self, address, timeout=5.0, answer=None):
        """The rig's answer to a query (the address with no arguments): its arguments, or None when no
        message at that address (or at `answer`: /status answers at its fields') arrives within `timeout` s."""
        self.send(address)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for got, args in self.receive():
                if got == (answer or address):
                    return args
        return None

    def close(self):
        self.sock.close()
