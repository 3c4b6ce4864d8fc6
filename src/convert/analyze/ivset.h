/* Sets of half-open time intervals [s, e) in nanoseconds: the arithmetic of
 * rtg-convert --analyze (a union of kernels, idle = span - busy, each cause
 * taking its share of what is left).  A set is normalized when its intervals
 * are sorted, disjoint, non-empty and not touching; every operation but
 * an_iv_add takes and gives normalized sets. */
#ifndef RTG_ANALYZE_IVSET_H
#define RTG_ANALYZE_IVSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct an_iv {
  uint64_t s, e;
} an_iv;

typedef struct an_ivset {
  an_iv *v;
  size_t n, cap;
} an_ivset;

/* Appends [s, e) (nothing when empty); the set is then not normalized. */
void an_iv_add(an_ivset *set, uint64_t s, uint64_t e);
/* Makes room for n intervals in all (an_iv_add then grows nothing). */
void an_iv_reserve(an_ivset *set, size_t n);
/* Sorts and merges overlapping or touching intervals: the union. */
void an_iv_normalize(an_ivset *set);
/* Keeps what lies in [lo, hi). */
void an_iv_clip(an_ivset *set, uint64_t lo, uint64_t hi);
/* The sum of the lengths. */
uint64_t an_iv_total(const an_ivset *set);
/* out = a - b, out = a & b (out is cleared first and must be neither). */
void an_iv_subtract(const an_ivset *a, const an_ivset *b, an_ivset *out);
void an_iv_intersect(const an_ivset *a, const an_ivset *b, an_ivset *out);
void an_iv_clear(an_ivset *set);
void an_iv_free(an_ivset *set);
/* Moves from into to (to's old contents freed). */
void an_iv_move(an_ivset *to, an_ivset *from);

#endif
