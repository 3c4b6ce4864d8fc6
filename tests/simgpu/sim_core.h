/* sim_core.h - the core of simgpu, shared by its two front ends.
 *
 * The core is the simulated hardware: configuration, clock, the AQL and SDMA
 * queue engines, emulated blit kernels, kernel names and durations, and the
 * monitor that lets idle queues sleep. It knows nothing of the driver
 * interface, so it builds without hsakmt.h. The front ends are what ROCR
 * talks to:
 *   - the thunk (sim.h, libhsakmt.so.1): ROCR up to 6.2 loads libhsakmt
 *     dynamically and simgpu replaces it;
 *   - the kernel driver (kfd/, libsimgpu-kfd.so, LD_PRELOAD): ROCR >= 6.3
 *     has the thunk built in and talks to /dev/kfd with ioctls.
 * Device memory is host memory (GPU address == CPU address, except for user
 * memory the driver maps elsewhere: vm.c) and no GPU code ever runs: queue
 * worker threads retire packets after a simulated time and emulate the few
 * kernels whose results programs depend on. */
#ifndef SIMGPU_SIM_CORE_H
#define SIMGPU_SIM_CORE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "simgpu.h"

#define SIM_EXPORT __attribute__((visibility("default")))

/* ---- config.c: everything the environment can change ---- */
#define SIM_MAX_GPUS 8
#define SIM_CPU_NODE 0

typedef struct sim_gfx {
  int major, minor, stepping; /* gfx90a = 9, 0, 10 */
} sim_gfx_t;

typedef struct sim_kernel_time {
  char *pattern; /* substring of the kernel name */
  uint64_t ns;
} sim_kernel_time_t;

typedef struct sim_config {
  int log;                     /* SIMGPU_LOG */
  uint32_t gpus;               /* SIMGPU_GPUS */
  sim_gfx_t gfx[SIM_MAX_GPUS]; /* SIMGPU_GFX */
  uint32_t cus;                /* SIMGPU_CUS */
  uint64_t vram;               /* SIMGPU_VRAM_MB, in bytes */
  uint64_t kernel_ns;          /* SIMGPU_KERNEL_NS */
  sim_kernel_time_t *times;    /* SIMGPU_KERNEL_TIMES */
  int ntimes;
  uint64_t sdma_mbps;     /* SIMGPU_SDMA_MBPS, 0 = copies take no time */
  uint64_t poll_ns;       /* SIMGPU_POLL_US: worker poll interval while busy */
  uint64_t idle_ns;       /* SIMGPU_IDLE_US: longest doorbell poll interval when idle */
  uint64_t spin_ns;       /* SIMGPU_SPIN_US: a worker that ran out of packets looks this long
                           * without sleeping (0: its first look is after SIMGPU_POLL_US) */
  uint64_t wait_entry_ns; /* SIMGPU_WAIT_ENTRY_US: a long wait on one event starts late */
  uint64_t cpus[16];      /* SIMGPU_CPUS: bit c: the GPU's threads run on CPU c (none: anywhere) */
} sim_config_t;

extern sim_config_t sim_cfg;
void sim_config_load(void); /* idempotent */

#define SIM_LOG(...)                                                                               \
  do {                                                                                             \
    if (sim_cfg.log) fprintf(stderr, "simgpu: " __VA_ARGS__);                                      \
  } while (0)

static inline int sim_is_gpu_node(uint32_t node) {
  return node >= 1 && node <= sim_cfg.gpus;
}

/* ---- clock.c: CLOCK_BOOTTIME, the clock of HSA timestamps ---- */
uint64_t sim_now_ns(void);
void sim_sleep_until(uint64_t t_ns);
void sim_sleep_ns(uint64_t ns);
uint64_t sim_clock_counter(void);        /* GPU/CPU/system counters: 1 GHz, strictly increasing */
void sim_thread_setup(const char *name); /* fine timer slack, thread name */

/* SIMGPU_WAIT_ENTRY_US, in both front ends' event waits: a thread that
 * blocks on one event for long (over 1 s) registers late, as if it were
 * preempted between its last look at the signal and its sleep.  A set in
 * between stays pending on the event, and another thread waiting on the
 * same event consumes it, as with KFD (unless the wait passes an event
 * age): the lost wakeup of sg_destroy_race.c then happens every time. */
static inline void sim_wait_entry_delay(uint32_t nevents, uint64_t timeout_ms) {
  if (sim_cfg.wait_entry_ns && nevents == 1 && timeout_ms > 1000)
    sim_sleep_ns(sim_cfg.wait_entry_ns);
}

/* ---- what each front end provides to the core ---- */
/* Does [p, p+len) lie inside one allocation or registered range? Emulated
 * kernels check their destination, where a real GPU would take a VM fault. */
int sim_mem_valid(const void *p, uint64_t len);
/* The "GPU" raises the interrupt of an event (a signal's event_id). */
void sim_event_fire(uint32_t event_id);
/* The CPU address of GPU address va; *span: how many bytes from va on map
 * contiguously there (UINT64_MAX where the GPU address is the CPU address
 * up to the end of memory). */
