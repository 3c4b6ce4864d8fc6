/* The Perfetto output's shared state and parts: perfetto.c (the sink:
 * events, flows, gaps, the output file), perfetto_enc.c (packets,
 * interning, annotations), perfetto_tracks.c (counter tracks, the track
 * descriptors), perfetto_calls.c (API calls, their strings cached).  See
 * perfetto.c for the format. */
#ifndef RTG_CONVERT_PERFETTO_STATE_H
#define RTG_CONVERT_PERFETTO_STATE_H

#include "convert.h"
#include "shared/corr.h"
#include "analyze/gapslices.h"
#include "shared/names.h"
#include "pbw.h"
#include "perfetto_proto.h"
#include "spool.h"
#include "shared/tracks.h"

#define SEQ_ID 1 /* the header's sequence: descriptors, and slice ends out of order */
#define SEQ_STR_BITS (1u << 24) /* string iids interned per sequence; later ones inline */
#define BODY_FLUSH (1u << 20)
#define MAX_NAMES 200000u   /* interned event names; beyond, names go inline */
#define SCACHE_SLOTS 16384u /* interned annotation strings, direct-mapped */
#define SCACHE_LEN 1024     /* longer strings are written inline */
#define SHORT_INLINE 3      /* and so are strings this short (pf_string_short) */
#define SEEN_SLOTS 65536u   /* hashes of strings met once, direct-mapped */
#define NCACHE_SLOTS 4096u  /* recent event names, in front of the names table */
#define CCACHE_SLOTS 4096u  /* recent API calls (function, arguments, return value) */
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
  CAT_mpi,
  NCATS
};
extern const char *const pf_cat_names[NCATS];

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
  AN_polls,
  AN_busy,
  AN_detail,
  AN_tid,
  /* a kernel's resources (its KERNEL record) */
  AN_kernel_id,
  AN_arch_vgpr,
  AN_accum_vgpr,
  AN_sgpr,
  AN_wavefront,
  AN_static_lds,
  AN_static_scratch,
  AN_kernarg,
  AN_ancestor,
  AN_graph,
  AN_node,
  NANNS
};

/* An interning entry new in the packet being written; its string is
 * copied (frames and names may live only during a callback). */
typedef struct pend {
  uint32_t field; /* InternedData field */
  uint64_t iid;
  size_t off, len; /* in pf.arena */
} pend;
#define NPEND 64

/* A slot of the API call cache (perfetto_calls.c): a call's function,
 * arguments and return value, back to back in text, and their iids (a
 * cache line). */
typedef struct call_slot {
  uint64_t hash;
  uint32_t len[3], cap;
  uint64_t iid[3];
  char *text;
  uint64_t fill; /* which filling of a slot put the call there (pf.next_fill) */
} call_slot;

/* Beside each slot (pf.cenc): the bytes its call's name, category and two
 * annotations took in the last packet that wrote them with all defined on
 * its sequence already (the same on that sequence from then on). */
#define CALL_ENC_MAX 58
typedef struct call_enc {
  uint64_t fill; /* the slot's filling they belong to; 0: none */
  uint16_t seq;  /* the id of that sequence (below 65536) */
  uint8_t cat, an1, len;
  uint8_t b[CALL_ENC_MAX];
} call_enc;

/* A slot of a direct-mapped string cache. */
typedef struct scache_slot {
  uint64_t hash, iid;
  uint32_t len, cap;
  char *s;
} scache_slot;

/* A counter track: changes wait, CTR_WINDOW at most, so that values go
 * out in time order though ops come in completion order: the earliest
 * goes out when the window is full.  They wait in two runs, each already
 * in order (an op's start and its end: each sequence mostly comes in
 * order), where adding and taking cost a step, or else in a min-heap. */
#define CTR_RUNS 2
/* what a counter counts: GPU ops in flight, bytes copied, bytes of memory
 * in use (the memory records, shared/memuse.h) */
