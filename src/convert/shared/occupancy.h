/* Occupancy per kernel: for each kernel (its KERNEL record) and launch
 * shape (workgroup size, group segment of the packet), the waves a SIMD
 * can hold and what limits them (src/common/kernel_res.h), with the
 * dispatches' count and GPU time.  --stats and --analyze report it. */
#ifndef RTG_CV_OCCUPANCY_H
#define RTG_CV_OCCUPANCY_H

#include "../convert.h"
#include "kernel_res.h"

typedef struct cv_occ_row {
  const cv_kinfo *k;
  uint32_t name; /* cv_intern id of the dispatches' name (demangled) */
  uint64_t wg;   /* work-items per workgroup */
  uint64_t lds;  /* the packet's group segment per workgroup (static and dynamic) */
  uint64_t calls, total_ns;
  rtg_occupancy o; /* valid when ok */
  bool ok;         /* the architecture is one rtg_occupancy_of knows */
} cv_occ_row;

typedef struct cv_occ {
  cv_occ_row *rows;
  uint32_t n, cap;
  rtg_u64map index; /* key of (kernel, shape) -> index + 1 */
} cv_occ;

/* A kernel event: counted where it has a KERNEL record with registers. */
void cv_occ_add(cv_ctx *ctx, cv_occ *o, const cv_event *ev);
/* Occupancy of every row; rows sorted by GPU time (then name). */
void cv_occ_finish(const cv_ctx *ctx, cv_occ *o);
void cv_occ_free(cv_occ *o);

/* The rows as CSV (kernel_occupancy.csv), and as the --summary /
 * --analyze text table. */
void cv_occ_csv(const cv_ctx *ctx, const cv_occ *o, FILE *f);
void cv_occ_text(const cv_ctx *ctx, const cv_occ *o, FILE *f);
/* As a JSON array value. */
void cv_occ_json(const cv_ctx *ctx, const cv_occ *o, FILE *f);

#endif
