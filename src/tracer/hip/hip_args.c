/* Decoding the arguments of the common HIP calls (RTG_HIP_API_ARGS).
 *
 * HIP hands a tracer a hip_api_data_t whose `args` member is a union of one
 * struct per API holding the call's parameters in order, C-aligned; an
 * output parameter T* x is followed by a T x__val copy.  These member layouts
 * are identical in every release 5.2..6.2, 6.4 and 7.2 for the calls decoded
 * here (tests/abi/hip_layouts.sh measures them; 7.2 only made the src of
 * hipMemcpyHtoD[Async] const), so one description per call,
 * keyed by name, serves every release.  A description is a string of
 * fields "T:name", T one of:
 *   p pointer        z size_t        i int          u unsigned int
 *   b unsigned char  h unsigned short  k hipMemcpyKind   s stream  e event
 *   d dim3 {x,y,z}   x pointer-sized slot, not shown
 *   P T** out + __val (shows *p)    S stream out    E event out
 *   I int* out + __val (shows *p)   Z size_t* out   F float* out
 * The application's thread only copies the fields (rtg_hip_args_capture),
 * reading each output through the caller's pointer into its __val slot
 * once the call has returned; the writer makes the text
 * (rtg_hip_args_format_dec) with core/fmt.h's formatters. */
#include "core/fmt.h"
#include "hip_internal.h"

#include <stdatomic.h>
#include <string.h>

typedef struct decoder {
  const char *name;
  const char *spec;
  uint8_t kernel; /* 1: kernel by host pointer (first field), 2: by hipFunction_t */
} decoder;

