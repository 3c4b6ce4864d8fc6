/* String interning with an arena for the bytes and an open-addressing
 * table of ids.  Strings never move once stored (the arena grows by new
 * blocks, not by realloc), so rtg_strtab_get pointers stay valid. */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK (1u << 20)

typedef struct entry {
  const char *s;
  uint32_t len;
  uint32_t hash; /* low bits of the full hash, to skip most memcmp calls */
} entry;

struct rtg_strtab {
  entry *ents; /* by id */
  uint32_t n, cap;
  uint32_t *slots; /* id + 1, 0 = empty */
  uint32_t nslots; /* power of two */
  char *block;     /* current arena block */
  size_t used, block_cap;
  char **blocks; /* all blocks, for freeing */
  size_t nblocks;
  size_t bytes;
};

uint64_t rtg_hash_bytes(const void *p, size_t n) {
  const unsigned char *c = p;
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xc2b2ae3d27d4eb4full), w;
  for (; n >= 8; c += 8, n -= 8) {
    memcpy(&w, c, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 31;
  }
  w = 0;
  memcpy(&w, c, n);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

rtg_strtab *rtg_strtab_new(void) {
  rtg_strtab *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->nslots = 1024;
  t->slots = calloc(t->nslots, sizeof *t->slots);
  if (!t->slots) {
    free(t);
    return NULL;
  }
  return t;
}

void rtg_strtab_free(rtg_strtab *t) {
  if (!t) return;
  for (size_t i = 0; i < t->nblocks; i++) free(t->blocks[i]);
  free(t->blocks);
  free(t->ents);
  free(t->slots);
  free(t);
}

static char *arena_alloc(rtg_strtab *t, size_t n) {
  if (t->block && t->block_cap - t->used >= n) {
    char *p = t->block + t->used;
    t->used += n;
    return p;
  }
  size_t cap = n > BLOCK ? n : BLOCK;
  char **nb = realloc(t->blocks, (t->nblocks + 1) * sizeof *nb);
  if (!nb) return NULL;
  t->blocks = nb;
  char *b = malloc(cap);
  if (!b) return NULL;
  t->blocks[t->nblocks++] = b;
  t->bytes += cap;
  /* a huge string gets its own block; keep filling the current one */
  if (n > BLOCK && t->block) return b;
  t->block = b;
  t->block_cap = cap;
  t->used = n;
  return b;
}

static uint32_t lookup(const rtg_strtab *t, const char *s, size_t len, uint64_t h, uint32_t *slot) {
  uint32_t mask = t->nslots - 1;
  for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
    uint32_t v = t->slots[i];
    if (!v) {
      *slot = i;
      return UINT32_MAX;
    }
    const entry *e = &t->ents[v - 1];
    if (e->hash == (uint32_t)(h >> 32) && e->len == len && !memcmp(e->s, s, len)) return v - 1;
  }
}

static int grow_slots(rtg_strtab *t) {
  uint32_t n = t->nslots * 2;
  uint32_t *ns = calloc(n, sizeof *ns);
  if (!ns) return -1;
  for (uint32_t id = 0; id < t->n; id++) {
    const entry *e = &t->ents[id];
    uint64_t h = rtg_hash_bytes(e->s, e->len);
    uint32_t i = (uint32_t)h & (n - 1);
    while (ns[i]) i = (i + 1) & (n - 1);
    ns[i] = id + 1;
  }
  free(t->slots);
  t->bytes += (size_t)(n - t->nslots) * sizeof *ns;
  t->slots = ns;
  t->nslots = n;
  return 0;
}

uint32_t rtg_strtab_find(const rtg_strtab *t, const char *s, size_t len) {
  uint32_t slot;
  return lookup(t, s, len, rtg_hash_bytes(s, len), &slot);
}

uint32_t rtg_strtab_intern(rtg_strtab *t, const char *s, size_t len) {
  if (len >= UINT32_MAX) return UINT32_MAX;
  uint64_t h = rtg_hash_bytes(s, len);
  uint32_t slot;
  uint32_t id = lookup(t, s, len, h, &slot);
  if (id != UINT32_MAX) return id;
  if ((t->n + 1) * 4 > t->nslots * 3) { /* keep the load under 3/4 */
    if (grow_slots(t)) return UINT32_MAX;
    lookup(t, s, len, h, &slot);
  }
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 256;
    entry *ne = realloc(t->ents, nc * sizeof *ne);
    if (!ne) return UINT32_MAX;
    t->bytes += (size_t)(nc - t->cap) * sizeof *ne;
    t->ents = ne;
    t->cap = nc;
  }
  char *copy = arena_alloc(t, len + 1);
  if (!copy) return UINT32_MAX;
  memcpy(copy, s, len);
  copy[len] = 0;
  t->ents[t->n] = (entry){copy, (uint32_t)len, (uint32_t)(h >> 32)};
  t->slots[slot] = t->n + 1;
  return t->n++;
}

const char *rtg_strtab_get(const rtg_strtab *t, uint32_t id) {
  return id < t->n ? t->ents[id].s : "";
}
uint32_t rtg_strtab_count(const rtg_strtab *t) {
  return t->n;
}
size_t rtg_strtab_bytes(const rtg_strtab *t) {
  return t->bytes + (size_t)t->nslots * 4;
}
