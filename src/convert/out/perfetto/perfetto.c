/* Native Perfetto trace output (-o FILE.pftrace, --format perfetto).
 *
 * A protobuf Trace: a sequence of TracePackets, encoded here directly
 * (pbw.h, field numbers in perfetto_proto.h).  The lanes are the Chrome
 * JSON's (shared/tracks.c: the same tracks, names and order): a process track per
 * Chrome process, a named child track per Chrome thread, ordered
 * explicitly, plus counter tracks per GPU (ops in flight, bytes copied).
 * Each op is a TYPE_SLICE_BEGIN and a TYPE_SLICE_END packet, markers are
 * TYPE_INSTANT, arguments are debug annotations.  Each track has a packet
 * sequence of its own (perfetto_enc.c: pf_seq_new): its first packet names
 * the track in the sequence's defaults and starts an incremental clock,
 * so an event carries neither its track nor a whole time, only the delta
 * from the packet before on the sequence.  Names of events, categories
 * and annotations, and annotation strings met more than once, are
 * interned on each sequence that uses them (InternedData), so a kernel
 * name is written once per track.  Timestamps are CLOCK_BOOTTIME ns, or
 * relative with --zero.
 *
 * Streaming in bounded memory: the events are held back as they come
 * (spool.h: in memory up to a budget, beyond it in a temporary file); the
 * track descriptors, whose names are final only at the end (a later input
 * adds a process), are written first into the output, then the events
 * after them, so every reader meets a track before its events.  When the
 * output is a file, the events go into it as they come, after room left
 * for the descriptors (pf_room); at the end the room left over is a
 * padding packet (a field Perfetto does not define, skipped by readers),
 * and only where the descriptors do not fit do the events move up.  Slice ends
 * go after their begins, but those that come out of time order on their
 * track have a spool of their own, written before the rest: see
 * pf_slice_end.
 *
 * Flows (-f) pair host calls and GPU ops exactly as the JSON does (shared/corr.c).
 * An op whose call is already known gets two legacy flow events ('s' at
 * the call, 'f' bound to the op's slice), written while the op's slice is
 * open so that they bind to it even when it lasts 0 ns.  An op written
 * before its call gets them when the call comes, written while the call's
 * slice is open; but a 0 ns op is closed by then, so such an op carries a
 * flow id of its own (flow_ids) and the call that claims it carries that
 * id too: Perfetto links two slices sharing a flow id (from the earlier to
 * the later).  A 0 ns host slice (a host dispatch) does the same for the
 * ops that come after it (host_flow_id).  Pairs found only at the end
 * (corr_finish) get flow events after both slices were written; those
 * cannot bind to a 0 ns slice and are lost (broken inputs only, so far). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "perfetto_split.h"
#include "shared/split.h"
#include "perfetto_state.h"
#include "zalloc.h"
#include "xalloc.h"

static void op_without_call(void *arg, corr_val op);

/* The room left before the events for what goes before them (the track
 * descriptors, the slice ends out of order; spool_move where they do not
 * fit): ROOM_MIN, and a share of the inputs' bytes, for the ends that grow
 * with the trace, at most ROOM_MAX; RTG_CONVERT_PF_ROOM bytes when set
 * (the tests try each way). */
#define ROOM_MIN (4u << 10)
#define ROOM_SHARE 1536 /* a byte per this many of the inputs */
#define ROOM_MAX (4u << 20)
static uint64_t pf_room(const cv_ctx *ctx) {
  const char *e = getenv("RTG_CONVERT_PF_ROOM");
  if (e && *e) {
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    if (!*end) return v;
  }
  uint64_t in = 0;
  struct stat sb;
  for (int i = 0; i < ctx->ninputs; i++)
    if (stat(ctx->inputs[i], &sb) == 0 && S_ISREG(sb.st_mode)) in += (uint64_t)sb.st_size;
  uint64_t room = ROOM_MIN + in / ROOM_SHARE;
  return room < ROOM_MAX ? room : ROOM_MAX;
}

/* A padding packet: a TracePacket of one field Perfetto does not define;
 * the smallest takes PAD_MIN bytes (tag, length, the field's tag of two
 * bytes, its length 0). */
#define PAD_MIN 5u
static uint32_t varint_len(uint64_t v) {
  uint32_t k = 1;
  while (v >= 128) v >>= 7, k++;
  return k;
}
static uint64_t pad_whole(uint64_t len) {
  uint64_t in = varint_len((uint64_t)PF_PKT_RTG_PADDING << 3 | PBW_LEN) + varint_len(len) + len;
  return 1 + varint_len(in) + in;
}

