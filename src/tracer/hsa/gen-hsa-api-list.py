#!/usr/bin/env python3
"""Writes src/tracer/hsa/gen/hsa_api_list.h, the one list of traced HSA functions.

Reads the prototypes of the functions named in the tables of ROCm's
hsa_api_trace.h from the HSA headers (default /usr/include/hsa, Debian's
ROCm 5.2.3), and prints one X-macro entry per function:

  RTG_API(TABLE, name, ret_type, RET_KIND, (params), (call args), ARG(KIND, a) ...)
  RTG_API_VOID(TABLE, name, (params), (call args), ARG(...) ...)

KIND says how hsa_api.c prints an argument: HANDLE (a struct with .handle),
PTR, U32, I32, U64, I64, BOOL, OPAQUE (a struct by value, not printed),
or E_<enum type> for enums printed by name (every enum type an argument
has, see ENUM_* below).
Function-pointer parameters get a typedef of their own so that every
parameter is "type name".

The AMD-extension entries ROCm added after 5.2 are not in those headers:
their prototypes come from src/tracer/hsa/hsa_api_ext_new.h (its RTG_HSA_API_GEN
part), each marked RTG_SINCE(major, minor), the release whose table first
has it; the marks and the order are checked against include/rtg/hsa_table.h
(RTG_AMD_EXT_TABLE_FIELDS), and the entries follow the 5.2 ones in that
order.  The tracer installs them only where the runtime's table has them
(its layout and minor_id).  hsa_amd_memory_async_copy_on_engine's pointer
is declared by hand in hsa_side.h: it is listed as RTG_API_HAND(...), which
expands to nothing unless the includer defines RTG_API_HAND.

Also written: hsa_api_args.h, per function RTG_ARGS_<f>(X) = X(KIND, name,
type) per argument and RTG_SINCE_<f> (52: in 5.2's tables), plus RTG_W_E_*
(how an enum argument becomes a word); hsa_enum_names.h, RTG_ENUM_KIND(type)
per enum kind and RTG_ENUM(type, CONSTANT) / RTG_ENUM_V(type, value, NAME)
per enumerator (V: from hsa_api_ext_new.h, not in the 5.2 headers).
Run it again when the headers change:
  python3 src/tracer/hsa/gen-hsa-api-list.py /usr/include/hsa src/tracer/hsa/gen/hsa_enum_names.h \
      src/tracer/hsa/gen/hsa_api_args.h > src/tracer/hsa/gen/hsa_api_list.h


"""
import os
import re
import sys

INC = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/hsa"
HERE = os.path.dirname(os.path.abspath(__file__))
NEW_H = os.path.join(HERE, "hsa_api_ext_new.h")
TABLE_H = os.path.join(HERE, "..", "..", "..", "include", "rtg", "hsa_table.h")
FILES = ["hsa.h", "hsa_ext_amd.h", "hsa_ext_image.h", "hsa_ext_finalize.h", "hsa_api_trace.h"]
TABLES = [("CORE", "CoreApiTable"), ("EXT", "AmdExtTable"), ("IMAGE", "ImageExtTable"),
          ("FINALIZER", "FinalizerExtTable")]
# functions whose rtg_hsa_fns pointer hsa_side.h declares by hand
HAND = {"hsa_amd_memory_async_copy_on_engine"}
# Enums printed by name: every enum type of an argument, with
#  ENUM_ALIAS: integer typedefs standing for an enum (the 32-bit forms)
#  ENUM_MERGE: the AMD values an HSA attribute argument also takes
#  ENUM_BY_NAME: integer arguments that are an enum by their name
ENUM_ALIAS = {"hsa_queue_type32_t": "hsa_queue_type_t",
              "hsa_ext_image_channel_order32_t": "hsa_ext_image_channel_order_t",
              "hsa_ext_image_channel_type32_t": "hsa_ext_image_channel_type_t"}
ENUM_MERGE = {"hsa_agent_info_t": ["hsa_amd_agent_info_t"],
              "hsa_region_info_t": ["hsa_amd_region_info_t"]}
ENUM_BY_NAME = {("uint16_t", "extension"): "hsa_extension_t"}


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


text = ""
for f in FILES:
    text += open(f"{INC}/{f}").read() + "\n"
nocomment = strip(text)

ENUM_RE = r"typedef\s+enum\s*\w*\s*\{([^}]*)\}\s*(\w+)\s*;"
enum_consts = {}  # type -> [CONSTANT] (compiled against the headers)
for m in re.finditer(ENUM_RE, nocomment):
    enum_consts.setdefault(m.group(2), []).extend(
        e.split("=")[0].strip() for e in m.group(1).split(",") if e.split("=")[0].strip())
enums = set(enum_consts)
handles = set(re.findall(r"typedef\s+struct\s+\w*\s*\{\s*uint64_t\s+handle\s*;\s*\}\s*(\w+)\s*;",
                         nocomment))
