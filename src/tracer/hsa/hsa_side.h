/* The HSA side of the tracer: the runtime's functions as saved in OnLoad
 * (rtg_real), the functions the application's calls reach (rtg_impl: the
 * runtime's, or a hook of the GPU side), the API wrappers, and the agents. */
#ifndef RTG_HSA_SIDE_H
#define RTG_HSA_SIDE_H

#include "core/tracer.h"

#include <stdatomic.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "rtg/hsa_table.h"

typedef void (*hsa_amd_runtime_queue_notifier)(const hsa_queue_t *queue, hsa_agent_t agent,
                                               void *data);
hsa_status_t hsa_amd_queue_intercept_register(hsa_queue_t *queue,
                                              hsa_amd_queue_intercept_handler callback,
                                              void *user_data);
#include "hsa/gen/hsa_api_list.h" /* callback typedefs */

/* One typed pointer per function of the tables, named like the function. */
typedef struct rtg_hsa_fns {
#define RTG_API(T, name, ret, rk, params, call, args) ret(*name) params;
#define RTG_API_VOID(T, name, params, call, args) void(*name) params;
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
  /* 5.6+ only (not in the 5.2 headers the list is made from) */
  hsa_status_t (*hsa_amd_memory_async_copy_on_engine)(void *dst, hsa_agent_t dst_agent,
                                                      const void *src, hsa_agent_t src_agent,
                                                      size_t size, uint32_t num_dep_signals,
                                                      const hsa_signal_t *dep_signals,
                                                      hsa_signal_t completion_signal, int engine_id,
                                                      bool force_copy_on_sdma);
} rtg_hsa_fns;

RTG_HIDDEN extern rtg_hsa_fns rtg_real; /* the runtime's, from OnLoad */
RTG_HIDDEN extern rtg_hsa_fns rtg_impl; /* what the application's calls reach */

/* hsa_api.c: the traced wrappers; install into the runtime's tables. */
RTG_HIDDEN void rtg_hsa_api_init(void);
RTG_HIDDEN void rtg_hsa_api_install(void);

/* memory.c: the hooks that record allocations, frees, locks and unlocks
 * (memory records), put into rtg_impl; after rtg_agents_init. */
RTG_HIDDEN void rtg_memory_init(void);
/* memory.c: a fork child forgets the parent's ranges (its locks free). */
RTG_HIDDEN void rtg_memory_after_fork(void);

/* managed_os.c: HIP's mmap and munmap watched (its GOT), from
 * rtg_memory_init, which gives the free of a managed range at addr,
 * unmapped at t0; the range [addr, addr + size) given SVM attributes made
 * managed memory if the calling thread's last mapping of HIP's starts there
 * and holds it: the mapping's start stamp, else 0; a fork child forgets. */
RTG_HIDDEN void rtg_managed_os_install(void (*freed)(uint64_t addr, uint64_t t0));
RTG_HIDDEN uint64_t rtg_managed_os_mark(uint64_t addr, uint64_t size);
RTG_HIDDEN void rtg_managed_os_after_fork(void);

/* tables.c: read the runtime's tables (the root HsaApiTable OnLoad got)
 * into rtg_real and rtg_impl.  false: not traceable (said). */
RTG_HIDDEN bool rtg_hsa_tables_read(const void *root);
/* tables.c: write fn as the entry at byte offset `off` of the normalized
 * (newest-layout) mirror of table `tbl`, if the runtime's table has it. */
enum { RTG_TBL_CORE, RTG_TBL_EXT, RTG_TBL_IMAGE, RTG_TBL_FINALIZER };
RTG_HIDDEN bool rtg_table_set(int tbl, size_t off, rtg_hsa_fn fn);

/* agents.c: agents in the runtime's order, as small stable indexes. */
typedef struct rtg_agent {
  hsa_agent_t agent;
  hsa_device_type_t type;
  uint32_t index;
  uint32_t gpu;    /* position among the GPU agents (HCC_PROFILE's device), 0 if not a GPU */
  uint32_t queues; /* queues created so far, for queue indexes */
  uint32_t copies; /* copies so far (HCC_PROFILE sequence) */
} rtg_agent;
RTG_HIDDEN void rtg_agents_init(void);
RTG_HIDDEN rtg_agent *rtg_agent_find(hsa_agent_t a);
RTG_HIDDEN rtg_agent *rtg_agent_host(void); /* the first CPU agent, or NULL */
/* HCC_PROFILE's device number of the agent of that index: its position
 * among the GPUs (the original counted devices, not HSA agents, so the first
 * GPU is 0 although the CPU agent comes first); 0 for other agents, the
 * default device host-only work went to there. */
RTG_HIDDEN uint32_t rtg_agent_hcc_device(uint32_t index);

#endif
