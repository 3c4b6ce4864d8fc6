# The broken inputs of tests/data/broken (gen.sh: truncated, corrupted, cut,
# binary, huge lines, NUL bytes, bad UTF-8, reversed, shuffled, duplicated,
# CRLF, empty; rtg traces, HCC_PROFILE logs, Chrome JSON files) into --csv
# and --otf2 together with the JSON.  For each: the exit status; the CSV
# files all parse (python3's csv module, UTF-8), every row has its header's
# columns, and the rows per kind are the JSON's events of that kind; the
# OTF2 archive reads back (otf2-print) with one ENTER/LEAVE pair per JSON
# slice, in order and nested per location; and against the good input:
# how many CSV rows are not among the good input's rows (none may be made
# up), and for the reordered and repeated inputs whether the CSV rows (as
# a set) and the OTF2 events (exactly) are the good input's.  Merged
# Chrome JSON files go into the JSON only (--csv and --otf2 take rtg's own
# events); an input without any event gives an archive without locations,
# whose definitions are checked (otf2-print will not walk its events).  A
# run that fails (an input that is not a trace, JSON that does not parse)
# leaves its directory empty: no output, no temporary file.
export LC_ALL=C
G=$TMP/broken
sh "$TOP/tests/data/broken/gen.sh" "$G" >/dev/null 2>&1 || echo "gen.sh failed"
python3 - "$B/rtg-convert" "$G" <<'EOF'
import csv, glob, json, os, re, subprocess, sys

conv, G = sys.argv[1], sys.argv[2]
KINDS = {"kernel_trace": ("X", "kernel"), "hip_api_trace": ("X", "hip"),
         "hsa_api_trace": ("X", "hsa"), "memory_copy_trace": ("X", "copy"),
         "marker_api_trace": (None, "roctx")}

def run(inp, tag):
    d = os.path.join(os.environ["TMP"], tag)
    subprocess.run(["rm", "-rf", d])
    os.makedirs(d)
    st = subprocess.run([conv, "-q", "-o", "out.json", "--csv", "csv", "--otf2", "o2", inp],
                        cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return d, st

def json_counts(d):
    with open(os.path.join(d, "out.json"), encoding="utf-8") as f:
        evs = json.load(f)["traceEvents"]
    per = {}
    slices = 0
    for e in evs:
        if e.get("ph") == "X" or (e.get("ph") == "i" and e.get("cat") == "roctx"):
            slices += 1  # a ROCTx mark is a zero-length region in OTF2
        if e.get("ph") in ("X", "i"):
            per[e.get("cat")] = per.get(e.get("cat"), 0) + 1
    return per, slices

def csv_rows(d):
    rows, bad = {}, 0
    for fn in glob.glob(os.path.join(d, "csv", "**", "*.csv"), recursive=True):
        kind = re.sub(r"^\d+_", "", os.path.basename(fn))[:-4]
        with open(fn, newline="", encoding="utf-8") as f:
            r = list(csv.reader(f))
        bad += sum(len(x) != len(r[0]) for x in r)
        rows.setdefault(kind, []).extend(tuple(x) for x in r[1:])
    return rows, bad

def otf2(d):
    p = subprocess.run(["otf2-print", os.path.join(d, "o2", "trace.otf2")],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
    if p.returncode:
        # no event at all: an archive without locations, which otf2-print
        # refuses to walk; its definitions must still read back
        g = subprocess.run(["otf2-print", "-G", os.path.join(d, "o2", "trace.otf2")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
        empty = "CLOCK_PROPERTIES" in g.stdout and "LOCATION " not in g.stdout
        return (0 if empty else None), 0, ""
    pairs, bad, st, last = 0, 0, {}, {}
    for line in p.stdout.splitlines():
        m = re.match(r"(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: .*<(\d+)>$", line)
        if not m:
            continue
        k, loc, ts, reg = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        bad += ts < last.get(loc, 0)
        last[loc] = ts
        s = st.setdefault(loc, [])
        if k == "ENTER":
            pairs += 1
            s.append(reg)
        elif not s or s.pop() != reg:
            bad += 1
    return pairs, bad + sum(map(len, st.values())), p.stdout

def multiset(rows):
    m = {}
    for k, v in rows.items():
        for r in v:
            m[(k,) + r] = m.get((k,) + r, 0) + 1
    return m

for kind in ("trace", "profile", "json"):
    good = None
    if kind != "json":
        gd, _ = run(os.path.join(G, kind, "good"), "good-" + kind)
        grows, _ = csv_rows(gd)
        good = (multiset(grows), otf2(gd)[2])
    for inp in sorted(glob.glob(os.path.join(G, kind, "*"))):
        name = kind + "/" + os.path.basename(inp)
        d, st = run(inp, "case")
        line = "%s: exit %d" % (name, st)
        left = sorted(os.listdir(d))
        if st and not left:  # a failed run writes nothing (issue 25)
            print(line + ", nothing written")
            continue
        try:
            per, slices = json_counts(d)
        except Exception as e:
            print(line + ", JSON unreadable: %s" % e)
            continue
        rows, badcols = csv_rows(d)
        counts = {k: len(rows.get(k, [])) for k in KINDS}
        same = all(counts[k] == per.get(c, 0) for k, (_, c) in KINDS.items())
        line += ", csv %d rows%s%s" % (sum(counts.values()), " (as the JSON)" if same else
                                       " (JSON: %s)" % per, ", %d bad rows" % badcols if badcols else "")
        pairs, bad, dump = otf2(d)
        if pairs is None:
            line += ", otf2 UNREADABLE"
        else:
            line += ", otf2 %d pairs%s%s" % (pairs, "" if pairs == slices else " (JSON %d slices)" % slices,
                                            ", %d order/nesting errors" % bad if bad else "")
        if good:
            m, gm = multiset(rows), good[0]
            extra = sum(max(0, n - gm.get(r, 0)) for r, n in m.items())
            line += ", rows not in good: %d" % extra
            # (an HCC_PROFILE log concatenated with itself has no header to
            # tell, and is read twice: src/convert/README.md)
            if re.search(r"/(good|reversed|shuffled|duplicated|copy|crlf)$", inp) and \
                    name != "profile/duplicated":
                line += ", same rows as good: %s, same OTF2 events: %s" % (
                    "yes" if set(m) == set(gm) else "NO", "yes" if dump == good[1] else "NO")
        print(line)
EOF