enum ctr_what { CTR_OPS, CTR_BYTES, CTR_MEMORY };
/* A change: its time, its delta, and the held packet at its time that
 * can carry the counter's value (held_ref), or 0. */
typedef struct ctr_chg {
  uint64_t ts;
  int64_t delta;
  uint64_t ref;
} ctr_chg;
typedef struct ctr_run {
  ctr_chg *e; /* a ring of CTR_WINDOW */
  uint32_t head, n;
} ctr_run;
typedef struct counter {
  uint32_t seq; /* its sequence + 1 in pf.seqs; 0: none yet */
  uint32_t proc, agent;
  uint8_t what; /* enum ctr_what */
  int64_t value;
  ctr_run run[CTR_RUNS];
  ctr_chg *heap;
  uint32_t nheap;
  uint32_t n;         /* waiting in all */
  bool popped;        /* a change went out: */
  uint64_t popped_ts; /* the time of the last one */
  uint64_t late;      /* changes that came after a later one went out */
} counter;

/* A packet held back on its sequence (perfetto_hold.c): an op's begin or
 * end waits there for the value of the ops-in-flight counter at its time,
 * which goes into its track event (extra_counter_values); packets after
 * it on the sequence wait behind it, so the sequence's clock and interning
 * stay in order. */
enum { HELD_PLAIN, HELD_WAIT, HELD_VALUE };
typedef struct held {
  uint32_t len;
  uint8_t state;
  int64_t value; /* HELD_VALUE */
} held;
/* A held packet's reference: its sequence's index + 1, its number there. */
#define HELD_SERIAL_BITS 40
static inline uint64_t held_ref(uint32_t seq_index, uint64_t serial) {
  return (uint64_t)(seq_index + 1) << HELD_SERIAL_BITS | serial;
}

/* A packet sequence: one per track, whose events it carries with the
 * track's uuid in the sequence's defaults, its times on an incremental
 * clock of its own (each a delta from the one before), and what is
 * interned on it (iids are the writer's, the same on every sequence; each
 * is defined on a sequence before its first use there). */
typedef struct pf_seq {
  uint32_t id;
  uint32_t index; /* in pf.seqs */
  /* the counter (index + 1) whose values its events may carry, named in
   * its defaults (extra_counter_track_uuids); 0: none, nothing held */
  uint32_t ctr;
  /* packets held (perfetto_hold.c): their bytes in hb from hb_head, their
   * entries in he from he_head (he[i] is number he_base + i) */
  uint8_t *hb;
  size_t hb_head, hb_n, hb_cap;
  held *he;
  uint32_t he_head, he_n, he_cap;
  uint64_t he_base;
  uint64_t last;          /* the time of its last packet on the incremental clock */
  uint64_t cats, anns;    /* categories and annotation names defined, by bit */
  uint64_t *names, *strs; /* event names and strings defined, by iid */
  uint32_t nnames, nstrs; /* their 64-bit words */
} pf_seq;

typedef struct pf {
  cv_ctx *ctx;
  const char *path;
  FILE *out;
  bool own_out;
  spool body; /* the events, until close (in the output itself when it is a file) */
  spool ends; /* the ends of slices longer than 0 ns, until close */
  spool head; /* with the body in the output: the track descriptors, until it moves */
  size_t spooled;
  bool io_failed;
  pbw w, ew; /* packets for body and ends */
  tracks ts;
  rtg_strtab *names;
  pf_seq **seqs; /* by number - 2 (the sequence id) */
  uint32_t nseqs;
  uint32_t *track_seq; /* by track index: its sequence + 1 in seqs; 0: none yet */
  uint32_t ntrack_seq;
  pf_seq *cur; /* the sequence of the packet being written */
  scache_slot *scache, *ncache;
  uint64_t *seen; /* strings met once (their hashes): interned when met again */
  call_slot *ccache;
  call_enc *cenc;
  /* per producer's dictionary, by number: the filling of its call's cache
   * slot that held it when last looked up, 0: none yet (perfetto_calls.c) */
  uint64_t **known;
  uint32_t nknown;
  uint64_t **known_names; /* the same for kernel names: their iids, 0: none yet */
  uint32_t nknown_names;
  uint64_t next_fill;
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
  /* the ops-in-flight counter's values on the ops' own packets (else
   * packets of their own: RTG_CONVERT_PF_COUNTERS=packets) */
  bool ctr_packets;
  uint32_t hold_ctr; /* a new sequence's counter (pf_seq.ctr) */
  bool hold_wait;    /* the packet being ended waits for its counter's value */
  uint64_t held;     /* the reference of the last packet held waiting; 0: none */
  an_slices gaps;    /* -g: the idle pieces by cause */
  bool warned_json;
} pf;

