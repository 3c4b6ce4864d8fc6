/* ioctl.c - the ioctl entry point: requests on /dev/kfd are answered here
 * (the small ones) or by memory.c, events.c and queues.c; a render node gets
 * no DRM ioctl (libdrm.c answers libdrm's functions instead); anything else
 * goes to libc.
 *
 * Requests are told apart by number (_IOC_NR), as KFD itself does: the
 * request word also encodes the argument size, which grew between kernel
 * headers, so ROCR 7.2's thunk and the header this file was built with may
 * disagree on it. Only fields present since KFD 1.11 (Debian 12's header) are
 * read or written. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kfdsim.h"

/* The KFD version we claim: 1.14 turns on event ages in the thunk (the
 * events.c semantics); up to 1.17 adds nothing ROCR needs an answer for. */
#define KFDSIM_MAJOR 1
#define KFDSIM_MINOR 17

/* Request numbers of <linux/kfd_ioctl.h> (stable ABI). */
enum {
  NR_GET_VERSION = 0x01,
  NR_CREATE_QUEUE = 0x02,
  NR_DESTROY_QUEUE = 0x03,
  NR_SET_MEMORY_POLICY = 0x04,
  NR_GET_CLOCK_COUNTERS = 0x05,
  NR_UPDATE_QUEUE = 0x07,
  NR_CREATE_EVENT = 0x08,
  NR_DESTROY_EVENT = 0x09,
  NR_SET_EVENT = 0x0a,
  NR_RESET_EVENT = 0x0b,
  NR_WAIT_EVENTS = 0x0c,
  NR_SET_SCRATCH_BACKING_VA = 0x11,
  NR_GET_TILE_CONFIG = 0x12,
  NR_SET_TRAP_HANDLER = 0x13,
  NR_GET_PROCESS_APERTURES_NEW = 0x14,
  NR_ACQUIRE_VM = 0x15,
  NR_ALLOC_MEMORY_OF_GPU = 0x16,
  NR_FREE_MEMORY_OF_GPU = 0x17,
  NR_MAP_MEMORY_TO_GPU = 0x18,
  NR_UNMAP_MEMORY_FROM_GPU = 0x19,
  NR_SET_CU_MASK = 0x1a,
  NR_ALLOC_QUEUE_GWS = 0x1e,
  NR_SVM = 0x20,
  NR_SET_XNACK_MODE = 0x21,
  NR_AVAILABLE_MEMORY = 0x23,
  NR_EXPORT_DMABUF = 0x24,
  NR_RUNTIME_ENABLE = 0x25,
};

int kfdsim_gpu_of_id(uint32_t gpu_id) {
  sim_config_load();
  uint32_t g = gpu_id - SIM_GPU_ID_BASE;
  return gpu_id >= SIM_GPU_ID_BASE && g < sim_cfg.gpus ? (int)g : -1;
}

/* LDS and scratch apertures are only reserved by the thunk, never touched
 * on the host; GPUVM is the whole user address space (SVM). */
static int apertures(struct kfd_ioctl_get_process_apertures_new_args *a) {
  struct kfd_process_device_apertures *ap =
      (struct kfd_process_device_apertures *)(uintptr_t)a->kfd_process_device_apertures_ptr;
  uint32_t n = 0;
  for (uint32_t g = 0; g < sim_cfg.gpus && n < a->num_of_nodes && ap; g++, n++) {
    memset(&ap[n], 0, sizeof ap[n]);
    ap[n].gpu_id = SIM_GPU_ID_BASE + g;
    ap[n].lds_base = 0x1000000000000ull;
    ap[n].lds_limit = ap[n].lds_base + 0xffffffffull;
    ap[n].scratch_base = 0x2000000000000ull;
    ap[n].scratch_limit = ap[n].scratch_base + 0xffffffffull;
    ap[n].gpuvm_base = 0x1000000ull;
    ap[n].gpuvm_limit = 0x7fffffffffffull;
  }
  a->num_of_nodes = ap ? n : sim_cfg.gpus;
  return 0;
}

/* AMDKFD_IOC_RUNTIME_ENABLE (KFD 1.13; not in Debian 12's header, so the
 * layout is spelled out: r_debug, mode_mask, capabilities_mask). The thunk
 * sends it when every GPU node says HSA_CAP_TRAP_DEBUG_FIRMWARE_SUPPORTED
 * (sysfs.c), as the simulated targets' firmware does: at hsa_init to enable,
 * at hsa_shut_down to disable. ROCR >= 6.3 closes its KFD connection at
 * shutdown only after the disable succeeded; without it, a later hsa_init
 * in the same process finds the thunk still open and fails. As KFD does,
 * an enable while enabled is EBUSY and the state is the process's own: a
 * forked child starts disabled (the pid tells it, as memory is copied). */
struct runtime_enable_args {
  uint64_t r_debug;
  uint32_t mode_mask;
  uint32_t capabilities_mask;
};
#define RUNTIME_ENABLE_MODE_ENABLE_MASK 1u

