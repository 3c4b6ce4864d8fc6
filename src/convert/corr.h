/* Matching host calls to the GPU ops they caused, by correlation id, in
 * constant memory: two direct-mapped tables (calls waiting for their ops,
 * ops waiting for their call) indexed by a hash of the key.  An op is
 * normally written soon after its call, so a table of 2^17 entries finds
 * nearly every pair; an entry overwritten before its partner arrives only
 * loses one arrow (counted in `lost`). */
#ifndef RTG_CONVERT_CORR_H
#define RTG_CONVERT_CORR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct corr_val {
  uint64_t a, b, c; /* the sink's data: track, time, row id... */
} corr_val;

typedef struct corr_entry {
  uint64_t key; /* 0 = empty */
  corr_val v;
} corr_entry;

typedef struct corr_table {
  corr_entry *calls, *ops;
  uint64_t matched, lost;
} corr_table;

bool corr_init(corr_table *t);
void corr_free(corr_table *t);
/* key for (process, correlation id); never 0 */
static inline uint64_t corr_key(uint32_t proc, uint64_t corr) {
  return (((uint64_t)(proc + 1) << 44) ^ corr ^ ((corr >> 44) << 20)) | (1ull << 63);
}
/* A call: if its op came first, *op gets it and true is returned.  The call
 * stays in the table either way (one call may cause several ops). */
bool corr_call(corr_table *t, uint64_t key, corr_val call, corr_val *op);
/* An op: true with *call when its call was seen. Otherwise the op waits. */
bool corr_op(corr_table *t, uint64_t key, corr_val op, corr_val *call);

#endif