void *sim_gpu_to_cpu(uint64_t va, uint64_t *span);

/* ---- vm.c: memory as the engines see it, by GPU address ---- */
void *sim_vm_ptr(uint64_t va, uint64_t len); /* NULL unless contiguous in CPU memory */
void sim_vm_copy(uint64_t dst, uint64_t src, uint64_t n);
/* A CPU array standing for [va, va + len): the memory itself where it is
 * contiguous, else a copy of it (a bounce buffer) that sim_view_close
 * writes back when `written`. Open returns NULL only when out of memory. */
typedef struct sim_view {
  uint64_t va, len;
  char *p;
  int bounced;
} sim_view_t;
char *sim_view_open(sim_view_t *v, uint64_t va, uint64_t len);
void sim_view_close(sim_view_t *v, int written);

/* ---- monitor.c: sleeping instead of spinning ----
 * A worker that cannot progress parks. One monitor thread polls the progress
 * predicates of all parked queues with an interval that backs off while
 * nothing happens; events set by the host and waits by the host kick it. */
typedef struct sim_queue sim_queue_t;
typedef int (*sim_ready_fn)(sim_queue_t *q);
void sim_park(sim_queue_t *q, sim_ready_fn ready);
void sim_kick(void);
void sim_monitor_add(sim_queue_t *q);
void sim_monitor_remove(sim_queue_t *q);
void sim_unpark(sim_queue_t *q);

/* ---- gpu_facts.c: what a GPU of a gfx target reports ---- */
uint32_t sim_device_id(const sim_gfx_t *g);
uint32_t sim_family_id(const sim_gfx_t *g);
uint32_t sim_wave_size(const sim_gfx_t *g);
uint32_t sim_max_waves_per_simd(const sim_gfx_t *g);
int sim_sram_ecc(const sim_gfx_t *g);
void sim_marketing_name(const sim_gfx_t *g, char *buf, size_t n);
/* libdrm's struct amdgpu_gpu_info (amdgpu.h), the prefix ROCR reads. */
typedef struct sim_amdgpu_gpu_info {
  uint32_t asic_id, chip_rev, chip_external_rev, family_id;
  uint64_t ids_flags, max_engine_clk, max_memory_clk;
  uint32_t num_shader_engines, num_shader_arrays_per_engine, avail_quad_shader_pipes,
      max_quad_shader_pipes, cache_entries_per_quad_pipe, num_hw_gfx_contexts, rb_pipes,
      enabled_rb_pipes_mask, gpu_counter_freq;
} sim_amdgpu_gpu_info_t;
void sim_amdgpu_gpu_info(uint32_t gpu, sim_amdgpu_gpu_info_t *info);

/* ---- a hardware queue ---- */
struct sim_queue {
  int is_aql; /* else SDMA */
  uint32_t id;
  uint32_t node;
  char *ring;
  uint64_t ring_size;
  volatile uint64_t *rptr; /* AQL: amd_queue_t.read_dispatch_id */
  volatile uint64_t *wptr; /* AQL: amd_queue_t.write_dispatch_id */
  /* SDMA queues keep their pointers here; the doorbell is write-only for ROCR. */
  volatile uint64_t rptr_store __attribute__((aligned(64)));
  volatile uint64_t wptr_store __attribute__((aligned(64)));
  volatile uint64_t doorbell __attribute__((aligned(64)));
  volatile int stop;
  volatile int suspended;
  uint64_t npackets;
  uint64_t last_end; /* end time of the previous packet, ns */
  int next_waiting;  /* the head packet was ready when the previous one ended */
  pthread_t thread;
  /* parking (monitor.c) */
  pthread_cond_t cv;
  int parked;
  sim_ready_fn ready;
  sim_queue_t *mon_next;
};
void *sim_aql_worker(void *arg);
void *sim_sdma_worker(void *arg);

/* ---- engine.c: a queue's worker thread ----
 * rptr/wptr: where the read and write indices live (AQL: amd_queue_t's
 * dispatch ids); NULL for SDMA means the queue's own rptr_store/wptr_store. */
sim_queue_t *sim_queue_start(int is_aql, uint32_t node, void *ring, uint64_t ring_size,
                             volatile uint64_t *rptr, volatile uint64_t *wptr, int suspended);
void sim_queue_suspend(sim_queue_t *q, int suspended);
void sim_queue_stop(sim_queue_t *q); /* joins the worker, frees q */

/* ---- kernel_names.c ---- */
void sim_set_rdebug(void *r_debug);
const char *sim_kernel_name(uint64_t kernel_object);

/* ---- hip_release.c: the loaded libamdhip64, major * 100 + minor (0: none) ---- */
int sim_hip_release(void);

/* ---- blit.c: kernels simgpu performs on the CPU ---- */
int sim_blit_emulate(const hsa_kernel_dispatch_packet_t *pkt, const char *name);

/* ---- kernel_time.c ---- */
uint64_t sim_kernel_duration(const hsa_kernel_dispatch_packet_t *pkt, const char *name);

#endif