static int runtime_enable(struct runtime_enable_args *a) {
  static pid_t enabled_by; /* 0: disabled */
  pid_t me = getpid();
  int on = __atomic_load_n(&enabled_by, __ATOMIC_ACQUIRE) == me;
  if (a->mode_mask & RUNTIME_ENABLE_MODE_ENABLE_MASK) {
    if (on) return -EBUSY;
    a->capabilities_mask = 0; /* no core dumps, no debugger features */
  }
  __atomic_store_n(&enabled_by, (a->mode_mask & RUNTIME_ENABLE_MODE_ENABLE_MASK) ? me : 0,
                   __ATOMIC_RELEASE);
  return 0;
}

static int request(unsigned nr, void *arg) {
  switch (nr) {
  case NR_GET_VERSION: {
    struct kfd_ioctl_get_version_args *a = arg;
    a->major_version = KFDSIM_MAJOR;
    a->minor_version = KFDSIM_MINOR;
    return 0;
  }
  case NR_GET_PROCESS_APERTURES_NEW:
    return apertures(arg);
  case NR_GET_CLOCK_COUNTERS: {
    struct kfd_ioctl_get_clock_counters_args *a = arg;
    uint64_t t = sim_clock_counter();
    a->gpu_clock_counter = a->cpu_clock_counter = a->system_clock_counter = t;
    a->system_clock_freq = 1000000000ull;
    return 0;
  }
  case NR_AVAILABLE_MEMORY: {
    struct kfd_ioctl_get_available_memory_args *a = arg;
    a->available = sim_cfg.vram;
    return 0;
  }
  case NR_GET_TILE_CONFIG: {
    struct kfd_ioctl_get_tile_config_args *a = arg;
    a->gb_addr_config = 0;
    a->num_banks = a->num_ranks = 0;
    a->num_tile_configs = a->num_macro_tile_configs = 0;
    return 0;
  }
  case NR_SET_XNACK_MODE: { /* a query (-1) says off; XNACK cannot be turned on */
    struct kfd_ioctl_set_xnack_mode_args *a = arg;
    if (a->xnack_enabled < 0) {
      a->xnack_enabled = 0;
      return 0;
    }
    return a->xnack_enabled ? -EPERM : 0;
  }
  /* Accepted, nothing to simulate: the VM is the process's, scratch and the
   * trap handler are never run, CU masks and GWS do not change timing. */
  case NR_ACQUIRE_VM:
  case NR_SET_MEMORY_POLICY:
  case NR_SET_SCRATCH_BACKING_VA:
  case NR_SET_TRAP_HANDLER:
  case NR_SET_CU_MASK:
  case NR_ALLOC_QUEUE_GWS:
    return 0;
  case NR_ALLOC_MEMORY_OF_GPU:
    return kfdsim_alloc_memory(arg);
  case NR_FREE_MEMORY_OF_GPU:
    return kfdsim_free_memory(arg);
  case NR_MAP_MEMORY_TO_GPU:
    return kfdsim_map_memory(arg);
  case NR_UNMAP_MEMORY_FROM_GPU:
    return kfdsim_unmap_memory(arg);
  case NR_CREATE_EVENT:
    return kfdsim_create_event(arg);
  case NR_DESTROY_EVENT:
    return kfdsim_destroy_event(arg);
  case NR_SET_EVENT:
    return kfdsim_set_event(arg);
  case NR_RESET_EVENT:
    return kfdsim_reset_event(arg);
  case NR_WAIT_EVENTS:
    return kfdsim_wait_events(arg);
  case NR_RUNTIME_ENABLE:
    return runtime_enable(arg);
  case NR_EXPORT_DMABUF:
    return kfdsim_export_dmabuf(arg);
  case NR_SVM:
    return kfdsim_svm(arg);
  case NR_CREATE_QUEUE:
    return kfdsim_create_queue(arg);
  case NR_DESTROY_QUEUE:
    return kfdsim_destroy_queue(arg);
  case NR_UPDATE_QUEUE:
    return kfdsim_update_queue(arg);
  }
  /* debugger, IPC, SMI, CRIU, PC sampling: not
   * simulated; the thunk treats ENOTTY as "not supported by this kernel" */
  return -ENOTTY;
}

KFDSIM_EXPORT int ioctl(int fd, unsigned long req, ...) {
  static int (*real_ioctl)(int, unsigned long, ...);
  va_list ap;
  va_start(ap, req);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  if (fd >= 0 && sim_is_kfd_fd(fd)) {
    int r = _IOC_TYPE(req) == AMDKFD_IOCTL_BASE ? request(_IOC_NR(req), arg) : -ENOTTY;
    KFDSIM_LOG("ioctl nr %#x -> %d\n", (unsigned)_IOC_NR(req), r);
    if (r >= 0) return r;
    errno = -r;
    return -1;
  }
  if (fd >= 0 && sim_render_gpu(fd) >= 0) {
    int r = kfdsim_render_ioctl(req, arg);
    KFDSIM_LOG("DRM ioctl %#lx on a render node -> %d\n", req, r);
    if (r >= 0) return r;
    errno = -r;
    return -1;
  }
  if (!real_ioctl) real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
  return real_ioctl(fd, req, arg);
}