void pf_ann_define(pf *p, int an);

static inline uint64_t out_time(const pf *p, uint64_t ns) {
  uint64_t base = p->ctx->time_base;
  return ns > base ? ns - base : 0;
}

static inline uint64_t track_uuid(const pf *p, const track *t) {
  return (uint64_t)(t - p->ts.t) + 1;
}

static inline bool pf_bit(const uint64_t *b, uint32_t words, uint64_t i) {
  return i / 64 < words && (b[i / 64] >> (i % 64) & 1);
}
void pf_bit_set(uint64_t **b, uint32_t *words, uint64_t i);

/* perfetto_enc.c: the sequence of a track (by uuid), begun when new with a
 * packet that clears its state and states its defaults and clock, its
 * clock starting at ts. */
pf_seq *pf_seq_new(pf *p, uint64_t uuid, uint64_t ts);

static inline pf_seq *pf_seq_of(pf *p, uint64_t uuid, uint64_t ts) {
  uint32_t i = 0;
  if (uuid >= CTR_UUID) {
    if (uuid - CTR_UUID < p->nctr) i = p->ctr[uuid - CTR_UUID].seq;
  } else if (uuid - 1 < p->ntrack_seq) {
    i = p->track_seq[uuid - 1];
  }
  return i ? p->seqs[i - 1] : pf_seq_new(p, uuid, ts);
}

/* (two words: returned in registers) */
typedef struct pkt {
  size_t pk, te; /* where the packet's content starts (after a tag and a
                    length of one byte each: pf_pkt_begin), its track event's */
} pkt;

/* The fields below are written with one-byte tags and one-byte lengths
 * where they are known to fit. */
_Static_assert(PF_TRACE_PACKET < 16 && PF_PKT_TIMESTAMP < 16 && PF_PKT_SEQUENCE_ID < 16 &&
                   PF_PKT_SEQUENCE_FLAGS < 16 && PF_PKT_TRACK_EVENT < 16 && PF_TE_TYPE < 16 &&
                   PF_TE_TRACK_UUID < 16 && PF_TE_DEBUG_ANNOTATIONS < 16 && PF_DA_NAME_IID < 16,
               "one-byte tags");
_Static_assert(SEQ_ID < 128 && PF_SEQ_NEEDS_INCREMENTAL_STATE < 128 && PF_CLOCK_BOOTTIME < 128,
               "one-byte values");

/* A packet and its track event, open (pf_pkt_end closes them), on the
 * sequence of the track: its time a delta on the sequence's incremental
 * clock, or, when earlier than the sequence's last (a flow's start, an op
 * completed late), absolute on CLOCK_BOOTTIME. */
