/* Matching host calls to the GPU ops they caused (by correlation id, or by
 * queue and packet id for host dispatches), without losing a pair and in
 * bounded memory.
 *
 * Two hash tables: calls (each stays after a match, since one call may
 * cause several ops) and ops waiting for a call not seen yet (an op is
 * written when it completes, which can be before its call returns).  Most
 * calls never get an op (hipMalloc has a correlation id too), so the calls
 * table is compacted when it fills: calls matched longer ago than a
 * grace period move to a temporary file (a further op of them still finds
 * them there at the end), and when it is still large at its size limit the
 * unmatched calls are spilled to that file too.  Ops spill the same way,
 * except while no call at all has been seen: then the input probably has
 * none (host dispatch records are optional), and the ops are handed to
 * the unmatched callback (counted) instead of filling a file.
 * corr_finish matches what waited against what was spilled, so every pair
 * is found whatever the distance between call and op in the input, and
 * whatever the order of the records (the result does not depend on it,
 * but for the case above: over 2^17 ops before the first call).  An op is
 * "unmatched" only once the whole input is known not to hold its call. */
#ifndef RTG_CONVERT_CORR_H
#define RTG_CONVERT_CORR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct corr_val {
  uint64_t a, b, c; /* the sink's data: track, time, row id... */
  uint64_t d;       /* ops: the sink's own use (chrome: the fallback key) */
} corr_val;

typedef struct corr_entry {
  uint64_t key; /* 0 = empty slot */
  corr_val v;
  uint32_t matched; /* calls: 0 unmatched, else the sequence number of its last match */
} corr_entry;

typedef struct corr_map {
  corr_entry *e;
  size_t slots, n;
} corr_map;

typedef void (*corr_fn)(void *arg, corr_val call, corr_val op);
typedef void (*corr_unmatched_fn)(void *arg, corr_val op);

typedef struct corr_table {
  corr_map calls, ops;
  size_t max_slots; /* per table; beyond it, spill */
  uint32_t seq;     /* matches so far (wrapping), for the grace period */
  FILE *calls_spill, *ops_spill;
  uint64_t matched;      /* pairs found (arrows drawn) */
  uint64_t matched_late; /* of those, found at corr_finish through a spill */
  uint64_t spilled_calls, spilled_ops;
  uint64_t unmatched_ops;         /* ops whose call never came: set by corr_finish */
  uint64_t calls_seen;            /* 0: this input has no calls of this kind at all */
  uint64_t dropped_ops;           /* ops that waited while no call had been seen yet */
  bool spill_failed;              /* no temporary file: pairs across it were lost (counted) */
  corr_unmatched_fn unmatched_fn; /* ops whose call is not in the input (or NULL) */
  void *unmatched_arg;
} corr_table;

/* max_slots: table size limit (a power of two, 0 = the default 2^17 slots,
 * 5 MB per table); tests pass small values to exercise spilling. */
bool corr_init(corr_table *t, size_t max_slots);
void corr_free(corr_table *t);

/* key for (process, correlation id); never 0 */
static inline uint64_t corr_key(uint32_t proc, uint64_t corr) {
  return (((uint64_t)(proc + 1) << 44) ^ corr ^ ((corr >> 44) << 20)) | (1ull << 63);
}

/* A call: every op already waiting for it is handed to fn and leaves the
 * table; the call stays for ops still to come (a later call with the same
 * key replaces it).  Returns the number of ops matched. */
int corr_call(corr_table *t, uint64_t key, corr_val call, corr_fn fn, void *arg);
/* An op: true with *call when its call is in the table; otherwise the op
 * waits for it. */
bool corr_op(corr_table *t, uint64_t key, corr_val op, corr_val *call);
/* End of input: ops still waiting meet the calls that were spilled (fn for
 * each pair); the rest are counted in unmatched_ops and handed to the
 * unmatched callback. */
void corr_finish(corr_table *t, corr_fn fn, void *arg);

/* Ops that turn out to have no call go to fn (e.g. to be matched some
 * other way); set before the first corr_op. */
void corr_set_unmatched(corr_table *t, corr_unmatched_fn fn, void *arg);

/* The size limit from RTG_CONVERT_CORR_SLOTS (tests), or 0 = default. */
size_t corr_slots_setting(void);
/* -v: arrows drawn, spilled, and ops left without their call. */
void corr_report(FILE *f, const corr_table *calls, const corr_table *dispatch);

#endif
