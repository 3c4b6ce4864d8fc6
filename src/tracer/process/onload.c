/* The tracer's life in the process, in the order it runs: OnLoad (the HSA
 * runtime loads us during hsa_init), then, whichever comes first at the
 * end - exit (atexit), _exit (exec_hook.c), OnUnload (hsa_shut_down) or
 * the library's destructor - finish, once. */
#define _GNU_SOURCE /* dladdr */
#include "api_tables.h"
#include "core/backtrace.h"
#include "core/sink.h"
#include "core/stamp.h"
#include "core/tracer.h"
#include "core/writer.h"
#include "exec_hook.h"
#include "fatal_signals.h"
#include "fork.h"
#include "gpu/gpu.h"
#include "hip/hip_tracing.h"
#include "hsa/hsa_side.h"
#include "mpi/mpi_tracing.h"
#include "roctx/roctx_tracing.h"

#include <dlfcn.h>
#include <stdlib.h>

static const void *root; /* the runtime's table: OnLoad ran */
/* finish ran for the trace now open; a new OnLoad (hsa_init after
 * hsa_shut_down, in this process or in a child forked after it) opens a
 * new trace, which ends with its own finish */
static int finished;
static bool finish_once(void);
static void finish(void);

__attribute__((visibility("default"))) bool OnLoad(void *table, uint64_t runtime_version,
                                                   uint64_t failed_tool_count,
                                                   const char *const *failed_tool_names) {
  (void)runtime_version, (void)failed_tool_count, (void)failed_tool_names;
  if (!table) return false;
  rtg_enter();
  /* Stay mapped after the runtime dlcloses us (hsa_shut_down): waiter and
   * writer threads and the atexit handler still point into this library. */
  Dl_info self;
  if (dladdr((void *)OnLoad, &self) && self.dli_fname)
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  rtg_config_read();
  rtg_stamp_init();
  root = table;
  if (!rtg_sink_open()) {
    rtg_leave();
    return true; /* never stop the application */
  }
  __atomic_store_n(&finished, 0, __ATOMIC_RELEASE);
  rtg_fork_handlers_install();
  rtg_config_print();
  /* the HSA side: the runtime's tables, the agents, the GPU side's hooks,
   * then the API wrappers over whatever the hooks left in rtg_impl */
  if (rtg_hsa_tables_read(table)) {
    rtg_agents_init();
    /* the agent records right after the header, before any thread's op
     * names an agent (readers map agents to devices as they read) */
    rtg_writer_flush();
    rtg_gpu_init();
    rtg_memory_init();
    rtg_hsa_api_init();
    rtg_hsa_api_install();
  }
  rtg_fatal_signals_install();
  atexit(finish);
  rtg_exec_hooks_install(finish);
  rtg_leave();
  /* the HIP and ROCTx side: 6.2+ tables first, so that when they are ours
   * no callback is registered as well (no call traced twice) */
  rtg_bt_setup(rtg_cfg.backtrace);
  rtg_api_tables_attach();
  rtg_roctx_init();
  rtg_hip_init();
  rtg_mpi_init();
  return true;
}

/* hsa_shut_down: the process may go on and call hsa_init again (or fork
 * a child that does), so this thread is traced again once a new OnLoad
 * opens a new trace. */
__attribute__((visibility("default"))) void OnUnload(void) {
  if (!root) return;
  rtg_gpu_unload();
  if (finish_once()) rtg_leave();
}

__attribute__((destructor)) static void at_unload(void) {
  if (root) finish();
}

/* Process end: let the GPU work in flight finish (bounded), then write
 * everything. False when the trace was already finished. */
static bool finish_once(void) {
  if (__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL)) return false;
  rtg_enter(); /* for good when the process ends */
  rtg_roctx_fini();
  rtg_mpi_fini();
  rtg_hip_fini();
  rtg_bt_symbolize(); /* the HIP paths, which capture stacks, are stopped */
  rtg_gpu_finish(rtg_cfg.exit_wait_ms);
  rtg_sink_close();
  return true;
}

static void finish(void) {
  finish_once();
}