#define MEMSET_SPEC "p:dst i:value z:size"
static const decoder decoders[] = {
    {NULL, NULL, 0}, /* 0: nothing decoded */
    {"hipMalloc", "P:ptr z:size", 0},
    {"hipHostMalloc", "P:ptr z:size u:flags", 0},
    {"hipHostAlloc", "P:ptr z:size u:flags", 0},
    {"hipExtMallocWithFlags", "P:ptr z:size u:flags", 0},
    {"hipMallocManaged", "P:ptr z:size u:flags", 0},
    {"hipMallocAsync", "P:ptr z:size s:stream", 0},
    {"hipMallocPitch", "P:ptr Z:pitch z:width z:height", 0},
    {"hipFree", "p:ptr", 0},
    {"hipHostFree", "p:ptr", 0},
    {"hipFreeHost", "p:ptr", 0},
    {"hipFreeAsync", "p:ptr s:stream", 0},
    {"hipMallocHost", "P:ptr z:size", 0},
    {"hipHostRegister", "p:ptr z:size u:flags", 0},
    {"hipHostUnregister", "p:ptr", 0},
    {"hipMemcpy", "p:dst p:src z:size k:kind", 0},
    {"hipMemcpyAsync", "p:dst p:src z:size k:kind s:stream", 0},
    {"hipMemcpyWithStream", "p:dst p:src z:size k:kind s:stream", 0},
    {"hipMemcpyHtoD", "p:dst p:src z:size", 0},
    {"hipMemcpyDtoH", "p:dst p:src z:size", 0},
    {"hipMemcpyDtoD", "p:dst p:src z:size", 0},
    {"hipMemcpyHtoDAsync", "p:dst p:src z:size s:stream", 0},
    {"hipMemcpyDtoHAsync", "p:dst p:src z:size s:stream", 0},
    {"hipMemcpyDtoDAsync", "p:dst p:src z:size s:stream", 0},
    {"hipMemcpyPeer", "p:dst i:dstDevice p:src i:srcDevice z:size", 0},
    {"hipMemcpyPeerAsync", "p:dst i:dstDevice p:src i:srcDevice z:size s:stream", 0},
    {"hipMemcpy2D", "p:dst z:dpitch p:src z:spitch z:width z:height k:kind", 0},
    {"hipMemcpy2DAsync", "p:dst z:dpitch p:src z:spitch z:width z:height k:kind s:stream", 0},
    {"hipMemcpyToSymbol", "p:symbol p:src z:size z:offset k:kind", 0},
    {"hipMemcpyToSymbolAsync", "p:symbol p:src z:size z:offset k:kind s:stream", 0},
    {"hipMemcpyFromSymbol", "p:dst p:symbol z:size z:offset k:kind", 0},
    {"hipMemcpyFromSymbolAsync", "p:dst p:symbol z:size z:offset k:kind s:stream", 0},
    {"hipMemset", MEMSET_SPEC, 0},
    {"hipMemsetAsync", MEMSET_SPEC " s:stream", 0},
    {"hipMemsetD32", MEMSET_SPEC, 0},
    {"hipMemsetD32Async", MEMSET_SPEC " s:stream", 0},
    {"hipMemsetD16", "p:dst h:value z:count", 0},
    {"hipMemsetD16Async", "p:dst h:value z:count s:stream", 0},
    {"hipMemsetD8", "p:dst b:value z:count", 0},
    {"hipMemsetD8Async", "p:dst b:value z:count s:stream", 0},
    {"hipMemset2D", "p:dst z:pitch i:value z:width z:height", 0},
    {"hipMemset2DAsync", "p:dst z:pitch i:value z:width z:height s:stream", 0},
    {"hipMemPrefetchAsync", "p:ptr z:count i:device s:stream", 0},
    {"hipLaunchKernel", "p:func d:grid d:block x x z:shmem s:stream", 1},
    {"hipExtLaunchKernel", "p:func d:grid d:block x x z:shmem s:stream e:start e:stop i:flags", 1},
    {"hipLaunchCooperativeKernel", "p:func d:grid d:block x x u:shmem s:stream", 1},
    {"hipModuleLaunchKernel", "p:func d:grid d:block u:shmem s:stream", 2},
    {"hipExtModuleLaunchKernel", "p:func d:global d:local z:shmem s:stream", 2},
    {"hipHccModuleLaunchKernel", "p:func d:global d:local z:shmem s:stream", 2},
    {"hipLaunchByPtr", "p:func", 0},
    {"hipGraphLaunch", "p:graphExec s:stream", 0},
    {"hipStreamCreate", "S:stream", 0},
    {"hipStreamCreateWithFlags", "S:stream u:flags", 0},
    {"hipStreamCreateWithPriority", "S:stream u:flags i:priority", 0},
    {"hipStreamSynchronize", "s:stream", 0},
    {"hipStreamDestroy", "s:stream", 0},
    {"hipStreamQuery", "s:stream", 0},
    {"hipStreamWaitEvent", "s:stream e:event u:flags", 0},
    {"hipEventCreate", "E:event", 0},
    {"hipEventCreateWithFlags", "E:event u:flags", 0},
    {"hipEventRecord", "e:event s:stream", 0},
    {"hipEventSynchronize", "e:event", 0},
    {"hipEventDestroy", "e:event", 0},
    {"hipEventQuery", "e:event", 0},
    {"hipEventElapsedTime", "F:ms e:start e:stop", 0},
    {"hipSetDevice", "i:device", 0},
    {"hipGetDevice", "I:device", 0},
    {"hipGetDeviceCount", "I:count", 0},
    {"hipDeviceSynchronize", "", 0},
};
#define NDECODERS (sizeof(decoders) / sizeof(decoders[0]))

/* The per-thread "_spt" variants (5.5+) take the same parameters. */
static unsigned find_decoder(const char *name) {
  size_t n = strlen(name);
  if (n > 4 && !strcmp(name + n - 4, "_spt")) n -= 4;
  for (unsigned i = 1; i < NDECODERS; i++)
    if (strlen(decoders[i].name) == n && !strncmp(decoders[i].name, name, n)) return i;
  return 0;
}

void rtg_hip_args_setup(void) {
  memset(rtg_hip.decoder, 0, sizeof(rtg_hip.decoder));
  const rtg_hip_release *r = rtg_hip.rel;
  if (!r) return;
  for (uint32_t op = 1; op <= r->last_op && op < sizeof(rtg_hip.decoder); op++)
    if (r->names[op]) rtg_hip.decoder[op] = (uint8_t)find_decoder(r->names[op]);
}

