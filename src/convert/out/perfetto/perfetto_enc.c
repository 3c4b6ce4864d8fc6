/* The Perfetto output's packets: track events, their interned data and
 * their debug annotations (see perfetto.c). */
#include <stdlib.h>
#include <string.h>

#include "perfetto_state.h"
#include "strhash.h"
#include "xalloc.h"

const char *const pf_cat_names[NCATS] = {
    [CAT_hip] = "hip",       [CAT_hsa] = "hsa",         [CAT_dispatch] = "dispatch",
    [CAT_kernel] = "kernel", [CAT_barrier] = "barrier", [CAT_copy] = "copy",
    [CAT_roctx] = "roctx",   [CAT_syscall] = "syscall", [CAT_gap] = "gap",
    [CAT_launch] = "launch", [CAT_mpi] = "mpi",
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
    [AN_polls] = "polls",
    [AN_busy] = "busy",
    [AN_detail] = "detail",
    [AN_tid] = "tid",
    [AN_kernel_id] = "kernel_id",
    [AN_arch_vgpr] = "arch_vgpr",
    [AN_accum_vgpr] = "accum_vgpr",
    [AN_sgpr] = "sgpr",
    [AN_wavefront] = "wavefront",
    [AN_static_lds] = "static_lds",
    [AN_static_scratch] = "static_scratch",
    [AN_kernarg] = "kernarg",
    [AN_ancestor] = "ancestor",
    [AN_graph] = "graph",
    [AN_node] = "node",
};

/* ------------------------------------------------------------ output */

/* Full buffers of packets to their spool. */
void pf_flush_to(pf *p, pbw *w, spool *s) {
  if (!spool_put(s, w->buf, w->n)) p->io_failed = true;
  w->n = 0;
}

/* The body's buffer itself handed over to its writer (spool_give). */
void pf_flush_body(pf *p) {
  if (!spool_give(&p->body, &p->w.buf, &p->w.cap, p->w.n)) p->io_failed = true;
  p->w.n = 0;
}

/* ------------------------------------------------------------ sequences */

void pf_bit_set(uint64_t **b, uint32_t *words, uint64_t i) {
  if (i / 64 >= *words) {
    uint32_t nw = *words ? *words : 4;
    while (nw <= i / 64) nw *= 2;
    uint64_t *n = rtg_xrealloc(*b, nw * sizeof *n, "the Perfetto output's interned sets");
    memset(n + *words, 0, (nw - *words) * sizeof *n);
    *b = n, *words = nw;
  }
  (*b)[i / 64] |= 1ull << (i % 64);
}

