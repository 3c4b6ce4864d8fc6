/* The Chrome trace frame and metadata events; see chrome_trace.h. */
#include "chrome_trace.h"

bool rtg_chrome_open(rtg_chrome *c, FILE *f, const char *head, bool async) {
  c->first = true;
  c->events = 0;
  if (!rtg_jsonw_init(&c->w, f)) return false;
  if (async) rtg_jsonw_start_async(&c->w); /* on failure the writes stay on this thread */
  rtg_jsonw_lit(&c->w, head);
  return true;
}

bool rtg_chrome_close(rtg_chrome *c, const char *tail) {
  rtg_jsonw_lit(&c->w, "\n]");
  rtg_jsonw_lit(&c->w, tail);
  return rtg_jsonw_finish(&c->w);
}

void rtg_chrome_meta(rtg_chrome *c, const char *what, uint64_t pid, const uint64_t *tid,
                     const char *key, const char *sval, uint64_t uval) {
  rtg_chrome_event(c, "M");
  RTG_CHROME_STR(c, "name", what);
  RTG_CHROME_U64(c, "pid", pid);
  if (tid) RTG_CHROME_U64(c, "tid", *tid);
  rtg_jsonw_lit(&c->w, ",\"args\":{\"");
  rtg_jsonw_lit(&c->w, key);
  rtg_jsonw_lit(&c->w, "\":");
  if (sval)
    rtg_jsonw_str(&c->w, sval);
  else
    rtg_jsonw_u64(&c->w, uval);
  rtg_jsonw_lit(&c->w, "}}");
}

void rtg_chrome_raw_event(rtg_chrome *c, const char *json) {
  rtg_jsonw_lit(&c->w, c->first ? "" : ",\n");
  c->first = false;
  rtg_jsonw_lit(&c->w, json);
  c->events++;
}
