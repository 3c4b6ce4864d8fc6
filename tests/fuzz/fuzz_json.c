/* libFuzzer target: rtg-convert's Chrome JSON merging (src/convert/in/json.c, cJSON)
 * into its Chrome JSON output (src/convert/out/chrome/chrome.c).  The input is written to a file
 * and read by cv_read_json as rtg-convert reads a .json input: its events
 * go through cv_dispatch to the sinks.
 * Oracles: no crash; when the file is accepted, the output is valid JSON
 * and holds exactly the input's non-empty event objects, in order and
 * printing the same (not cJSON_Compare: it cannot tell objects with
 * repeated keys apart), and the count of merged events says as many;
 * when it is refused, nothing was merged. */
#include "fuzz_cv.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  fz_setup();
  fz_write(fz_in, data, size);
  cv_ctx ctx;
  fz_ctx_init(&ctx);
  ctx.opt.json_out = fz_json;
  if (!cv_add_sink(&ctx, &cv_chrome_sink)) abort();
  bool read_ok = cv_read_json(&ctx, fz_in);
  uint64_t merged = ctx.counts[CVC_JSON_EVENTS];
  if (!fz_ctx_finish(&ctx)) abort();
  if (!read_ok && merged) abort();

  cJSON *root, *out = fz_check_chrome(fz_json, &root);
  /* the input as the reader saw it */
  cJSON *in_root = cJSON_ParseWithLength((const char *)data, size);
  if (read_ok != (in_root != NULL &&
                  (cJSON_IsArray(in_root) ||
                   cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(in_root, "traceEvents")))))
    abort();
  uint64_t n_out = (uint64_t)cJSON_GetArraySize(out);
  if (n_out != merged) abort();
  if (read_ok) {
    cJSON *in =
        cJSON_IsArray(in_root) ? in_root : cJSON_GetObjectItemCaseSensitive(in_root, "traceEvents");
    cJSON *ev, *o = out->child;
    cJSON_ArrayForEach(ev, in) {
      if (!cJSON_IsObject(ev) || !ev->child) continue;
      if (!o) abort();
      char *a = cJSON_PrintUnformatted(ev), *b = cJSON_PrintUnformatted(o);
      if (!a || !b || strcmp(a, b)) abort();
      free(a);
      free(b);
      o = o->next;
    }
    if (o) abort();
  }
  cJSON_Delete(in_root);
  cJSON_Delete(root);
  return 0;
}
