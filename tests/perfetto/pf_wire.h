/* A checker of rtg-convert's Perfetto traces in C, from Perfetto's field
 * numbers (src/convert/out/perfetto/perfetto_proto.h), for the fuzz target (every input)
 * and the unit test: the protobuf wire format is well formed (varints of at
 * most 10 bytes, lengths inside their message, the wire type each field
 * has in Perfetto's protos), the packets are what the writer writes, every
 * sequence's first packet clears its state (sequence 1's is the trace's
 * first), every interned iid is defined once on a sequence and before its
 * use there, a sequence whose defaults name the incremental clock 64 starts
 * it in a clock snapshot before its first time, every event's track (its
 * own or its sequence's default) is described, and every track's slices
 * begin and end in equal numbers.
 * Counts what it saw in pf_wire_stats.  Header-only: static functions. */
#ifndef RTG_PF_WIRE_H
#define RTG_PF_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/convert/out/perfetto/perfetto_proto.h"

enum { PFW_VARINT = 0, PFW_I64 = 1, PFW_LEN = 2 };

typedef struct pf_wire_stats {
  uint64_t packets, descriptors, begins, ends, instants, counters, flow_events, flow_ids;
  uint64_t extra_counters; /* counter values carried by other events */
  uint64_t names, strings; /* interned: distinct iids */
  uint64_t sequences;
  char why[160]; /* the first error */
} pf_wire_stats;

typedef struct pfw_field {
  uint32_t num;
  int wire;
  uint64_t v;       /* varint / fixed */
  const uint8_t *p; /* LEN: the bytes */
  size_t len;
} pfw_field;

typedef struct pfw_cur {
  const uint8_t *p, *end;
} pfw_cur;

