/* The embedded events' arrays (html.h): the first 20 bytes an event of the
 * binary part (start, duration, name, args), and as much of their base64
 * as does not wait for the analysis.  Their names are numbered in the
 * report after the top kernels', which the analysis orders: the events
 * keep their names by first use among them, renumbered at the end. */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "parts.h"

/* the used ids of a table, in the order of their first use */
static uint32_t place(uint32_t *to, uint32_t *from, uint32_t *n, uint32_t id) {
  if (id == UINT32_MAX) return UINT32_MAX;
  if (to[id] == UINT32_MAX) {
    from[*n] = id;
    to[id] = (*n)++;
  }
  return to[id];
}

void ht_arrays_make(ht_state *h) {
  ht_arrays *a = &h->arr;
  size_t n = 0;
  for (uint32_t i = 0; i < h->nt; i++) {
    ht_track *t = &h->t[i];
    ht_keep(h, t);
    t->off = n;
    t->nemb = t->n;
    n += t->n;
  }
  a->n = n;
  h->nemb = n;
  uint32_t nargs_ids = rtg_strtab_count(h->args);
  uint32_t *nto = malloc(((size_t)h->max_name + 1) * sizeof *nto);
  uint32_t *ato = malloc(((size_t)nargs_ids + 1) * sizeof *ato);
  a->first = malloc(((size_t)h->max_name + 1) * sizeof *a->first);
  a->args_from = malloc(((size_t)nargs_ids + 1) * sizeof *a->args_from);
  a->name = malloc((n + 1) * sizeof *a->name);
  unsigned char *head = malloc(12 * n + 1); /* start, duration: encoded, then freed */
  a->blob = malloc(8 * n + 1);
  if (!nto || !ato || !a->first || !a->args_from || !a->name || !head || !a->blob) oom();
  memset(nto, 0xff, ((size_t)h->max_name + 1) * sizeof *nto);
  memset(ato, 0xff, ((size_t)nargs_ids + 1) * sizeof *ato);
  double *st = (double *)head;
  uint32_t *du = (uint32_t *)(head + 8 * n), *ag = (uint32_t *)(a->blob + 4 * n);
  size_t k = 0;
  for (uint32_t i = 0; i < h->nt; i++) {
    const ht_track *t = &h->t[i];
    for (size_t j = 0; j < t->n; j++, k++) {
      const ht_ev *e = &t->v[j];
      uint64_t dur = e->end - e->start;
      st[k] = (double)(e->start - h->first);
      du[k] = dur >= UINT32_MAX ? UINT32_MAX : (uint32_t)dur;
      a->name[k] = place(nto, a->first, &a->nfirst, e->name);
      ag[k] = e->args < nargs_ids ? place(ato, a->args_from, &a->nargs, e->args) : UINT32_MAX;
      if (dur >= UINT32_MAX) {
        if (a->nlong % 64 == 0) {
          uint64_t *nl = realloc(a->longs, (a->nlong + 64) * 2 * sizeof *nl);
          if (!nl) oom();
          a->longs = nl;
        }
        a->longs[2 * a->nlong] = k, a->longs[2 * a->nlong + 1] = dur;
        a->nlong++;
      }
    }
  }
  free(nto), free(ato);
  for (uint32_t i = 0; i < h->nt; i++) { /* (all the report needs of them now) */
    free(h->t[i].v);
    h->t[i].v = NULL;
  }
  /* the base64 of start and duration [0, 12 n), and of the args but for
   * their first and last bytes that share a triple with their neighbours */
  a->a1 = (16 * n + 2) / 3 * 3;
  a->a2 = 20 * n / 3 * 3;
  if (a->a1 > a->a2) a->a1 = a->a2;
  a->b64 = malloc(4 * (a->a2 / 3) + 1);
  if (!a->b64) oom();
  ht_b64_triples(head, 4 * n, a->b64);
  free(head);
  ht_b64_triples(a->blob + (a->a1 - 12 * n), (a->a2 - a->a1) / 3, a->b64 + 4 * (a->a1 / 3));
  a->made = true;
}

typedef struct name_job {
  const ht_arrays *a;
  const uint32_t *renumber;
} name_job;

static void name_part(void *arg, size_t lo, size_t hi) { /* events [lo, hi) */
  const name_job *j = arg;
  uint32_t *nm = (uint32_t *)j->a->blob;
  for (size_t k = lo; k < hi; k++)
    nm[k] = j->a->name[k] == UINT32_MAX ? UINT32_MAX : j->renumber[j->a->name[k]];
}

void ht_arrays_name(ht_state *h, const uint32_t *renumber) {
  ht_arrays *a = &h->arr;
  size_t n = a->n;
  name_job j = {a, renumber};
  rtg_parts_run(n, (size_t)1 << 17, 8, name_part, &j);
  ht_b64_triples(a->blob, (a->a1 - 12 * n) / 3, a->b64 + 16 * n);
}

void ht_arrays_free(ht_state *h) {
  ht_arrays *a = &h->arr;
  free(a->blob);
  free(a->name);
  free(a->first);
  free(a->args_from);
  free(a->b64);
  free(a->longs);
}
