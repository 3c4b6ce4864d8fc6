/* Call/op matching; see corr.h for the policy.  The tables are open
 * addressing with linear probing and backward-shift deletion (no
 * tombstones), so a table that sees millions of inserts and deletes keeps
 * short probe chains.  The ops table allows several entries per key. */
#include "corr.h"

#include <stdlib.h>
#include <string.h>

#include "u64map.h"
#include "zalloc.h"

#define MIN_SLOTS 1024u
#define DEFAULT_MAX_SLOTS (1u << 17)

static bool map_alloc(corr_map *m, size_t slots) {
  m->e = rtg_zalloc(slots, sizeof *m->e); /* (probed before written) */
  m->slots = slots;
  m->n = 0;
  return m->e != NULL;
}

static inline size_t home(const corr_map *m, uint64_t key) {
  return rtg_mix64(key) & (m->slots - 1);
}

/* First slot at or after i (in probe order) holding key, or SIZE_MAX. */
static size_t map_find_from(const corr_map *m, uint64_t key, size_t i) {
  for (;; i = (i + 1) & (m->slots - 1)) {
    if (m->e[i].key == key) return i;
    if (!m->e[i].key) return SIZE_MAX;
  }
}

static size_t map_find(const corr_map *m, uint64_t key) {
  return map_find_from(m, key, home(m, key));
}

/* Caller guarantees a free slot (load is kept below 1/2). */
static corr_entry *map_add(corr_map *m, uint64_t key, corr_val v) {
  size_t i = home(m, key);
  while (m->e[i].key) i = (i + 1) & (m->slots - 1);
  m->e[i] = (corr_entry){key, v, 0};
  m->n++;
  return &m->e[i];
}

/* Remove slot i, moving later entries of the chain back so that every
 * entry stays reachable from its home slot. */
static void map_del(corr_map *m, size_t i) {
  size_t mask = m->slots - 1, j = i;
  for (;;) {
    j = (j + 1) & mask;
    if (!m->e[j].key) break;
    size_t h = home(m, m->e[j].key);
    /* e[j] may fill the hole at i unless its home lies cyclically in (i, j] */
    if (((j - h) & mask) >= ((j - i) & mask)) {
      m->e[i] = m->e[j];
      i = j;
    }
  }
  m->e[i].key = 0;
  m->n--;
}

/* Rebuild into `slots` slots keeping the entries keep() accepts. */
static bool map_rebuild(corr_map *m, size_t slots,
                        bool (*keep)(const corr_table *t, const corr_entry *e),
                        const corr_table *t) {
  corr_map old = *m;
  if (!map_alloc(m, slots)) {
    *m = old;
    return false;
  }
  for (size_t i = 0; i < old.slots; i++)
    if (old.e[i].key && (!keep || keep(t, &old.e[i])))
      *map_add(m, old.e[i].key, old.e[i].v) = old.e[i];
  free(old.e);
  return true;
}

bool corr_init(corr_table *t, size_t max_slots) {
  *t = (corr_table){0};
  t->max_slots = max_slots >= MIN_SLOTS ? max_slots : DEFAULT_MAX_SLOTS;
  return map_alloc(&t->calls, MIN_SLOTS) && map_alloc(&t->ops, MIN_SLOTS);
}

void corr_free(corr_table *t) {
  free(t->calls.e);
  free(t->ops.e);
  if (t->calls_spill) fclose(t->calls_spill);
  if (t->ops_spill) fclose(t->ops_spill);
  *t = (corr_table){0};
}

/* ------------------------------------------------------------ spilling */

typedef struct spill_rec {
  uint64_t key;
  corr_val v;
} spill_rec;

static bool spill(corr_table *t, FILE **f, const corr_entry *e, uint64_t *count) {
  if (!*f && !t->spill_failed) {
    *f = tmpfile();
    if (!*f) t->spill_failed = true;
  }
  spill_rec r = {e->key, e->v};
  (*count)++;
  if (*f && fwrite(&r, sizeof r, 1, *f) == 1) return true;
  t->spill_failed = true;
  return false;
}

