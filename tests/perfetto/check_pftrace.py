#!/usr/bin/env python3
"""Checks a Perfetto trace written by rtg-convert against the Chrome JSON
written from the same input with the same options.

    check_pftrace.py DECODED.txt OUT.json [COUNTERS.txt]

DECODED.txt is `protoc --decode=rtgpf.Trace tests/perfetto/pftrace.proto`
of the .pftrace.  The trace is replayed the way a Perfetto importer does:
packets in file order for the interned data (a reference must follow its
definition on the sequence), then events sorted by time (ties in file
order) for slices and flows.  Checked against the JSON:
  - processes and lanes: the same names in the same order;
  - every lane's slices (start, end, name, category, arguments) and
    instants, exactly;
  - slices nest on every track (each end closes the innermost slice);
  - flows: the same arrows (from call slice to op slice) as the JSON's
    (forward in time: Perfetto links a flow's slices in time order), but
    for those whose end cannot bind (counted and printed as lost);
  - sequences: sequence 1 (the first packet: its state cleared, CLOCK_BOOTTIME
    in its defaults) and one per track after it, whose first packet clears
    its state and gives its track and its clock in the defaults, the clock
    incremental (each time a delta from the one before on the sequence)
    and started in a ClockSnapshot against CLOCK_BOOTTIME; times resolved
    as Perfetto's importer does (a packet may name CLOCK_BOOTTIME itself);
  - interning: each event name, category and annotation name is defined
    once per sequence, every iid is defined on its sequence before it is
    used there, and an iid means the same on every sequence;
  - counters: values of their own (TYPE_COUNTER) or carried by another
    event (extra_counter_values, for the tracks its sequence's defaults
    name, each a counter track described before); in-flight counts never
    negative and back to 0 at the end; with COUNTERS.txt, every counter
    track's value at each time it changes (the last at that time, in
    Perfetto's order) written there, to compare two traces' counters;
  - padding packets (rtg_padding, before the events) hold nothing else,
    and are not counted.
Prints a few facts (for the test's .expect); exits 1 at the first error."""
import json
import sys
from collections import defaultdict


def fail(msg):
    print("check_pftrace: FAIL: " + msg)
    sys.exit(1)


def unescape(s):
    """A protoc text-format string literal (without its quotes) to str."""
    out = bytearray()
    i = 0
    esc = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11}
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        n = s[i + 1]
        if n in esc:
            out.append(esc[n])
            i += 2
        elif n in "01234567":
            j = i + 1
            while j < len(s) and j < i + 4 and s[j] in "01234567":
                j += 1
            out.append(int(s[i + 1 : j], 8))
            i = j
        elif n == "x":
            j = i + 2
            while j < len(s) and j < i + 4 and s[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(s[i + 2 : j], 16))
            i = j
        else:
            fail("bad escape in " + s)
    return out.decode("utf-8", "replace")


def value(v):
    if v.startswith('"'):
        return unescape(v[1:-1])
    if v in ("true", "false"):
        return v == "true"
    try:
        return int(v, 0)
    except ValueError:
        return float(v)


def parse(path):
    """Text format to nested dicts of lists."""
    root = {}
    stack = [root]
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.endswith("{"):
                d = {}
                stack[-1].setdefault(s[:-1].strip(), []).append(d)
                stack.append(d)
            elif s == "}":
                stack.pop()
            else:
                k, v = s.split(": ", 1)
                stack[-1].setdefault(k, []).append(value(v))
    return root


def one(d, k, default=None):
    v = d.get(k)
    return v[0] if v else default


def us_to_ns(x):
    return int(round(x * 1000))


