#!/usr/bin/env python3
"""Writes src/tracer/hsa_api_list.h, the one list of traced HSA functions.

Reads the prototypes of the functions named in the tables of ROCm's
hsa_api_trace.h from the HSA headers (default /usr/include/hsa, Debian's
ROCm 5.2.3), and prints one X-macro entry per function:

  RTG_API(TABLE, name, ret_type, RET_KIND, (params), (call args), ARG(KIND, a) ...)
  RTG_API_VOID(TABLE, name, (params), (call args), ARG(...) ...)

KIND says how hsa_api.c prints an argument: HANDLE (a struct with .handle),
PTR, U32, I32, U64, I64, BOOL, OPAQUE (a struct by value, not printed),
or E_<enum type> for enums printed by name.
Function-pointer parameters get a typedef of their own so that every
parameter is "type name".  Run it again when the headers change:
  python3 src/tracer/gen-hsa-api-list.py /usr/include/hsa src/tracer/hsa_enum_names.h \
      src/tracer/hsa_api_args.h > src/tracer/hsa_api_list.h


"""
import re
import sys

INC = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/hsa"
FILES = ["hsa.h", "hsa_ext_amd.h", "hsa_ext_image.h", "hsa_ext_finalize.h", "hsa_api_trace.h"]
TABLES = [("CORE", "CoreApiTable"), ("EXT", "AmdExtTable"), ("IMAGE", "ImageExtTable"),
          ("FINALIZER", "FinalizerExtTable")]
# enums that hsa_api.c prints by name
NAMED_ENUMS = {"hsa_agent_info_t", "hsa_system_info_t", "hsa_signal_condition_t",
               "hsa_wait_state_t", "hsa_amd_memory_pool_info_t", "hsa_region_info_t",
               "hsa_executable_symbol_info_t", "hsa_amd_agent_memory_pool_info_t",
               "hsa_amd_copy_direction_t", "hsa_device_type_t", "hsa_status_t",
               "hsa_queue_info_attribute_t"}

text = ""
for f in FILES:
    text += open(f"{INC}/{f}").read() + "\n"
nocomment = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
nocomment = re.sub(r"//[^\n]*", " ", nocomment)
nocomment = re.sub(r"^\s*#[^\n]*", " ", nocomment, flags=re.M)

enums = set(re.findall(r"typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", nocomment))
enums |= {"hsa_queue_type32_t", "hsa_queue_feature_t"} & set()
handles = set(re.findall(r"typedef\s+struct\s+\w*\s*\{\s*uint64_t\s+handle\s*;\s*\}\s*(\w+)\s*;",
                         nocomment))
structs = set(re.findall(r"typedef\s+struct\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", nocomment)) - handles
fnptrs = set(re.findall(r"typedef[^;()]*\(\s*\*\s*(\w+)\s*\)", nocomment))
ints = {"uint32_t": "U32", "uint16_t": "U32", "uint8_t": "U32", "int": "I32", "int32_t": "I32",
        "uint64_t": "U64", "size_t": "U64", "hsa_signal_value_t": "I64", "int64_t": "I64",
        "bool": "BOOL", "hsa_queue_type32_t": "U32", "hsa_file_t": "I32",
        "hsa_ext_image_channel_order32_t": "U32", "hsa_ext_image_channel_type32_t": "U32",
        "hsa_ext_image_geometry_t": "U32", "hsa_ext_image_data_layout_t": "U32",
        "hsa_amd_memory_type_t": "U32"}

protos = {}
for m in re.finditer(r"([\w\s\*]+?)\b(?:HSA_API\s+)?(?:HSA_DEPRECATED\s+)?(hsa_\w+)\s*\(([^;{]*?)\)\s*;",
                     nocomment):
    ret = " ".join(m.group(1).replace("HSA_API", "").replace("HSA_DEPRECATED", "").split())
    ret = ret.split("typedef")[-1].strip()
    if not ret or "(" in ret:
        continue
    ret = ret.split()[-2:] if ret.split()[-1] == "*" else ret.split()[-1:]
    protos.setdefault(m.group(2), (" ".join(ret), m.group(3)))

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
        elif base in ints:
            kind = ints[base]
        elif base in enums:
            kind = "E_" + base if base in NAMED_ENUMS else "U32"
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
for tbl, struct in TABLES:
    body = re.search(r"struct " + struct + r"\s*\{(.*?)\};", nocomment, re.S).group(1)
    for f in re.findall(r"(\w+)_fn\s*;", body):
        if f not in protos:
            entries.append(f"/* {f}: no prototype in the headers this list was made from */")
            continue
        ret, ps = protos[f]
        ps = [] if ps.strip() in ("", "void") else split_params(ps)
        params = [param(f, p, i) for i, p in enumerate(ps)]
        decl = ", ".join(f"{t} {n}" for t, n, k in params) or "void"
        call = ", ".join(n for t, n, k in params)
        args = " ".join(f"ARG({k}, {n})" for t, n, k in params)
        argmacros.append(f"#define RTG_ARGS_{f}(X) " + " ".join(f"X({k}, {n})" for t, n, k in params))
        if ret == "void":
            entries.append(f"RTG_API_VOID({tbl}, {f}, ({decl}), ({call}), {args})")
        else:
            rk = RET_KIND.get(ret)
            if rk is None:
                raise SystemExit(f"unknown return type {ret} of {f}")
            entries.append(f"RTG_API({tbl}, {f}, {ret}, {rk}, ({decl}), ({call}), {args})")

print("""/* Generated by src/tracer/gen-hsa-api-list.py from the HSA headers: every
 * function of the core, AMD-extension, image and finalizer tables, with its
 * signature and how each argument is printed.  Included by hsa_api.c (the
 * wrappers) with RTG_API/RTG_API_VOID/ARG defined.  Do not edit by hand. */
#ifndef RTG_HSA_API_TYPES
#define RTG_HSA_API_TYPES
""")
for t in dict.fromkeys(typedefs):
    print(t)
print("#endif\n")
print("#ifdef RTG_API")
for e in entries:
    print(e)
print("#endif")

# RTG_ARGS_<function>(X): X(KIND, name) per argument, for hsa_api.c.
with open(sys.argv[3] if len(sys.argv) > 3 else "/dev/null", "w") as out:
    out.write("/* Generated by src/tracer/gen-hsa-api-list.py: the arguments of each\n"
              " * function of hsa_api_list.h as X(KIND, name).  Do not edit by hand. */\n")
    for a in argmacros:
        out.write(a + "\n")

# Enum name tables for hsa_api.c: RTG_ENUM(type, CONSTANT) per enumerator.
with open(sys.argv[2] if len(sys.argv) > 2 else "/dev/null", "w") as out:
    out.write("/* Generated by src/tracer/gen-hsa-api-list.py: the enumerators of the\n"
              " * enums HSA API records print by name.  Do not edit by hand. */\n")
    for m in re.finditer(r"typedef\s+enum\s*\w*\s*\{([^}]*)\}\s*(\w+)\s*;", nocomment):
        if m.group(2) not in NAMED_ENUMS:
            continue
        for e in m.group(1).split(","):
            e = e.split("=")[0].strip()
            if e:
                out.write(f"RTG_ENUM({m.group(2)}, {e})\n")