pf_seq *pf_seq_new(pf *p, uint64_t uuid, uint64_t ts) {
  pf_seq *s = rtg_xcalloc(1, sizeof *s, "a Perfetto packet sequence");
  pf_seq **all = rtg_xrealloc(p->seqs, (p->nseqs + 1) * sizeof *all, "the Perfetto sequences");
  p->seqs = all;
  all[p->nseqs++] = s;
  s->id = p->nseqs + SEQ_ID;
  s->index = p->nseqs - 1;
  s->last = ts;
  if (uuid < CTR_UUID) s->ctr = p->hold_ctr;
  if (uuid >= CTR_UUID) {
    p->ctr[uuid - CTR_UUID].seq = p->nseqs;
  } else {
    if (uuid > p->ntrack_seq) {
      uint32_t n = p->ntrack_seq ? p->ntrack_seq : 64;
      while (n < uuid) n *= 2;
      uint32_t *ts_ = rtg_xrealloc(p->track_seq, n * sizeof *ts_, "the tracks' sequences");
      memset(ts_ + p->ntrack_seq, 0, (n - p->ntrack_seq) * sizeof *ts_);
      p->track_seq = ts_, p->ntrack_seq = n;
    }
    p->track_seq[uuid - 1] = p->nseqs;
  }
  /* its first packet: the state cleared, the track and the clock as
   * defaults, the clock's start in a snapshot (on CLOCK_BOOTTIME, the same
   * time: the first event is 0 after it) */
  pbw *w = &p->w;
  size_t pk = pbw_open(w, PF_TRACE_PACKET);
  pbw_uint(w, PF_PKT_SEQUENCE_ID, s->id);
  pbw_uint(w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
  size_t d = pbw_open(w, PF_PKT_DEFAULTS);
  pbw_uint(w, PF_DEF_TIMESTAMP_CLOCK_ID, PF_CLOCK_SEQ_INCREMENTAL);
  size_t e = pbw_open(w, PF_DEF_TRACK_EVENT_DEFAULTS);
  pbw_uint(w, PF_TED_TRACK_UUID, uuid);
  if (s->ctr) pbw_uint(w, PF_TED_EXTRA_COUNTER_TRACK_UUIDS, CTR_UUID + s->ctr - 1);
  pbw_close(w, e);
  pbw_close(w, d);
  size_t cs = pbw_open(w, PF_PKT_CLOCK_SNAPSHOT);
  size_t c = pbw_open(w, PF_CS_CLOCKS);
  pbw_uint(w, PF_CLK_ID, PF_CLOCK_SEQ_INCREMENTAL);
  pbw_uint(w, PF_CLK_TIMESTAMP, ts);
  pbw_uint(w, PF_CLK_IS_INCREMENTAL, 1);
  pbw_close(w, c);
  c = pbw_open(w, PF_CS_CLOCKS);
  pbw_uint(w, PF_CLK_ID, PF_CLOCK_BOOTTIME);
  pbw_uint(w, PF_CLK_TIMESTAMP, ts);
  pbw_close(w, c);
  pbw_close(w, cs);
  pbw_close(w, pk);
  return s;
}

void pf_seqs_free(pf *p) {
  for (uint32_t i = 0; i < p->nseqs; i++) {
    free(p->seqs[i]->names);
    free(p->seqs[i]->strs);
    free(p->seqs[i]->hb);
    free(p->seqs[i]->he);
    free(p->seqs[i]);
  }
  free(p->seqs);
  free(p->track_seq);
}

/* ------------------------------------------------------------ interning */

/* Callers check room (pend_room) before taking an iid. */
static void pend_add(pf *p, uint32_t field, uint64_t iid, const char *s, size_t len) {
  if (p->narena + len + 1 > p->cap_arena) {
    size_t nc = p->cap_arena ? p->cap_arena * 2 : 4096;
    while (nc < p->narena + len) nc *= 2;
    char *n = rtg_xrealloc(p->arena, nc, "the Perfetto output's interned strings");
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
    char *n = rtg_xrealloc(e->s, len + 1, "the Perfetto output's string cache");
    e->s = n, e->cap = (uint32_t)len + 1;
  }
  memcpy(e->s, s, len);
  e->hash = h, e->len = (uint32_t)len, e->iid = iid;
}

void pf_sc_free(scache_slot *c, uint32_t slots) {
  for (uint32_t i = 0; c && i < slots; i++) free(c[i].s);
  free(c);
}

/* An event name's iid defined on the packet's sequence, if not yet. */
void pf_name_need(pf *p, uint64_t iid, const char *s, size_t len) {
  pf_seq *q = p->cur;
  if (pf_bit(q->names, q->nnames, iid)) return;
  pend_add(p, PF_ID_EVENT_NAMES, iid, s, len);
  pf_bit_set(&q->names, &q->nnames, iid);
}

/* The iid of an event name (defined on a sequence in the packet of its
 * first use there), or 0 when names are too many to intern. */
uint64_t pf_name_iid(pf *p, const char *s, size_t len) {
  return pf_name_iid_h(p, s, len, rtg_str_hash(s, len));
}

uint64_t pf_name_iid_h(pf *p, const char *s, size_t len, uint64_t h) {
  bool hit;
  scache_slot *e = sc_find(p->ncache, NCACHE_SLOTS, s, len, h, &hit);
  if (!hit) {
    uint32_t n = rtg_strtab_count(p->names);
    uint32_t id =
        n < MAX_NAMES ? rtg_strtab_intern(p->names, s, len) : rtg_strtab_find(p->names, s, len);
    if (id == UINT32_MAX) return 0;
    sc_fill(e, s, len, h, (uint64_t)id + 1);
  }
  pf_name_need(p, e->iid, s, len);
  return e->iid;
}

void pf_put_name(pf *p, const char *s) {
  uint64_t iid = pf_name_iid(p, s, strlen(s));
  if (iid)
    pbw_uint(&p->w, PF_TE_NAME_IID, iid);
  else
    pbw_str(&p->w, PF_TE_NAME, s);
}

void pf_put_cat(pf *p, int cat) {
  if (!(p->cur->cats >> cat & 1)) {
    p->cur->cats |= 1ull << cat;
    pend_add(p, PF_ID_EVENT_CATEGORIES, (uint64_t)cat + 1, pf_cat_names[cat],
             strlen(pf_cat_names[cat]));
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

void pf_pkt_end(pf *p, pkt k) {
  pbw_close(&p->w, k.te);
  put_interned(p);
  pbw_close(&p->w, k.pk);
  pf_seq *s = p->cur;
  /* held: a packet waiting for a counter's value, and those behind one */
  if (s->ctr && (p->hold_wait || s->he_head != s->he_n)) pf_hold(p, s, k.pk - 2);
  if (p->w.n >= BODY_FLUSH) pf_flush_body(p);
}

/* A slice's first packet (its track event stays open for annotations). */
pkt pf_slice_begin(pf *p, const track *t, uint64_t ts, const char *name, int cat) {
  pkt k = pf_pkt_begin(p, ts, true, track_uuid(p, t), PF_TYPE_SLICE_BEGIN);
  pf_put_name(p, name);
  pf_put_cat(p, cat);
  return k;
}

/* A slice's end.  Perfetto orders events of equal time in file order, and
 * an end closes the innermost open slice of its track: so an end must not
 * come after a begin of the same time on its track written before it (an
 * op ending when the next one on its lane starts, the two come in reverse
 * order).  An end later than every begin written on its track so far
 * (events in time order: nearly all) goes right after its begin, in the
 * body; any other goes to a stream of its own, placed before the rest.  (All
 * ends there cost a second stream of fresh memory, its pages zeroed by the
 * kernel: on the bench trace a quarter of the main thread.)  A 0 ns slice
 * keeps its end next to its begin (and to its flows). */
void pf_slice_end(pf *p, track *t, uint64_t start, uint64_t end) {
  bool in_order = end > t->latest_begin;
  if (start > t->latest_begin) t->latest_begin = start;
  if (end == start || in_order) {
    pkt k = pf_pkt_begin(p, end, false, track_uuid(p, t), PF_TYPE_SLICE_END);
    pf_pkt_end(p, k);
    return;
  }
  pbw *w = &p->ew;
  pbw_need(w, 32);
  uint8_t *b = w->buf + w->n, *q = b + 2, *te;
  *q++ = PBW_TAG1(PF_PKT_TIMESTAMP, PBW_VARINT);
  q = pbw_varint_at(q, out_time(p, end));
  *q++ = PBW_TAG1(PF_PKT_SEQUENCE_ID, PBW_VARINT);
  *q++ = SEQ_ID;
  *q++ = PBW_TAG1(PF_PKT_TRACK_EVENT, PBW_LEN);
  te = q++;
  *q++ = PBW_TAG1(PF_TE_TYPE, PBW_VARINT);
  *q++ = PF_TYPE_SLICE_END;
  *q++ = PBW_TAG1(PF_TE_TRACK_UUID, PBW_VARINT);
  q = pbw_varint_at(q, track_uuid(p, t));
  /* (at most 30 bytes: one-byte lengths) */
  *te = (uint8_t)(q - te - 1);
  b[0] = PBW_TAG1(PF_TRACE_PACKET, PBW_LEN);
  b[1] = (uint8_t)(q - b - 2);
  w->n = (size_t)(q - w->buf);
  if (w->n >= BODY_FLUSH) pf_flush_to(p, w, &p->ends);
}

/* ------------------------------------------------------------ annotations */

void pf_ann_define(pf *p, int an) {
  p->cur->anns |= 1ull << an;
  pend_add(p, PF_ID_DEBUG_ANNOTATION_NAMES, (uint64_t)an + 1, ann_names[an], strlen(ann_names[an]));
}

size_t pf_ann_open(pf *p, int an) {
  size_t m = pbw_open(&p->w, PF_TE_DEBUG_ANNOTATIONS);
  pf_ann_need(p, an);
  pbw_uint(&p->w, PF_DA_NAME_IID, (uint64_t)an + 1);
  return m;
}

void pf_ann_u64(pf *p, int an, uint64_t v) {
  pf_ann_need(p, an);
  pf_put_ann_varint(p, an, PF_DA_UINT, v);
}

/* A string's iid defined on the packet's sequence, if not yet; false
 * when it cannot be (no room left in the packet, or an iid beyond the
 * sequence's set). */
bool pf_string_need(pf *p, uint64_t iid, const char *s, size_t len) {
  pf_seq *q = p->cur;
  if (pf_bit(q->strs, q->nstrs, iid)) return true;
  if (iid >= SEQ_STR_BITS || !pend_room(p)) return false;
  pend_add(p, PF_ID_DEBUG_ANNOTATION_STRINGS, iid, s, len);
  pf_bit_set(&q->strs, &q->nstrs, iid);
  return true;
}

/* A string value: interned when short (API arguments repeat: the same
 * queue, signal, pool), through a direct-mapped cache, so memory stays
 * bounded; a string evicted and met again is interned again.  A string
 * not in the cache goes inline the first time it is met (those met once,
 * a signal's new value, a pointer just allocated, cost more interned than
 * inline), and is interned when met again.  Returns its iid, or 0 when it
 * goes inline. */
uint64_t pf_string_iid(pf *p, const char *s, size_t len) {
  if (pf_string_short(len) || len >= SCACHE_LEN || !pend_room(p)) return 0;
  return pf_string_iid_h(p, s, len, rtg_str_hash(s, len));
}

uint64_t pf_string_iid_h(pf *p, const char *s, size_t len, uint64_t h) {
  if (pf_string_short(len) || len >= SCACHE_LEN || !pend_room(p)) return 0;
  uint64_t *seen = &p->seen[h & (SEEN_SLOTS - 1)];
  /* (a new string misses both tables: their two reads overlap) */
  __builtin_prefetch(seen);
  bool hit;
  scache_slot *e = sc_find(p->scache, SCACHE_SLOTS, s, len, h, &hit);
  if (!hit) {
    if (*seen != (h | 1)) {
      *seen = h | 1;
      return 0;
    }
    sc_fill(e, s, len, h, ++p->next_siid);
  }
  return pf_string_need(p, e->iid, s, len) ? e->iid : 0;
}

static void put_string_value(pf *p, uint32_t field_str, uint32_t field_iid, const char *s) {
  size_t len = strlen(s);
  uint64_t iid = pf_string_iid(p, s, len);
  if (iid)
    pbw_uint(&p->w, field_iid, iid);
  else
    pbw_bytes(&p->w, field_str, s, len);
}

void pf_ann_str(pf *p, int an, const char *s) {
  if (!s) return;
  pf_ann_need(p, an);
  size_t len = strlen(s);
  uint64_t iid = pf_string_iid(p, s, len);
  if (iid) {
    pf_put_ann_varint(p, an, PF_DA_STRING_IID, iid);
    return;
  }
  size_t m = pf_ann_open(p, an);
  pbw_bytes(&p->w, PF_DA_STRING, s, len);
  pbw_close(&p->w, m);
}

void pf_ann_dim3(pf *p, int an, rtg_dim3 d) {
  size_t m = pf_ann_open(p, an);
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

void pf_ann_stack(pf *p, uint32_t proc, uint64_t stack) {
  if (!stack) return;
  size_t m = pf_ann_open(p, AN_stack);
  if (!cv_stack_frames(p->ctx, proc, stack, put_frame, p)) {
    char id[64];
    snprintf(id, sizeof id, "stack %llu (not recorded)", (unsigned long long)stack);
    put_frame(p, id);
  }
  pbw_close(&p->w, m);
}