/* ------------------------------------------------------------ output */

typedef struct out {
  char *p, *end;
} out;

static void put(out *o, const char *s) {
  o->p = rtg_fmt_str(o->p, o->end, s);
}
static void put_udec(out *o, uint64_t v) {
  o->p = rtg_fmt_u64(o->p, o->end, v);
}
static void put_dec(out *o, int64_t v) {
  o->p = rtg_fmt_i64(o->p, o->end, v);
}
/* a null pointer or handle is "0", others 0x... */
static void put_hex(out *o, uint64_t v) {
  o->p = v ? rtg_fmt_hex(o->p, o->end, v) : rtg_fmt_str(o->p, o->end, "0");
}

static const char *const kinds[] = {"HostToHost", "HostToDevice", "DeviceToHost", "DeviceToDevice",
                                    "Default"};

static size_t align_up(size_t off, size_t a) {
  return (off + a - 1) & ~(a - 1);
}

unsigned rtg_hip_args_find(const char *name) {
  return find_decoder(name);
}
int rtg_hip_args_is_launch(unsigned d) {
  return d && d < NDECODERS && decoders[d].kernel;
}

/* The size and alignment of a field of type t in the argument union. */
static void field_size(char t, size_t *size, size_t *al) {
  *size = *al = 8;
  switch (t) {
  case 'i':
  case 'u':
  case 'k':
    *size = *al = 4;
    break;
  case 'b':
    *size = *al = 1;
    break;
  case 'h':
    *size = *al = 2;
    break;
  case 'd':
    *size = 12, *al = 4;
    break;
  case 'P':
  case 'S':
  case 'E':
  case 'Z':
    *size = 16;
    break;
  case 'I':
  case 'F':
    *size = 12;
    break; /* T* then a 4-byte __val */
  default:
    break;
  }
}

/* Rebuild the argument union of decoder d from the registers and stack of a
 * call (the dispatch-table path sees the call itself, not a
 * hip_api_data_t), so one formatter serves every path.  Each spec field is
 * one C parameter, except: "x x" (T** and its __val) is one parameter; a
 * dim3 is passed by value in two eightbytes, or on the stack when the
 * registers cannot take both; the hipModuleLaunchKernel family (kernel 2)
 * passes its grid and block as three separate 32-bit parameters each. */
size_t rtg_hip_args_marshal(unsigned d, const uint64_t gpr[6], const uint64_t *stack,
                            unsigned char *image, size_t cap) {
  if (!d || d >= NDECODERS) return 0;
  const char *s = decoders[d].spec;
  unsigned gi = 0, si = 0;
  size_t off = 0;
  memset(image, 0, cap);
#define NEXT() (gi < 6 ? gpr[gi++] : stack[si++])
  while (*s) {
    char t = s[0];
    const char *ne = s + 1;
    while (*ne && *ne != ' ') ne++;
    int pair = t == 'x' && ne[0] == ' ' && ne[1] == 'x'; /* T** + __val */
    s = *ne ? ne + 1 : ne;
    size_t size, al;
    field_size(t, &size, &al);
    off = align_up(off, al);
    if (off + 16 > cap) break;
    unsigned char *f = image + off;
    off += size;
    if (t == 'd' && decoders[d].kernel == 2) {
      uint32_t v[3] = {(uint32_t)NEXT(), (uint32_t)NEXT(), (uint32_t)NEXT()};
      memcpy(f, v, 12);
    } else if (t == 'd') {
      uint64_t v[2];
      if (gi + 2 <= 6)
        v[0] = gpr[gi], v[1] = gpr[gi + 1], gi += 2;
      else
        v[0] = stack[si], v[1] = stack[si + 1], si += 2;
      memcpy(f, v, 12);
    } else {
      uint64_t v = NEXT();
      memcpy(f, &v, size < 8 ? size : 8);
    }
    if (pair) { /* skip the __val */
      s = s[1] == ' ' ? s + 2 : s + 1;
      off = align_up(off, 8) + 8;
    }
  }
#undef NEXT
  return off;
}