structs = set(re.findall(r"typedef\s+struct\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", nocomment)) - handles
fnptrs = set(re.findall(r"typedef[^;()]*\(\s*\*\s*(\w+)\s*\)", nocomment))
ints = {"uint32_t": "U32", "uint16_t": "U32", "uint8_t": "U32", "int": "I32", "int32_t": "I32",
        "uint64_t": "U64", "size_t": "U64", "hsa_signal_value_t": "I64", "int64_t": "I64",
        "bool": "BOOL", "hsa_file_t": "I32",
        "hsa_ext_image_geometry_t": "U32", "hsa_ext_image_data_layout_t": "U32"}

# hsa_api_ext_new.h: compiled types, and (RTG_HSA_API_GEN) prototypes and enum values
new_src = open(NEW_H).read()
new_types, new_gen = new_src.split("#ifdef RTG_HSA_API_GEN", 1)
new_types, new_gen = strip(new_types), strip(new_gen)
handles |= set(re.findall(r"typedef\s+struct\s+\w*\s*\{\s*uint64_t\s+handle\s*;\s*\}\s*(\w+)\s*;",
                          new_types))
new_int_enums = set(re.findall(r"typedef\s+int\s+(\w+)\s*;", new_types))
enum_values = {}  # type -> [(NAME, value)] not in the 5.2 headers
known = {c for cs in enum_consts.values() for c in cs}
for m in re.finditer(ENUM_RE, new_gen):
    val = -1
    for e in m.group(1).split(","):
        if not e.strip():
            continue
        name, _, v = (x.strip() for x in e.partition("="))
        val = int(v, 0) if v else val + 1
        if name not in known:
            enum_values.setdefault(m.group(2), []).append((name, val))
enums |= new_int_enums


def parse_protos(src, out, since=None):
    pat = (r"(RTG_SINCE\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*)?([\w\s\*]+?)\b(?:HSA_API\s+)?"
           r"(?:HSA_DEPRECATED\s+)?(hsa_\w+)\s*\(([^;{]*?)\)\s*;")
    for m in re.finditer(pat, src):
        ret = " ".join(m.group(4).replace("HSA_API", "").replace("HSA_DEPRECATED", "").split())
        ret = ret.split("typedef")[-1].strip()
        if not ret or "(" in ret:
            continue
        ret = ret.split()[-2:] if ret.split()[-1] == "*" else ret.split()[-1:]
        out.setdefault(m.group(5), (" ".join(ret), m.group(6)))
        if since is not None and m.group(2):
            since[m.group(5)] = int(m.group(2)) * 10 + int(m.group(3))


protos = {}
parse_protos(nocomment, protos)
new_protos, new_since = {}, {}
parse_protos(new_gen, new_protos, new_since)

# include/rtg/hsa_table.h: the entries after 5.2 and the release of each
table_h = open(TABLE_H).read()
ext_fields = re.findall(r"F\((hsa_amd_\w+), \d, \d, \d, (\d+)\)", table_h)
later = [(n, int(s)) for n, s in ext_fields if int(s) > 52]
for n, s in later:
    if new_since.get(n) != s:
        raise SystemExit(f"{n}: hsa_table.h says since {s}, hsa_api_ext_new.h "
                         f"{new_since.get(n)}")
if set(new_since) != {n for n, s in later}:
    raise SystemExit(f"hsa_api_ext_new.h and hsa_table.h disagree: "
                     f"{sorted(set(new_since) ^ {n for n, s in later})}")


def split_params(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur); cur = ""; continue
        depth += ch == "("; depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur)
    return [" ".join(p.split()) for p in out]


def enum_kind(base):
    base = ENUM_ALIAS.get(base, base)
    if base in enum_consts or base in enum_values:
        return "E_" + base
    return None