/* Padding packets of n bytes in all (0, or PAD_MIN or more) written to fd
 * at its offset: one, or where no length makes one of exactly n (just past
 * a varint's step), a smallest one and another; buf: a scratch buffer of
 * cap bytes (at least 32). */
static bool write_padding(int fd, uint64_t n, uint8_t *buf, size_t cap) {
  while (n) {
    uint64_t len = n - PAD_MIN;
    while (len && pad_whole(len) > n) len--;
    if (pad_whole(len) != n) len = 0;
    uint64_t tag = (uint64_t)PF_PKT_RTG_PADDING << 3 | PBW_LEN;
    uint8_t *q = buf;
    *q++ = PBW_TAG1(PF_TRACE_PACKET, PBW_LEN);
    q = pbw_varint_at(q, varint_len(tag) + varint_len(len) + len);
    q = pbw_varint_at(q, tag);
    q = pbw_varint_at(q, len);
    size_t head = (size_t)(q - buf);
    n -= pad_whole(len);
    /* the field's bytes: zeros, after the packet's head in the first piece */
    for (uint64_t left = head + len, from = head; left; from = 0) {
      size_t k = left < cap ? (size_t)left : cap;
      memset(buf + from, 0, k - from);
      for (size_t off = 0; off < k;) {
        ssize_t w = write(fd, buf + off, k - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return rtg_out_note_error(w < 0 ? errno : ENOSPC), false;
        off += (size_t)w;
      }
      left -= k;
    }
  }
  return true;
}

/* ------------------------------------------------------------ output */

static void *pf_open(cv_ctx *ctx) {
  pf *p = rtg_xcalloc(1, sizeof *p, "the Perfetto output");
  p->ctx = ctx;
  p->path = ctx->opt.perfetto_out;
  if (!strcmp(p->path, "-")) {
    p->out = stdout;
  } else if (ctx->opt.split_size) { /* the whole trace, then its parts (perfetto_split.c) */
    p->out = cv_split_whole(p->path);
    if (!p->out) {
      rtg_error("cannot create a temporary file beside output: path=%s: %m", p->path);
      free(p);
      return NULL;
    }
    p->own_out = true;
  } else {
    p->out = rtg_out_open(p->path);
    if (!p->out) {
      rtg_error("cannot create output: path=%s: %m", p->path);
      free(p);
      return NULL;
    }
    p->own_out = true;
  }
  size_t budget = spool_budget_setting();
  struct stat sb;
  /* the events go to the output file as they come, and move up behind
   * the descriptors at the end (spool.h) */
  if (p->own_out && fstat(fileno(p->out), &sb) == 0 && S_ISREG(sb.st_mode) &&
      (fcntl(fileno(p->out), F_GETFL) & O_ACCMODE) == O_RDWR) /* (it reads the body back) */
    /* (a whole trace to split: no room, whose padding every part would
     * carry with the descriptors) */
    spool_init_in_place(&p->body, p->out, ctx->opt.split_size ? 0 : pf_room(ctx));
  else
    spool_init(&p->body, p->path, p->out, &p->spooled, budget);
  spool_init(&p->ends, p->path, p->out, &p->spooled, budget);
  spool_init(&p->head, p->path, p->out, &p->spooled, budget);
  size_t slots = corr_slots_setting();
  p->names = rtg_strtab_new();
  /* (caches: read before written) */
  p->scache = rtg_zalloc(SCACHE_SLOTS, sizeof *p->scache);
  p->ncache = rtg_zalloc(NCACHE_SLOTS, sizeof *p->ncache);
  p->ccache = rtg_zalloc(CCACHE_SLOTS, sizeof *p->ccache);
  p->cenc = rtg_zalloc(CCACHE_SLOTS, sizeof *p->cenc);
  p->seen = rtg_zalloc(SEEN_SLOTS, sizeof *p->seen);
  if (!p->names || !p->scache || !p->ncache || !p->ccache || !p->cenc || !p->seen ||
      !pbw_init(&p->w, 2 * BODY_FLUSH) || !pbw_init(&p->ew, 2 * BODY_FLUSH) ||
      !corr_init(&p->calls, slots) || !corr_init(&p->dispatch, slots))
    rtg_out_of_memory("the Perfetto output's buffers, caches and call/op tables");
  corr_set_unmatched(&p->calls, op_without_call, p);
  tracks_init(&p->ts, ctx);
  const char *cp = getenv("RTG_CONVERT_PF_COUNTERS");
  p->ctr_packets = cp && !strcmp(cp, "packets");
  if (ctx->opt.gap_events) an_slices_init(&p->gaps, ctx);
  return p;
}

/* ------------------------------------------------------------ flows */

/* One end of a legacy (JSON-style) flow: 's' binds to the slice open on
 * the host track at the call's start, 'f' to the op's slice. */
/* A kernel's resources as its slice's annotations (as the JSON's args). */
static void pf_kinfo_anns(pf *p, const cv_kinfo *k) {
  pf_ann_u64(p, AN_kernel_id, k->id);
  if (k->has_regs) {
    pf_ann_u64(p, AN_arch_vgpr, k->arch_vgpr);
    pf_ann_u64(p, AN_accum_vgpr, k->accum_vgpr);
    pf_ann_u64(p, AN_sgpr, k->sgpr);
    pf_ann_u64(p, AN_wavefront, k->wavefront);
  }
  if (k->has_lds) pf_ann_u64(p, AN_static_lds, k->lds);
  if (k->has_scratch) pf_ann_u64(p, AN_static_scratch, k->scratch);
  if (k->has_kernarg) pf_ann_u64(p, AN_kernarg, k->kernarg);
}

static void flow_end(pf *p, char phase, int cat, uint64_t id, corr_val at) {
  pkt k = pf_pkt_begin(p, at.c, true, at.a, 0);
  pf_put_name(p, pf_cat_names[cat]);
  pf_put_cat(p, cat);
  size_t le = pbw_open(&p->w, PF_TE_LEGACY_EVENT);
  pbw_uint(&p->w, PF_LEG_PHASE, (uint64_t)phase);
  pbw_uint(&p->w, PF_LEG_UNSCOPED_ID, id);
  if (phase == 'f') pbw_uint(&p->w, PF_LEG_BIND_TO_ENCLOSING, 1);
  pbw_close(&p->w, le);
  pf_pkt_end(p, k);
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
    corr_val *n = rtg_xrealloc(p->claimed, nc * sizeof *n, "the ops a call claims");
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

/* ------------------------------------------------------------ gaps (-g) */

/* The idle pieces of each GPU and queue, named by cause, on its gaps track
 * (each track's in time order). */
static void gap_slices(pf *p) {
  an_slices_finish(&p->gaps);
  for (size_t i = 0; i < p->gaps.n; i++) {
    const an_slice *g = &p->gaps.v[i];
    track *t = tracks_get(&p->ts, g->proc, TK_GAPS, g->device,
                          g->queue == AN_NO_QUEUE ? 0 : (uint64_t)g->queue + 1, 0);
    pkt k = pf_slice_begin(p, t, g->start, an_cause_names[g->cause], CAT_gap);
    char detail[600];
    an_detail_text(p->gaps.st, g->cause, g->key, detail, sizeof detail);
    if (detail[0]) pf_ann_str(p, AN_detail, detail);
    if (g->tid) pf_ann_u64(p, AN_tid, g->tid);
    pf_pkt_end(p, k);
    pf_slice_end(p, t, g->start, g->end);
  }
}

/* ------------------------------------------------------------ events */

/* A call on a thread's track of kind (a syscall, an MPI call): its
 * arguments as annotation an, and its return value. */
static void thread_call(pf *p, const cv_event *ev, enum tk_kind kind, int cat, int an) {
  track *t = tracks_get(&p->ts, ev->proc, kind, ev->tid, 0, 0);
  pkt k = pf_slice_begin(p, t, ev->start, ev->name, cat);
  pf_ann_str(p, an, ev->args);
  pf_ann_str(p, AN_ret, ev->ret);
  pf_pkt_end(p, k);
  pf_slice_end(p, t, ev->start, ev->end);
}

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
  int cat = hip ? CAT_hip : CAT_hsa;
  const cv_call_key *key = (const cv_call_key *)ev->prep; /* (cv_perfetto_prepare) */
  pkt k;
  if (!ev->kernel && ev->args && ev->ret) { /* most calls: the three strings as one */
    k = pf_call_begin(p, t, ev->start, cat, ev->name, AN_args, ev->args, ev->ret, key);
  } else if (!rename && ev->kernel && !ev->args && ev->ret) { /* a launch, as one too */
    k = pf_call_begin(p, t, ev->start, cat, ev->name, AN_kernel, ev->kernel, ev->ret, key);
  } else {
    k = pf_slice_begin(p, t, ev->start, rename ? ev->kernel : ev->name, cat);
    if (rename)
      pf_ann_str(p, AN_api, ev->name);
    else
      pf_ann_str(p, AN_kernel, ev->kernel);
    pf_ann_str(p, AN_args, ev->args);
    pf_ann_str(p, AN_ret, ev->ret);
  }
  if (ev->has_corr) pf_ann_u64(p, AN_corr, ev->corr);
  if (ev->ancestor) pf_ann_u64(p, AN_ancestor, ev->ancestor);
  if (ev->polls) { /* repeated calls: the slice spans them all */
    pf_ann_u64(p, AN_polls, ev->polls);
    pf_ann_u64(p, AN_busy, ev->busy);
  }
  pf_ann_stack(p, ev->proc, ev->stack);
  put_claimed_ids(p, host);
  pf_pkt_end(p, k);
  put_claimed_flows(p, CAT_launch, host);
  pf_slice_end(p, t, ev->start, ev->end);
}

static void host_dispatch(pf *p, const cv_event *ev) {
  track *t = tracks_get(&p->ts, ev->proc, TK_DISPATCH, ev->tid, 0, 0);
  corr_val host = {track_uuid(p, t), 0, ev->start, 0};
  if (p->ctx->opt.flows) {
    host.b = host_flow_id(dispatch_key(ev), ev);
    corr_call(&p->dispatch, dispatch_key(ev), host, claim, p);
  }
  pkt k = pf_slice_begin(p, t, ev->start, ev->name, CAT_dispatch);
  pf_ann_u64(p, AN_queue, ev->queue);
  pf_ann_u64(p, AN_agent, ev->agent);
  pf_ann_u64(p, AN_id, ev->id);
  if (ev->has_dims && ev->type == CV_HOST_DISPATCH) {
    pf_ann_dim3(p, AN_workgroup, ev->wg);
    pf_ann_dim3(p, AN_grid, ev->grid);
  }
  put_claimed_ids(p, host);
  pf_pkt_end(p, k);
  put_claimed_flows(p, CAT_dispatch, host);
  pf_slice_end(p, t, ev->start, ev->end);
}

/* A GPU op: its slice, with its flow written while the slice is open. */
static void gpu_op(pf *p, const cv_event *ev) {
  cv_ctx *ctx = p->ctx;
  track *t;
  pkt k;
  char name[128];
  if (ev->type == CV_COPY) {
    t = tracks_lane(&p->ts, ev->proc, TK_COPY, ev->device, ev->has_engine ? ev->queue : UINT64_MAX,
                    ev->start, ev->end);
  } else {
    t = tracks_lane(&p->ts, ev->proc, TK_QUEUE, ev->device, ev->queue, ev->start, ev->end);
  }
  /* the flow: the same choice as the JSON's (out/chrome/chrome.c) */
  bool have_host = false, launch = false;
  /* b: the op's own flow id, for an op of 0 ns only (see claim) */
  corr_val host, op = {track_uuid(p, t), ev->end == ev->start ? op_flow_id(ev) : 0, ev->start,
                       ev->type != CV_COPY ? dispatch_key(ev) : 0};
  bool waits = false;
  /* the ops-in-flight counter's values ride on the op's begin and end,
   * held until known (perfetto_hold.c), where the lane's sequence names
   * that counter in its defaults (as one begun for this op does) */
  uint32_t ops = pf_counter_ops(p, ev);
  p->hold_ctr = p->ctr_packets ? 0 : ops + 1;
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
    k = pf_slice_begin(p, t, ev->start, cv_copy_name(ev, name, sizeof name), CAT_copy);
    pf_ann_str(p, AN_kind, ev->name);
    if (ev->has_bytes) {
      pf_ann_u64(p, AN_bytes, ev->bytes);
      if (ev->end > ev->start) {
        size_t m = pf_ann_open(p, AN_gbs);
        /* bytes/ns is GB/s, to three decimals as in the JSON */
        pbw_double(&p->w, PF_DA_DOUBLE, (double)(ev->bytes * 1000 / (ev->end - ev->start)) / 1000);
        pbw_close(&p->w, m);
      }
    }
    if (ev->has_agents) {
      pf_ann_u64(p, AN_src_agent, ev->src_agent);
      pf_ann_u64(p, AN_dst_agent, ev->dst_agent);
    }
    if (ev->has_engine) pf_ann_u64(p, AN_engine, ev->queue);
    pf_ann_str(p, AN_api, ev->args);
    if (ev->has_corr) pf_ann_u64(p, AN_corr, ev->corr);
    if (ev->graph) {
      pf_ann_u64(p, AN_graph, ev->graph);
      pf_ann_u64(p, AN_node, ev->node);
    }
  } else {
    bool kern = ev->type == CV_KERNEL;
    k = kern ? pf_kernel_begin(p, t, ev->start, ev->name, CAT_kernel, (const cv_call_key *)ev->prep)
             : pf_slice_begin(p, t, ev->start, ev->name, CAT_barrier);
    pf_ann_u64(p, AN_queue, ev->queue);
    pf_ann_u64(p, AN_agent, ev->agent);
    pf_ann_u64(p, AN_id, ev->id);
    if (ev->has_corr) pf_ann_u64(p, AN_corr, ev->corr);
    if (ev->has_dims) {
      pf_ann_dim3(p, AN_workgroup, ev->wg);
      pf_ann_dim3(p, AN_grid, ev->grid);
    }
    if (ev->lds) pf_ann_u64(p, AN_lds, ev->lds);
    if (ev->scratch) pf_ann_u64(p, AN_scratch, ev->scratch);
    pf_ann_str(p, AN_mangled, ev->mangled);
    if (ev->kinfo) pf_kinfo_anns(p, ev->kinfo);
    if (ev->graph) {
      pf_ann_u64(p, AN_graph, ev->graph);
      pf_ann_u64(p, AN_node, ev->node);
    }
  }
  if (waits && op.b) pbw_fixed64(&p->w, PF_TE_FLOW_IDS, op.b);
  if (have_host && host.b) pbw_fixed64(&p->w, PF_TE_FLOW_IDS, host.b);
  p->hold_ctr = 0;
  bool hold = p->cur->ctr == ops + 1;
  uint64_t ref_begin = 0, ref_end = 0;
  p->held = 0, p->hold_wait = hold;
  pf_pkt_end(p, k);
  ref_begin = p->held;
  p->hold_wait = false;
  if (have_host && !host.b) flow(p, launch ? CAT_launch : CAT_dispatch, host, op);
  /* (an end out of order on its lane goes to the ends' stream: not held) */
  p->held = 0, p->hold_wait = hold;
  pf_slice_end(p, t, ev->start, ev->end);
  ref_end = p->held;
  p->hold_wait = false;
  pf_counters_op(p, ev, ops, ref_begin, ref_end);
}

