#!/usr/bin/env python3
"""Reads nodes of an OSCQuery server with python-oscquery's client, given
its address and port instead of a DNS-SD browse (tools/mdns/oscquery_browse.py
finds one by name). Prints one JSON object: for each PATH, the FULL_PATH
and the names of the children the server answered, or null for a node it
does not have (HTTP 404).

  {"/source/3": {"full_path": "/source/3", "children": ["db", ...]}, "/source/9": null}

Usage: oscquery_read.py HOST PORT PATH...

python-oscquery refuses a node that has both CONTENTS and a VALUE (a level
with its /delta); the answer is then read from the JSON it fetched
(`last_json`), as oscquery_browse.py does.
"""
import json
import socket
import sys

from pythonoscquery.osc_query_client import OSCQueryClient
from zeroconf import ServiceInfo


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 64
    host, port, paths = argv[1], int(argv[2]), argv[3:]
    info = ServiceInfo("_oscjson._tcp.local.", "crosspoint._oscjson._tcp.local.",
                       addresses=[socket.inet_aton(host)], port=port)
    client = OSCQueryClient(info)
    found = {}
    for path in paths:
        client.last_json = None
        try:
            node = client.query_node(path)
        except Exception:  # a node python-oscquery refuses: its JSON is still there
            node = True
        raw = client.last_json
        if node is None or raw is None:
            found[path] = None
            continue
        found[path] = {"full_path": raw.get("FULL_PATH"), "children": sorted((raw.get("CONTENTS") or {}).keys())}
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
