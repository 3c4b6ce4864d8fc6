/* -g: the ROI's commands as a Chrome-tracing / Perfetto JSON file.  The
 * original wrote one X event per command on pid 1, tid = queue, with
 * args "dev.queue.op" and "stop"; its file was not valid JSON (a bare
 * "meta_event" inside the array, names unescaped).  Here the same events
 * are written through the shared JSON writer, one process per resource
 * (GPU0, GPU1, ..., DATA) so queues of different GPUs do not share a track,
 * with exact fractional microseconds. */
#include "diag.h"
#include "chrome_trace.h"
#include "outfile.h"
#include "rpt.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* DATA after every possible GPU number, other devices after DATA. */
#define DATA_PID (UINT16_MAX + 1u)
static uint64_t pid_of(const rpt_rec *r) {
  if (rpt_is_copy(r->type)) return DATA_PID;
  return r->devclass == RTG_DEV_GPU ? r->device : DATA_PID + rpt_device_index(r);
}

bool rpt_gui_trace(const char *to_path, const char *path, const rpt_data *d, const uint32_t *order,
                   size_t from, size_t to) {
  FILE *f = fopen(to_path, "w");
  if (!f) {
    rtg_error("cannot open file: path=%s: %s", path, strerror(errno));
    return false;
  }
  rtg_chrome c;
  if (!rtg_chrome_open(&c, f, "{\"traceEvents\":[\n", false))
    rtg_out_of_memory("the -g trace's buffer");
  rtg_u64map tracks = {0}; /* (pid << 32 | queue) seen */
  for (size_t p = from; p < to; p++) {
    const rpt_rec *r = &d->recs[order[p]];
    uint64_t pid = pid_of(r);
    bool added;
    if (!rtg_u64map_put(&tracks, pid << 32 | r->queue, 0, &added))
      rtg_out_of_memory("the tracks of the -g trace");
    rtg_chrome_event(&c, "X");
    RTG_CHROME_U64(&c, "pid", pid);
    RTG_CHROME_U64(&c, "tid", r->queue);
    RTG_CHROME_US(&c, "ts", r->start);
    RTG_CHROME_US(&c, "dur", r->stop - r->start);
    const char *name = rtg_strtab_get(d->names, r->name);
    RTG_CHROME_STR(&c, "name", *name ? name : rpt_type_names[r->type]); /* unnamed barriers */
    RTG_CHROME_STR(&c, "cat", rpt_type_names[r->type]);
    char op[64];
    snprintf(op, sizeof op, "%u.%u.%u", (unsigned)r->device, (unsigned)r->queue, (unsigned)r->seq);
    rtg_jsonw_lit(&c.w, ",\"args\":{");
    rtg_jsonw_lit(&c.w, "\"dev.queue.op\":");
    rtg_jsonw_str(&c.w, op);
    RTG_CHROME_US(&c, "stop", r->stop);
    RTG_CHROME_U64(&c, "line", r->line);
    rtg_jsonw_lit(&c.w, "}}");
  }
  /* Names of the resources (processes) and queues (threads), sorted so
   * the file does not depend on hash order. */
  uint64_t *keys = rtg_xmalloc((tracks.n + 1) * sizeof *keys, "the tracks of the -g trace"), key,
           val;
  size_t nkeys = 0;
  for (size_t it = 0; rtg_u64map_next(&tracks, &it, &key, &val);) keys[nkeys++] = key;
  qsort(keys, nkeys, sizeof *keys, cmp_u64);
  for (size_t k = 0; k < nkeys; k++) {
    uint64_t pid = keys[k] >> 32, queue = keys[k] & 0xffffffffu;
    char name[32];
    if (k == 0 || keys[k - 1] >> 32 != pid) {
      if (pid == DATA_PID)
        snprintf(name, sizeof name, "DATA");
      else if (pid < DATA_PID)
        rtg_device_name(RTG_DEVICE(RTG_DEV_GPU, pid), name, sizeof name);
      else /* (class << 16 | number) after DATA */
        rtg_device_name(RTG_DEVICE((pid - DATA_PID) >> 16, (pid - DATA_PID) & 0xffff), name,
                        sizeof name);
      rtg_chrome_meta(&c, "process_name", pid, NULL, "name", name, 0);
    }
    snprintf(name, sizeof name, "stream:%llu", (unsigned long long)queue);
    rtg_chrome_meta(&c, "thread_name", pid, &queue, "name", name, 0);
  }
  free(keys);
  rtg_u64map_free(&tracks);
  bool ok =
      rtg_chrome_close(&c, ",\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"rpt\"}}\n");
  if (!rtg_out_close(f)) ok = false;
  if (!ok) rtg_error("cannot write file: path=%s: %s", path, rtg_out_why());
  return ok;
}
