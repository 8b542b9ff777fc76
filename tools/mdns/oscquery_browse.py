#!/usr/bin/env python3
"""Finds an OSCQuery server by its DNS-SD name with python-oscquery's browser
(python-zeroconf: `_oscjson._tcp` and `_osc._udp`), reads its HOST_INFO and a
few values, and reports what python-oscquery makes of its whole tree. Prints
one JSON object (the DNS-SD test reads it):

  {"service": {"name", "port", "addresses"}, "osc_services": [{"name", "port"}],
   "host_info": {"NAME", "OSC_PORT", "OSC_TRANSPORT"},
   "values": {PATH: [VALUE...]}, "value_errors": {PATH: ERROR},
   "tree": {"parsed": bool, "error": ERROR, "nodes": N, "refused": N,
            "refused_by_error": {ERROR: N}, "refused_examples": {PATH: ERROR}}}

Usage: oscquery_browse.py NAME [--timeout S] [PATH...]

python-oscquery refuses a node that has both CONTENTS and a VALUE (a method
that is also a container). Such a value is then read from the JSON the
client fetched (`last_json`), and the refusals are counted node by node.
"""
import json
import sys
import time

from pythonoscquery.osc_query_browser import OSCQueryBrowser
from pythonoscquery.osc_query_client import OSCQueryClient
from pythonoscquery.shared.osc_path_node import OSCPathNode


def service_name(info):
    return info.name.removesuffix("." + info.type)


def shallow(node):
    """The node with its children cut down to their paths, so that a refusal
    is the node's own and not one of its descendants'."""
    copy = dict(node)
    if isinstance(node.get("CONTENTS"), dict):
        copy["CONTENTS"] = {
            # ACCESS 0: an empty container python-oscquery accepts.
            key: {"FULL_PATH": child.get("FULL_PATH", "/?"), "ACCESS": 0}
            for key, child in node["CONTENTS"].items()
        }
    return copy


def walk(node):
    yield node
    for child in (node.get("CONTENTS") or {}).values():
        yield from walk(child)


def tree_report(client):
    report = {"parsed": False, "error": None}
    try:
        client.query_node("/")
        report["parsed"] = True
    except Exception as error:  # python-oscquery raises ValueError, TypeError
        report["error"] = f"{type(error).__name__}: {error}"
    raw = client.last_json or {}
    refused = {}
    nodes = 0
    for node in walk(raw):
        nodes += 1
        try:
            OSCPathNode.from_json(shallow(node))
        except Exception as error:
            refused[node.get("FULL_PATH", "?")] = f"{type(error).__name__}: {error}"
    by_error = {}
    for error in refused.values():
        by_error[error] = by_error.get(error, 0) + 1
    report.update(
        nodes=nodes,
        refused=len(refused),
        refused_by_error=by_error,
        refused_examples=dict(sorted(refused.items())[:5]),
    )
    return report


def main():
    args = sys.argv[1:]
    timeout = 10.0
    if "--timeout" in args:
        i = args.index("--timeout")
        timeout = float(args[i + 1])
        del args[i : i + 2]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    name, paths = args[0], args[1:]
    browser = OSCQueryBrowser()
    try:
        deadline = time.monotonic() + timeout
        found = None
        while found is None and time.monotonic() < deadline:
            time.sleep(0.1)
            for info in browser.get_discovered_oscquery():
                if info is not None and service_name(info) == name:
                    found = info
        if found is None:
            seen = [service_name(i) for i in browser.get_discovered_oscquery() if i]
            print(json.dumps({"error": f"no _oscjson._tcp service named {name!r}", "seen": seen}))
            return 1
        # The _osc._udp entry may come a moment after the _oscjson._tcp one.
        while time.monotonic() < deadline and not any(
            i and service_name(i) == name for i in browser.get_discovered_osc()
        ):
            time.sleep(0.1)
        client = OSCQueryClient(found)
        info = client.get_host_info()
        result = {
            "service": {
                "name": service_name(found),
                "port": found.port,
                "addresses": [".".join(str(b) for b in a) for a in found.addresses],
            },
            "osc_services": [
                {"name": service_name(i), "port": i.port} for i in browser.get_discovered_osc() if i
            ],
            "host_info": {
                "NAME": info.name,
                "OSC_PORT": info.osc_port,
                "OSC_TRANSPORT": info.osc_transport,
            },
            "values": {},
            "value_errors": {},
        }
        for path in paths:
            try:
                node = client.query_node(path)
                result["values"][path] = node.value if node is not None else None
            except Exception as error:
                result["value_errors"][path] = f"{type(error).__name__}: {error}"
                result["values"][path] = (client.last_json or {}).get("VALUE")
        result["tree"] = tree_report(client)
        print(json.dumps(result))
        return 0
    finally:
        browser.zc.close()


if __name__ == "__main__":
    sys.exit(main())
