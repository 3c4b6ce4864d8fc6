/* What a line classified by the common reader is to rpt: a command (a
 * kernel, barrier or copy with its times), text, or a bad line.
 *   - "profile:" lines (HCC_PROFILE=2) name their command type, and a copy
 *     is named "<direction>_<bytes>_bytes" as the original rpt did;
 *   - rtg trace records: dispatch, barrier and copy records are commands
 *     (their agent value is numbered into a GPU once the file is read);
 *     every other record is text.
 * A command whose stop is before its start cannot be accounted: bad. */
#include "rpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A name that must be built ("HostToDevice_16384_bytes"); it lives until
 * the next one is built. */
static const char *build_name(const char *dir, size_t n, bool has_bytes, uint64_t bytes,
                              size_t *len) {
  static char *buf;
  static size_t cap;
  if (n + 32 > cap) {
    cap = n + 32 + 256;
    free(buf);
    buf = malloc(cap);
    if (!buf) abort();
  }
  memcpy(buf, dir, n);
  buf[n] = 0;
  *len = n;
  if (has_bytes) *len += (size_t)snprintf(buf + n, 32, "_%llu_bytes", (unsigned long long)bytes);
  return buf;
}

static int profile_type(const rtg_hcc_profile *p) {
  for (int t = 0; t < RPT_NTYPES; t++)
    if (rtg_hcc_profile_type_is(p, rpt_type_names[t])) return t;
  return -1;
}

static int profile_command(const rtg_hcc_profile *p, bool ignore_barriers, rpt_cmd *c,
                           const char **why) {
  if (!(p->flags & RTG_HCC_HAS_TIMES))
    return *why = "profile line without start and stop times", -1;
  if (p->stop < p->start) return *why = "profile line whose stop is before its start", -1;
  int type = profile_type(p);
  if (type < 0) return *why = "profile line of an unknown command type", -1;
  if (ignore_barriers && type == RPT_BARRIER) return 0;
  if (p->device > UINT16_MAX) return *why = "device number out of range", -1;
  *c = (rpt_cmd){
      .type = (uint8_t)type,
      .bad_op = (p->flags & RTG_HCC_BAD_OP) != 0,
      .start = p->start,
      .stop = p->stop,
      .agent = p->device,
      .queue = p->queue,
      .seq = (uint32_t)p->seq,
      .name = p->name,
      .name_len = p->name_len,
  };
  if (rpt_is_copy(c->type)) {
    c->no_bytes = !(p->flags & RTG_HCC_HAS_BYTES);
    c->name = build_name(p->name, p->name_len, !c->no_bytes, p->bytes, &c->name_len);
  } else if (type == RPT_BARRIER) {
    /* The original's barrier rule: a name "depcnt,acquire,release" (three
     * parts) marks a barrier with dependencies, whose start is moved to its
     * stop so it does not hide the commands it waits for. */
    const char *c1 = memchr(p->name, ',', p->name_len);
    const char *c2 = c1 ? memchr(c1 + 1, ',', p->name_len - (size_t)(c1 + 1 - p->name)) : NULL;
    if (c2 && !memchr(c2 + 1, ',', p->name_len - (size_t)(c2 + 1 - p->name))) c->start = c->stop;
  }
  return 1;
}

/* A dispatch or barrier record (K) as a command of type t named nm. */
#define QUEUE_OP(K, t, nm)                                                                         \
  (rpt_cmd) {                                                                                      \
    .type = t, .start = rec->u.K.start, .stop = rec->u.K.stop, .agent = rec->u.K.agent,            \
    .queue = (uint32_t)rec->u.K.queue, .seq = (uint32_t)rec->u.K.id, .name = nm,                   \
    .name_len = strlen(nm)                                                                         \
  }

static int record_command(const rtg_record *rec, bool ignore_barriers, rpt_cmd *c,
                          const char **why) {
  const char *name;
  switch (rec->kind) {
  case RTG_KIND_DISPATCH:
    *c = QUEUE_OP(DISPATCH, RPT_KERNEL, rec->u.DISPATCH.name);
    break;
  case RTG_KIND_BARRIER:
    if (ignore_barriers) return 0;
    *c = QUEUE_OP(BARRIER, RPT_BARRIER, ""); /* the original's HCC_PROFILE barriers had no name */
    break;
  case RTG_KIND_COPY:
    name = RTG_HAS(rec, RTG_FIELD(COPY, kind)) ? rec->u.COPY.kind : "copy";
    *c = (rpt_cmd){
        .type = RPT_COPY,
        .start = rec->u.COPY.start,
        .stop = rec->u.COPY.stop,
        .agent = rec->u.COPY.agent,
        .queue = RTG_HAS(rec, RTG_FIELD(COPY, engine)) ? (uint32_t)rec->u.COPY.engine : 0,
        .seq = RTG_HAS(rec, RTG_FIELD(COPY, id)) ? (uint32_t)rec->u.COPY.id : 0,
    };
    c->name = build_name(name, strlen(name), RTG_HAS(rec, RTG_FIELD(COPY, bytes)),
                         rec->u.COPY.bytes, &c->name_len);
    break;
  default:
    return 0;
  }
  c->trace = true;
  if (c->stop < c->start) return *why = "record whose stop is before its start", -1;
  return 1;
}

int rpt_command(const rtg_line *l, bool ignore_barriers, rpt_cmd *c, const char **why) {
  if (l->cls == RTG_LINE_PROFILE) return profile_command(&l->u.hcc, ignore_barriers, c, why);
  if (l->cls == RTG_LINE_RECORD) return record_command(&l->u.rec, ignore_barriers, c, why);
  return 0;
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
