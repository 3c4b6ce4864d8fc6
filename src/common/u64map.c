/* Open-addressing hash map of u64 -> u64; see u64map.h. */
#include "u64map.h"

#include <stdlib.h>

void rtg_u64map_free(rtg_u64map *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  *m = (rtg_u64map){0};
}

static size_t find(const rtg_u64map *m, uint64_t key, bool *found) {
  size_t mask = m->cap - 1;
  for (size_t i = rtg_mix64(key) & mask;; i = (i + 1) & mask) {
    if (!m->used[i]) {
      *found = false;
      return i;
    }
    if (m->keys[i] == key) {
      *found = true;
      return i;
    }
  }
}

uint64_t *rtg_u64map_get(const rtg_u64map *m, uint64_t key) {
  if (!m->cap) return NULL;
  bool found;
  size_t i = find(m, key, &found);
  return found ? &m->vals[i] : NULL;
}

static bool grow(rtg_u64map *m) {
  size_t ncap = m->cap ? m->cap * 2 : 64;
  rtg_u64map n = {malloc(ncap * sizeof(uint64_t)), malloc(ncap * sizeof(uint64_t)), calloc(ncap, 1),
                  m->n, ncap};
  if (!n.keys || !n.vals || !n.used) {
    rtg_u64map_free(&n);
    return false;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->used[i]) continue;
    bool found;
    size_t j = find(&n, m->keys[i], &found);
    n.used[j] = 1;
    n.keys[j] = m->keys[i];
    n.vals[j] = m->vals[i];
  }
  rtg_u64map_free(m);
  *m = n;
  return true;
}

uint64_t *rtg_u64map_put(rtg_u64map *m, uint64_t key, uint64_t init, bool *added) {
  bool dummy;
  if (!added) added = &dummy;
  if ((m->n + 1) * 4 > m->cap * 3 && !grow(m)) return NULL;
  bool found;
  size_t i = find(m, key, &found);
  *added = !found;
  if (!found) {
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = init;
    m->n++;
  }
  return &m->vals[i];
}

bool rtg_u64map_next(const rtg_u64map *m, size_t *it, uint64_t *key, uint64_t *val) {
  for (; *it < m->cap; (*it)++) {
    if (!m->used[*it]) continue;
    if (key) *key = m->keys[*it];
    if (val) *val = m->vals[*it];
    (*it)++;
    return true;
  }
  return false;
}
