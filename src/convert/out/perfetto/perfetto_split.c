/* --split-size for the Perfetto trace: the whole trace, written by the
 * normal writer to an unlinked temporary file, read back (mapped) and cut
 * into parts of consecutive windows of start times, each a whole trace.
 *
 * Pass 1 reads every packet: the header's (sequence 1's first packet and
 * the track descriptors) go to every part; a track sequence's first
 * packet (its defaults and clock) and its interned data are kept per
 * sequence; each track event gets its absolute time (the sequence's
 * incremental clock replayed, or its own CLOCK_BOOTTIME time) and its
 * track.  A slice end belongs to the slice it closes (per track, in time
 * order, innermost first): a slice stays whole in the part of its begin,
 * as in the JSON's parts.  The begins, instants and counter values, by
 * time, are dealt into parts of at most SIZE bytes (the header, and every
 * sequence's first packet and dictionary, counted in each).
 *
 * Pass 2 writes each event to its part.  On its first event in a part a
 * sequence restarts: its first packet again (state cleared, its defaults),
 * a clock snapshot at that event's time, then every string the sequence
 * interned, in one InternedData of a packet of its own; the events that follow carry their
 * deltas anew on that part and no interned data of their own. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "outfile.h"
#include "pbw.h"
#include "perfetto_proto.h"
#include "perfetto_split.h"
#include "shared/split.h"
#include "xalloc.h"

#define SEQ_HEAD 1 /* the header's sequence (perfetto_state.h: SEQ_ID) */

enum { K_HEAD, K_SEQHDR, K_DICT, K_EVENT, K_ABS };

typedef struct spk {
  uint64_t off;   /* the packet's payload in the file */
  uint64_t t;     /* an event's absolute time */
  uint64_t track; /* an event's track */
  uint64_t base;  /* its sequence's clock before it */
  uint32_t len;
  uint32_t seq;
  uint32_t part;
  uint32_t owner; /* a slice end: the packet of its begin + 1 */
  uint32_t size;  /* what it and its ends take in a part */
  uint8_t kind, type;
  bool abs; /* its time on CLOCK_BOOTTIME itself, not on its sequence's clock */
} spk;

typedef struct sseq {
  uint64_t hdr_off; /* its first packet's payload */
  uint32_t hdr_len;
  uint64_t track; /* its default track */
  uint64_t clock; /* replayed */
  int64_t boot;   /* CLOCK_BOOTTIME - its clock */
  uint8_t *dict;  /* its interned data, every entry, as one InternedData payload */
  size_t dict_len, dict_cap;
} sseq;

typedef struct rd {
  const uint8_t *p, *end;
} rd;

static bool varint(rd *r, uint64_t *v) {
  uint64_t x = 0;
  for (int s = 0; s < 64 && r->p < r->end; s += 7) {
    uint8_t b = *r->p++;
    x |= (uint64_t)(b & 0x7f) << s;
    if (!(b & 0x80)) {
      *v = x;
      return true;
    }
  }
  return false;
}

/* The next field: its number, wire type, and its value (varint) or its
 * payload (length-delimited); false at the end or on bad bytes. */
static bool field(rd *r, uint32_t *num, int *wt, uint64_t *v, const uint8_t **pay) {
  uint64_t tag;
  if (r->p >= r->end || !varint(r, &tag)) return false;
  *num = (uint32_t)(tag >> 3), *wt = (int)(tag & 7);
  switch (*wt) {
  case 0:
    return varint(r, v);
  case 1:
    if (r->end - r->p < 8) return false;
    *pay = r->p, *v = 8, r->p += 8;
    return true;
  case 5:
    if (r->end - r->p < 4) return false;
    *pay = r->p, *v = 4, r->p += 4;
    return true;
  case 2:
    if (!varint(r, v) || *v > (uint64_t)(r->end - r->p)) return false;
    *pay = r->p, r->p += *v;
    return true;
  }
  return false;
}

/* a varint field of a message, 0 when absent */
static uint64_t get_uint(const uint8_t *b, size_t n, uint32_t want) {
  rd r = {b, b + n};
  uint32_t num;
  int wt;
  uint64_t v = 0, got = 0;
  const uint8_t *pay;
  while (field(&r, &num, &wt, &v, &pay))
    if (num == want && wt == 0) got = v;
  return got;
}