/* Compaction keeps unmatched calls, and matched ones for a grace period
 * (the last slots/8 matches), where another op of them finds them soonest;
 * older matched calls go to the spill file, where corr_finish finds them
 * for an op that comes later still. */
static bool keep_call(const corr_table *t, const corr_entry *e) {
  return !e->matched || (uint32_t)(t->seq - e->matched) <= t->calls.slots / 8;
}

static void spill_old_calls(corr_table *t) {
  corr_map *m = &t->calls;
  for (size_t i = 0; i < m->slots; i++)
    if (m->e[i].key && !keep_call(t, &m->e[i]))
      spill(t, &t->calls_spill, &m->e[i], &t->spilled_calls);
}

static void give_up_ops(corr_table *t, uint64_t *count) {
  corr_map *m = &t->ops;
  *count += m->n;
  if (t->unmatched_fn)
    for (size_t i = 0; i < m->slots; i++)
      if (m->e[i].key) t->unmatched_fn(t->unmatched_arg, m->e[i].v);
  memset(m->e, 0, m->slots * sizeof *m->e);
  m->n = 0;
}

void corr_set_unmatched(corr_table *t, corr_unmatched_fn fn, void *arg) {
  t->unmatched_fn = fn;
  t->unmatched_arg = arg;
}

static void mark_matched(corr_table *t, corr_entry *e) {
  if (!++t->seq) t->seq = 1; /* 0 means unmatched */
  e->matched = t->seq;
}

/* The calls table is half full: compact, grow, or spill its unmatched calls. */
static void calls_make_room(corr_table *t) {
  corr_map *m = &t->calls;
  spill_old_calls(t);
  map_rebuild(m, m->slots, keep_call, t);
  if (m->n * 4 < m->slots) return; /* compaction was enough */
  if (m->slots < t->max_slots && map_rebuild(m, m->slots * 2, NULL, t)) return;
  for (size_t i = 0; i < m->slots; i++)
    if (m->e[i].key) spill(t, &t->calls_spill, &m->e[i], &t->spilled_calls);
  memset(m->e, 0, m->slots * sizeof *m->e);
  m->n = 0;
}

static void ops_make_room(corr_table *t) {
  corr_map *m = &t->ops;
  if (m->slots < t->max_slots && map_rebuild(m, m->slots * 2, NULL, t)) return;
  if (!t->calls_seen) { /* nothing to wait for, so far: see corr.h */
    give_up_ops(t, &t->dropped_ops);
    return;
  }
  for (size_t i = 0; i < m->slots; i++)
    if (m->e[i].key) spill(t, &t->ops_spill, &m->e[i], &t->spilled_ops);
  memset(m->e, 0, m->slots * sizeof *m->e);
  m->n = 0;
}

/* ------------------------------------------------------------ matching */

int corr_call(corr_table *t, uint64_t key, corr_val call, corr_fn fn, void *arg) {
  t->calls_seen++;
  size_t i = map_find(&t->calls, key);
  corr_entry *c;
  if (i != SIZE_MAX) {
    c = &t->calls.e[i];
    c->v = call;
    c->matched = 0;
  } else {
    if ((t->calls.n + 1) * 2 > t->calls.slots) calls_make_room(t);
    c = map_add(&t->calls, key, call);
  }
  int n = 0;
  if (t->ops.n) {
    while ((i = map_find(&t->ops, key)) != SIZE_MAX) {
      fn(arg, call, t->ops.e[i].v);
      map_del(&t->ops, i);
      n++;
    }
  }
  if (n) {
    mark_matched(t, c);
    t->matched += (uint64_t)n;
  }
  return n;
}

bool corr_op(corr_table *t, uint64_t key, corr_val op, corr_val *call) {
  size_t i = map_find(&t->calls, key);
  if (i != SIZE_MAX) {
    *call = t->calls.e[i].v;
    mark_matched(t, &t->calls.e[i]);
    t->matched++;
    return true;
  }
  if ((t->ops.n + 1) * 2 > t->ops.slots) ops_make_room(t);
  map_add(&t->ops, key, op);
  return false;
}