def load_json(path):
    with open(path) as f:
        doc = json.load(f)
    evs = doc["traceEvents"]
    pname, psort, tname, tsort = {}, {}, {}, {}
    for e in evs:
        if e["ph"] != "M":
            continue
        a = e["args"]
        if e["name"] == "process_name":
            pname[e["pid"]] = a["name"]
        elif e["name"] == "process_sort_index":
            psort[e["pid"]] = a["sort_index"]
        elif e["name"] == "thread_name":
            tname[(e["pid"], e["tid"])] = a["name"]
        elif e["name"] == "thread_sort_index":
            tsort[(e["pid"], e["tid"])] = a["sort_index"]
    layout = []
    for pid in sorted(pname, key=lambda p: (psort.get(p, 0), p)):
        ths = [k for k in tname if k[0] == pid]
        ths.sort(key=lambda k: (tsort.get(k, 0), k[1]))
        layout.append((pname[pid], [tname[k] for k in ths]))
    slices, instants = defaultdict(list), defaultdict(list)
    flows = {}
    nflows = 0
    for e in evs:
        ph = e["ph"]
        if ph in ("M", "C"):  # metadata; counters (checked on the trace's side)
            continue
        where = (pname[e["pid"]], tname[(e["pid"], e["tid"])])
        if ph == "X":
            s = us_to_ns(e["ts"])
            slices[where].append((s, s + us_to_ns(e["dur"]), e["name"], e["cat"], e.get("args", {})))
        elif ph == "i":
            instants[where].append((us_to_ns(e["ts"]), e["name"], e["cat"]))
        elif ph in ("s", "f"):
            flows.setdefault(e["id"], {})[ph] = (where, us_to_ns(e["ts"]))
            nflows += ph == "s"
        else:
            fail("unexpected JSON event phase " + ph)
    # Perfetto draws an arrow forward in time: one that the JSON points
    # back (an op timed before its call) is compared the other way round
    arrows = sorted((f["s"], f["f"]) if f["f"][1] >= f["s"][1] else (f["f"], f["s"])
                    for f in flows.values())
    if len(arrows) != nflows:
        fail("JSON flows without both ends")
    return layout, slices, instants, arrows