static void pf_event(void *st, const cv_event *ev) {
  pf *p = st;
  track *t;
  pkt k;
  if (p->ctx->opt.gap_events) an_slices_add(&p->gaps, ev);
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
    k = pf_pkt_begin(p, ev->start, true, track_uuid(p, t), PF_TYPE_INSTANT);
    pf_put_name(p, ev->name);
    pf_put_cat(p, CAT_roctx);
    pf_pkt_end(p, k);
    return;
  case CV_RANGE:
    /* push/pop ranges nest by construction; start/stop ranges may not */
    if (ev->args && !strcmp(ev->args, "push"))
      t = tracks_get(&p->ts, ev->proc, TK_ROCTX, ev->tid, 0, 0);
    else
      t = tracks_lane(&p->ts, ev->proc, TK_ROCTX, ev->tid, 1, ev->start, ev->end);
    k = pf_slice_begin(p, t, ev->start, ev->name, CAT_roctx);
    pf_ann_str(p, AN_op, ev->args);
    if (ev->depth) pf_ann_u64(p, AN_depth, ev->depth);
    pf_pkt_end(p, k);
    pf_slice_end(p, t, ev->start, ev->end);
    return;
  case CV_SYSCALL:
    thread_call(p, ev, TK_SYSCALL, CAT_syscall, AN_call);
    return;
  case CV_MPI:
    thread_call(p, ev, TK_MPI, CAT_mpi, AN_args);
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

/* The keys of API calls and kernel names are made on the trace reader's
 * threads (perfetto_calls.c). */
static void pf_prepare(void *st, cv_prepare *prep) {
  (void)st;
  *prep = (cv_prepare){cv_perfetto_prepare, NULL, 0, false};
}

/* Chrome JSON inputs are merged into the JSON output only. */
static void pf_json_event(void *st, const void *item) {
  pf *p = st;
  (void)item;
  if (!p->warned_json)
    rtg_warning("Chrome JSON inputs are not written to the Perfetto output: path=%s", p->path);
  p->warned_json = true;
}

static bool pf_close(void *st) {
  pf *p = st;
  cv_ctx *ctx = p->ctx;
  if (ctx->opt.gap_events) gap_slices(p);
  corr_finish(&p->calls, flow_late_launch, p);
  corr_finish(&p->dispatch, flow_late_dispatch, p);
  pf_counters_memory(p);
  pf_counters_finish(p);
  pf_held_finish(p);
  pf_flush_body(p);
  pf_flush_to(p, &p->ew, &p->ends);
  pf_write_header(p);
  pf_header_out(p, &p->w);
  int fd = fileno(p->out);
  if (p->body.in_place >= 0) {
    /* the header and the ends go into the room before the body, and
     * padding after them fills what is left; where they do not fit, the
     * body moves up first.  The offset is left at the end, where the file
     * is cut (the bounce buffer: the part of the buffer the packets
     * filled, whose pages are there already) */
    uint64_t before = p->head.size + p->ends.size, at = p->body.base, to = at;
    if (before > at)
      to = before;
    else if (before < at && at - before < PAD_MIN)
      to = before + PAD_MIN;
    size_t bounce = p->w.cap < BODY_FLUSH ? p->w.cap : BODY_FLUSH;
    if (!spool_settle(&p->body) || fflush(p->out) ||
        (to != at && !spool_move(&p->body, to, p->w.buf, bounce)) || lseek(fd, 0, SEEK_SET) < 0 ||
        !spool_write(&p->head, fd, p->w.buf, p->w.cap) ||
        !spool_write(&p->ends, fd, p->w.buf, p->w.cap) ||
        !write_padding(fd, to - before, p->w.buf, bounce) ||
        lseek(fd, (off_t)(to + p->body.size), SEEK_SET) < 0)
      p->io_failed = true;
  } else if (fflush(p->out) || !spool_write(&p->ends, fd, p->w.buf, p->w.cap) ||
             !spool_write(&p->body, fd, p->w.buf, p->w.cap)) {
    p->io_failed = true;
  }
  bool ok = !p->io_failed;
  if (ctx->opt.split_size) {
    off_t len = ok && !fflush(p->out) ? lseek(fd, 0, SEEK_CUR) : -1;
    if (len < 0) {
      ok = false;
      rtg_error("cannot write output: path=%s: %s", p->path, rtg_out_why());
    } else {
      ok = cv_pftrace_split(fd, (uint64_t)len, p->path, ctx->opt.split_size, ctx->opt.quiet);
    }
    fclose(p->out);
    p->own_out = false, p->io_failed = false;
  } else if (p->own_out && !rtg_out_close(p->out)) {
    ok = false;
  }
  if ((p->body.failed && p->body.in_place < 0) || p->ends.failed || p->head.failed)
    rtg_error("cannot write a temporary file for the Perfetto output: path=%s: %s", p->path,
              rtg_out_why());
  else if (!ok && !ctx->opt.split_size)
    rtg_error("cannot write output: path=%s: %s", p->path, rtg_out_why());
  spool_free(&p->body);
  spool_free(&p->ends);
  spool_free(&p->head);
  if (ctx->opt.verbose && ctx->opt.flows) corr_report(ctx->report, &p->calls, &p->dispatch);
  tracks_free(&p->ts);
  if (ctx->opt.gap_events) an_slices_free(&p->gaps);
  corr_free(&p->calls);
  corr_free(&p->dispatch);
  rtg_strtab_free(p->names);
  rtg_u64map_free(&p->ctr_index);
  free(p->ctr);
  free(p->claimed);
  free(p->arena);
  pf_sc_free(p->scache, SCACHE_SLOTS);
  free(p->seen);
  pf_sc_free(p->ncache, NCACHE_SLOTS);
  pf_cc_free(p->ccache);
  free(p->cenc);
  pf_known_free(p);
  pf_seqs_free(p);
  pf_dicts_free();
  pbw_free(&p->w);
  pbw_free(&p->ew);
  free(p);
  return ok;
}

const cv_sink cv_perfetto_sink = {
    .name = "perfetto",
    .open = pf_open,
    .event = pf_event,
    .json_event = pf_json_event,
    .prepare = pf_prepare,
    .close = pf_close,
};
