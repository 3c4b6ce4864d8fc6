/* Memory records (include/rtg/record.h, RTG_FIELDS_MEMORY) of every
 * process, kept by the reader (in/trace.c) for the outputs that draw or
 * list them at their end: the in-use counter per agent (JSON, Perfetto),
 * rocprofv3's memory_allocation_trace.csv, the SQLite table, the leak
 * summary of --stats and the pinned ranges of --analyze.
 *
 * They are HSA-level records: HIP's allocations are among them (each with
 * the HIP call's corr), so no allocation is counted twice.  In use on an
 * agent: the bytes of its pools' allocations not yet freed; locks pin
 * memory the program has already and are not counted in it.  A free is
 * matched to the allocation of its address before it in time (same
 * process); a free of an address with none is counted as unknown. */
#ifndef RTG_CONVERT_MEMUSE_H
#define RTG_CONVERT_MEMUSE_H

#include "convert.h"

enum cv_mem_op { CV_MEM_ALLOC, CV_MEM_FREE, CV_MEM_LOCK, CV_MEM_UNLOCK };
enum cv_mem_kind { CV_MEMK_NONE, CV_MEMK_DEVICE, CV_MEMK_HOST, CV_MEMK_PINNED, CV_MEMK_MANAGED };

typedef struct cv_mem_rec {
  uint64_t start, end, tid, addr, size, corr;
  uint32_t proc, agent;
  rtg_device device; /* of agent (a free: of its allocation) */
  uint8_t op, kind;
  bool has_agent, has_corr;
  bool vmem; /* the virtual memory API's (api hsa_amd_vmem_handle_*): a handle for its address */
  /* set by cv_mem_resolve: a free or unlock found its allocation or lock
   * (size, agent, device and kind are then that one's); an allocation or
   * lock never freed; in_use: bytes in use on the agent after this record
   * (allocations and frees) */
  bool matched, leaked;
  uint64_t in_use;
} cv_mem_rec;

typedef struct cv_mem {
  cv_mem_rec *v;
  size_t n, cap;
  bool resolved;
  uint64_t unknown_frees; /* frees and unlocks of addresses with no allocation or lock */
} cv_mem;

/* The reader: one record (times on the common axis already).
 * cv_mem_resolve and cv_mem_free: convert.h. */
void cv_mem_add(cv_ctx *ctx, const cv_mem_rec *m);
const char *cv_mem_op_name(uint8_t op);
const char *cv_mem_kind_name(uint8_t kind);

#endif
