/* rtg_parts_run: see parts.h. */
#include "parts.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#define PARTS_MAX 16

typedef struct part {
  void (*fn)(void *arg, size_t lo, size_t hi);
  void *arg;
  size_t lo, hi;
} part;

static void *part_run(void *p) {
  part *x = p;
  x->fn(x->arg, x->lo, x->hi);
  return NULL;
}

void rtg_parts_run(size_t n, size_t min_part, size_t max_parts,
                   void (*fn)(void *arg, size_t lo, size_t hi), void *arg) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t k = cpus > 1 ? (size_t)cpus : 1;
  if (k > max_parts) k = max_parts;
  if (k > PARTS_MAX) k = PARTS_MAX;
  if (min_part && k > n / min_part) k = n / min_part;
  if (k < 1) k = 1;
  part p[PARTS_MAX];
  pthread_t th[PARTS_MAX];
  bool started[PARTS_MAX] = {0};
  for (size_t i = 0; i < k; i++) {
    p[i] = (part){fn, arg, n * i / k, n * (i + 1) / k};
    if (i) started[i] = !pthread_create(&th[i], NULL, part_run, &p[i]);
  }
  part_run(&p[0]);
  for (size_t i = 1; i < k; i++) {
    if (started[i])
      pthread_join(th[i], NULL);
    else
      part_run(&p[i]);
  }
}
