/* Writing a Chrome trace (the JSON that chrome://tracing and Perfetto
 * open), shared by rtg-convert -o and rpt -g:
 *
 *   HEAD "traceEvents":[
 *   {"ph":"X","name":...,...},
 *   {"ph":"M","name":"process_name","pid":1,"args":{"name":"GPU0"}}
 *   ]TAIL
 *
 * one event a line.  Each tool writes its events' members in its own
 * order with the key helpers below (keys are literals, copied as one piece
 * of known size: this runs for every member of millions of events); the
 * frame, the event separators and the metadata events are written here. */
#ifndef RTG_CHROME_TRACE_H
#define RTG_CHROME_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jsonw.h"

typedef struct rtg_chrome {
  rtg_jsonw w;
  bool first;      /* no event written yet */
  uint64_t events; /* written so far */
} rtg_chrome;

/* Start the document on f (not closed here): head must end with
 * "\"traceEvents\":[\n".  async: a thread of its own writes the bytes
 * (rtg_jsonw_start_async).  False when memory runs out. */
bool rtg_chrome_open(rtg_chrome *c, FILE *f, const char *head, bool async);

/* End the document: "\n]" then tail.  False when a write failed. */
bool rtg_chrome_close(rtg_chrome *c, const char *tail);

/* Begin an event: {"ph":"PH" -- its members follow, each with a key. */
static inline void rtg_chrome_event(rtg_chrome *c, const char *ph) {
  rtg_jsonw_lit(&c->w, c->first ? "{\"ph\":\"" : ",\n{\"ph\":\"");
  c->first = false;
  rtg_jsonw_lit(&c->w, ph);
  rtg_jsonw_ch(&c->w, '"');
  c->events++;
}

/* An event whose text (n bytes, from its "{") was made already; more of
 * it may follow. */
static inline void rtg_chrome_event_text(rtg_chrome *c, const char *s, size_t n) {
  if (!c->first) rtg_jsonw_raw(&c->w, ",\n", 2);
  c->first = false;
  rtg_jsonw_raw(&c->w, s, n);
  c->events++;
}

/* ,"key": -- key must be a string literal. */
#define RTG_CHROME_KEY(c, key) rtg_jsonw_raw(&(c)->w, ",\"" key "\":", sizeof(",\"" key "\":") - 1)
#define RTG_CHROME_STR(c, key, v) (RTG_CHROME_KEY(c, key), rtg_jsonw_str(&(c)->w, v))
#define RTG_CHROME_U64(c, key, v) (RTG_CHROME_KEY(c, key), rtg_jsonw_u64(&(c)->w, v))
/* a time in ns, written as microseconds with exact decimals */
#define RTG_CHROME_US(c, key, ns) (RTG_CHROME_KEY(c, key), rtg_jsonw_ns_as_us(&(c)->w, ns))

/* A metadata event: {"ph":"M","name":WHAT,"pid":P[,"tid":T],"args":{KEY:V}}
 * with V the string sval, or the number uval when sval is NULL. */
void rtg_chrome_meta(rtg_chrome *c, const char *what, uint64_t pid, const uint64_t *tid,
                     const char *key, const char *sval, uint64_t uval);

/* An event already in JSON (one merged from another trace), as it is. */
void rtg_chrome_raw_event(rtg_chrome *c, const char *json);

#endif