/* One field of a decoder's argument union, in spec order. */
typedef struct field {
  char type;
  const char *name, *name_end; /* "x" has no name */
  size_t off, size;
} field;

/* The field at *spec (its offset after *off), advancing both; false at the
 * end of the spec. */
static bool next_field(const char **spec, size_t *off, field *f) {
  const char *s = *spec;
  if (!*s) return false;
  f->type = s[0];
  f->name = s[1] == ':' ? s + 2 : s + 1;
  f->name_end = f->name;
  while (*f->name_end && *f->name_end != ' ') f->name_end++;
  *spec = *f->name_end ? f->name_end + 1 : f->name_end;
  size_t al;
  field_size(f->type, &f->size, &al);
  f->off = align_up(*off, al);
  *off = f->off + f->size;
  return true;
}

/* An output parameter: T* then the T __val slot at +8, of this size
 * (0: not an output). */
static size_t out_val_size(char t) {
  switch (t) {
  case 'P':
  case 'S':
  case 'E':
  case 'Z':
    return 8;
  case 'I':
  case 'F':
    return 4;
  default:
    return 0;
  }
}

size_t rtg_hip_args_capture(unsigned d, const void *args, unsigned char *image, size_t cap) {
  if (!d || d >= NDECODERS) return 0;
  const char *s = decoders[d].spec;
  size_t off = 0;
  field f;
  while (next_field(&s, &off, &f)) continue;
  if (off > cap) return 0;
  if (off) memcpy(image, args, off);
  s = decoders[d].spec;
  off = 0;
  while (next_field(&s, &off, &f)) {
    size_t vs = out_val_size(f.type);
    if (!vs) continue;
    const void *ptr;
    memcpy(&ptr, image + f.off, sizeof ptr);
    memset(image + f.off + 8, 0, vs);
    if (ptr) memcpy(image + f.off + 8, ptr, vs); /* the caller's output, now that it returned */
  }
  return off;
}

size_t rtg_hip_args_format_dec(char *buf, size_t cap, unsigned d, const void *image, size_t len) {
  if (!cap) return 0;
  out o = {buf, buf + cap - 1};
  if (d >= NDECODERS) d = 0;
  const char *s = d ? decoders[d].spec : "";
  const unsigned char *a = image;
  size_t off = 0;
  int first = 1;
  field fl;
  while (next_field(&s, &off, &fl) && off <= len) {
    const unsigned char *f = a + fl.off;
    char t = fl.type;
    if (t == 'x') continue;
    if (!first) put(&o, ", ");
    first = 0;
    for (const char *n = fl.name; n < fl.name_end && o.p < o.end; n++) *o.p++ = *n;
    put(&o, "=");
    uint64_t u8 = 0;
    memcpy(&u8, f, fl.size < 8 ? fl.size : 8); /* the fields are not aligned in our char view */
    switch (t) {
    case 'p':
    case 's':
    case 'e':
      put_hex(&o, u8);
      break;
    case 'z':
      put_udec(&o, u8);
      break;
    case 'i': {
      int32_t v;
      memcpy(&v, f, 4);
      put_dec(&o, v);
      break;
    }
    case 'u': {
      uint32_t v;
      memcpy(&v, f, 4);
      put_udec(&o, v);
      break;
    }
    case 'b':
      put_udec(&o, f[0]);
      break;
    case 'h': {
      uint16_t v;
      memcpy(&v, f, 2);
      put_udec(&o, v);
      break;
    }
    case 'k': {
      uint32_t v;
      memcpy(&v, f, 4);
      if (v < sizeof(kinds) / sizeof(kinds[0]))
        put(&o, kinds[v]);
      else
        put_udec(&o, v);
      break;
    }
    case 'd': {
      uint32_t v[3];
      memcpy(v, f, 12);
      put(&o, "{");
      for (int i = 0; i < 3; i++) {
        if (i) put(&o, ",");
        put_udec(&o, v[i]);
      }
      put(&o, "}");
      break;
    }
    case 'P':
    case 'S':
    case 'E':
    case 'Z':
    case 'I':
    case 'F': {
      /* the caller's pointer, and in the __val slot what it pointed to
       * when the call returned (rtg_hip_args_capture) */
      if (!u8) {
        put(&o, "NULL");
        break;
      }
      const unsigned char *val = f + 8;
      if (t == 'I') {
        int32_t v;
        memcpy(&v, val, 4);
        put_dec(&o, v);
      } else if (t == 'F') {
        float v;
        memcpy(&v, val, 4);
        int64_t us = (int64_t)(v * 1000.0f); /* ms with 3 decimals, no printf */
        if (us < 0) put(&o, "-"), us = -us;
        put_udec(&o, (uint64_t)us / 1000);
        put(&o, ".");
        char fr[4] = {(char)('0' + us / 100 % 10), (char)('0' + us / 10 % 10),
                      (char)('0' + us % 10), 0};
        put(&o, fr);
      } else {
        uint64_t v;
        memcpy(&v, val, 8);
        if (t == 'Z')
          put_udec(&o, v);
        else
          put_hex(&o, v);
      }
      break;
    }
    default:
      break;
    }
  }
  *o.p = 0;
  return (size_t)(o.p - buf);
}

