/* What a line classified by the common reader is to rpt: a command (a
 * kernel, barrier or copy with its times), text, or a bad line.  It needs
 * no state, so the reader's threads work it out (rpt_prepare_line) and
 * the main thread only takes the result.
 *   - "profile:" lines (HCC_PROFILE=2) name their command type, and a copy
 *     is named "<direction>_<bytes>_bytes" as the original rpt did;
 *   - rtg trace records: dispatch, barrier and copy records are commands
 *     (their agent value is numbered into a GPU once the file is read);
 *     every other record is text.
 * A command whose stop is before its start cannot be accounted: bad. */
#include "decimal.h"
#include "rpt.h"
#include "xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rpt_cmd_name(const rpt_cmd *c, size_t *len) {
  const char *name = c->inline_name ? c->text : c->name;
  if (!rpt_is_copy(c->type)) {
    *len = c->name_len;
    return name;
  }
  /* "HostToDevice" + 16384 -> "HostToDevice_16384_bytes": built anew for
   * each copy, valid until the next */
  static char *buf;
  static size_t cap;
  size_t n = c->name_len;
  if (n + 32 > cap) {
    cap = n + 32 + 256;
    free(buf);
    buf = rtg_xmalloc(cap, "a command's text");
  }
  memcpy(buf, name, n);
  if (c->sized) { /* (not snprintf: a trace can hold millions of copies) */
    unsigned d = rtg_dec_len(c->bytes);
    buf[n++] = '_';
    rtg_dec_write(buf + n + d, c->bytes);
    n += d;
    memcpy(buf + n, "_bytes", 6);
    n += 6;
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

static int profile_type(const rtg_hcc_profile *p) {
  static const unsigned char lens[RPT_NTYPES] = {6, 7, 4, 7}; /* of rpt_type_names */
  for (int t = 0; t < RPT_NTYPES; t++)
    if (p->type_len == lens[t] && !memcmp(p->type, rpt_type_names[t], lens[t])) return t;
  return -1;
}

/* The command a line holds, written into c field by field: c lies where
 * the line's record was, so every value is read (as an argument) before c
 * is written; one store per field, of its own width, which the CPU reads
 * back at once (a whole struct copied from the stack would stall it). */
static int set_cmd(rpt_cmd *c, int what, const char *why, int type, bool trace, bool bad_op,
                   uint64_t start, uint64_t stop, uint64_t agent, uint32_t queue, uint32_t seq,
                   const char *name, size_t name_len, bool sized, uint64_t bytes) {
  c->what = (int8_t)what;
  c->why = why;
  c->type = (uint8_t)type;
  c->trace = trace;
  c->bad_op = bad_op;
  c->sized = sized;
  c->start = start;
  c->stop = stop;
  c->agent = agent;
  c->bytes = bytes;
  c->queue = queue;
  c->seq = seq;
  c->name = name;
  c->name_len = name_len;
  c->inline_name = false;
  return what;
}

static int no_cmd(rpt_cmd *c, int what, const char *why) {
  return set_cmd(c, what, why, 0, false, false, 0, 0, 0, 0, 0, "", 0, false, 0);
}

static int profile_command(const rtg_hcc_profile *p, bool ignore_barriers, rpt_cmd *c) {
  if (!(p->flags & RTG_HCC_HAS_TIMES))
    return no_cmd(c, -1, "profile line without start and stop times");
  if (p->stop < p->start) return no_cmd(c, -1, "profile line whose stop is before its start");
  int type = profile_type(p);
  if (type < 0) return no_cmd(c, -1, "profile line of an unknown command type");
  if (ignore_barriers && type == RPT_BARRIER) return no_cmd(c, 0, NULL);
  if (p->device > UINT16_MAX) return no_cmd(c, -1, "device number out of range");
  uint64_t start = p->start;
  if (type == RPT_BARRIER) {
    /* The original's barrier rule: a name "depcnt,acquire,release" (three
     * parts) marks a barrier with dependencies, whose start is moved to its
     * stop so it does not hide the commands it waits for. */
    const char *c1 = memchr(p->name, ',', p->name_len);
    const char *c2 = c1 ? memchr(c1 + 1, ',', p->name_len - (size_t)(c1 + 1 - p->name)) : NULL;
    if (c2 && !memchr(c2 + 1, ',', p->name_len - (size_t)(c2 + 1 - p->name))) start = p->stop;
  }
  return set_cmd(c, 1, NULL, type, false, (p->flags & RTG_HCC_BAD_OP) != 0, start, p->stop,
                 p->device, p->queue, (uint32_t)p->seq, p->name, p->name_len,
                 (p->flags & RTG_HCC_HAS_BYTES) != 0, p->bytes);
}

static const char *const backwards = "record whose stop is before its start";

/* A dispatch or barrier record (K) as a command of type t named nm. */
#define QUEUE_OP(K, t, nm)                                                                         \
  set_cmd(c, rec->u.K.stop < rec->u.K.start ? -1 : 1,                                              \
          rec->u.K.stop < rec->u.K.start ? backwards : NULL, t, true, false, rec->u.K.start,       \
          rec->u.K.stop, rec->u.K.agent, (uint32_t)rec->u.K.queue, (uint32_t)rec->u.K.id, nm,      \
          strlen(nm), false, 0)

/* A barrier record's name by its op, as rtg-convert names its slices. */
static const char *barrier_name(const rtg_record *rec) {
  const char *op = RTG_HAS(rec, RTG_FIELD(BARRIER, op)) ? rec->u.BARRIER.op : "";
  return !strcmp(op, "or") ? "barrier-or" : !strcmp(op, "value") ? "barrier-value" : "barrier";
}

static int record_command(const rtg_record *rec, bool ignore_barriers, rpt_cmd *c) {
  switch (rec->kind) {
  case RTG_KIND_DISPATCH:
    return QUEUE_OP(DISPATCH, RPT_KERNEL, rec->u.DISPATCH.name);
  case RTG_KIND_BARRIER:
    if (ignore_barriers) return no_cmd(c, 0, NULL);
    return QUEUE_OP(BARRIER, RPT_BARRIER, barrier_name(rec)); /* named as rtg-convert does */
  case RTG_KIND_COPY: {
    const rtg_rec_COPY *k = &rec->u.COPY;
    const char *name = RTG_HAS(rec, RTG_FIELD(COPY, kind)) ? k->kind : "copy";
    bool bad = k->stop < k->start;
    return set_cmd(c, bad ? -1 : 1, bad ? backwards : NULL, RPT_COPY, true, false, k->start,
                   k->stop, k->agent,
                   RTG_HAS(rec, RTG_FIELD(COPY, engine)) ? (uint32_t)k->engine : 0,
                   RTG_HAS(rec, RTG_FIELD(COPY, id)) ? (uint32_t)k->id : 0, name, strlen(name),
                   RTG_HAS(rec, RTG_FIELD(COPY, bytes)), k->bytes);
  }
  default:
    return no_cmd(c, 0, NULL);
  }
}

size_t rpt_prepare_line(rtg_line *l, size_t used, rtg_line_space *space, void *opts) {
  if (!rpt_line_is_cmd(l)) return used;
  const rpt_opts *o = opts;
  rpt_cmd *c = (rpt_cmd *)l->u.user; /* (the record is not needed any more) */
  int what = l->cls == RTG_LINE_PROFILE ? profile_command(&l->u.hcc, o->ignore_barriers, c)
                                        : record_command(&l->u.rec, o->ignore_barriers, c);
  size_t keep = offsetof(rpt_cmd, text);
  if (what > 0 && c->name_len < sizeof c->text) { /* (the name lies in the line, not here) */
    memcpy(c->text, c->name, c->name_len);
    c->text[c->name_len] = 0;
    c->inline_name = true;
    keep += c->name_len + 1;
  } else if (what > 0) { /* a long name: kept beside, as the line may not be */
    c->name = rtg_line_keep(space, c->name, c->name_len);
  }
  return keep;
}

bool rpt_db_line(const rtg_line *l) {
  if (l->cls == RTG_LINE_PROFILE) return true;
  if (l->cls != RTG_LINE_RECORD && l->cls != RTG_LINE_BAD) return false;
  if (l->cls == RTG_LINE_BAD && l->len >= 8 && !memcmp(l->text, "profile:", 8)) return true;
  switch (l->kind) { /* the lines of GPU ops (dispatch, barrier, copy), whole or not */
  case RTG_KIND_DISPATCH:
  case RTG_KIND_DISPATCH_HOST:
  case RTG_KIND_BARRIER:
  case RTG_KIND_BARRIER_HOST:
  case RTG_KIND_COPY:
    return true;
  default:
    return false;
  }
}
