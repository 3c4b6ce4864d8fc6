/* Call/op matching by correlation id; see corr.h. */
#include "corr.h"

#include <stdlib.h>

#include "u64map.h"

#define SLOTS (1u << 17)

bool corr_init(corr_table *t) {
  *t = (corr_table){0};
  t->calls = calloc(SLOTS, sizeof *t->calls);
  t->ops = calloc(SLOTS, sizeof *t->ops);
  return t->calls && t->ops;
}

void corr_free(corr_table *t) {
  free(t->calls);
  free(t->ops);
  t->calls = t->ops = NULL;
}

static corr_entry *slot(corr_entry *tab, uint64_t key) {
  return &tab[rtg_mix64(key) & (SLOTS - 1)];
}

bool corr_call(corr_table *t, uint64_t key, corr_val call, corr_val *op) {
  corr_entry *c = slot(t->calls, key);
  if (c->key && c->key != key) t->lost++;
  c->key = key;
  c->v = call;
  corr_entry *o = slot(t->ops, key);
  if (o->key != key) return false;
  *op = o->v;
  o->key = 0;
  t->matched++;
  return true;
}

bool corr_op(corr_table *t, uint64_t key, corr_val op, corr_val *call) {
  corr_entry *c = slot(t->calls, key);
  if (c->key == key) {
    *call = c->v;
    t->matched++;
    return true;
  }
  corr_entry *o = slot(t->ops, key);
  if (o->key && o->key != key) t->lost++;
  o->key = key;
  o->v = op;
  return false;
}
