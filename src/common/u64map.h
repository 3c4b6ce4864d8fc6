/* A hash map from uint64_t keys to uint64_t values (open addressing,
 * linear probing).  The tools use it for ids: correlation ids, queue
 * handles, (pid, tid) pairs hashed to one key. */
#ifndef RTG_U64MAP_H
#define RTG_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rtg_u64map {
  uint64_t *keys, *vals;
  unsigned char *used;
  size_t n, cap; /* cap: power of two or 0 */
} rtg_u64map;

/* A zeroed struct is an empty map. */
void rtg_u64map_free(rtg_u64map *m);

/* Pointer to the value of key, or NULL. */
uint64_t *rtg_u64map_get(const rtg_u64map *m, uint64_t key);

/* Pointer to the value of key, inserting it with value init when absent
 * (*added tells which).  NULL when memory runs out. */
uint64_t *rtg_u64map_put(rtg_u64map *m, uint64_t key, uint64_t init, bool *added);

/* Iterate: for (size_t i = 0; rtg_u64map_next(m, &i, &k, &v);) */
bool rtg_u64map_next(const rtg_u64map *m, size_t *it, uint64_t *key, uint64_t *val);

/* Mix the bits of a key (also useful to combine two ids into one key). */
static inline uint64_t rtg_mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

#endif