/* a message field's payload, NULL when absent */
static const uint8_t *get_msg(const uint8_t *b, size_t n, uint32_t want, size_t *len) {
  rd r = {b, b + n};
  uint32_t num;
  int wt;
  uint64_t v;
  const uint8_t *pay, *got = NULL;
  while (field(&r, &num, &wt, &v, &pay))
    if (num == want && wt == 2) got = pay, *len = (size_t)v;
  return got;
}

static size_t put_varint(uint8_t *b, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) b[n++] = (uint8_t)(v | 0x80), v >>= 7;
  b[n++] = (uint8_t)v;
  return n;
}

typedef struct obuf {
  uint8_t *b;
  size_t n, cap;
} obuf;
static void ob_need(obuf *o, size_t n) {
  if (o->n + n > o->cap) {
    o->cap = (o->n + n) * 2;
    o->b = rtg_xrealloc(o->b, o->cap, "the split Perfetto output");
  }
}
static void ob_raw(obuf *o, const void *s, size_t n) {
  ob_need(o, n);
  memcpy(o->b + o->n, s, n);
  o->n += n;
}
static void ob_varint(obuf *o, uint64_t v) {
  ob_need(o, 10);
  o->n += put_varint(o->b + o->n, v);
}
static void ob_tag(obuf *o, uint32_t num, int wt) {
  ob_varint(o, (uint64_t)num << 3 | (unsigned)wt);
}
static void ob_uint(obuf *o, uint32_t num, uint64_t v) {
  ob_tag(o, num, 0), ob_varint(o, v);
}
static void ob_bytes(obuf *o, uint32_t num, const void *s, size_t n) {
  ob_tag(o, num, 2), ob_varint(o, n), ob_raw(o, s, n);
}

/* the fields of a packet payload but those numbered skip1, skip2 */
static void ob_fields_but(obuf *o, const uint8_t *b, size_t n, uint32_t skip1, uint32_t skip2) {
  rd r = {b, b + n};
  uint32_t num;
  int wt;
  uint64_t v;
  const uint8_t *pay, *at = b;
  while (field(&r, &num, &wt, &v, &pay)) {
    if (num != skip1 && num != skip2) ob_raw(o, at, (size_t)(r.p - at));
    at = r.p;
  }
}

typedef struct tk {
  uint64_t track, t;
  uint32_t i;
  uint8_t type;
} tk;
static int tk_cmp(const void *a, const void *b) {
  const tk *x = a, *y = b;
  if (x->track != y->track) return x->track < y->track ? -1 : 1;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}
static spk *g_pk; /* (for the sort of units) */
static int unit_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (g_pk[x].t != g_pk[y].t) return g_pk[x].t < g_pk[y].t ? -1 : 1;
  return x < y ? -1 : x > y;
}

