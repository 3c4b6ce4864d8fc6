/* -g: the ROI's commands as a Chrome-tracing / Perfetto JSON file.  The
 * original wrote one X event per command on pid 1, tid = queue, with
 * args "dev.queue.op" and "stop"; its file was not valid JSON (a bare
 * "meta_event" inside the array, names unescaped).  Here the same events
 * are written through the shared JSON writer, one process per resource
 * (GPU0, GPU1, ..., DATA) so queues of different GPUs do not share a track,
 * with exact fractional microseconds. */
#include "diag.h"
#include "jsonw.h"
#include "rpt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* DATA after every possible GPU number. */
static uint64_t pid_of(const rpt_rec *r) {
  return rpt_is_copy(r->type) ? UINT16_MAX + 1u : r->device;
}

/* Events are comma-separated: all but the first start with ",\n". */
static void next_event(rtg_jsonw *w, bool *first) {
  rtg_jsonw_lit(w, *first ? "\n{" : ",\n{");
  *first = false;
}

static void meta(rtg_jsonw *w, bool *first, const char *what, uint64_t pid, int64_t tid,
                 const char *name) {
  next_event(w, first);
  rtg_jsonw_lit(w, "\"ph\":\"M\",\"name\":\"");
  rtg_jsonw_lit(w, what);
  rtg_jsonw_lit(w, "\",\"pid\":");
  rtg_jsonw_u64(w, pid);
  if (tid >= 0) {
    rtg_jsonw_lit(w, ",\"tid\":");
    rtg_jsonw_i64(w, tid);
  }
  rtg_jsonw_lit(w, ",\"args\":{\"name\":");
  rtg_jsonw_str(w, name);
  rtg_jsonw_lit(w, "}}");
}

bool rpt_gui_trace(const char *path, const rpt_data *d, const uint32_t *order, size_t from,
                   size_t to) {
  FILE *f = fopen(path, "w");
  if (!f) {
    rtg_error("cannot open file: path=%s: %s", path, strerror(errno));
    return false;
  }
  rtg_jsonw w;
  if (!rtg_jsonw_init(&w, f)) {
    fclose(f);
    rtg_error("out of memory");
    return false;
  }
  rtg_u64map tracks = {0}; /* (pid << 32 | queue) seen */
  bool first = true;
  rtg_jsonw_lit(&w, "{\"traceEvents\":[");
  for (size_t p = from; p < to; p++) {
    const rpt_rec *r = &d->recs[order[p]];
    uint64_t pid = pid_of(r);
    bool added;
    if (!rtg_u64map_put(&tracks, pid << 32 | r->queue, 0, &added)) abort();
    next_event(&w, &first);
    rtg_jsonw_lit(&w, "\"ph\":\"X\",\"pid\":");
    rtg_jsonw_u64(&w, pid);
    rtg_jsonw_lit(&w, ",\"tid\":");
    rtg_jsonw_u64(&w, r->queue);
    rtg_jsonw_lit(&w, ",\"ts\":");
    rtg_jsonw_ns_as_us(&w, r->start);
    rtg_jsonw_lit(&w, ",\"dur\":");
    rtg_jsonw_ns_as_us(&w, r->stop - r->start);
    rtg_jsonw_lit(&w, ",\"name\":");
    const char *name = rtg_strtab_get(d->names, r->name);
    rtg_jsonw_str(&w, *name ? name : rpt_type_names[r->type]); /* unnamed barriers */
    rtg_jsonw_lit(&w, ",\"cat\":\"");
    rtg_jsonw_lit(&w, rpt_type_names[r->type]);
    char op[64];
    snprintf(op, sizeof op, "%u.%u.%u", (unsigned)r->device, (unsigned)r->queue, (unsigned)r->seq);
    rtg_jsonw_lit(&w, "\",\"args\":{\"dev.queue.op\":\"");
    rtg_jsonw_lit(&w, op);
    rtg_jsonw_lit(&w, "\",\"stop\":");
    rtg_jsonw_ns_as_us(&w, r->stop);
    rtg_jsonw_lit(&w, ",\"line\":");
    rtg_jsonw_u64(&w, r->line);
    rtg_jsonw_lit(&w, "}}");
  }
  /* Names of the resources (processes) and queues (threads), sorted so
   * the file does not depend on hash order. */
  uint64_t *keys = malloc((tracks.n + 1) * sizeof *keys), key, val;
  if (!keys) abort();
  size_t nkeys = 0;
  for (size_t it = 0; rtg_u64map_next(&tracks, &it, &key, &val);) keys[nkeys++] = key;
  qsort(keys, nkeys, sizeof *keys, cmp_u64);
  for (size_t k = 0; k < nkeys; k++) {
    uint64_t pid = keys[k] >> 32, queue = keys[k] & 0xffffffffu;
    char name[32];
    if (k == 0 || keys[k - 1] >> 32 != pid) {
      if (pid > UINT16_MAX)
        snprintf(name, sizeof name, "DATA");
      else
        snprintf(name, sizeof name, "GPU%llu", (unsigned long long)pid);
      meta(&w, &first, "process_name", pid, -1, name);
    }
    snprintf(name, sizeof name, "stream:%llu", (unsigned long long)queue);
    meta(&w, &first, "thread_name", pid, (int64_t)queue, name);
  }
  free(keys);
  rtg_jsonw_lit(&w, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"rpt\"}}\n");
  rtg_u64map_free(&tracks);
  bool ok = rtg_jsonw_finish(&w);
  if (fclose(f) != 0) ok = false;
  if (!ok) rtg_error("cannot write file: path=%s: %s", path, strerror(errno));
  return ok;
}
