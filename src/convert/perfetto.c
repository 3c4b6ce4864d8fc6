/* Native Perfetto trace output (-o FILE.pftrace, --format perfetto).
 *
 * A protobuf Trace: a sequence of TracePackets, encoded here directly
 * (pbw.h, field numbers in perfetto_proto.h).  The lanes are the Chrome
 * JSON's (tracks.c: the same tracks, names and order): a process track per
 * Chrome process, a named child track per Chrome thread, ordered
 * explicitly, plus counter tracks per GPU (ops in flight, bytes copied).
 * Each op is a TYPE_SLICE_BEGIN and a TYPE_SLICE_END packet, markers are
 * TYPE_INSTANT, arguments are debug annotations.  Names of events,
 * categories and annotations, and repeated annotation strings, are
 * interned on one packet sequence (InternedData), so a kernel name is
 * written once.  Timestamps are CLOCK_BOOTTIME ns (stated in the packet
 * defaults), or relative with --zero.
 *
 * Streaming in constant memory: the events go to a temporary file as they
 * come; the track descriptors, whose names are final only at the end (a
 * later input adds a process), are written first into the output, then the
 * events are copied after them, so every reader meets a track before its
 * events.
 *
 * Flows (-f) pair host calls and GPU ops exactly as the JSON does (corr.c).
 * An op whose call is already known gets two legacy flow events ('s' at
 * the call, 'f' bound to the op's slice), written while the op's slice is
 * open so that they bind to it even when it lasts 0 ns.  An op written
 * before its call gets them when the call comes, written while the call's
 * slice is open; but a 0 ns op is closed by then, so such an op carries a
 * flow id of its own (flow_ids) and the call that claims it carries that
 * id too: Perfetto links two slices sharing a flow id (from the earlier to
 * the later). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "convert.h"
#include "corr.h"
#include "gaptrack.h"
#include "pbw.h"
#include "perfetto_proto.h"
#include "tracks.h"

#define SEQ_ID 1
#define BODY_FLUSH (1u << 20)
#define MAX_NAMES 200000u   /* interned event names; beyond, names go inline */
#define SCACHE_SLOTS 16384u /* interned annotation strings, direct-mapped */
#define SCACHE_LEN 1024     /* longer strings are written inline */
#define NCACHE_SLOTS 4096u  /* recent event names, in front of the names table */
#define CTR_WINDOW 4096     /* counter changes reordered by time, per counter */
#define PROC_UUID (1ull << 40)
#define CTR_UUID (2ull << 40)

/* Categories and annotation names: fixed tables, interned on first use. */
enum {
  CAT_hip,
  CAT_hsa,
  CAT_dispatch,
  CAT_kernel,
  CAT_barrier,
  CAT_copy,
  CAT_roctx,
  CAT_syscall,
  CAT_gap,
  CAT_launch,
  NCATS
};
static const char *const cat_names[NCATS] = {
    [CAT_hip] = "hip",       [CAT_hsa] = "hsa",         [CAT_dispatch] = "dispatch",
    [CAT_kernel] = "kernel", [CAT_barrier] = "barrier", [CAT_copy] = "copy",
    [CAT_roctx] = "roctx",   [CAT_syscall] = "syscall", [CAT_gap] = "gap",
    [CAT_launch] = "launch",
};

enum {
  AN_kernel,
  AN_api,
  AN_args,
  AN_ret,
  AN_corr,
  AN_stack,
  AN_queue,
  AN_agent,
  AN_id,
  AN_workgroup,
  AN_grid,
  AN_lds,
  AN_scratch,
  AN_mangled,
  AN_kind,
  AN_bytes,
  AN_gbs,
  AN_src_agent,
  AN_dst_agent,
  AN_engine,
  AN_op,
  AN_depth,
  AN_call,
  AN_after,
  AN_before,
  NANNS
};
static const char *const ann_names[NANNS] = {
    [AN_kernel] = "kernel",
    [AN_api] = "api",
    [AN_args] = "args",
    [AN_ret] = "ret",
    [AN_corr] = "corr",
    [AN_stack] = "stack",
    [AN_queue] = "queue",
    [AN_agent] = "agent",
    [AN_id] = "id",
    [AN_workgroup] = "workgroup",
    [AN_grid] = "grid",
    [AN_lds] = "lds",
    [AN_scratch] = "scratch",
    [AN_mangled] = "mangled",
    [AN_kind] = "kind",
    [AN_bytes] = "bytes",
    [AN_gbs] = "GB/s",
    [AN_src_agent] = "src_agent",
    [AN_dst_agent] = "dst_agent",
    [AN_engine] = "engine",
    [AN_op] = "op",
    [AN_depth] = "depth",
    [AN_call] = "call",
    [AN_after] = "after",
    [AN_before] = "before",
};

/* An interning entry new in the packet being written; its string is
 * copied (frames and names may live only during a callback). */
typedef struct pend {
  uint32_t field; /* InternedData field */
  uint64_t iid;
  size_t off, len; /* in pf.arena */
} pend;
#define NPEND 64

/* A slot of a direct-mapped string cache. */
typedef struct scache_slot {
  uint64_t hash, iid;
  uint32_t len, cap;
  char *s;
} scache_slot;

/* A counter track: changes (time, delta) pass through a min-heap of
 * CTR_WINDOW so that values go out in time order though ops come in
 * completion order. */
typedef struct counter {
  uint32_t proc, agent;
  bool bytes; /* bytes copied, else ops in flight */
  int64_t value;
  uint64_t (*heap)[2]; /* time, delta (as uint64) */
  uint32_t n;
} counter;

typedef struct pf_gaps {
  uint32_t proc, agent;
  gaptrack gt;
  struct pf *p;
} pf_gaps;