/* The kernel a launch starts, by HIP's own lookup (the same name the HSA
 * side sees on the dispatch, and what the original tracer printed). */
const char *rtg_hip_args_kernel(uint32_t op, const void *args) {
  return rtg_hip_args_kernel_dec(op < sizeof(rtg_hip.decoder) ? rtg_hip.decoder[op] : 0, args);
}

/* Kernel names by host function, asked of HIP once per function: HIP's
 * lookup takes microseconds, a launch loop makes it for every launch.  A
 * fixed table, filled with compare-and-swap (the slot's function first,
 * then its name); when full, names are asked of HIP as before.  A name HIP
 * gave stays valid while the module is loaded, as the trace assumes. */
enum { KCACHE = 1024 };
static struct kcache {
  _Atomic(const void *) func;
  _Atomic(const char *) name;
} kcache[KCACHE];

static const char *kcache_get(const void *f) {
  size_t h = ((uintptr_t)f >> 4) * 0x9E3779B97F4A7C15ull >> 54; /* 10 bits */
  for (size_t i = 0; i < 8; i++) {
    struct kcache *e = &kcache[(h + i) & (KCACHE - 1)];
    const void *k = atomic_load_explicit(&e->func, memory_order_acquire);
    if (k == f) return atomic_load_explicit(&e->name, memory_order_acquire);
    if (!k) return NULL;
  }
  return NULL;
}

static void kcache_put(const void *f, const char *name) {
  size_t h = ((uintptr_t)f >> 4) * 0x9E3779B97F4A7C15ull >> 54;
  for (size_t i = 0; i < 8; i++) {
    struct kcache *e = &kcache[(h + i) & (KCACHE - 1)];
    const void *k = NULL;
    if (atomic_compare_exchange_strong(&e->func, &k, f) || k == f) {
      atomic_store_explicit(&e->name, name, memory_order_release);
      return;
    }
  }
}

const char *rtg_hip_args_kernel_dec(unsigned d, const void *args) {
  if (!d || d >= NDECODERS || !decoders[d].kernel || !args) return NULL;
  const unsigned char *a = args;
  const void *f;
  memcpy(&f, a, sizeof f);
  if (!f) return NULL;
  const char *name = kcache_get(f);
  if (name) return name;
  rtg_enter();
  if (decoders[d].kernel == 1 && rtg_hip.kernel_name_by_ptr) {
    /* hipLaunchKernel & co: {func, dim3, dim3, args, args__val, shmem, stream}:
     * the stream is at 56 in all three */
    const void *stream;
    memcpy(&stream, a + 56, sizeof stream);
    name = rtg_hip.kernel_name_by_ptr(f, stream);
  } else if (decoders[d].kernel == 2 && rtg_hip.kernel_name_ref) {
    name = rtg_hip.kernel_name_ref(f);
  }
  rtg_leave();
  if (name) kcache_put(f, name);
  return name;
}