def read_trace(path):
    """The decoded trace: its packets, its tracks by uuid, what was interned
    (by iid, over all sequences) and its track events (time resolved, order
    in the file, track uuid, the event), checked as it is read."""
    trace = parse(path)
    packets = []
    for p in trace.get("packet", []):
        if "rtg_padding" not in p:
            packets.append(p)
        elif len(p) != 1:
            fail("a padding packet with other fields")
    if not packets:
        fail("no packets")
    first = packets[0]
    if one(first, "trusted_packet_sequence_id") != 1 or one(first, "sequence_flags") != 1:
        fail("the first packet does not clear the incremental state of sequence 1")
    defaults = one(first, "trace_packet_defaults", {})
    if one(defaults, "timestamp_clock_id") != 6:
        fail("the packet defaults do not name CLOCK_BOOTTIME (6)")

    tracks = {}  # uuid -> descriptor
    kinds = ("event_categories", "event_names", "debug_annotation_names",
             "debug_annotation_string_values")
    interned = {k: {} for k in kinds}  # every sequence's, by iid
    seqs = {}  # sequence id -> its state
    events = []  # (ts, order, uuid, te)
    for order, p in enumerate(packets):
        td = one(p, "track_descriptor")
        if td is not None:
            uuid = one(td, "uuid")
            if uuid in tracks:
                fail("track %d described twice" % uuid)
            tracks[uuid] = td
            continue
        sid = one(p, "trusted_packet_sequence_id")
        if one(p, "sequence_flags", 0) & 1:
            if sid in seqs:
                fail("sequence %s cleared twice" % sid)
            if order and sid == 1:
                fail("sequence 1 cleared after the first packet")
            d = one(p, "trace_packet_defaults", {})
            seq = {"defaults": d, "clock": None, "defined": {k: {} for k in kinds},
                   "once": {k: set() for k in kinds[:3]}}
            seqs[sid] = seq
            if sid != 1:
                ted = one(d, "track_event_defaults", {})
                if one(ted, "track_uuid") not in tracks:
                    fail("sequence %s: no track of its own in its defaults" % sid)
                if one(d, "timestamp_clock_id") != 64:
                    fail("sequence %s: its defaults' clock is not 64" % sid)
        seq = seqs.get(sid)
        cs = one(p, "clock_snapshot")
        if cs is not None:
            if seq is None:
                fail("clock snapshot on sequence %s before its state was cleared" % sid)
            clocks = {one(c, "clock_id"): c for c in cs.get("clocks", [])}
            if set(clocks) != {64, 6} or not one(clocks[64], "is_incremental"):
                fail("sequence %s: the snapshot does not start an incremental clock 64 on "
                     "CLOCK_BOOTTIME" % sid)
            seq["clock"] = [one(clocks[64], "timestamp"), one(clocks[6], "timestamp") - one(clocks[64], "timestamp")]
            continue
        idata = one(p, "interned_data")
        if idata is not None:
            if seq is None:
                fail("interned data on sequence %s before its state was cleared" % sid)
            for kind in kinds:
                table = seq["defined"][kind]
                for e in idata.get(kind, []):
                    iid = one(e, "iid")
                    s = one(e, "name", one(e, "str"))
                    if iid in table:
                        fail("%s iid %d defined twice on sequence %s" % (kind, iid, sid))
                    table[iid] = s
                    if interned[kind].setdefault(iid, s) != s:
                        fail("%s iid %d stands for two strings" % (kind, iid))
                    if kind in seq["once"]:
                        if s in seq["once"][kind]:
                            fail("%s %r interned twice on sequence %s" % (kind, s, sid))
                        seq["once"][kind].add(s)
        te = one(p, "track_event")
        if te is None:
            continue
        if seq is None:
            fail("track event on sequence %s before its state was cleared" % sid)
        uuid = one(te, "track_uuid", one(one(seq["defaults"], "track_event_defaults", {}), "track_uuid"))
        if uuid not in tracks:
            fail("event on track %s before its descriptor" % uuid)
        needs = False
        # resolve the interned references now: they must be defined already
        defined = seq["defined"]
        if "name_iid" in te:
            needs = True
            iid = one(te, "name_iid")
            if iid not in defined["event_names"]:
                fail("name iid %d used before it is defined on sequence %s" % (iid, sid))
            te["name"] = [defined["event_names"][iid]]
        cats = []
        for iid in te.get("category_iids", []):
            needs = True
            if iid not in defined["event_categories"]:
                fail("category iid %d used before it is defined on sequence %s" % (iid, sid))
            cats.append(defined["event_categories"][iid])
        te["cat"] = ",".join(cats)
        te["args"] = annotations(te.get("debug_annotations", []), defined)
        if te.get("debug_annotations"):
            needs = True
        if needs and one(p, "sequence_flags") != 2:
            fail("a packet using interned data lacks SEQ_NEEDS_INCREMENTAL_STATE")
        ts = one(p, "timestamp")
        if ts is None:
            fail("track event without a timestamp")
        clock = one(p, "timestamp_clock_id", one(seq["defaults"], "timestamp_clock_id", 6))
        if clock == 64:
            if seq["clock"] is None:
                fail("sequence %s: a time on clock 64 before its snapshot" % sid)
            seq["clock"][0] += ts
            ts = seq["clock"][0] + seq["clock"][1]
        elif clock != 6:
            fail("a time on clock %s" % clock)
        events.append((ts, order, uuid, te))
        vals = te.get("extra_counter_values", [])
        if vals:  # the counter tracks named by the event or its sequence's defaults
            uuids = te.get("extra_counter_track_uuids") or \
                one(seq["defaults"], "track_event_defaults", {}).get("extra_counter_track_uuids", [])
            if len(uuids) < len(vals):
                fail("sequence %s: %d extra counter values for %d counter tracks" % (sid, len(vals), len(uuids)))
            for cu in uuids[:len(vals)]:
                if "counter" not in tracks.get(cu, {}):
                    fail("an extra counter value for track %s, not a counter described before" % cu)
            te["extra"] = list(zip(uuids, vals))

    return packets, tracks, interned, events


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: check_pftrace.py DECODED.txt OUT.json [COUNTERS.txt]")
    packets, tracks, interned, events = read_trace(sys.argv[1])
    jlayout, jslices, jinstants, jarrows = load_json(sys.argv[2])
    # the layout: processes by rank, their children by rank
    procs = [(one(t, "sibling_order_rank", 0), u) for u, t in tracks.items() if "process" in t]
    procs.sort()
    layout, counters = [], []
    tname = {}
    for _, pu in procs:
        pd = one(tracks[pu], "process")
        if one(tracks[pu], "child_ordering") != 3:
            fail("process track without explicit child ordering")
        kids = [(one(t, "sibling_order_rank", 0), u) for u, t in tracks.items() if one(t, "parent_uuid") == pu]
        kids.sort()
        lanes = []
        for _, u in kids:
            name = one(tracks[u], "name")
            tname[u] = (one(pd, "process_name"), name)
            if "counter" in tracks[u]:
                counters.append(u)
            else:
                lanes.append(name)
        layout.append((one(pd, "process_name"), lanes))
    if layout != jlayout:
        fail("tracks differ from the JSON's:\n  perfetto %s\n  json     %s" % (layout, jlayout))

    # replay in time order: slices, nesting, flows, counters
    events.sort(key=lambda e: (e[0], e[1]))
    open_ = defaultdict(list)  # uuid -> stack of slices
    slices, instants = defaultdict(list), defaultdict(list)
    v2, v1 = {}, {}
    arrows = []
    lost = set()
    cvalues = defaultdict(list)
    crows = defaultdict(list)  # uuid -> [(ts, value)], the last value at each time
    for ts, order, uuid, te in events:
        for cu, v in te.get("extra", []):  # (before the event: as Perfetto's importer)
            cvalues[cu].append(v)
            rows = crows[cu]
            if rows and rows[-1][0] == ts:
                rows.pop()
            rows.append((ts, v))
        typ = one(te, "type", 0)
        if typ == 1:
            s = {"start": ts, "name": one(te, "name"), "cat": te["cat"], "args": te["args"], "uuid": uuid}
            open_[uuid].append(s)
            for fid in te.get("flow_ids", []):
                if fid in v2:
                    arrows.append((v2[fid], s))
                v2[fid] = s
        elif typ == 2:
            if not open_[uuid]:
                fail("slice end without a begin on track %s at %d" % (tname.get(uuid), ts))
            s = open_[uuid].pop()
            s["end"] = ts
            slices[tname[uuid]].append((s["start"], ts, s["name"], s["cat"], s["args"]))
        elif typ == 3:
            instants[tname[uuid]].append((ts, one(te, "name"), te["cat"]))
        elif typ == 4:
            cvalues[uuid].append(one(te, "counter_value"))
            rows = crows[uuid]
            if rows and rows[-1][0] == ts:
                rows.pop()
            rows.append((ts, one(te, "counter_value")))
        elif typ == 0:
            le = one(te, "legacy_event")
            if le is None:
                fail("track event with no type and no legacy event")
            phase, fid = chr(one(le, "phase")), one(le, "unscoped_id")
            if phase not in "sf":
                fail("unexpected legacy phase " + phase)
            if not open_[uuid]:
                # a known limit: an end at a 0 ns slice written before the
                # pair was known (see src/convert/out/perfetto/perfetto.c); counted, and the arrows
                # that remain must all be the JSON's
                lost.add(fid)
                continue
            top = open_[uuid][-1]
            if phase == "s":
                v1[fid] = top
            elif fid in lost:
                continue
            else:
                if fid not in v1 or not one(le, "bind_to_enclosing"):
                    fail("flow end %d without its start" % fid)
                arrows.append((v1.pop(fid), top))
    for u, st in open_.items():
        if st:
            fail("%d slices left open on %s" % (len(st), tname.get(u)))

    jcount = sum(len(v) for v in jslices.values())
    pcount = sum(len(v) for v in slices.values())
    for where in set(jslices) | set(slices):
        a = sorted(jslices.get(where, []), key=repr)
        b = sorted(slices.get(where, []), key=repr)
        if len(a) != len(b):
            fail("%s: %d slices in the JSON, %d in the trace" % (where, len(a), len(b)))
        for x, y in zip(a, b):
            if x[:4] != y[:4] or not same_args(x[4], y[4]):
                fail("%s: slice differs:\n  json     %s\n  perfetto %s" % (where, x, y))
    for where in set(jinstants) | set(instants):
        if sorted(jinstants.get(where, [])) != sorted(instants.get(where, [])):
            fail("%s: instants differ" % (where,))
    parrows = sorted(((tname[a["uuid"]], a["start"]), (tname[b["uuid"]], b["start"])) for a, b in arrows)
    if lost:
        left = list(jarrows)
        for a in parrows:
            if a not in left:
                fail("flow %s is not the JSON's" % (a,))
            left.remove(a)
        if len(left) != len(lost):
            fail("flows differ: %d in the JSON, %d in the trace, %d lost" % (len(jarrows), len(parrows), len(lost)))
    elif parrows != jarrows:
        diff = [x for x in parrows if x not in jarrows][:3] + ["json:"] + [x for x in jarrows if x not in parrows][:3]
        fail("flows differ: %d in the JSON, %d in the trace: %s" % (len(jarrows), len(parrows), diff))
    for u in counters:
        vals = cvalues.get(u, [])
        if any(v < 0 for v in vals):
            fail("counter %s negative" % (tname[u],))
        if one(one(tracks[u], "counter"), "unit") == 2 and vals and vals[-1] != 0:
            fail("counter %s does not return to 0" % (tname[u],))

    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as f:
            for u in counters:
                for ts, v in crows.get(u, []):
                    f.write("%s\t%d\t%d\n" % ("/".join(tname[u]), ts, v))
    lanes = sum(len(l) for _, l in layout)
    print("check_pftrace: %d packets, %d processes, %d lanes, %d counter tracks" %
          (len(packets), len(layout), lanes, len(counters)))
    print("check_pftrace: %d slices (JSON %d), %d instants, %d flows (JSON %d)%s, all equal" %
          (pcount, jcount, sum(len(v) for v in instants.values()), len(parrows), len(jarrows),
           ", %d lost at 0 ns slices" % len(lost) if lost else ""))
    # strings: distinct values (a value evicted from the writer's bounded
    # cache and met again is interned again, under a new iid)
    print("check_pftrace: interned once: %d event names, %d categories, %d annotation names; "
          "%d distinct strings" % (len(interned["event_names"]), len(interned["event_categories"]),
                                   len(interned["debug_annotation_names"]),
                                   len(set(interned["debug_annotation_string_values"].values()))))


def annotations(das, interned):
    out = {}
    for d in das:
        iid = one(d, "name_iid")
        if iid is not None:
            if iid not in interned["debug_annotation_names"]:
                fail("annotation name iid %d used before it is defined" % iid)
            name = interned["debug_annotation_names"][iid]
        else:
            name = one(d, "name")
        out[name] = ann_value(d, interned)
    return out


def ann_value(d, interned):
    if "array_values" in d:
        return [ann_value(x, interned) for x in d["array_values"]]
    if "string_value_iid" in d:
        iid = one(d, "string_value_iid")
        if iid not in interned["debug_annotation_string_values"]:
            fail("string iid %d used before it is defined" % iid)
        return interned["debug_annotation_string_values"][iid]
    for k in ("string_value", "uint_value", "int_value", "double_value", "bool_value"):
        if k in d:
            return one(d, k)
    return None


def same_args(a, b):
    if set(a) != set(b):
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, float) or isinstance(y, float):
            if abs(float(x) - float(y)) > 1e-9 * max(1.0, abs(float(x))):
                return False
        elif x != y:
            return False
    return True


if __name__ == "__main__":
    main()