static inline pkt pf_pkt_begin(pf *p, uint64_t ts, bool needs_state, uint64_t uuid, int type) {
  uint64_t t = out_time(p, ts);
  pf_seq *s = pf_seq_of(p, uuid, t);
  p->cur = s;
  pbw *w = &p->w;
  pbw_need(w, 64);
  uint8_t *q = w->buf + w->n;
  pkt k;
  *q++ = PBW_TAG1(PF_TRACE_PACKET, PBW_LEN);
  *q++ = 0; /* the length, set by pbw_close */
  k.pk = (size_t)(q - w->buf);
  *q++ = PBW_TAG1(PF_PKT_TIMESTAMP, PBW_VARINT);
  if (t >= s->last) {
    q = pbw_varint_at(q, t - s->last);
    s->last = t;
  } else {
    q = pbw_varint_at(q, t);
    q = pbw_varint_at(q, (uint64_t)PF_PKT_TIMESTAMP_CLOCK_ID << 3 | PBW_VARINT);
    *q++ = PF_CLOCK_BOOTTIME;
  }
  *q++ = PBW_TAG1(PF_PKT_SEQUENCE_ID, PBW_VARINT);
  q = pbw_varint_at(q, s->id);
  if (needs_state) {
    *q++ = PBW_TAG1(PF_PKT_SEQUENCE_FLAGS, PBW_VARINT);
    *q++ = PF_SEQ_NEEDS_INCREMENTAL_STATE;
  }
  *q++ = PBW_TAG1(PF_PKT_TRACK_EVENT, PBW_LEN);
  *q++ = 0;
  k.te = (size_t)(q - w->buf);
  if (type) {
    *q++ = PBW_TAG1(PF_TE_TYPE, PBW_VARINT);
    q = pbw_varint_at(q, (uint64_t)type);
  }
  w->n = (size_t)(q - w->buf);
  return k;
}

/* What is defined on the sequence of the packet being written. */
static inline void pf_ann_need(pf *p, int an) {
  if (!(p->cur->anns >> an & 1)) pf_ann_define(p, an);
}

_Static_assert(NANNS < 127, "one-byte annotation name iids");

/* An annotation of one varint field (its name defined already): written
 * whole, its length known to fit one byte. */
static inline void pf_put_ann_varint(pf *p, int an, uint32_t field, uint64_t v) {
  pbw *w = &p->w;
  pbw_need(w, 32);
  uint8_t *b = w->buf + w->n, *q = b + 2;
  *q++ = PBW_TAG1(PF_DA_NAME_IID, PBW_VARINT);
  *q++ = (uint8_t)(an + 1);
  q = pbw_varint_at(q, (uint64_t)field << 3 | PBW_VARINT);
  q = pbw_varint_at(q, v);
  b[0] = PBW_TAG1(PF_TE_DEBUG_ANNOTATIONS, PBW_LEN);
  b[1] = (uint8_t)(q - b - 2);
  w->n = (size_t)(q - w->buf);
}

/* perfetto_enc.c */
void pf_flush_to(pf *p, pbw *w, spool *s);
void pf_flush_body(pf *p);
/* Ends a packet begun with pf_pkt_begin: its interned data, then a flush. */
void pf_pkt_end(pf *p, pkt k);
/* The iid of an event name, or 0 when names are too many to intern. */
uint64_t pf_name_iid(pf *p, const char *s, size_t len);
/* The same, given the name's rtg_str_hash. */
uint64_t pf_name_iid_h(pf *p, const char *s, size_t len, uint64_t h);
/* An iid of a name or string defined on the packet's sequence if not yet
 * (a string: false when it cannot be, then it goes inline). */
void pf_name_need(pf *p, uint64_t iid, const char *s, size_t len);
bool pf_string_need(pf *p, uint64_t iid, const char *s, size_t len);
void pf_seqs_free(pf *p);
/* A string this short goes inline always: its bytes are no more than a
 * reference's (the tag of string_value_iid takes two), and interning it
 * would cost its definition on every sequence besides. */
static inline bool pf_string_short(size_t len) {
  return len <= SHORT_INLINE;
}
/* The iid of an annotation string, or 0 when it goes inline. */
uint64_t pf_string_iid(pf *p, const char *s, size_t len);
/* The same, given the string's rtg_str_hash. */
uint64_t pf_string_iid_h(pf *p, const char *s, size_t len, uint64_t h);
/* The cache lines pf_string_iid_h will read for a string of hash h (their
 * misses overlap the work before it). */