/* Waiting ops in t->ops meet the spilled calls, then (for ops that were
 * spilled themselves, whose call may have come after) the calls table. */
static void match_chunk(corr_table *t, bool check_table, corr_fn fn, void *arg) {
  if (t->calls_spill && t->ops.n) {
    rewind(t->calls_spill);
    spill_rec buf[1024];
    size_t got;
    while (t->ops.n && (got = fread(buf, sizeof *buf, 1024, t->calls_spill)) > 0)
      for (size_t k = 0; k < got; k++) {
        size_t i;
        while ((i = map_find(&t->ops, buf[k].key)) != SIZE_MAX) {
          fn(arg, buf[k].v, t->ops.e[i].v);
          map_del(&t->ops, i);
          t->matched++, t->matched_late++;
        }
      }
  }
  if (check_table)
    for (size_t i = 0; i < t->ops.slots && t->ops.n;) {
      corr_entry *o = &t->ops.e[i];
      size_t c = o->key ? map_find(&t->calls, o->key) : SIZE_MAX;
      if (c == SIZE_MAX) {
        i++;
        continue;
      }
      fn(arg, t->calls.e[c].v, o->v);
      map_del(&t->ops, i); /* slot i now holds a moved entry (or none): look again */
      t->matched++, t->matched_late++;
    }
  give_up_ops(t, &t->unmatched_ops);
}

void corr_finish(corr_table *t, corr_fn fn, void *arg) {
  match_chunk(t, false, fn, arg);
  if (!t->ops_spill) return;
  /* the spilled ops, a table-load at a time */
  rewind(t->ops_spill);
  spill_rec r;
  FILE *ops = t->ops_spill;
  while (fread(&r, sizeof r, 1, ops) == 1) {
    if ((t->ops.n + 1) * 2 > t->ops.slots) {
      long pos = ftell(ops);
      match_chunk(t, true, fn, arg); /* reads the calls spill, not ops */
      fseek(ops, pos, SEEK_SET);
    }
    map_add(&t->ops, r.key, r.v);
  }
  match_chunk(t, true, fn, arg);
}

size_t corr_slots_setting(void) {
  const char *s = getenv("RTG_CONVERT_CORR_SLOTS");
  size_t n = s ? (size_t)strtoull(s, NULL, 10) : 0, p = MIN_SLOTS;
  while (p < n && p < ((size_t)1 << 40)) p <<= 1;
  return n ? p : 0;
}

void corr_report(FILE *f, const corr_table *calls, const corr_table *dispatch) {
  fprintf(f, "flows: %llu arrows (%llu launch, %llu dispatch)",
          (unsigned long long)(calls->matched + dispatch->matched),
          (unsigned long long)calls->matched, (unsigned long long)dispatch->matched);
  uint64_t late = calls->matched_late + dispatch->matched_late;
  uint64_t spilled =
      calls->spilled_calls + calls->spilled_ops + dispatch->spilled_calls + dispatch->spilled_ops;
  if (spilled)
    fprintf(f, ", %llu waited in a temporary file, %llu of them matched at the end",
            (unsigned long long)spilled, (unsigned long long)late);
  /* ops wait for a call whether or not the input has such calls (records
   * of different threads come in any order): count them only if it has */
  uint64_t by_corr = calls->calls_seen ? calls->unmatched_ops + calls->dropped_ops : 0;
  uint64_t by_id = dispatch->calls_seen ? dispatch->unmatched_ops + dispatch->dropped_ops : 0;
  fprintf(f, "; GPU ops whose call was not in the input: %llu by correlation id, %llu by packet id",
          (unsigned long long)by_corr, (unsigned long long)by_id);
  if (calls->spill_failed || dispatch->spill_failed)
    fprintf(f, " (no temporary file could be written: some arrows may be missing)");
  fputc('\n', f);
}
