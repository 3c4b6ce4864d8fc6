/* Resources and their accounting, with the original rpt's semantics.
 * A resource is a device (kernels and barriers of GPU<n>; agents.h names
 * them) or DATA (copies).
 * Records arrive in start order; on each resource:
 *   - a command that starts before the latest stop seen so far overlaps
 *     it and counts only its part after that stop (its "critical time",
 *     possibly 0); otherwise all of it counts;
 *   - the idle time between the latest stop and a command's start is a
 *     gap, summed into the bucket row of its size;
 *   - busy time is the sum of critical times.
 * Rows are keyed by name id (bit 32 set for gap buckets, so a kernel named
 * like a gap row stays apart) and kept in order of first appearance; every
 * name is interned before the walk, so a flat array maps ids to rows. */
#include "diag.h"
#include "rpt.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static uint32_t intern_str(rtg_strtab *t, const char *s) {
  uint32_t id = rtg_strtab_intern(t, s, strlen(s));
  if (id == UINT32_MAX) rtg_out_of_memory("the table of names");
  return id;
}

void rpt_resources_init(rpt_resources *rs, rtg_strtab *names, rtg_gap_buckets buckets) {
  memset(rs, 0, sizeof *rs);
  rs->buckets = buckets;
  rs->gap_names = rtg_xmalloc((buckets.n + 1) * sizeof *rs->gap_names, "the gap bucket names");
  char buf[96];
  for (size_t i = 0; i <= buckets.n; i++)
    rs->gap_names[i] = intern_str(names, rtg_gap_bucket_name(&buckets, i, buf, sizeof buf));
  rs->nnames = rtg_strtab_count(names);
}

static void free_resource(rpt_resource *r) {
  if (!r) return;
  free(r->rows);
  free(r->row_of);
  free(r);
}

void rpt_resources_free(rpt_resources *rs) {
  for (size_t i = 0; i < rs->ngpu; i++) free_resource(rs->gpu[i]);
  free(rs->gpu);
  free_resource(rs->data);
  free(rs->gap_names);
  memset(rs, 0, sizeof *rs);
}

const char *rpt_resource_name(const rpt_rec *r, char buf[16]) {
  if (rpt_is_copy(r->type)) return "DATA";
  return rtg_device_name(rpt_rec_device(r), buf, 16);
}

static rpt_resource *new_resource(const rpt_resources *rs, const char *name) {
  rpt_resource *r = rtg_xcalloc(1, sizeof *r, "a resource");
  size_t n = rs->nnames + rs->buckets.n + 1;
  r->row_of = rtg_xmalloc(n * sizeof *r->row_of, "a resource's rows");
  memset(r->row_of, 0xff, n * sizeof *r->row_of);
  snprintf(r->name, sizeof r->name, "%s", name);
  return r;
}

static rpt_resource *resource_new_of(rpt_resources *rs, const rpt_rec *r) {
  if (rpt_is_copy(r->type)) {
    if (!rs->data) rs->data = new_resource(rs, "DATA");
    return rs->data;
  }
  uint32_t ix = rpt_device_index(r);
  if (ix >= rs->ngpu) {
    size_t n = (size_t)ix + 1;
    rpt_resource **g = rtg_xrealloc(rs->gpu, n * sizeof *g, "the table of GPUs");
    memset(g + rs->ngpu, 0, (n - rs->ngpu) * sizeof *g);
    rs->gpu = g;
    rs->ngpu = n;
  }
  if (!rs->gpu[ix]) {
    char name[16];
    rs->gpu[ix] = new_resource(rs, rpt_resource_name(r, name));
  }
  return rs->gpu[ix];
}

static inline rpt_resource *resource_of(rpt_resources *rs, const rpt_rec *r) {
  uint32_t ix = rpt_device_index(r);
  rpt_resource *res = rpt_is_copy(r->type) ? rs->data : ix < rs->ngpu ? rs->gpu[ix] : NULL;
  return res ? res : resource_new_of(rs, r);
}

rpt_resource *rpt_resource_of(rpt_resources *rs, const rpt_rec *r) {
  return resource_of(rs, r);
}

static __attribute__((noinline)) uint32_t new_row(rpt_resource *res, uint64_t key, size_t slot,
                                                  uint64_t t) {
  res->row_of[slot] = (uint32_t)res->nrows;
  if (res->nrows == res->cap) {
    res->cap = res->cap ? 2 * res->cap : 16;
    res->rows = rtg_xrealloc(res->rows, res->cap * sizeof *res->rows, "a resource's rows");
  }
  res->rows[res->nrows++] = (rpt_row){.key = key, .min = t, .max = t};
  return res->row_of[slot];
}

static inline void add_row(rpt_resource *res, uint64_t key, size_t slot, uint64_t t) {
  uint32_t i = res->row_of[slot];
  if (i == UINT32_MAX) i = new_row(res, key, slot, t);
  rpt_row *row = &res->rows[i];
  row->total += t;
  row->calls++;
  row->min = t < row->min ? t : row->min;
  row->max = t > row->max ? t : row->max;
}

/* Whether a command overlaps the one before it is as good as random: the
 * choices below are selects, not branches the CPU would mispredict. */
static inline uint64_t resource_add(rpt_resources *rs, rpt_resource *res, const rpt_rec *r,
                                    uint64_t *gap) {
  uint64_t start = r->start, stop = r->stop, max = res->max_stop;
  bool have = res->have_max, overlap = have & (start < max);
  uint64_t over = -(uint64_t)overlap; /* all ones when it overlaps */
  uint64_t after = (stop - max) & -(uint64_t)(stop > max);
  uint64_t crit = (after & over) | ((stop - start) & ~over);
  uint64_t g = (start - max) & -(uint64_t)(have & !overlap);
  res->max_stop = max ^ ((max ^ stop) & -(uint64_t)(!have | (stop > max)));
  res->have_max = true;
  *gap = g;

  add_row(res, r->name, r->name, crit);
  if (g > 0) {
    size_t b = rtg_gap_bucket(&rs->buckets, g);
    add_row(res, RPT_GAP_BIT | b, rs->nnames + b, g);
  }
  res->busy += crit;
  return crit;
}

uint64_t rpt_resource_add(rpt_resources *rs, rpt_resource *res, const rpt_rec *r, uint64_t *gap) {
  return resource_add(rs, res, r, gap);
}
