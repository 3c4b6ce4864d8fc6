# rtg-convert --html: the report's embedded events, decoded from its binary
# part (base64 of typed arrays), are the trace's: each event's name, start,
# duration and arguments equal the Chrome JSON's (-o) of the same trace,
# with event counts of each remainder by three (the base64 is made in
# parts cut at multiples of three bytes, the events' part while the
# analysis runs), a kernel of 5 s (over 2^32 ns: the "long" list), names
# numbered after the top kernels', calls whose arguments are larger than
# the blocks that carry events to the report's filing thread (303), and
# two GPUs whose report lists them otherwise than by agent (the names
# numbered while the analysis runs are numbered again: in a file, written
# again over those written then).  With fewer events embedded
# (RTG_HTML_MAX_EVENTS) the embedded ones are among the JSON's.  A report
# written to a pipe (no going back in it) is the file's, byte for byte.
python3 - "$B/rtg-convert" <<'PY'
import base64, collections, json, os, re, struct, subprocess, sys
conv = sys.argv[1]

def trace(n, path, big=False):
    out = open(path, "w")
    w = out.write
    w("RTG: pid:1000 tid:1000 trace format:1 host:h189 clock:CLOCK_BOOTTIME\n")
    w("RTG: pid:1000 tid:1000 agent index:1 type:gpu name:'gfx90a'\n")
    t, c = 1000000000, collections.Counter()
    for i in range(n):
        k = i % 5
        if k == 0:
            w("HIP: pid:1000 tid:1000 hipLaunchKernel [void k%d(float*)] ret=0 @%d +%d corr:%d\n"
              % (i % 7, t, 1000 + i % 13, i + 1))
            w("HSA: pid:1000 tid:1001 dispatch queue:%d agent:1 signal:7 name:'void k%d(float*)' "
              "start:%d stop:%d id:%d workgroup:{%d,1,1} grid:{%d,2,1} corr:%d\n"
              % (i % 2, i % 7, t + 3000, t + 3000 + 500 * (i % 11 + 1), i + 1, 64 << (i % 3),
                 1024 * (i % 4 + 1), i + 1))
            c["hip"] += 1; c["disp"] += 1
        elif k == 1:
            pad = ", pad=" + "x" * 300000 if big and i % 100 == 1 else ""
            w("HIP: pid:1000 tid:1002 hipMemcpyAsync(dst=0x%x, src=0x5500, size=65536, kind=1%s) "
              "ret=0 @%d +400 corr:%d\n" % (0x7f00 + i, pad, t, i + 1))
            w("HSA: pid:1000 tid:1001 copy agent:1 signal:9 start:%d stop:%d dep1:0 dep2:0 dep3:0 "
              "dep4:0 dep5:0 bytes:65536 kind:HostToDevice engine:2 corr:%d\n" % (t + 500, t + 9000, i + 1))
            c["hip"] += 1; c["copy"] += 1
        else:
            w("HSA: pid:1000 tid:1000 hsa_signal_wait_scacquire (signal_%d, 2, 1, "
              "18446744073709551615, 1) ret=0 @%d +%d\n" % (i % 3, t + 100, 200 + i % 17))
            c["hsa"] += 1
        t += 20000
    w("HSA: pid:1000 tid:1001 dispatch queue:0 agent:1 signal:7 name:'void long_kernel(float*)' "
      "start:%d stop:%d id:%d workgroup:{256,1,1} grid:{256,1,1}\n" % (t, t + 5000000000, n + 1))
    c["disp"] += 1
    w("RTG: pid:1000 tid:1000 summary dispatches:%d barriers:0 copies:%d hsa_calls:%d hip_calls:%d "
      "lost:0\n" % (c["disp"], c["copy"], c["hsa"], c["hip"]))
    out.close()

def from_json(path):
    evs = collections.Counter()
    for e in json.load(open(path))["traceEvents"]:
        if e.get("ph") != "X": continue
        a = e.get("args", {})
        if e["cat"] == "kernel":
            g, wg = a.get("grid"), a.get("workgroup")
            args = "grid {%d,%d,%d} workgroup {%d,%d,%d}" % (*g, *wg) if g else None
        else:
            args = a.get("args")
        evs[(e["name"], round(e["ts"] * 1000), round(e["dur"] * 1000), args)] += 1
    return evs

