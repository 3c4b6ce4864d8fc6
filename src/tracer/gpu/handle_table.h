/* Tables keyed by a signal handle: a fixed number of buckets, each a list
 * under its own lock (handle_table.c).  Signals the tracer follows
 * (sigtrack.c) and signals the application watches (async_handlers.c) are
 * kept in one each.  An entry starts with an rtg_handle_node; the table's
 * user says what else it holds, and frees it. */
#ifndef RTG_HANDLE_TABLE_H
#define RTG_HANDLE_TABLE_H

#include "core/spin.h"
#include "core/visibility.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct rtg_handle_node {
  struct rtg_handle_node *next;
  uint64_t handle;
} rtg_handle_node;

/* a cache line each: a thread at one signal's entry never slows another's */
typedef struct rtg_handle_bucket {
  _Alignas(64) rtg_spin mu; /* (core/spin.h: held for a list walk) */
  rtg_handle_node *head;    /* changed with __atomic stores: read unlocked by
                               rtg_handle_bucket_empty */
  void *spare;              /* the table user's, under mu (sigtrack.c: an entry to reuse) */
  uint64_t serial;          /* the table user's, under mu (sigtrack.c: the last given) */
} rtg_handle_bucket;

enum { RTG_HANDLE_BUCKETS = 256 };
typedef struct rtg_handle_table {
  rtg_handle_bucket buckets[RTG_HANDLE_BUCKETS];
} rtg_handle_table;

/* A handle is the address of a 64-byte aligned amd_signal_t: the bits
 * above the alignment, spread over the buckets. */
static inline rtg_handle_bucket *rtg_handle_bucket_of(rtg_handle_table *t, uint64_t h) {
  return &t->buckets[((h >> 6) * 0x9E3779B97F4A7C15ull) >> 56];
}

/* h's entry in b (whose lock the caller holds), or NULL; *link, when
 * asked for, is where it is or where a new one goes. */
static inline rtg_handle_node *rtg_handle_find(rtg_handle_bucket *b, uint64_t h,
                                               rtg_handle_node ***link) {
  rtg_handle_node **l = &b->head;
  while (*l && (*l)->handle != h) l = &(*l)->next;
  if (link) *link = l;
  return *l;
}

/* Has b no entry?  Without its lock: a look that costs no line another
 * thread must take back when nothing is there (an entry added or removed
 * meanwhile may be missed, as by a look just before or after). */
static inline bool rtg_handle_bucket_empty(rtg_handle_bucket *b) {
  return !__atomic_load_n(&b->head, __ATOMIC_RELAXED);
}

/* Locks made and every bucket emptied: at init, and in a fork child (the
 * parent's entries, copies it cannot use, are left unreferenced). */
RTG_HIDDEN void rtg_handle_table_reset(rtg_handle_table *t);

#endif
