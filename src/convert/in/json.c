/* Merging existing Chrome JSON files (what cat_timelines.py did): their
 * events are read with cJSON and dispatched like any other event (the
 * --start/--end window applies to "ts", in microseconds); the sinks that
 * take them write them unchanged. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "xalloc.h"

#define MAX_JSON (1ull << 31)

bool cv_read_json(cv_ctx *ctx, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    rtg_error("cannot open input: path=%s: %s", path, strerror(errno));
    return false;
  }
  /* cJSON parses from memory: a JSON file is read whole (Chrome JSON
   * files are bounded by what the viewers load, about 1 GB). */
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size < 0 || (unsigned long long)size > MAX_JSON) {
    rtg_error("cannot read input: path=%s: too large for JSON merging", path);
    fclose(f);
    return false;
  }
  char *buf = rtg_xmalloc((size_t)size + 1, "a Chrome JSON input");
  if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
    rtg_error("cannot read input: path=%s: %s", path,
              ferror(f) ? strerror(errno) : "the file shrank while it was read");
    free(buf);
    fclose(f);
    return false;
  }
  fclose(f);
  buf[size] = 0;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(buf, (size_t)size, &end, 0);
  if (!root) {
    /* where cJSON stopped: byte offset (from 0) and line (from 1) */
    size_t off = end && end >= buf && end <= buf + size ? (size_t)(end - buf) : 0;
    unsigned long long line = 1;
    for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + off - p))); p++) line++;
    rtg_error("cannot parse JSON: path=%s: near byte %zu (line %llu)", path, off, line);
    free(buf);
    return false;
  }
  free(buf);
  cJSON *events =
      cJSON_IsArray(root) ? root : cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
  if (!cJSON_IsArray(events)) {
    rtg_error("cannot merge JSON: path=%s: no traceEvents array", path);
    cJSON_Delete(root);
    return false;
  }
  cJSON *item;
  cJSON_ArrayForEach(item, events) {
    if (!cJSON_IsObject(item) || !item->child) continue; /* the original's trailing {} */
    cv_event ev = {.type = CV_JSON, .json = item, .untimed = true};
    cJSON *ts = cJSON_GetObjectItemCaseSensitive(item, "ts");
    if (cJSON_IsNumber(ts)) {
      double ns = ts->valuedouble * 1000.0;
      ev.start = ev.end = (uint64_t)llround(ns < 0 ? 0 : ns);
      ev.untimed = false;
    }
    cv_dispatch(ctx, &ev);
  }
  cJSON_Delete(root);
  return true;
}