static bool pfw_varint(pfw_cur *c, uint64_t *v) {
  uint64_t r = 0;
  for (int i = 0; i < 10; i++) {
    if (c->p >= c->end) return false;
    uint8_t b = *c->p++;
    r |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

/* The next field; 0 at the end, -1 when malformed. */
static int pfw_next(pfw_cur *c, pfw_field *f) {
  if (c->p == c->end) return 0;
  uint64_t key;
  if (!pfw_varint(c, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff) return -1;
  f->num = (uint32_t)(key >> 3);
  f->wire = (int)(key & 7);
  switch (f->wire) {
  case 0:
    return pfw_varint(c, &f->v) ? 1 : -1;
  case 1:
  case 5: {
    size_t n = f->wire == 1 ? 8 : 4;
    if ((size_t)(c->end - c->p) < n) return -1;
    f->v = 0;
    for (size_t i = 0; i < n; i++) f->v |= (uint64_t)c->p[i] << (8 * i);
    c->p += n;
    return 1;
  }
  case 2: {
    uint64_t n;
    if (!pfw_varint(c, &n) || n > (uint64_t)(c->end - c->p)) return -1;
    f->p = c->p, f->len = (size_t)n;
    c->p += n;
    return 1;
  }
  default:
    return -1;
  }
}

#define PFW_FAIL(st, ...)                                                                          \
  do {                                                                                             \
    if (!(st)->why[0]) snprintf((st)->why, sizeof(st)->why, __VA_ARGS__);                          \
    return false;                                                                                  \
  } while (0)

/* Sets of ids, bounded by the trace: open addressing on a growing array. */
typedef struct pfw_set {
  uint64_t *k;
  int64_t *v;
  size_t n, cap;
} pfw_set;

static int64_t *pfw_set_get(pfw_set *s, uint64_t key, bool add) {
  if (add && (s->n + 1) * 2 > s->cap) {
    pfw_set o = *s;
    s->cap = o.cap ? o.cap * 2 : 64;
    s->k = calloc(s->cap, sizeof *s->k);
    s->v = calloc(s->cap, sizeof *s->v);
    if (!s->k || !s->v) abort();
    s->n = 0;
    for (size_t i = 0; i < o.cap; i++)
      if (o.k[i]) *pfw_set_get(s, o.k[i], true) = o.v[i];
    free(o.k);
    free(o.v);
  }
  if (!s->cap) return NULL;
  uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ull;
  for (size_t i = (size_t)(h >> 7) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
    if (s->k[i] == key + 1) return &s->v[i];
    if (!s->k[i]) {
      if (!add) return NULL;
      s->k[i] = key + 1;
      s->n++;
      return &s->v[i];
    }
  }
}

static void pfw_set_free(pfw_set *s) {
  free(s->k);
  free(s->v);
  memset(s, 0, sizeof *s);
}

typedef struct pfw_seq {
  pfw_set iids[4];           /* categories, event names, annotation names, strings */
  uint64_t track;            /* the default track; 0: none */
  uint32_t extra;            /* counter tracks its defaults name (extra_counter_track_uuids) */
  bool incremental, started; /* its defaults' clock is 64; a snapshot started it */
} pfw_seq;

typedef struct pfw_state {
  pf_wire_stats *st;
  pfw_set seq_index; /* sequence id -> index + 1 in seqs */
  pfw_seq *seqs;
  size_t nseqs;
  pfw_seq *cur;        /* the sequence of the packet being read */
  pfw_set all_iids[4]; /* over all sequences, for the counts */
  pfw_set tracks;      /* uuid -> begins - ends */
  bool cleared;
} pfw_state;

static int pfw_iid_table(uint32_t field) {
  switch (field) {
  case PF_ID_EVENT_CATEGORIES:
    return 0;
  case PF_ID_EVENT_NAMES:
    return 1;
  case PF_ID_DEBUG_ANNOTATION_NAMES:
    return 2;
  case PF_ID_DEBUG_ANNOTATION_STRINGS:
    return 3;
  default:
    return -1;
  }
}

static bool pfw_use(pfw_state *s, int table, uint64_t iid) {
  if (!pfw_set_get(&s->cur->iids[table], iid, false))
    PFW_FAIL(s->st, "interned id %llu (table %d) used before its definition",
             (unsigned long long)iid, table);
  return true;
}

static bool pfw_interned(pfw_state *s, const uint8_t *p, size_t n) {
  pfw_cur c = {p, p + n};
  pfw_field f;
  int r;
  while ((r = pfw_next(&c, &f)) > 0) {
    int t = pfw_iid_table(f.num);
    if (t < 0 || f.wire != PFW_LEN) PFW_FAIL(s->st, "unexpected field %u in InternedData", f.num);
    pfw_cur e = {f.p, f.p + f.len};
    pfw_field g;
    uint64_t iid = 0;
    bool named = false;
    while ((r = pfw_next(&e, &g)) > 0) {
      if (g.num == PF_IID && g.wire == PFW_VARINT)
        iid = g.v;
      else if (g.num == PF_IID_NAME && g.wire == PFW_LEN)
        named = true;
      else
        PFW_FAIL(s->st, "unexpected field %u in an interned entry", g.num);
    }
    if (r < 0 || !iid || !named) PFW_FAIL(s->st, "malformed interned entry");
    bool known = pfw_set_get(&s->cur->iids[t], iid, false) != NULL;
    if (known)
      PFW_FAIL(s->st, "interned id %llu (table %d) defined twice", (unsigned long long)iid, t);
    *pfw_set_get(&s->cur->iids[t], iid, true) = 1;
    if (pfw_set_get(&s->all_iids[t], iid, false)) continue;
    *pfw_set_get(&s->all_iids[t], iid, true) = 1;
    if (t == 1) s->st->names++;
    if (t == 3) s->st->strings++;
  }
  if (r < 0) PFW_FAIL(s->st, "malformed InternedData");
  return true;
}

static bool pfw_annotation(pfw_state *s, const uint8_t *p, size_t n, int depth) {
  pfw_cur c = {p, p + n};
  pfw_field f;
  int r;
  if (depth > 4) PFW_FAIL(s->st, "annotations nested too deep");
  while ((r = pfw_next(&c, &f)) > 0) {
    switch (f.num) {
    case PF_DA_NAME_IID:
      if (f.wire != PFW_VARINT || !pfw_use(s, 2, f.v)) PFW_FAIL(s->st, "bad annotation name");
      break;
    case PF_DA_STRING_IID:
      if (f.wire != PFW_VARINT || !pfw_use(s, 3, f.v)) PFW_FAIL(s->st, "bad annotation string");
      break;
    case PF_DA_UINT:
      if (f.wire != PFW_VARINT) PFW_FAIL(s->st, "bad uint annotation");
      break;
    case PF_DA_DOUBLE:
      if (f.wire != PFW_I64) PFW_FAIL(s->st, "bad double annotation");
      break;
    case PF_DA_STRING:
      if (f.wire != PFW_LEN) PFW_FAIL(s->st, "bad string annotation");
      break;
    case PF_DA_ARRAY:
      if (f.wire != PFW_LEN || !pfw_annotation(s, f.p, f.len, depth + 1)) return false;
      break;
    default:
      PFW_FAIL(s->st, "unexpected field %u in a DebugAnnotation", f.num);
    }
  }
  if (r < 0) PFW_FAIL(s->st, "malformed DebugAnnotation");
  return true;
}

static bool pfw_track_event(pfw_state *s, const uint8_t *p, size_t n, bool needs_state) {
  pfw_cur c = {p, p + n};
  pfw_field f;
  int r;
  uint64_t type = 0, uuid = 0;
  uint32_t extra_uuids = 0, extra_values = 0;
  bool has_uuid = false, legacy = false, interned = false;
  while ((r = pfw_next(&c, &f)) > 0) {
    switch (f.num) {
    case PF_TE_TYPE:
      type = f.v;
      break;
    case PF_TE_TRACK_UUID:
      uuid = f.v, has_uuid = true;
      break;
    case PF_TE_NAME_IID:
      interned = true;
      if (!pfw_use(s, 1, f.v)) return false;
      break;
    case PF_TE_CATEGORY_IIDS:
      interned = true;
      if (!pfw_use(s, 0, f.v)) return false;
      break;
    case PF_TE_DEBUG_ANNOTATIONS:
      interned = true;
      if (f.wire != PFW_LEN || !pfw_annotation(s, f.p, f.len, 0)) return false;
      break;
    case PF_TE_FLOW_IDS:
      if (f.wire != PFW_I64) PFW_FAIL(s->st, "flow id not fixed64");
      s->st->flow_ids++;
      break;
    case PF_TE_EXTRA_COUNTER_VALUES:
      extra_values++;
      break;
    case PF_TED_EXTRA_COUNTER_TRACK_UUIDS: /* (the same number in a TrackEvent) */
      if (!pfw_set_get(&s->tracks, f.v, false))
        PFW_FAIL(s->st, "extra counter track %llu never described", (unsigned long long)f.v);
      extra_uuids++;
      break;
    case PF_TE_COUNTER_VALUE:
    case PF_TE_NAME:
      break;
    case PF_TE_LEGACY_EVENT:
      legacy = true;
      break;
    default:
      PFW_FAIL(s->st, "unexpected field %u in a TrackEvent", f.num);
    }
    bool len_field =
        f.num == PF_TE_DEBUG_ANNOTATIONS || f.num == PF_TE_NAME || f.num == PF_TE_LEGACY_EVENT;
    if (f.num != PF_TE_FLOW_IDS && (f.wire == PFW_LEN) != len_field)
      PFW_FAIL(s->st, "field %u of a TrackEvent has wire type %d", f.num, f.wire);
  }
  if (r < 0) PFW_FAIL(s->st, "malformed TrackEvent");
  if (extra_values > (extra_uuids ? extra_uuids : s->cur->extra))
    PFW_FAIL(s->st, "%u extra counter values for %u counter tracks", extra_values,
             extra_uuids ? extra_uuids : s->cur->extra);
  s->st->extra_counters += extra_values;
  if (!has_uuid && s->cur->track) uuid = s->cur->track, has_uuid = true;
  if (!has_uuid) PFW_FAIL(s->st, "track event without a track");
  int64_t *open = pfw_set_get(&s->tracks, uuid, false);
  if (!open) PFW_FAIL(s->st, "event on track %llu, never described", (unsigned long long)uuid);
  if (interned && !needs_state)
    PFW_FAIL(s->st, "interned references without SEQ_NEEDS_INCREMENTAL_STATE");
  switch (type) {
  case PF_TYPE_SLICE_BEGIN:
    s->st->begins++, (*open)++;
    break;
  case PF_TYPE_SLICE_END:
    s->st->ends++, (*open)--;
    break;
  case PF_TYPE_INSTANT:
    s->st->instants++;
    break;
  case PF_TYPE_COUNTER:
    s->st->counters++;
    break;
  case 0:
    if (!legacy) PFW_FAIL(s->st, "track event of no type");
    s->st->flow_events++;
    break;
  default:
    PFW_FAIL(s->st, "track event of type %llu", (unsigned long long)type);
  }
  return true;
}

/* The descriptors come first (the writer puts them before the events). */
static bool pfw_descriptor(pfw_state *s, const uint8_t *p, size_t n) {
  pfw_cur c = {p, p + n};
  pfw_field f;
  int r;
  bool has_uuid = false;
  uint64_t uuid = 0;
  while ((r = pfw_next(&c, &f)) > 0) {
    if (f.num == PF_TD_UUID && f.wire == PFW_VARINT) uuid = f.v, has_uuid = true;
    bool len_field = f.num == PF_TD_NAME || f.num == PF_TD_PROCESS || f.num == PF_TD_COUNTER;
    if ((f.wire == PFW_LEN) != len_field) PFW_FAIL(s->st, "field %u of a TrackDescriptor", f.num);
  }
  if (r < 0 || !has_uuid) PFW_FAIL(s->st, "malformed TrackDescriptor");
  if (pfw_set_get(&s->tracks, uuid, false))
    PFW_FAIL(s->st, "track %llu described twice", (unsigned long long)uuid);
  *pfw_set_get(&s->tracks, uuid, true) = 0;
  s->st->descriptors++;
  return true;
}

/* A sequence's defaults: its clock and its track. */
static bool pfw_defaults(pfw_state *s, pfw_seq *q, const uint8_t *p, size_t n) {
  pfw_cur c = {p, p + n}, d;
  pfw_field f, g;
  int r;
  while ((r = pfw_next(&c, &f)) > 0) {
    if (f.num == PF_DEF_TIMESTAMP_CLOCK_ID && f.wire == PFW_VARINT) {
      if (f.v != PF_CLOCK_BOOTTIME && f.v != PF_CLOCK_SEQ_INCREMENTAL)
        PFW_FAIL(s->st, "defaults with clock %llu", (unsigned long long)f.v);
      q->incremental = f.v == PF_CLOCK_SEQ_INCREMENTAL;
    } else if (f.num == PF_DEF_TRACK_EVENT_DEFAULTS && f.wire == PFW_LEN) {
      d = (pfw_cur){f.p, f.p + f.len};
      while ((r = pfw_next(&d, &g)) > 0)
        if (g.num == PF_TED_TRACK_UUID && g.wire == PFW_VARINT) {
          q->track = g.v;
        } else if (g.num == PF_TED_EXTRA_COUNTER_TRACK_UUIDS && g.wire == PFW_VARINT) {
          if (!pfw_set_get(&s->tracks, g.v, false))
            PFW_FAIL(s->st, "extra counter track %llu never described", (unsigned long long)g.v);
          q->extra++;
        } else {
          PFW_FAIL(s->st, "unexpected field %u in TrackEventDefaults", g.num);
        }
      if (r < 0) PFW_FAIL(s->st, "malformed TrackEventDefaults");
    } else {
      PFW_FAIL(s->st, "unexpected field %u in TracePacketDefaults", f.num);
    }
  }
  if (r < 0) PFW_FAIL(s->st, "malformed TracePacketDefaults");
  return true;
}

/* A clock snapshot: the sequence's clock 64, incremental, and CLOCK_BOOTTIME. */
static bool pfw_snapshot(pfw_state *s, pfw_seq *q, const uint8_t *p, size_t n) {
  pfw_cur c = {p, p + n}, d;
  pfw_field f, g;
  int r;
  bool seq_clock = false, boottime = false;
  while ((r = pfw_next(&c, &f)) > 0) {
    if (f.num != PF_CS_CLOCKS || f.wire != PFW_LEN)
      PFW_FAIL(s->st, "unexpected field %u in ClockSnapshot", f.num);
    d = (pfw_cur){f.p, f.p + f.len};
    uint64_t id = 0, incr = 0;
    bool has_ts = false;
    while ((r = pfw_next(&d, &g)) > 0) {
      if (g.wire != PFW_VARINT) PFW_FAIL(s->st, "field %u of a Clock", g.num);
      if (g.num == PF_CLK_ID)
        id = g.v;
      else if (g.num == PF_CLK_TIMESTAMP)
        has_ts = true;
      else if (g.num == PF_CLK_IS_INCREMENTAL)
        incr = g.v;
    }
    if (r < 0 || !has_ts) PFW_FAIL(s->st, "malformed Clock");
    if (id == PF_CLOCK_SEQ_INCREMENTAL && incr) seq_clock = true;
    if (id == PF_CLOCK_BOOTTIME && !incr) boottime = true;
  }
  if (r < 0 || !seq_clock || !boottime)
    PFW_FAIL(s->st, "a clock snapshot without an incremental clock 64 and CLOCK_BOOTTIME");
  q->started = true;
  return true;
}

static bool pfw_packet(pfw_state *s, const uint8_t *p, size_t n) {
  pfw_cur c = {p, p + n};
  pfw_field f, te = {0}, idata = {0}, defaults = {0}, snapshot = {0};
  int r;
  uint64_t seq = 0, flags = 0, clock = 0;
  bool has_te = false, has_id = false, has_ts = false;
  uint32_t nfields = 0, padding = 0;
  while ((r = pfw_next(&c, &f)) > 0) {
    nfields++;
    switch (f.num) {
    case PF_PKT_RTG_PADDING:
      padding++;
      break;
    case PF_PKT_TIMESTAMP:
      has_ts = true;
      break;
    case PF_PKT_SEQUENCE_ID:
      seq = f.v;
      break;
    case PF_PKT_SEQUENCE_FLAGS:
      flags = f.v;
      break;
    case PF_PKT_TRACK_EVENT:
      te = f, has_te = true;
      break;
    case PF_PKT_INTERNED_DATA:
      idata = f, has_id = true;
      break;
    case PF_PKT_TRACK_DESCRIPTOR:
      if (f.wire != PFW_LEN || !pfw_descriptor(s, f.p, f.len)) return false;
      break;
    case PF_PKT_DEFAULTS:
      defaults = f;
      break;
    case PF_PKT_CLOCK_SNAPSHOT:
      snapshot = f;
      break;
    case PF_PKT_TIMESTAMP_CLOCK_ID:
      clock = f.v;
      break;
    case PF_PKT_FIRST_ON_SEQUENCE:
      break;
    default:
      PFW_FAIL(s->st, "unexpected field %u in a TracePacket", f.num);
    }
    bool len_field = f.num == PF_PKT_TRACK_EVENT || f.num == PF_PKT_INTERNED_DATA ||
                     f.num == PF_PKT_TRACK_DESCRIPTOR || f.num == PF_PKT_DEFAULTS ||
                     f.num == PF_PKT_CLOCK_SNAPSHOT || f.num == PF_PKT_RTG_PADDING;
    if ((f.wire == PFW_LEN) != len_field)
      PFW_FAIL(s->st, "field %u of a TracePacket has wire type %d", f.num, f.wire);
  }
  if (r < 0) PFW_FAIL(s->st, "malformed TracePacket");
  if (padding) { /* rtg's padding (readers skip it): nothing else, not counted */
    if (nfields != 1) PFW_FAIL(s->st, "a padding packet with other fields");
    return true;
  }
  int64_t *ix = pfw_set_get(&s->seq_index, seq, false);
  if (flags & PF_SEQ_INCREMENTAL_STATE_CLEARED) {
    if (ix || (seq == 1 && s->st->packets) || (seq != 1 && !s->cleared))
      PFW_FAIL(s->st, "incremental state of sequence %llu cleared after its first packet",
               (unsigned long long)seq);
    if (seq == 1) s->cleared = true;
    pfw_seq *ns = realloc(s->seqs, (s->nseqs + 1) * sizeof *ns);
    if (!ns) abort();
    s->seqs = ns;
    memset(&ns[s->nseqs], 0, sizeof *ns);
    ix = pfw_set_get(&s->seq_index, seq, true);
    *ix = (int64_t)++s->nseqs;
    s->st->sequences++;
    if (defaults.p && !pfw_defaults(s, &s->seqs[*ix - 1], defaults.p, defaults.len)) return false;
  } else if (defaults.p) {
    PFW_FAIL(s->st, "defaults in a packet that does not clear the state");
  }
  s->cur = ix ? &s->seqs[*ix - 1] : NULL;
  if ((has_te || has_id || snapshot.p) && !s->cur)
    PFW_FAIL(s->st, "event, interned data or clock before the state of sequence %llu was cleared",
             (unsigned long long)seq);
  if (snapshot.p && !pfw_snapshot(s, s->cur, snapshot.p, snapshot.len)) return false;
  /* interned data of a packet may serve its own event */
  if (has_id && !pfw_interned(s, idata.p, idata.len)) return false;
  if (has_te) {
    if (!has_ts) PFW_FAIL(s->st, "track event without a timestamp");
    if (clock && clock != PF_CLOCK_BOOTTIME)
      PFW_FAIL(s->st, "a packet on clock %llu", (unsigned long long)clock);
    if (!clock && s->cur->incremental && !s->cur->started)
      PFW_FAIL(s->st, "a time on the incremental clock before its snapshot");
    if (!pfw_track_event(s, te.p, te.len, flags & PF_SEQ_NEEDS_INCREMENTAL_STATE)) return false;
  }
  s->st->packets++;
  return true;
}

/* The whole trace; false with st->why. */
static bool pf_wire_check(const uint8_t *b, size_t n, pf_wire_stats *st) {
  memset(st, 0, sizeof *st);
  pfw_state s = {.st = st};
  pfw_cur c = {b, b + n};
  pfw_field f;
  int r;
  bool ok = true;
  while (ok && (r = pfw_next(&c, &f)) > 0) {
    if (f.num != PF_TRACE_PACKET || f.wire != PFW_LEN) {
      snprintf(st->why, sizeof st->why, "top-level field %u is not Trace.packet", f.num);
      ok = false;
    } else {
      ok = pfw_packet(&s, f.p, f.len);
    }
  }
  if (ok && r < 0) snprintf(st->why, sizeof st->why, "malformed Trace"), ok = false;
  if (ok && !s.cleared) snprintf(st->why, sizeof st->why, "no packet clears the state"), ok = false;
  for (size_t i = 0; ok && i < s.tracks.cap; i++)
    if (s.tracks.k[i] && s.tracks.v[i]) {
      snprintf(st->why, sizeof st->why, "track %llu: %lld more begins than ends",
               (unsigned long long)(s.tracks.k[i] - 1), (long long)s.tracks.v[i]);
      ok = false;
    }
  for (size_t q = 0; q < s.nseqs; q++)
    for (int i = 0; i < 4; i++) pfw_set_free(&s.seqs[q].iids[i]);
  free(s.seqs);
  for (int i = 0; i < 4; i++) pfw_set_free(&s.all_iids[i]);
  pfw_set_free(&s.seq_index);
  pfw_set_free(&s.tracks);
  return ok;
}

#endif
