/* Host memory as the HIP calls of a process saw it, for the pageable_copy
 * rule (the memory records give the ranges instead where the trace has
 * them: an_mem_take_records): pinned ranges (hipHostMalloc, hipHostAlloc, hipMallocHost,
 * hipExtMallocWithFlags, hipHostRegister; gone with hipHostFree,
 * hipFreeHost, hipHostUnregister), device ranges (hipMalloc and kin; gone
 * with hipFree), and the async copies whose host side is neither: HIP
 * stages those through its own pinned buffers, and the call waits for it.
 * The pointers come from the calls' arguments (RTG_HIP_API_ARGS=1); a
 * trace without them cannot tell, and the rule says so. */
#ifndef RTG_ANALYZE_MEMORY_H
#define RTG_ANALYZE_MEMORY_H

#include "rules.h"

enum an_mem_kind { AN_MEM_PIN, AN_MEM_UNPIN, AN_MEM_DEV, AN_MEM_FREE, AN_MEM_COPY };

/* One call that matters to host memory. */
typedef struct an_mem {
  uint64_t start, end, tid;
  uint64_t ptr, size; /* a range; a copy: its host side (ptr2: a second candidate) */
  uint64_t ptr2;      /* a copy of kind Default: the other pointer; 0: none */
  uint32_t name;      /* caller's name id */
  uint8_t kind;       /* an_mem_kind */
} an_mem;

/* The an_mem of a HIP call from its name and argument text; false when
 * the call does not matter here or its arguments are missing. *copy_call
 * tells whether it is an async copy at all (one without arguments is
 * counted as unchecked). */
bool an_mem_of_call(const char *name, const char *args, an_mem *out, bool *copy_call);

/* The memory records of process proc (shared/memuse.h, resolved), when it
 * has any, give its pinned and device ranges instead of its HIP calls'
 * arguments: pool allocations of a CPU agent and locks are pinned, a
 * GPU's pool allocations device memory; a free or unlock ends the range it
 * matched.  They need no arguments and see hipHostRegister, HIP's other
 * allocation calls and HSA programs alike.  The copies stay.  false when
 * the process has no memory record (the calls' ranges stay). */
struct cv_mem;
bool an_mem_take_records(an_mem **v, size_t *n, size_t *cap, const struct cv_mem *mem,
                         uint32_t proc);

/* The pageable_copy rule over a process's calls (any order; sorted here):
 * async copies whose host pointer lies in no pinned and no device range.
 * unchecked: async copies the trace has no arguments for. */
void an_rule_pageable(an_mem *v, size_t n, uint64_t unchecked, an_rule *out);

#endif