def from_report(path):
    s = open(path).read()
    meta = json.loads(re.search(r'id="rtg-meta">(.*?)</script>', s, re.S).group(1))
    blob = base64.b64decode(re.search(r'id="rtg-bin">(.*?)</script>', s, re.S).group(1))
    if len(blob) != meta["bytes"]: return meta, None, "binary part of %d bytes, not %d" % (len(blob), meta["bytes"])
    A = meta["arrays"]
    def arr(k, code, size):
        _, off, n = A[k]
        return struct.unpack_from("<%d%s" % (n, code), blob, off)
    start, dur, name, args = arr("start", "d", 8), arr("dur", "I", 4), arr("name", "I", 4), arr("args", "I", 4)
    long = dict((i, d) for i, d in meta["long"])
    base = int(meta["base_ns"])
    evs = collections.Counter()
    for i in range(len(start)):
        d = long.get(i, dur[i])
        if dur[i] == 0xffffffff and i not in long: return meta, None, "event %d: no long duration" % i
        evs[(meta["strings"][name[i]], base + int(start[i]), d,
             None if args[i] == 0xffffffff else meta["args"][args[i]])] += 1
    # the names of the top kernels come first
    kern = [k[0] for dv in meta["devs"] for k in dv["kernels"]]
    first = sorted(set(kern)) == list(range(len(set(kern))))
    return meta, evs, "top kernels' names first: %s" % first

def trace2(path):  # two GPUs, the second's work first, each its own kernels
    out = open(path, "w")
    w = out.write
    w("RTG: pid:1000 tid:1000 trace format:1 host:h189 clock:CLOCK_BOOTTIME\n")
    w("RTG: pid:1000 tid:1000 agent index:1 type:gpu name:'gfx90a'\n")
    w("RTG: pid:1000 tid:1000 agent index:2 type:gpu name:'gfx90a'\n")
    t = 1000000000
    for i in range(120):
        a = 2 if i < 60 else 1
        w("HSA: pid:1000 tid:1001 dispatch queue:%d agent:%d signal:7 name:'void g%d_k%d(float*)' "
          "start:%d stop:%d id:%d workgroup:{64,1,1} grid:{1024,1,1}\n"
          % (a, a, a, i % (3 + a), t, t + 700 + 300 * (i % 5), i + 1))
        t += 2000
    w("RTG: pid:1000 tid:1000 summary dispatches:120 barriers:0 copies:0 hsa_calls:0 hip_calls:0 "
      "lost:0\n")
    out.close()

# the report lists the GPUs in the order the analysis meets them, not by
# agent: the names numbered while the analysis runs (after the kernels by
# agent) are numbered again
trace2("g2.txt")
r = subprocess.run([conv, "-q", "-o", "g2.json", "--html", "g2.html", "g2.txt"])
meta, got, note = from_report("g2.html")
print("two GPUs, the second's work first: exit %d, GPUs in the report %s; %s; equal to the JSON: %s"
      % (r.returncode, [d["gpu"] for d in meta["devs"]], note, got == from_json("g2.json")))

def piped(path, trace):
    r = subprocess.run([conv, "-q", "--html", "/dev/stdout", trace], stdout=subprocess.PIPE)
    return "exit %d, the file's bytes: %s" % (r.returncode, r.stdout == open(path, "rb").read())
print("two GPUs, to a pipe: " + piped("g2.html", "g2.txt"))

for n in (300, 301, 302, 303):
    trace(n, "t%d.txt" % n, n == 303)
    r = subprocess.run([conv, "-q", "-o", "t%d.json" % n, "--html", "t%d.html" % n, "t%d.txt" % n])
    want = from_json("t%d.json" % n)
    meta, got, note = from_report("t%d.html" % n)
    total = sum(want.values())
    print("n=%d: exit %d, %d events (remainder %d), %d embedded, all %s, long %d; %s; equal to the JSON: %s"
          % (n, r.returncode, total, total % 3, meta["events"], meta["all_embedded"], len(meta["long"]),
             note, got == want))
    if n == 300: print("n=300, to a pipe: " + piped("t300.html", "t300.txt"))
    env = dict(os.environ, RTG_HTML_MAX_EVENTS="40")
    r = subprocess.run([conv, "-q", "--html", "p%d.html" % n, "t%d.txt" % n], env=env)
    meta, got, note = from_report("p%d.html" % n)
    print("n=%d, at most 40 embedded: exit %d, %d of %d embedded, all %s; among the JSON's: %s"
          % (n, r.returncode, meta["events"], meta["events_total"], meta["all_embedded"],
             got is not None and not (got - want) and sum(got.values()) == meta["events"] > 0))
PY
