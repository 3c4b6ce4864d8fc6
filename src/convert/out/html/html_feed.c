/* The timeline's events, from the thread that dispatches them to a thread
 * of the report's own that files them (ht_file), in their order (html.h),
 * through a feed (shared/feed.h): the dispatching thread copies each
 * event's few fields and strings into its blocks.  Where no thread can be
 * started, or the process runs on one CPU, events are filed as they come. */
#include <string.h>

#include "html.h"
#include "shared/feed.h"

enum { HT_FEED_BLOCKS = 64 };

/* An event in a block: its fields (the strings' pointers unused), then its
 * name and arguments, each with its NUL; lengths + 1, 0: NULL. */
typedef struct rec {
  ht_in in;
  uint32_t name_len1, args_len1;
} rec;

static void file_block(void *arg, const unsigned char *data, size_t used) {
  ht_state *h = arg;
  for (size_t at = 0; at < used;) {
    rec r;
    memcpy(&r, data + at, sizeof r);
    const char *s = (const char *)data + at + sizeof r;
    r.in.name = r.name_len1 ? s : NULL;
    s += r.name_len1;
    r.in.args = r.args_len1 ? s : NULL;
    s += r.args_len1;
    at = ((size_t)((const unsigned char *)s - data) + 7) & ~(size_t)7;
    ht_file(h, &r.in);
  }
}

void ht_feed_start(ht_state *h) {
  h->feed = cv_feed_start(file_block, h, HT_FEED_BLOCKS);
}

void ht_feed_put(ht_state *h, const ht_in *in) {
  if (!h->feed) {
    ht_file(h, in);
    return;
  }
  size_t nl = in->name ? strlen(in->name) + 1 : 0, al = in->args ? strlen(in->args) + 1 : 0;
  size_t need = (sizeof(rec) + nl + al + 7) & ~(size_t)7;
  unsigned char *p = cv_feed_put(h->feed, need);
  rec r = {*in, (uint32_t)nl, (uint32_t)al};
  r.in.name = r.in.args = NULL;
  memcpy(p, &r, sizeof r);
  p += sizeof r;
  if (nl) memcpy(p, in->name, nl), p += nl;
  if (al) memcpy(p, in->args, al);
}

void ht_feed_end(ht_state *h) {
  cv_feed_end(h->feed);
  h->feed = NULL;
}