typedef struct pf {
  cv_ctx *ctx;
  const char *path;
  FILE *out;
  bool own_out;
  FILE *body; /* the events, until close */
  FILE *ends; /* the ends of slices longer than 0 ns, until close */
  bool io_failed;
  pbw w, ew; /* packets for body and ends */
  tracks ts;
  rtg_strtab *names;
  bool cat_done[NCATS], ann_done[NANNS];
  scache_slot *scache, *ncache;
  uint64_t next_siid;
  pend pend[NPEND];
  uint32_t npend;
  char *arena;
  size_t narena, cap_arena;
  /* flows */
  corr_table calls, dispatch;
  uint64_t next_flow;
  corr_val *claimed; /* waiting ops the call being written claims */
  uint32_t nclaimed, cap_claimed;
  /* counters, by (proc, agent, kind) */
  counter *ctr;
  uint32_t nctr;
  rtg_u64map ctr_index;
  /* -g */
  pf_gaps *gaps;
  uint32_t ngaps;
  rtg_u64map gap_index;
  bool warned_json;
} pf;

static void op_without_call(void *arg, corr_val op);

/* ------------------------------------------------------------ output */

static bool write_all(int fd, const uint8_t *b, size_t n) {
  while (n) {
    ssize_t k = write(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    b += k, n -= (size_t)k;
  }
  return true;
}

/* Packets so far to their temporary file (unbuffered: 1 MB at a time). */
static void flush_to(pf *p, pbw *w, FILE *f) {
  if (w->n && !write_all(fileno(f), w->buf, w->n)) p->io_failed = true;
  w->n = 0;
}

static void flush_body(pf *p) {
  flush_to(p, &p->w, p->body);
}

static void *pf_open(cv_ctx *ctx) {
  pf *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->ctx = ctx;
  p->path = ctx->opt.perfetto_out;
  if (!strcmp(p->path, "-")) {
    p->out = stdout;
  } else {
    p->out = fopen(p->path, "wb");
    if (!p->out) {
      rtg_error("cannot create output: path=%s: %m", p->path);
      free(p);
      return NULL;
    }
    p->own_out = true;
  }
  p->body = tmpfile();
  p->ends = p->body ? tmpfile() : NULL;
  if (!p->ends) {
    rtg_error("cannot create a temporary file for the Perfetto output: %m");
    if (p->body) fclose(p->body);
    if (p->own_out) fclose(p->out);
    free(p);
    return NULL;
  }
  size_t slots = corr_slots_setting();
  p->names = rtg_strtab_new();
  p->scache = calloc(SCACHE_SLOTS, sizeof *p->scache);
  p->ncache = calloc(NCACHE_SLOTS, sizeof *p->ncache);
  if (!p->names || !p->scache || !p->ncache || !pbw_init(&p->w, 2 * BODY_FLUSH) ||
      !pbw_init(&p->ew, 2 * BODY_FLUSH) || !corr_init(&p->calls, slots) ||
      !corr_init(&p->dispatch, slots)) {
    rtg_error("out of memory");
    exit(1);
  }
  corr_set_unmatched(&p->calls, op_without_call, p);
  tracks_init(&p->ts, ctx);
  return p;
}

static inline uint64_t out_time(const pf *p, uint64_t ns) {
  uint64_t base = p->ctx->time_base;
  return ns > base ? ns - base : 0;
}

static inline uint64_t track_uuid(const pf *p, const track *t) {
  return (uint64_t)(t - p->ts.t) + 1;
}

/* ------------------------------------------------------------ interning */

/* Callers check room (pend_room) before taking an iid. */
static void pend_add(pf *p, uint32_t field, uint64_t iid, const char *s, size_t len) {
  if (p->narena + len + 1 > p->cap_arena) {
    size_t nc = p->cap_arena ? p->cap_arena * 2 : 4096;
    while (nc < p->narena + len) nc *= 2;
    char *n = realloc(p->arena, nc);
    if (!n) exit(1);
    p->arena = n, p->cap_arena = nc;
  }
  memcpy(p->arena + p->narena, s, len);
  p->pend[p->npend++] = (pend){field, iid, p->narena, len};
  p->narena += len;
}

/* Room for the entries one event may add besides its strings: its name,
 * category and annotation names. */
static inline bool pend_room(const pf *p) {
  return p->npend < NPEND - 4 - NANNS;
}

/* A hash of 8 bytes a step: every event looks its strings up. */
static inline uint64_t str_hash(const char *s, size_t len) {
  uint64_t h = len * 0x9e3779b97f4a7c15ull, v;
  for (; len >= 8; s += 8, len -= 8) {
    memcpy(&v, s, 8);
    h = (h ^ v) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  v = 0;
  memcpy(&v, s, len);
  h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
  return (h ^ h >> 32) | 1;
}

/* The slot of s in a cache: hit when it holds s; else the caller takes it
 * over with sc_fill. */
static inline scache_slot *sc_find(scache_slot *c, uint32_t slots, const char *s, size_t len,
                                   uint64_t h, bool *hit) {
  scache_slot *e = &c[h & (slots - 1)];
  *hit = e->hash == h && e->len == len && !memcmp(e->s, s, len);
  return e;
}

static void sc_fill(scache_slot *e, const char *s, size_t len, uint64_t h, uint64_t iid) {
  if (e->cap < len + 1) {
    char *n = realloc(e->s, len + 1);
    if (!n) exit(1);
    e->s = n, e->cap = (uint32_t)len + 1;
  }
  memcpy(e->s, s, len);
  e->hash = h, e->len = (uint32_t)len, e->iid = iid;
}

static void sc_free(scache_slot *c, uint32_t slots) {
  for (uint32_t i = 0; c && i < slots; i++) free(c[i].s);
  free(c);
}

/* The iid of an event name (defined once, in the packet of its first
 * use), or 0 when names are too many to intern. */
static uint64_t name_iid(pf *p, const char *s) {
  size_t len = strlen(s);
  uint64_t h = str_hash(s, len);
  bool hit;
  scache_slot *e = sc_find(p->ncache, NCACHE_SLOTS, s, len, h, &hit);
  if (hit) return e->iid;
  uint32_t n = rtg_strtab_count(p->names);
  uint32_t id =
      n < MAX_NAMES ? rtg_strtab_intern(p->names, s, len) : rtg_strtab_find(p->names, s, len);
  if (id == UINT32_MAX) return 0;
  if (id == n) pend_add(p, PF_ID_EVENT_NAMES, (uint64_t)id + 1, s, len);
  sc_fill(e, s, len, h, (uint64_t)id + 1);
  return (uint64_t)id + 1;
}

static void put_name(pf *p, const char *s) {
  uint64_t iid = name_iid(p, s);
  if (iid)
    pbw_uint(&p->w, PF_TE_NAME_IID, iid);
  else
    pbw_str(&p->w, PF_TE_NAME, s);
}

static void put_cat(pf *p, int cat) {
  if (!p->cat_done[cat]) {
    p->cat_done[cat] = true;
    pend_add(p, PF_ID_EVENT_CATEGORIES, (uint64_t)cat + 1, cat_names[cat], strlen(cat_names[cat]));
  }
  pbw_uint(&p->w, PF_TE_CATEGORY_IIDS, (uint64_t)cat + 1);
}

/* The interned data of the packet: written after its event (field order
 * does not matter in protobuf), before the packet closes. */
static void put_interned(pf *p) {
  if (!p->npend) return;
  size_t id = pbw_open(&p->w, PF_PKT_INTERNED_DATA);
  for (uint32_t i = 0; i < p->npend; i++) {
    const pend *e = &p->pend[i];
    size_t m = pbw_open(&p->w, e->field);
    pbw_uint(&p->w, PF_IID, e->iid);
    pbw_bytes(&p->w, PF_IID_NAME, p->arena + e->off, e->len);
    pbw_close(&p->w, m);
  }
  pbw_close(&p->w, id);
  p->npend = 0;
  p->narena = 0;
}

/* ------------------------------------------------------------ packets */

typedef struct pkt {
  size_t pk, te;
} pkt;

static inline pkt pkt_begin(pf *p, uint64_t ts, bool needs_state, uint64_t uuid, int type) {
  pbw *w = &p->w;
  pbw_need(w, 64);
  pkt k;
  k.pk = pbw_open(w, PF_TRACE_PACKET);
  pbw_tag(w, PF_PKT_TIMESTAMP, PBW_VARINT);
  pbw_put_varint(w, out_time(p, ts));
  pbw_tag(w, PF_PKT_SEQUENCE_ID, PBW_VARINT);
  pbw_put_varint(w, SEQ_ID);
  if (needs_state) {
    pbw_tag(w, PF_PKT_SEQUENCE_FLAGS, PBW_VARINT);
    pbw_put_varint(w, PF_SEQ_NEEDS_INCREMENTAL_STATE);
  }
  k.te = pbw_open(w, PF_PKT_TRACK_EVENT);
  if (type) {
    pbw_tag(w, PF_TE_TYPE, PBW_VARINT);
    pbw_put_varint(w, (uint64_t)type);
  }
  pbw_tag(w, PF_TE_TRACK_UUID, PBW_VARINT);
  pbw_put_varint(w, uuid);
  return k;
}

static inline void pkt_end(pf *p, pkt k) {
  pbw_close(&p->w, k.te);
  put_interned(p);
  pbw_close(&p->w, k.pk);
  if (p->w.n >= BODY_FLUSH) flush_body(p);
}

/* A slice's first packet (its track event stays open for annotations). */
static pkt slice_begin(pf *p, const track *t, uint64_t ts, const char *name, int cat) {
  pkt k = pkt_begin(p, ts, true, track_uuid(p, t), PF_TYPE_SLICE_BEGIN);
  put_name(p, name);
  put_cat(p, cat);
  return k;
}

/* A slice's end.  Perfetto orders events of equal time in file order, and
 * an end closes the innermost open slice of its track: so that an op ending
 * when the next one on its lane starts closes first whatever order the two
 * came in, the ends go to a stream of their own, placed before the rest.
 * A 0 ns slice keeps its end next to its begin (and to its flows). */
static void slice_end(pf *p, const track *t, uint64_t start, uint64_t end) {
  if (end == start) {
    pkt k = pkt_begin(p, end, false, track_uuid(p, t), PF_TYPE_SLICE_END);
    pkt_end(p, k);
    return;
  }
  pbw *w = &p->ew;
  pbw_need(w, 48);
  size_t pk = pbw_open(w, PF_TRACE_PACKET);
  pbw_tag(w, PF_PKT_TIMESTAMP, PBW_VARINT);
  pbw_put_varint(w, out_time(p, end));
  pbw_tag(w, PF_PKT_SEQUENCE_ID, PBW_VARINT);
  pbw_put_varint(w, SEQ_ID);
  size_t te = pbw_open(w, PF_PKT_TRACK_EVENT);
  pbw_tag(w, PF_TE_TYPE, PBW_VARINT);
  pbw_put_varint(w, PF_TYPE_SLICE_END);
  pbw_tag(w, PF_TE_TRACK_UUID, PBW_VARINT);
  pbw_put_varint(w, track_uuid(p, t));
  pbw_close(w, te);
  pbw_close(w, pk);
  if (w->n >= BODY_FLUSH) flush_to(p, w, p->ends);
}

/* ------------------------------------------------------------ annotations */

static inline size_t ann_open(pf *p, int an) {
  size_t m = pbw_open(&p->w, PF_TE_DEBUG_ANNOTATIONS);
  if (!p->ann_done[an]) {
    p->ann_done[an] = true;
    pend_add(p, PF_ID_DEBUG_ANNOTATION_NAMES, (uint64_t)an + 1, ann_names[an],
             strlen(ann_names[an]));
  }
  pbw_uint(&p->w, PF_DA_NAME_IID, (uint64_t)an + 1);
  return m;
}

static void ann_u64(pf *p, int an, uint64_t v) {
  size_t m = ann_open(p, an);
  pbw_uint(&p->w, PF_DA_UINT, v);
  pbw_close(&p->w, m);
}

/* A string value: interned when short (API arguments repeat: the same
 * queue, signal, pool), through a direct-mapped cache, so memory stays
 * bounded; a string evicted and met again is interned again. */
static void put_string_value(pf *p, uint32_t field_str, uint32_t field_iid, const char *s) {
  size_t len = strlen(s);
  if (len >= SCACHE_LEN || !pend_room(p)) {
    pbw_bytes(&p->w, field_str, s, len);
    return;
  }
  uint64_t h = str_hash(s, len);
  bool hit;
  scache_slot *e = sc_find(p->scache, SCACHE_SLOTS, s, len, h, &hit);
  if (!hit) {
    sc_fill(e, s, len, h, ++p->next_siid);
    pend_add(p, PF_ID_DEBUG_ANNOTATION_STRINGS, e->iid, s, len);
  }
  pbw_uint(&p->w, field_iid, e->iid);
}

static void ann_str(pf *p, int an, const char *s) {
  if (!s) return;
  size_t m = ann_open(p, an);
  put_string_value(p, PF_DA_STRING, PF_DA_STRING_IID, s);
  pbw_close(&p->w, m);
}

static void ann_dim3(pf *p, int an, rtg_dim3 d) {
  size_t m = ann_open(p, an);
  uint64_t v[3] = {d.x, d.y, d.z};
  for (int i = 0; i < 3; i++) {
    size_t e = pbw_open(&p->w, PF_DA_ARRAY);
    pbw_uint(&p->w, PF_DA_UINT, v[i]);
    pbw_close(&p->w, e);
  }
  pbw_close(&p->w, m);
}

static void put_frame(void *arg, const char *frame) {
  pf *p = arg;
  size_t e = pbw_open(&p->w, PF_DA_ARRAY);
  put_string_value(p, PF_DA_STRING, PF_DA_STRING_IID, frame);
  pbw_close(&p->w, e);
}

static void ann_stack(pf *p, uint32_t proc, uint64_t stack) {
  if (!stack) return;
  size_t m = ann_open(p, AN_stack);
  if (!cv_stack_frames(p->ctx, proc, stack, put_frame, p)) {
    char id[64];
    snprintf(id, sizeof id, "stack %llu (not recorded)", (unsigned long long)stack);
    put_frame(p, id);
  }
  pbw_close(&p->w, m);
}

/* ------------------------------------------------------------ flows */

/* One end of a legacy (JSON-style) flow: 's' binds to the slice open on
 * the host track at the call's start, 'f' to the op's slice. */
static void flow_end(pf *p, char phase, int cat, uint64_t id, corr_val at) {
  pkt k = pkt_begin(p, at.c, true, at.a, 0);
  put_name(p, cat_names[cat]);
  put_cat(p, cat);
  size_t le = pbw_open(&p->w, PF_TE_LEGACY_EVENT);
  pbw_uint(&p->w, PF_LEG_PHASE, (uint64_t)phase);
  pbw_uint(&p->w, PF_LEG_UNSCOPED_ID, id);
  if (phase == 'f') pbw_uint(&p->w, PF_LEG_BIND_TO_ENCLOSING, 1);
  pbw_close(&p->w, le);
  pkt_end(p, k);
}

/* Perfetto links the two ends in time order (an end before its start is
 * dropped), so an op that starts before its call (a barrier timed at the
 * end of the op before it) gets an arrow from the op to the call. */
static void flow(pf *p, int cat, corr_val host, corr_val op) {
  uint64_t id = ++p->next_flow;
  bool back = op.c < host.c;
  flow_end(p, 's', cat, id, back ? op : host);
  flow_end(p, 'f', cat, id, back ? host : op);
}

/* Pairs found after both slices were written (spilled calls, ops that
 * turned out to have no call): legacy flow events. */
static void flow_late_launch(void *arg, corr_val host, corr_val op) {
  flow(arg, CAT_launch, host, op);
}
static void flow_late_dispatch(void *arg, corr_val host, corr_val op) {
  flow(arg, CAT_dispatch, host, op);
}

/* A call being written claims the ops that waited for it. */
static void claim(void *arg, corr_val host, corr_val op) {
  (void)host;
  pf *p = arg;
  if (p->nclaimed == p->cap_claimed) {
    uint32_t nc = p->cap_claimed ? p->cap_claimed * 2 : 16;
    corr_val *n = realloc(p->claimed, nc * sizeof *n);
    if (!n) exit(1);
    p->claimed = n, p->cap_claimed = nc;
  }
  p->claimed[p->nclaimed++] = op;
}

/* In the call's first packet: its own flow id when it lasts 0 ns (see
 * host_flow_id), and those of the claimed 0 ns ops (a flow event could not
 * bind to them any more). */
static void put_claimed_ids(pf *p, corr_val host) {
  if (host.b) pbw_fixed64(&p->w, PF_TE_FLOW_IDS, host.b);
  for (uint32_t i = 0; i < p->nclaimed; i++)
    if (p->claimed[i].b) pbw_fixed64(&p->w, PF_TE_FLOW_IDS, p->claimed[i].b);
}

/* After it, while the call's slice is open: flow events to the others. */
static void put_claimed_flows(pf *p, int cat, corr_val host) {
  for (uint32_t i = 0; i < p->nclaimed; i++)
    if (!p->claimed[i].b) flow(p, cat, host, p->claimed[i]);
  p->nclaimed = 0;
}

static uint64_t dispatch_key(const cv_event *ev) {
  return rtg_mix64(((uint64_t)ev->proc << 40 | ev->agent) ^ rtg_mix64(ev->queue) ^
                   rtg_mix64(ev->id + 0x9e37)) |
         1;
}

/* A host slice of 0 ns (a host dispatch is an instant) is closed before a
 * later op's flow event could bind to it: it carries a flow id of its own,
 * which such an op carries too.  0 when the slice has a duration. */
static uint64_t host_flow_id(uint64_t key, const cv_event *ev) {
  if (ev->end != ev->start) return 0;
  return rtg_mix64(key ^ rtg_mix64(ev->start) ^ 0x5bd1e995) | 3ull << 62;
}

/* An op's own flow id (top bit set: apart from the legacy flows' ids). */
static uint64_t op_flow_id(const cv_event *ev) {
  return rtg_mix64(dispatch_key(ev) ^ rtg_mix64(ev->start) ^ rtg_mix64(ev->corr + ev->type)) |
         1ull << 63;
}

/* ------------------------------------------------------------ counters */

static counter *counter_get(pf *p, uint32_t proc, uint32_t agent, bool bytes) {
  bool added;
  uint64_t key = (uint64_t)proc << 33 | (uint64_t)agent << 1 | bytes;
  uint64_t *ix = rtg_u64map_put(&p->ctr_index, key, 0, &added);
  if (!ix) exit(1);
  if (added) {
    counter *nc = realloc(p->ctr, (p->nctr + 1) * sizeof *nc);
    if (!nc) exit(1);
    p->ctr = nc;
    counter *c = &p->ctr[p->nctr];
    memset(c, 0, sizeof *c);
    c->proc = proc, c->agent = agent, c->bytes = bytes;
    c->heap = malloc(CTR_WINDOW * sizeof *c->heap);
    if (!c->heap) exit(1);
    *ix = p->nctr++;
  }
  return &p->ctr[*ix];
}

static inline bool heap_less(const uint64_t *a, const uint64_t *b) {
  /* at equal times increments first, so that the value never dips */
  return a[0] < b[0] || (a[0] == b[0] && (int64_t)a[1] > (int64_t)b[1]);
}

static void heap_swap(uint64_t (*h)[2], uint32_t i, uint32_t j) {
  uint64_t t0 = h[i][0], t1 = h[i][1];
  h[i][0] = h[j][0], h[i][1] = h[j][1];
  h[j][0] = t0, h[j][1] = t1;
}

/* The earliest change goes out as the counter's new value. */
static void counter_pop(pf *p, counter *c) {
  uint64_t ts = c->heap[0][0];
  c->value += (int64_t)c->heap[0][1];
  c->n--;
  c->heap[0][0] = c->heap[c->n][0], c->heap[0][1] = c->heap[c->n][1];
  for (uint32_t i = 0;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < c->n && heap_less(c->heap[l], c->heap[m])) m = l;
    if (r < c->n && heap_less(c->heap[r], c->heap[m])) m = r;
    if (m == i) break;
    heap_swap(c->heap, i, m);
    i = m;
  }
  pkt k = pkt_begin(p, ts, false, CTR_UUID + (uint64_t)(c - p->ctr), PF_TYPE_COUNTER);
  pbw_int(&p->w, PF_TE_COUNTER_VALUE, c->value < 0 ? 0 : c->value);
  pkt_end(p, k);
}

static void counter_add(pf *p, counter *c, uint64_t ts, int64_t delta) {
  if (c->n == CTR_WINDOW) counter_pop(p, c);
  uint32_t i = c->n++;
  c->heap[i][0] = ts, c->heap[i][1] = (uint64_t)delta;
  while (i && heap_less(c->heap[i], c->heap[(i - 1) / 2])) {
    heap_swap(c->heap, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

static void counters_op(pf *p, const cv_event *ev) {
  counter *c = counter_get(p, ev->proc, ev->agent, false);
  counter_add(p, c, ev->start, 1);
  counter_add(p, c, ev->end, -1);
  if (ev->type == CV_COPY && ev->has_bytes)
    counter_add(p, counter_get(p, ev->proc, ev->agent, true), ev->end, (int64_t)ev->bytes);
}

/* ------------------------------------------------------------ gaps (-g) */

static void on_gap(void *arg, uint64_t start, uint64_t end, uint32_t before, uint32_t after) {
  pf_gaps *g = arg;
  pf *p = g->p;
  track *t = tracks_get(&p->ts, g->proc, TK_GAPS, g->agent, 0, 0);
  char name[64];
  pkt k = slice_begin(p, t, start, cv_gap_name(p->ctx, end - start, name, sizeof name), CAT_gap);
  ann_str(p, AN_after, cv_str(p->ctx, before));
  ann_str(p, AN_before, cv_str(p->ctx, after));
  pkt_end(p, k);
  slice_end(p, t, start, end);
}

static void gap_add(pf *p, const cv_event *ev) {
  bool added;
  uint64_t *ix = rtg_u64map_put(&p->gap_index, (uint64_t)ev->proc << 32 | ev->agent, 0, &added);
  if (!ix) exit(1);
  if (added) {
    pf_gaps *ng = realloc(p->gaps, (p->ngaps + 1) * sizeof *ng);
    if (!ng) exit(1);
    p->gaps = ng;
    /* the trackers point at their own entries: fix them after the move */
    for (uint32_t i = 0; i < p->ngaps; i++) p->gaps[i].gt.arg = &p->gaps[i];
    pf_gaps *g = &p->gaps[p->ngaps];
    g->proc = ev->proc, g->agent = ev->agent, g->p = p;
    gt_init(&g->gt, on_gap, g);
    *ix = ++p->ngaps;
  }
  pf_gaps *g = &p->gaps[*ix - 1];
  gt_add(&g->gt, ev->start, ev->end, GT_COMPUTE, cv_intern(p->ctx, ev->name));
}

/* ------------------------------------------------------------ events */

static void host_call(pf *p, const cv_event *ev) {
  cv_ctx *ctx = p->ctx;
  bool hip = ev->type == CV_HIP_API;
  track *t = tracks_get(&p->ts, ev->proc, hip ? TK_HIP : TK_HSA, ev->tid, 0, 0);
  /* arrows start at HIP calls (as in the JSON): ops that waited for this
   * one are claimed before its slice is written, to carry their ids */
  bool flows = ctx->opt.flows && ev->has_corr && hip;
  corr_val host = {track_uuid(p, t), 0, ev->start, 0};
  if (flows) {
    uint64_t key = corr_key(ev->proc, ev->corr);
    host.b = host_flow_id(key, ev);
    corr_call(&p->calls, key, host, claim, p);
  }
  bool rename = ctx->opt.kernel_names && ev->kernel && *ev->kernel;
  pkt k = slice_begin(p, t, ev->start, rename ? ev->kernel : ev->name, hip ? CAT_hip : CAT_hsa);
  if (rename)
    ann_str(p, AN_api, ev->name);
  else
    ann_str(p, AN_kernel, ev->kernel);
  ann_str(p, AN_args, ev->args);
  ann_str(p, AN_ret, ev->ret);
  if (ev->has_corr) ann_u64(p, AN_corr, ev->corr);
  ann_stack(p, ev->proc, ev->stack);
  put_claimed_ids(p, host);
  pkt_end(p, k);
  put_claimed_flows(p, CAT_launch, host);
  slice_end(p, t, ev->start, ev->end);
}

static void host_dispatch(pf *p, const cv_event *ev) {
  track *t = tracks_get(&p->ts, ev->proc, TK_DISPATCH, ev->tid, 0, 0);
  corr_val host = {track_uuid(p, t), 0, ev->start, 0};
  if (p->ctx->opt.flows) {
    host.b = host_flow_id(dispatch_key(ev), ev);
    corr_call(&p->dispatch, dispatch_key(ev), host, claim, p);
  }
  pkt k = slice_begin(p, t, ev->start, ev->name, CAT_dispatch);
  ann_u64(p, AN_queue, ev->queue);
  ann_u64(p, AN_agent, ev->agent);
  ann_u64(p, AN_id, ev->id);
  if (ev->has_dims && ev->type == CV_HOST_DISPATCH) {
    ann_dim3(p, AN_workgroup, ev->wg);
    ann_dim3(p, AN_grid, ev->grid);
  }
  put_claimed_ids(p, host);
  pkt_end(p, k);
  put_claimed_flows(p, CAT_dispatch, host);
  slice_end(p, t, ev->start, ev->end);
}

/* A GPU op: its slice, with its flow written while the slice is open. */
static void gpu_op(pf *p, const cv_event *ev) {
  cv_ctx *ctx = p->ctx;
  track *t;
  pkt k;
  char name[128];
  if (ev->type == CV_COPY) {
    t = tracks_lane(&p->ts, ev->proc, TK_COPY, ev->agent, ev->has_engine ? ev->queue : UINT64_MAX,
                    ev->start, ev->end);
  } else {
    t = tracks_lane(&p->ts, ev->proc, TK_QUEUE, ev->agent, ev->queue, ev->start, ev->end);
  }
  /* the flow: the same choice as the JSON's (chrome.c) */
  bool have_host = false, launch = false;
  /* b: the op's own flow id, for an op of 0 ns only (see claim) */
  corr_val host, op = {track_uuid(p, t), ev->end == ev->start ? op_flow_id(ev) : 0, ev->start,
                       ev->type != CV_COPY ? dispatch_key(ev) : 0};
  bool waits = false;
  if (ctx->opt.flows) {
    if (ev->has_corr) {
      have_host = corr_op(&p->calls, corr_key(ev->proc, ev->corr), op, &host);
      launch = true;
      waits = !have_host;
    } else if (op.d) {
      have_host = corr_op(&p->dispatch, op.d, op, &host);
      waits = !have_host;
    }
  }
  if (ev->type == CV_COPY) {
    k = slice_begin(p, t, ev->start, cv_copy_name(ev, name, sizeof name), CAT_copy);
    ann_str(p, AN_kind, ev->name);
    if (ev->has_bytes) {
      ann_u64(p, AN_bytes, ev->bytes);
      if (ev->end > ev->start) {
        size_t m = ann_open(p, AN_gbs);
        /* bytes/ns is GB/s, to three decimals as in the JSON */
        pbw_double(&p->w, PF_DA_DOUBLE, (double)(ev->bytes * 1000 / (ev->end - ev->start)) / 1000);
        pbw_close(&p->w, m);
      }
    }
    if (ev->has_agents) {
      ann_u64(p, AN_src_agent, ev->src_agent);
      ann_u64(p, AN_dst_agent, ev->dst_agent);
    }
    if (ev->has_engine) ann_u64(p, AN_engine, ev->queue);
    ann_str(p, AN_api, ev->args);
    if (ev->has_corr) ann_u64(p, AN_corr, ev->corr);
  } else {
    bool kern = ev->type == CV_KERNEL;
    k = slice_begin(p, t, ev->start, ev->name, kern ? CAT_kernel : CAT_barrier);
    ann_u64(p, AN_queue, ev->queue);
    ann_u64(p, AN_agent, ev->agent);
    ann_u64(p, AN_id, ev->id);
    if (ev->has_corr) ann_u64(p, AN_corr, ev->corr);
    if (ev->has_dims) {
      ann_dim3(p, AN_workgroup, ev->wg);
      ann_dim3(p, AN_grid, ev->grid);
    }
    if (ev->lds) ann_u64(p, AN_lds, ev->lds);
    if (ev->scratch) ann_u64(p, AN_scratch, ev->scratch);
    ann_str(p, AN_mangled, ev->mangled);
  }
  if (waits && op.b) pbw_fixed64(&p->w, PF_TE_FLOW_IDS, op.b);
  if (have_host && host.b) pbw_fixed64(&p->w, PF_TE_FLOW_IDS, host.b);
  pkt_end(p, k);
  if (have_host && !host.b) flow(p, launch ? CAT_launch : CAT_dispatch, host, op);
  slice_end(p, t, ev->start, ev->end);
  counters_op(p, ev);
  if (ev->type == CV_KERNEL && ctx->opt.gap_events) gap_add(p, ev);
}

static void pf_event(void *st, const cv_event *ev) {
  pf *p = st;
  track *t;
  pkt k;
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
    host_call(p, ev);
    return;
  case CV_HOST_DISPATCH:
  case CV_HOST_BARRIER:
    host_dispatch(p, ev);
    return;
  case CV_KERNEL:
  case CV_BARRIER:
  case CV_COPY:
    gpu_op(p, ev);
    return;
  case CV_MARK:
    t = tracks_get(&p->ts, ev->proc, TK_ROCTX, ev->tid, 0, 0);
    k = pkt_begin(p, ev->start, true, track_uuid(p, t), PF_TYPE_INSTANT);
    put_name(p, ev->name);
    put_cat(p, CAT_roctx);
    pkt_end(p, k);
    return;
  case CV_RANGE:
    /* push/pop ranges nest by construction; start/stop ranges may not */
    if (ev->args && !strcmp(ev->args, "push"))
      t = tracks_get(&p->ts, ev->proc, TK_ROCTX, ev->tid, 0, 0);
    else
      t = tracks_lane(&p->ts, ev->proc, TK_ROCTX, ev->tid, 1, ev->start, ev->end);
    k = slice_begin(p, t, ev->start, ev->name, CAT_roctx);
    ann_str(p, AN_op, ev->args);
    if (ev->depth) ann_u64(p, AN_depth, ev->depth);
    pkt_end(p, k);
    slice_end(p, t, ev->start, ev->end);
    return;
  case CV_SYSCALL:
    t = tracks_get(&p->ts, ev->proc, TK_SYSCALL, ev->tid, 0, 0);
    k = slice_begin(p, t, ev->start, ev->name, CAT_syscall);
    ann_str(p, AN_call, ev->args);
    ann_str(p, AN_ret, ev->ret);
    pkt_end(p, k);
    slice_end(p, t, ev->start, ev->end);
    return;
  default:
    return;
  }
}

/* An op with a correlation id whose HIP call is not in the input. */
static void op_without_call(void *arg, corr_val op) {
  pf *p = arg;
  corr_val host;
  if (op.d && corr_op(&p->dispatch, op.d, op, &host)) flow(p, CAT_dispatch, host, op);
}

/* Chrome JSON inputs are merged into the JSON output only. */
static void pf_json_event(void *st, const void *item) {
  pf *p = st;
  (void)item;
  if (!p->warned_json)
    rtg_warning("Chrome JSON inputs are not written to the Perfetto output: path=%s", p->path);
  p->warned_json = true;
}

/* ------------------------------------------------------------ descriptors */

typedef struct order {
  uint64_t cpid, sort, ctid;
  int64_t idx; /* track index, or -1 - counter index */
} order;

static int order_cmp(const void *a, const void *b) {
  const order *x = a, *y = b;
  if (x->cpid != y->cpid) return x->cpid < y->cpid ? -1 : 1;
  if (x->sort != y->sort) return x->sort < y->sort ? -1 : 1;
  if (x->ctid != y->ctid) return x->ctid < y->ctid ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void descriptor(pf *p, uint64_t uuid, uint64_t parent, const char *name, int32_t rank) {
  size_t pk = pbw_open(&p->w, PF_TRACE_PACKET);
  size_t td = pbw_open(&p->w, PF_PKT_TRACK_DESCRIPTOR);
  pbw_uint(&p->w, PF_TD_UUID, uuid);
  pbw_uint(&p->w, PF_TD_PARENT_UUID, parent);
  pbw_str(&p->w, PF_TD_NAME, name);
  pbw_int(&p->w, PF_TD_SIBLING_ORDER_RANK, rank);
  pbw_close(&p->w, td);
  pbw_close(&p->w, pk);
}

static void counter_name(pf *p, const counter *c, char *buf, size_t cap) {
  const cv_ctx *ctx = p->ctx;
  const cv_proc *pr = &ctx->procs[c->proc];
  char pre[64] = "", agent[300];
  if (!ctx->opt.by_process && ctx->nprocs > 1 && pr->pid) snprintf(pre, sizeof pre, "%u ", pr->pid);
  cv_agent_label(ctx, c->proc, c->agent, agent, sizeof agent);
  snprintf(buf, cap, "%s%s %s", pre, agent, c->bytes ? "bytes copied" : "ops in flight");
}

/* The first packet of the sequence, then a descriptor for every process
 * and lane (the JSON's metadata), in the JSON's order. */
static void write_header(pf *p) {
  pbw *w = &p->w;
  size_t pk = pbw_open(w, PF_TRACE_PACKET);
  pbw_uint(w, PF_PKT_SEQUENCE_ID, SEQ_ID);
  pbw_uint(w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
  pbw_uint(w, PF_PKT_FIRST_ON_SEQUENCE, 1);
  size_t d = pbw_open(w, PF_PKT_DEFAULTS);
  pbw_uint(w, PF_DEF_TIMESTAMP_CLOCK_ID, PF_CLOCK_BOOTTIME);
  pbw_close(w, d);
  pbw_close(w, pk);
  /* the root track: processes in the order given by their ranks */
  pk = pbw_open(w, PF_TRACE_PACKET);
  d = pbw_open(w, PF_PKT_TRACK_DESCRIPTOR);
  pbw_uint(w, PF_TD_UUID, 0);
  pbw_uint(w, PF_TD_PROCESS_ORDERING, PF_PROCESS_ORDERING_EXPLICIT);
  pbw_close(w, d);
  pbw_close(w, pk);

  uint32_t n = p->ts.n + p->nctr;
  order *o = calloc(n ? n : 1, sizeof *o);
  if (!o) exit(1);
  for (uint32_t i = 0; i < p->ts.n; i++) {
    const track *t = &p->ts.t[i];
    o[i] = (order){t->cpid, t->sort, t->ctid, i};
  }
  for (uint32_t i = 0; i < p->nctr; i++) {
    const counter *c = &p->ctr[i];
    /* after the agent's queues and copy engines (see tracks_get) */
    uint64_t sub = ((uint64_t)c->agent & 0xff) << 20 | 3ull << 18 | c->bytes;
    uint64_t sort =
        p->ctx->opt.by_process ? (uint64_t)TK_QUEUE << 28 | sub : (uint64_t)c->proc << 28 | sub;
    o[p->ts.n + i] =
        (order){tracks_cpid(&p->ts, c->proc, TK_QUEUE), sort, UINT64_MAX, -1 - (int64_t)i};
  }
  qsort(o, n, sizeof *o, order_cmp);
  char name[1024];
  int32_t prank = 0, rank = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t puuid = PROC_UUID + o[i].cpid;
    if (i == 0 || o[i].cpid != o[i - 1].cpid) {
      /* a process: named like the JSON's process_name, ordered by pid */
      const track *t0 = NULL;
      for (uint32_t j = i; j < n && o[j].cpid == o[i].cpid && !t0; j++)
        if (o[j].idx >= 0) t0 = &p->ts.t[o[j].idx];
      const counter *c0 = o[i].idx < 0 ? &p->ctr[-1 - o[i].idx] : NULL;
      if (t0)
        tracks_process_name(&p->ts, o[i].cpid, t0->proc, t0->kind, name, sizeof name);
      else
        tracks_process_name(&p->ts, o[i].cpid, c0->proc, TK_QUEUE, name, sizeof name);
      pk = pbw_open(w, PF_TRACE_PACKET);
      d = pbw_open(w, PF_PKT_TRACK_DESCRIPTOR);
      pbw_uint(w, PF_TD_UUID, puuid);
      pbw_str(w, PF_TD_NAME, name);
      size_t pd = pbw_open(w, PF_TD_PROCESS);
      pbw_int(w, PF_PD_PID, (int32_t)o[i].cpid);
      pbw_str(w, PF_PD_PROCESS_NAME, name);
      pbw_close(w, pd);
      pbw_uint(w, PF_TD_CHILD_ORDERING, PF_CHILD_ORDERING_EXPLICIT);
      pbw_int(w, PF_TD_SIBLING_ORDER_RANK, prank++);
      pbw_close(w, d);
      pbw_close(w, pk);
      rank = 0;
    }
    if (o[i].idx >= 0) {
      const track *t = &p->ts.t[o[i].idx];
      tracks_name(&p->ts, t, name, sizeof name);
      descriptor(p, track_uuid(p, t), puuid, name, rank++);
    } else {
      const counter *c = &p->ctr[-1 - o[i].idx];
      counter_name(p, c, name, sizeof name);
      pk = pbw_open(w, PF_TRACE_PACKET);
      d = pbw_open(w, PF_PKT_TRACK_DESCRIPTOR);
      pbw_uint(w, PF_TD_UUID, CTR_UUID + (uint64_t)(c - p->ctr));
      pbw_uint(w, PF_TD_PARENT_UUID, puuid);
      pbw_str(w, PF_TD_NAME, name);
      size_t cd = pbw_open(w, PF_TD_COUNTER);
      pbw_uint(w, PF_CD_UNIT, c->bytes ? PF_UNIT_SIZE_BYTES : PF_UNIT_COUNT);
      pbw_close(w, cd);
      pbw_int(w, PF_TD_SIBLING_ORDER_RANK, rank++);
      pbw_close(w, d);
      pbw_close(w, pk);
    }
    if (w->n >= BODY_FLUSH) {
      if (fwrite(w->buf, 1, w->n, p->out) != w->n) p->io_failed = true;
      w->n = 0;
    }
  }
  free(o);
}

/* A temporary file after the header: copied by the kernel (sendfile), or
 * through the buffer where it cannot. */
static void copy_file(pf *p, FILE *f) {
  int in = fileno(f), out = fileno(p->out);
  off_t size = lseek(in, 0, SEEK_END), off = 0;
  if (size < 0 || fflush(p->out)) {
    p->io_failed = true;
    return;
  }
  while (off < size) {
    ssize_t k = sendfile(out, in, &off, (size_t)(size - off));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
  }
  while (off < size) {
    ssize_t k = pread(in, p->w.buf, p->w.cap, off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0 || !write_all(out, p->w.buf, (size_t)k)) {
      p->io_failed = true;
      return;
    }
    off += k;
  }
}

static bool pf_close(void *st) {
  pf *p = st;
  cv_ctx *ctx = p->ctx;
  for (uint32_t i = 0; i < p->ngaps; i++) {
    gt_finish(&p->gaps[i].gt);
    gt_free(&p->gaps[i].gt);
  }
  free(p->gaps);
  rtg_u64map_free(&p->gap_index);
  corr_finish(&p->calls, flow_late_launch, p);
  corr_finish(&p->dispatch, flow_late_dispatch, p);
  for (uint32_t i = 0; i < p->nctr; i++) {
    while (p->ctr[i].n) counter_pop(p, &p->ctr[i]);
    free(p->ctr[i].heap);
  }
  flush_body(p);
  flush_to(p, &p->ew, p->ends);
  write_header(p);
  if (p->w.n && fwrite(p->w.buf, 1, p->w.n, p->out) != p->w.n) p->io_failed = true;
  p->w.n = 0;
  copy_file(p, p->ends);
  copy_file(p, p->body);
  bool ok = !p->io_failed;
  if (fflush(p->out)) ok = false;
  if (p->own_out && fclose(p->out)) ok = false;
  fclose(p->body);
  fclose(p->ends);
  if (!ok) rtg_error("cannot write output: path=%s", p->path);
  if (ctx->opt.verbose && ctx->opt.flows) corr_report(ctx->report, &p->calls, &p->dispatch);
  tracks_free(&p->ts);
  corr_free(&p->calls);
  corr_free(&p->dispatch);
  rtg_strtab_free(p->names);
  rtg_u64map_free(&p->ctr_index);
  free(p->ctr);
  free(p->claimed);
  free(p->arena);
  sc_free(p->scache, SCACHE_SLOTS);
  sc_free(p->ncache, NCACHE_SLOTS);
  pbw_free(&p->w);
  pbw_free(&p->ew);
  free(p);
  return ok;
}

const cv_sink cv_perfetto_sink = {"perfetto", pf_open, pf_event, pf_json_event, pf_close};
