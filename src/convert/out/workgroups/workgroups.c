/* -w: the distinct (workgroup size, kernel) pairs of all dispatches,
 * sorted by size, as the original converter printed them. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "xalloc.h"

typedef struct wg {
  cv_ctx *ctx;
  rtg_strtab *seen; /* "x,y,z\tname" */
} wg;

static void *wg_open(cv_ctx *ctx) {
  wg *w = rtg_xcalloc(1, sizeof *w, "the -w report");
  if (!(w->seen = rtg_strtab_new())) rtg_out_of_memory("the -w report's kernel names");
  w->ctx = ctx;
  return w;
}

static void wg_event(void *st, const cv_event *ev) {
  wg *w = st;
  if ((ev->type != CV_KERNEL && ev->type != CV_HOST_DISPATCH) || !ev->has_dims) return;
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "%u,%u,%u\t%s", ev->wg.x, ev->wg.y, ev->wg.z, ev->name);
  if (n >= (int)sizeof buf) n = sizeof buf - 1;
  rtg_strtab_intern(w->seen, buf, (size_t)n);
}

typedef struct row {
  uint64_t size;
  unsigned x, y, z;
  const char *name;
} row;

static int cmp_row(const void *a, const void *b) {
  const row *p = a, *q = b;
  if (p->size != q->size) return p->size < q->size ? -1 : 1;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  if (p->y != q->y) return p->y < q->y ? -1 : 1;
  if (p->z != q->z) return p->z < q->z ? -1 : 1;
  return strcmp(p->name, q->name);
}

static bool wg_close(void *st) {
  wg *w = st;
  uint32_t n = rtg_strtab_count(w->seen);
  row *rows = rtg_xcalloc(n, sizeof *rows, "the -w report's rows");
  for (uint32_t i = 0; i < n; i++) {
    const char *s = rtg_strtab_get(w->seen, i);
    sscanf(s, "%u,%u,%u", &rows[i].x, &rows[i].y, &rows[i].z);
    rows[i].name = strchr(s, '\t') + 1;
    rows[i].size = (uint64_t)rows[i].x * rows[i].y * rows[i].z;
  }
  qsort(rows, n, sizeof *rows, cmp_row);
  FILE *f = w->ctx->report;
  fprintf(f, "workgroups (size (x, y, z) kernel):\n");
  for (uint32_t i = 0; i < n; i++)
    fprintf(f, "%llu (%u, %u, %u) %s\n", (unsigned long long)rows[i].size, rows[i].x, rows[i].y,
            rows[i].z, rows[i].name);
  free(rows);
  rtg_strtab_free(w->seen);
  free(w);
  return true;
}

const cv_sink cv_workgroups_sink = {
    .name = "workgroups",
    .open = wg_open,
    .event = wg_event,
    .close = wg_close,
};