static inline void pf_string_prefetch(const pf *p, uint64_t h) {
  __builtin_prefetch(&p->seen[h & (SEEN_SLOTS - 1)]);
  __builtin_prefetch(&p->scache[h & (SCACHE_SLOTS - 1)]);
}
void pf_ann_define(pf *p, int an);
void pf_put_name(pf *p, const char *s);
void pf_put_cat(pf *p, int cat);
pkt pf_slice_begin(pf *p, const track *t, uint64_t ts, const char *name, int cat);
void pf_slice_end(pf *p, track *t, uint64_t start, uint64_t end);
/* Annotations of the open track event; pf_ann_open/pbw_close for others. */
size_t pf_ann_open(pf *p, int an);
void pf_ann_u64(pf *p, int an, uint64_t v);
void pf_ann_str(pf *p, int an, const char *s);
void pf_ann_dim3(pf *p, int an, rtg_dim3 d);
void pf_ann_stack(pf *p, uint32_t proc, uint64_t stack);
void pf_sc_free(scache_slot *c, uint32_t slots);

/* perfetto_calls.c: the key of an API call's line (its strings' lengths
 * and hash, and its number in the producer's dictionary), made by the
 * trace reader's threads into rtg_line.prep: the sink's preparation pass
 * (cv_sink.prepare). */
typedef struct cv_call_key {
  uint64_t hash;
  uint64_t name_hash;   /* the name's alone (rtg_str_hash) */
  uint64_t str_hash[2]; /* the same of args and ret */
  uint32_t len[3];      /* name, args, ret */
  uint32_t dict;        /* the producer's dictionary + 1; 0: none */
  uint32_t id;          /* the call's number there */
  bool name_only;       /* a kernel's name (len[0]) and nothing else */
} cv_call_key;
struct rtg_line;
struct rtg_line_space;
size_t cv_perfetto_prepare(struct rtg_line *l, size_t used, struct rtg_line_space *space,
                           void *arg);

/* An API call's slice begun, with its function name,
 * the annotation an1 (its arguments, or a launch's kernel) and its return
 * value (none of them NULL), as pf_slice_begin and pf_ann_str would write
 * them; key: their lengths and hash, made on the reader's threads
 * (cv_perfetto_prepare), or NULL. */
pkt pf_call_begin(pf *p, const track *t, uint64_t ts, int cat, const char *name, int an1,
                  const char *str1, const char *ret, const cv_call_key *key);
void pf_cc_free(call_slot *c);
void pf_known_free(pf *p);
/* A kernel's slice begun, as pf_slice_begin writes it; key: its name's
 * number in a producer's dictionary (cv_perfetto_prepare), or NULL. */
pkt pf_kernel_begin(pf *p, const track *t, uint64_t ts, const char *name, int cat,
                    const cv_call_key *key);
/* Frees the producers' dictionaries (when no reader runs). */
void pf_dicts_free(void);

/* perfetto_hold.c: the packet just closed in p->w, from at, held on its
 * sequence (waiting when p->hold_wait; its reference in p->held). */
void pf_hold(pf *p, pf_seq *s, size_t at);
/* A held packet's value (has: it carries one), then what can go out of
 * its sequence goes into the body. */
void pf_held_resolve(pf *p, uint64_t ref, bool has, int64_t value);
/* After the counters' last changes: whatever is held goes out. */
void pf_held_finish(pf *p);

/* perfetto_tracks.c */
/* The ops-in-flight counter of an op's process and GPU: its index. */
uint32_t pf_counter_ops(pf *p, const cv_event *ev);
/* An op's changes: ref_begin and ref_end, its packets held waiting for
 * the counter's value (held_ref), or 0. */
void pf_counters_op(pf *p, const cv_event *ev, uint32_t ops, uint64_t ref_begin, uint64_t ref_end);
void pf_counters_finish(pf *p);
/* The memory in use per agent of every process, from the memory records:
 * before pf_counters_finish. */
void pf_counters_memory(pf *p);
/* The first packet of the sequence and every track's descriptor. */
void pf_write_header(pf *p);
/* The header's bytes in w so far, to the output (or to the head spool). */
void pf_header_out(pf *p, pbw *w);

#endif