bool cv_pftrace_split(int fd, uint64_t flen, const char *out, uint64_t size, bool quiet) {
  bool ok = false;
  const uint8_t *m = NULL;
  spk *pk = NULL;
  size_t npk = 0, pk_cap = 0;
  sseq *seqs = NULL;
  uint32_t nseqs = 0;
  tk *se = NULL;
  size_t nse = 0, se_cap = 0;
  uint32_t *units = NULL, *stack = NULL;
  FILE **pf = NULL;
  char **names = NULL;
  uint64_t *last = NULL;
  size_t nparts = 0;
  cv_split_part *pi = NULL;
  obuf o = {0};

  if (flen) {
    m = mmap(NULL, flen, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      m = NULL;
      rtg_error("cannot read back the Perfetto trace to split: path=%s: %s", out, strerror(errno));
      goto done;
    }
  }
  /* pass 1 */
  rd r = {m, m + flen};
  uint32_t num;
  int wt;
  uint64_t v;
  const uint8_t *pay;
  uint64_t head_bytes = 0;
  while (r.p < r.end) {
    const uint8_t *at = r.p;
    if (!field(&r, &num, &wt, &v, &pay) || num != PF_TRACE_PACKET || wt != 2) {
      rtg_error("cannot split the Perfetto trace: path=%s: bad bytes at offset %zu", out,
                (size_t)(at - m));
      goto done;
    }
    if (npk == pk_cap) {
      pk_cap = pk_cap ? pk_cap * 2 : 4096;
      pk = rtg_xrealloc(pk, pk_cap * sizeof *pk, "the split Perfetto output's packets");
    }
    spk *k = &pk[npk];
    *k = (spk){.off = (uint64_t)(pay - m), .len = (uint32_t)v, .size = (uint32_t)(r.p - at)};
    uint64_t sid = get_uint(pay, v, PF_PKT_SEQUENCE_ID);
    size_t tel = 0, idl = 0, dl = 0;
    const uint8_t *te = get_msg(pay, v, PF_PKT_TRACK_EVENT, &tel);
    const uint8_t *idd = get_msg(pay, v, PF_PKT_INTERNED_DATA, &idl);
    const uint8_t *def = get_msg(pay, v, PF_PKT_DEFAULTS, &dl);
    k->seq = (uint32_t)sid;
    if (sid > SEQ_HEAD && sid >= nseqs) {
      uint32_t n = nseqs ? nseqs : 64;
      while (n <= sid) n *= 2;
      seqs = rtg_xrealloc(seqs, n * sizeof *seqs, "the split Perfetto output's sequences");
      memset(seqs + nseqs, 0, (n - nseqs) * sizeof *seqs);
      nseqs = n;
    }
    sseq *s = sid > SEQ_HEAD ? &seqs[sid] : NULL;
    if (s && def) { /* a sequence's first packet */
      k->kind = K_SEQHDR;
      s->hdr_off = k->off, s->hdr_len = k->len;
      size_t tl = 0;
      const uint8_t *ted = get_msg(def, dl, PF_DEF_TRACK_EVENT_DEFAULTS, &tl);
      s->track = ted ? get_uint(ted, tl, PF_TED_TRACK_UUID) : 0;
      size_t cl = 0;
      const uint8_t *cs = get_msg(pay, v, PF_PKT_CLOCK_SNAPSHOT, &cl);
      rd c = {cs, cs ? cs + cl : cs};
      uint64_t clk = 0, boot = 0;
      while (cs && field(&c, &num, &wt, &v, &pay))
        if (num == PF_CS_CLOCKS && wt == 2) {
          uint64_t id = get_uint(pay, v, PF_CLK_ID), ts = get_uint(pay, v, PF_CLK_TIMESTAMP);
          if (id == PF_CLOCK_SEQ_INCREMENTAL) clk = ts;
          if (id == PF_CLOCK_BOOTTIME) boot = ts;
        }
      s->clock = clk, s->boot = (int64_t)(boot - clk);
    } else if (te) {
      uint64_t ts = get_uint(m + k->off, k->len, PF_PKT_TIMESTAMP);
      uint64_t clock = get_uint(m + k->off, k->len, PF_PKT_TIMESTAMP_CLOCK_ID);
      k->type = (uint8_t)get_uint(te, tel, PF_TE_TYPE);
      k->track = get_uint(te, tel, PF_TE_TRACK_UUID);
      if (!s) {
        k->kind = K_ABS, k->t = ts;
      } else {
        k->kind = K_EVENT;
        k->abs = clock == PF_CLOCK_BOOTTIME;
        k->base = s->clock;
        if (k->abs) {
          k->t = ts;
        } else {
          s->clock += ts;
          k->t = s->clock + (uint64_t)s->boot;
          k->size += 12; /* its time, written anew, may be longer */
        }
        if (!k->track) k->track = s->track;
      }
      if (idd) k->size -= (uint32_t)(idl + 4);
      if (k->type == PF_TYPE_SLICE_BEGIN || k->type == PF_TYPE_SLICE_END) {
        if (nse == se_cap) {
          se_cap = se_cap ? se_cap * 2 : 4096;
          se = rtg_xrealloc(se, se_cap * sizeof *se, "the split Perfetto output's slices");
        }
        se[nse++] = (tk){k->track, k->t, (uint32_t)npk, k->type};
      }
    } else if (s && idd) {
      k->kind = K_DICT;
    } else {
      k->kind = K_HEAD;
      head_bytes += k->size;
    }
    if (s && idd) { /* the sequence's dictionary grows */
      if (s->dict_len + idl > s->dict_cap) {
        s->dict_cap = (s->dict_len + idl) * 2;
        s->dict = rtg_xrealloc(s->dict, s->dict_cap, "the split Perfetto output's dictionaries");
      }
      memcpy(s->dict + s->dict_len, idd, idl);
      s->dict_len += idl;
    }
    npk++;
  }
  /* slice ends to their begins: per track in time order, innermost first */
  qsort(se, nse, sizeof *se, tk_cmp);
  stack = rtg_xmalloc((nse + 1) * sizeof *stack, "the split Perfetto output's slices");
  for (size_t i = 0, sp = 0; i < nse; i++) {
    if (i && se[i].track != se[i - 1].track) sp = 0;
    if (se[i].type == PF_TYPE_SLICE_BEGIN) {
      stack[sp++] = se[i].i;
    } else if (sp) {
      uint32_t b = stack[--sp];
      pk[se[i].i].owner = b + 1;
      pk[b].size += pk[se[i].i].size;
    }
  }
  /* what every part holds: the header, each sequence's restart */
  uint64_t fixed = head_bytes;
  for (uint32_t i = 0; i < nseqs; i++)
    if (seqs[i].hdr_len) fixed += seqs[i].hdr_len + seqs[i].dict_len + 64;
  if (fixed >= size) {
    rtg_error("--split-size %" PRIu64 ": smaller than the tracks and names every part holds "
              "(%" PRIu64 " bytes); nothing written",
              size, fixed);
    goto done;
  }
  units = rtg_xmalloc((npk + 1) * sizeof *units, "the split Perfetto output's packets");
  size_t nunits = 0;
  for (size_t i = 0; i < npk; i++)
    if ((pk[i].kind == K_EVENT || pk[i].kind == K_ABS) && !pk[i].owner)
      units[nunits++] = (uint32_t)i;
  g_pk = pk;
  qsort(units, nunits, sizeof *units, unit_cmp);
  pi = rtg_xcalloc(nunits + 1, sizeof *pi, "the split Perfetto output's parts");
  nparts = 1;
  pi[0].bytes = fixed;
  for (size_t i = 0; i < nunits; i++) {
    spk *k = &pk[units[i]];
    cv_split_part *p = &pi[nparts - 1];
    if (p->events && p->bytes + k->size > size) {
      p = &pi[nparts++];
      p->bytes = fixed;
    }
    if (!p->events) p->from = k->t;
    p->last = k->t;
    p->bytes += k->size;
    p->events++;
    k->part = (uint32_t)(nparts - 1);
  }
  for (size_t i = 0; i < npk; i++)
    if (pk[i].owner) {
      pk[i].part = pk[pk[i].owner - 1].part;
      pi[pk[i].part].events++;
    }
  for (size_t i = 0; i < npk; i++)
    if ((pk[i].kind == K_EVENT || pk[i].kind == K_ABS) && pk[i].t > pi[pk[i].part].to)
      pi[pk[i].part].to = pk[i].t;

  /* pass 2 */
  pf = rtg_xcalloc(nparts, sizeof *pf, "the split Perfetto output's parts");
  names = rtg_xcalloc(nparts, sizeof *names, "the split Perfetto output's parts");
  last = rtg_xcalloc((size_t)nparts * (nseqs + 1), sizeof *last, "the split Perfetto output");
  for (size_t p = 0; p < nparts; p++) {
    char num_[32];
    snprintf(num_, sizeof num_, "%03zu", p);
    names[p] = cv_split_name(out, num_);
    pf[p] = rtg_out_open(names[p]);
    if (!pf[p]) {
      rtg_error("cannot create output: path=%s: %m", names[p]);
      goto done;
    }
    for (size_t i = 0; i < npk; i++)
      if (pk[i].kind == K_HEAD) {
        o.n = 0;
        ob_bytes(&o, PF_TRACE_PACKET, m + pk[i].off, pk[i].len);
        fwrite(o.b, 1, o.n, pf[p]);
      }
  }
  obuf pkt = {0}, cs = {0}, clk = {0};
  for (size_t i = 0; i < npk; i++) {
    spk *k = &pk[i];
    if (k->kind == K_ABS) {
      o.n = 0;
      ob_bytes(&o, PF_TRACE_PACKET, m + k->off, k->len);
      fwrite(o.b, 1, o.n, pf[k->part]);
      continue;
    }
    if (k->kind != K_EVENT) continue;
    sseq *s = &seqs[k->seq];
    uint64_t *lt = &last[(size_t)k->part * (nseqs + 1) + k->seq];
    uint64_t clock = k->t - (uint64_t)s->boot;
    o.n = 0;
    if (!*lt) { /* the sequence restarts on this part, its clock where it was:
                 * what follows on it is not earlier */
      pkt.n = 0;
      ob_fields_but(&pkt, m + s->hdr_off, s->hdr_len, PF_PKT_CLOCK_SNAPSHOT, PF_PKT_INTERNED_DATA);
      cs.n = 0;
      clk.n = 0;
      ob_uint(&clk, PF_CLK_ID, PF_CLOCK_SEQ_INCREMENTAL);
      ob_uint(&clk, PF_CLK_TIMESTAMP, k->base);
      ob_uint(&clk, PF_CLK_IS_INCREMENTAL, 1);
      ob_bytes(&cs, PF_CS_CLOCKS, clk.b, clk.n);
      clk.n = 0;
      ob_uint(&clk, PF_CLK_ID, PF_CLOCK_BOOTTIME);
      ob_uint(&clk, PF_CLK_TIMESTAMP, k->base + (uint64_t)s->boot);
      ob_bytes(&cs, PF_CS_CLOCKS, clk.b, clk.n);
      ob_bytes(&pkt, PF_PKT_CLOCK_SNAPSHOT, cs.b, cs.n);
      ob_bytes(&o, PF_TRACE_PACKET, pkt.b, pkt.n);
      if (s->dict_len) { /* its strings, in a packet after the clock's */
        pkt.n = 0;
        ob_uint(&pkt, PF_PKT_SEQUENCE_ID, k->seq);
        ob_bytes(&pkt, PF_PKT_INTERNED_DATA, s->dict, s->dict_len);
        ob_uint(&pkt, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_NEEDS_INCREMENTAL_STATE);
        ob_bytes(&o, PF_TRACE_PACKET, pkt.b, pkt.n);
      }
      *lt = k->base + 1; /* (+1: 0 is "not started") */
    }
    pkt.n = 0;
    if (k->abs) { /* its own time stays; the sequence's clock does not move */
      ob_fields_but(&pkt, m + k->off, k->len, PF_PKT_INTERNED_DATA, PF_PKT_INTERNED_DATA);
    } else {
      ob_uint(&pkt, PF_PKT_TIMESTAMP, clock - (*lt - 1));
      ob_fields_but(&pkt, m + k->off, k->len, PF_PKT_TIMESTAMP, PF_PKT_INTERNED_DATA);
      *lt = clock + 1;
    }
    ob_bytes(&o, PF_TRACE_PACKET, pkt.b, pkt.n);
    fwrite(o.b, 1, o.n, pf[k->part]);
  }
  free(pkt.b), free(cs.b), free(clk.b);
  for (size_t p = 0; p < nparts; p++) {
    long at = ftell(pf[p]);
    bool w = rtg_out_close(pf[p]);
    pf[p] = NULL;
    if (!w) {
      rtg_error("cannot write output: path=%s: %s", names[p], rtg_out_why());
      goto done;
    }
    pi[p].bytes = at < 0 ? pi[p].bytes : (uint64_t)at;
  }
  ok = cv_split_report(out, size, nparts, names, pi, quiet);
done:
  for (size_t p = 0; pf && p < nparts; p++)
    if (pf[p]) fclose(pf[p]);
  for (size_t p = 0; names && p < nparts; p++) free(names[p]);
  for (uint32_t i = 0; i < nseqs; i++) free(seqs[i].dict);
  free(names), free(pf), free(last), free(pi), free(units), free(stack), free(se), free(seqs);
  free(pk), free(o.b);
  if (m) munmap((void *)m, flen);
  return ok;
}