typedefs = []
def param(fn, p, i):
    fp = re.match(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", p)
    if fp:
        tname = f"rtg_{fn}_{fp.group(2)}_fn"
        typedefs.append(f"typedef {fp.group(1).strip()} (*{tname})({fp.group(3)});")
        return tname, fp.group(2), "PTR"
    m = re.match(r"(.*?)(\w+)\s*(\[\s*\])?$", p)
    typ, name = m.group(1).strip(), m.group(2)
    if m.group(3):
        typ += " *"
    typ = typ.replace("*", " *").replace("  ", " ").strip()
    if "*" in typ:
        kind = "PTR"
    else:
        base = typ.replace("const ", "").strip()
        if base in handles:
            kind = "HANDLE"
        elif base in fnptrs:
            kind = "PTR"
        elif (base, name) in ENUM_BY_NAME:
            kind = "E_" + ENUM_BY_NAME[(base, name)]
        elif enum_kind(base):
            kind = enum_kind(base)
        elif base in ints:
            kind = ints[base]
        elif base in enums:
            kind = "U32"
        elif base in structs:
            kind = "OPAQUE"
        elif base.startswith("hsa_") and base.endswith("_t"):
            kind = "HANDLE" if base in handles else "U32"
        else:
            raise SystemExit(f"unknown type {typ!r} in {fn}")
    return typ, name, kind


RET_KIND = {"hsa_status_t": "STATUS", "uint64_t": "U64", "uint32_t": "U32",
            "hsa_signal_value_t": "I64"}
entries = []
argmacros = []
used_enums = set()


def entry(tbl, f, ret, ps, since):
    ps = [] if ps.strip() in ("", "void") else split_params(ps)
    params = [param(f, p, i) for i, p in enumerate(ps)]
    used_enums.update(k[2:] for t, n, k in params if k.startswith("E_"))
    decl = ", ".join(f"{t} {n}" for t, n, k in params) or "void"
    call = ", ".join(n for t, n, k in params)
    args = " ".join(f"ARG({k}, {n})" for t, n, k in params)
    argmacros.append(f"#define RTG_ARGS_{f}(X) " +
                     " ".join(f"X({k}, {n}, {t})" for t, n, k in params))
    argmacros.append(f"#define RTG_SINCE_{f} {since}")
    mac = "RTG_API_HAND" if f in HAND else "RTG_API"
    if since > 52:
        entries.append(f"/* since {since // 10}.{since % 10} */")
    if ret == "void":
        entries.append(f"{mac}_VOID({tbl}, {f}, ({decl}), ({call}), {args})")
    else:
        rk = RET_KIND.get(ret)
        if rk is None:
            raise SystemExit(f"unknown return type {ret} of {f}")
        entries.append(f"{mac}({tbl}, {f}, {ret}, {rk}, ({decl}), ({call}), {args})")


for tbl, struct in TABLES:
    body = re.search(r"struct " + struct + r"\s*\{(.*?)\};", nocomment, re.S).group(1)
    for f in re.findall(r"(\w+)_fn\s*;", body):
        if f not in protos:
            entries.append(f"/* {f}: no prototype in the headers this list was made from */")
            continue
        entry(tbl, f, *protos[f], 52)
    if tbl == "EXT":
        for f, since in later:
            entry(tbl, f, *new_protos[f], since)

print("""/* Generated by src/tracer/hsa/gen-hsa-api-list.py from the HSA headers and
 * hsa_api_ext_new.h: every function of the core, AMD-extension (those ROCm
 * added after 5.2 included, marked with the release that added them),
 * image and finalizer tables, with its signature and how each argument is
 * printed.  Included by hsa_api.c (the wrappers) with RTG_API/RTG_API_VOID/
 * ARG defined, and for the function-pointer members (hsa_side.h) and their
 * saving (tables.c).  Do not edit by hand. */
#ifndef RTG_HSA_API_TYPES
#define RTG_HSA_API_TYPES
#include "hsa/hsa_api_ext_new.h"
""")
for t in dict.fromkeys(typedefs):
    print(t)
print("#endif\n")
print("#ifdef RTG_API")
print("/* entries whose rtg_hsa_fns pointer hsa_side.h declares by hand */")
print("#ifndef RTG_API_HAND")
print("#define RTG_API_HAND(...)")
print("#define RTG_API_HAND_UNSET_")
print("#endif")
for e in entries:
    print(e)
print("#ifdef RTG_API_HAND_UNSET_")
print("#undef RTG_API_HAND")
print("#undef RTG_API_HAND_UNSET_")
print("#endif")
print("#endif")

# RTG_ARGS_<function>(X): X(KIND, name, type) per argument, for hsa_api.c.
with open(sys.argv[3] if len(sys.argv) > 3 else "/dev/null", "w") as out:
    out.write("/* Generated by src/tracer/hsa/gen-hsa-api-list.py: the arguments of each\n"
              " * function of hsa_api_list.h as X(KIND, name, type), the release whose\n"
              " * table first has it (RTG_SINCE_, 52: 5.2), and how each enum kind\n"
              " * becomes a word.  Do not edit by hand. */\n")
    for a in argmacros:
        out.write(a + "\n")
    for t in sorted(used_enums):
        out.write(f"#define RTG_W_E_{t} W_U64\n")

# Enum name tables for hsa_api.c.
with open(sys.argv[2] if len(sys.argv) > 2 else "/dev/null", "w") as out:
    out.write("/* Generated by src/tracer/hsa/gen-hsa-api-list.py: the enum kinds of the\n"
              " * arguments HSA API records print by name, and their enumerators:\n"
              " * RTG_ENUM(kind, CONSTANT) from the headers, RTG_ENUM_V(kind, value, NAME)\n"
              " * added by later releases (hsa_api_ext_new.h).  Do not edit by hand. */\n")
    out.write("#ifdef RTG_ENUM_KIND\n")
    for t in sorted(used_enums):
        out.write(f"RTG_ENUM_KIND({t})\n")
    out.write("#endif\n#ifdef RTG_ENUM\n")
    # range markers (HSA_AMD_FIRST_EXTENSION...) after the names they alias:
    # the first entry of a value names it
    marker = re.compile(r"(^|_)(FIRST|LAST)(_|$)")
    for t in sorted(used_enums):
        lines = []
        for src in [t] + ENUM_MERGE.get(t, []):
            lines += [(c, f"RTG_ENUM({t}, {c})") for c in enum_consts.get(src, [])]
            lines += [(n, f"RTG_ENUM_V({t}, {v:#x}, {n})") for n, v in enum_values.get(src, [])]
        for n, line in sorted(lines, key=lambda nl: bool(marker.search(nl[0]))):
            out.write(line + "\n")
    out.write("#endif\n")
