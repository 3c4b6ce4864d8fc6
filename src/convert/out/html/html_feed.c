/* The timeline's events, from the thread that dispatches them to a thread
 * of the report's own that files them (ht_file), in their order (html.h).
 * The dispatching thread copies each event's few fields and strings into
 * blocks; a full block goes to the filing thread, which hands it back
 * once filed.  At most HT_FEED_BLOCKS wait at a time: the dispatching
 * thread waits for one back rather than hold more.  Where no thread can
 * be started, events are filed as they come. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

#define BLOCK_BYTES ((size_t)256 << 10)
#define HT_FEED_BLOCKS 64

typedef struct block {
  struct block *next;
  size_t cap, used;
  unsigned char data[];
} block;

struct ht_feed {
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t filled, freed;
  block *head, *tail; /* full, in order */
  block *spare;       /* filed, to fill again */
  block *cur;         /* being filled */
  unsigned nblocks;   /* of BLOCK_BYTES, in use or spare */
  bool done;
};

/* An event in a block: its fields (the strings' pointers unused), then its
 * name and arguments, each with its NUL; lengths + 1, 0: NULL. */
typedef struct rec {
  ht_in in;
  uint32_t name_len1, args_len1;
} rec;

static void file_block(ht_state *h, const block *b) {
  for (size_t at = 0; at < b->used;) {
    rec r;
    memcpy(&r, b->data + at, sizeof r);
    const char *s = (const char *)b->data + at + sizeof r;
    r.in.name = r.name_len1 ? s : NULL;
    s += r.name_len1;
    r.in.args = r.args_len1 ? s : NULL;
    s += r.args_len1;
    at = ((size_t)((const unsigned char *)s - b->data) + 7) & ~(size_t)7;
    ht_file(h, &r.in);
  }
}

static void *filer(void *arg) {
  ht_state *h = arg;
  ht_feed *f = h->feed;
  pthread_mutex_lock(&f->mu);
  for (;;) {
    while (!f->head && !f->done) pthread_cond_wait(&f->filled, &f->mu);
    block *b = f->head;
    if (!b) break;
    f->head = b->next;
    if (!f->head) f->tail = NULL;
    pthread_mutex_unlock(&f->mu);
    file_block(h, b);
    pthread_mutex_lock(&f->mu);
    if (b->cap == BLOCK_BYTES) {
      b->next = f->spare;
      f->spare = b;
    } else
      free(b); /* (one event's, larger than a block) */
    pthread_cond_signal(&f->freed);
  }
  pthread_mutex_unlock(&f->mu);
  return NULL;
}

void ht_feed_start(ht_state *h) {
  ht_feed *f = calloc(1, sizeof *f);
  if (!f) oom();
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->filled, NULL);
  pthread_cond_init(&f->freed, NULL);
  h->feed = f;
  if (pthread_create(&f->th, NULL, filer, h)) {
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->filled);
    pthread_cond_destroy(&f->freed);
    free(f);
    h->feed = NULL;
  }
}

static void submit(ht_feed *f, block *b) {
  b->next = NULL;
  pthread_mutex_lock(&f->mu);
  if (f->tail)
    f->tail->next = b;
  else
    f->head = b;
  f->tail = b;
  pthread_cond_signal(&f->filled);
  pthread_mutex_unlock(&f->mu);
}

/* A block with room for need bytes (a spare one, a new one, or one given
 * back). */
static block *take(ht_feed *f, size_t need) {
  block *b = NULL;
  if (need > BLOCK_BYTES) {
    b = malloc(sizeof *b + need);
    if (!b) oom();
    b->cap = need;
  } else {
    pthread_mutex_lock(&f->mu);
    while (!f->spare && f->nblocks >= HT_FEED_BLOCKS) pthread_cond_wait(&f->freed, &f->mu);
    if (f->spare) {
      b = f->spare;
      f->spare = b->next;
    } else
      f->nblocks++;
    pthread_mutex_unlock(&f->mu);
    if (!b) {
      b = malloc(sizeof *b + BLOCK_BYTES);
      if (!b) oom();
      b->cap = BLOCK_BYTES;
    }
  }
  b->used = 0;
  return b;
}

void ht_feed_put(ht_state *h, const ht_in *in) {
  ht_feed *f = h->feed;
  if (!f) {
    ht_file(h, in);
    return;
  }
  size_t nl = in->name ? strlen(in->name) + 1 : 0, al = in->args ? strlen(in->args) + 1 : 0;
  size_t need = (sizeof(rec) + nl + al + 7) & ~(size_t)7;
  if (!f->cur || f->cur->cap - f->cur->used < need) {
    if (f->cur) submit(f, f->cur);
    f->cur = take(f, need);
  }
  unsigned char *p = f->cur->data + f->cur->used;
  rec r = {*in, (uint32_t)nl, (uint32_t)al};
  r.in.name = r.in.args = NULL;
  memcpy(p, &r, sizeof r);
  p += sizeof r;
  if (nl) memcpy(p, in->name, nl), p += nl;
  if (al) memcpy(p, in->args, al);
  f->cur->used += need;
}

void ht_feed_end(ht_state *h) {
  ht_feed *f = h->feed;
  if (!f) return;
  if (f->cur) submit(f, f->cur);
  f->cur = NULL;
  pthread_mutex_lock(&f->mu);
  f->done = true;
  pthread_cond_signal(&f->filled);
  pthread_mutex_unlock(&f->mu);
  pthread_join(f->th, NULL);
  while (f->spare) {
    block *b = f->spare;
    f->spare = b->next;
    free(b);
  }
  pthread_mutex_destroy(&f->mu);
  pthread_cond_destroy(&f->filled);
  pthread_cond_destroy(&f->freed);
  free(f);
  h->feed = NULL;
}
