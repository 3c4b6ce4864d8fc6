/* The kernels' resources in the RPD database (sqlite_kernels.c). */
#ifndef RTG_SQLITE_KERNELS_H
#define RTG_SQLITE_KERNELS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "convert.h"

typedef struct rpd_kernels {
  sqlite3 *db;
  sqlite3_stmt *op;
  const char *what; /* the statement that failed */
} rpd_kernels;

/* Its tables, in db's open transaction; false when that failed (what). */
bool rpd_kernels_open(rpd_kernels *k, sqlite3 *db);
/* A kernel op row (rocpd_op id) of the kernel ki. */
bool rpd_kernels_op(rpd_kernels *k, int64_t op, const cv_kinfo *ki);
/* The kernels' rows (the main pass's KERNEL records; pid as rocpd_api's)
 * and the view; the statements finalized (also after a failure). */
bool rpd_kernels_close(rpd_kernels *k, const cv_ctx *ctx, bool write);

#endif
