/* queues.c - hardware queues: the thunk gives the ring and where the read
 * and write pointers live (AQL: amd_queue_t's dispatch ids; SDMA: words of
 * its own), GPU addresses the engines reach through their CPU addresses,
 * and gets a queue id and a doorbell offset. The queues run on the
 * core's engines, which watch the write pointer, so doorbell writes need no
 * answer. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/kfd_ioctl.h>

#include "kfdsim.h"

#define MAX_QUEUES 1024 /* doorbells in one 8 KiB SOC15 doorbell page */

static sim_queue_t *queues[MAX_QUEUES];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* The offset of GPU g's doorbell page, which the thunk then allocates
 * (ALLOC_MEMORY_OF_GPU with the DOORBELL flag) and maps: page aligned,
 * non-zero, one per GPU; a queue's doorbell is the id-th word in it. */
static uint64_t doorbell_page(int g) {
  return (uint64_t)(g + 1) << 20;
}

/* Kernel names come from ROCR's loader list, as with the thunk front end;
 * ROCR exports it, and it exists once ROCR creates queues. */
static void find_rdebug(void) {
  sim_set_rdebug(dlsym(RTLD_DEFAULT, "_amdgpu_r_debug"));
}

int kfdsim_create_queue(void *arg) {
  static pthread_once_t rdebug_once = PTHREAD_ONCE_INIT;
  pthread_once(&rdebug_once, find_rdebug);
  struct kfd_ioctl_create_queue_args *a = arg;
  int g = kfdsim_gpu_of_id(a->gpu_id);
  uint32_t t = a->queue_type;
  int aql = t == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
  /* 4: SDMA_BY_ENG_ID (KFD 1.16) */
  if (g < 0 ||
      (!aql && t != KFD_IOC_QUEUE_TYPE_SDMA && t != KFD_IOC_QUEUE_TYPE_SDMA_XGMI && t != 4))
    return -EINVAL;
  void *ring = sim_vm_ptr(a->ring_base_address, a->ring_size);
  if (!ring || !a->ring_size) return -EFAULT;
  pthread_mutex_lock(&mu);
  uint32_t id = 0;
  while (id < MAX_QUEUES && queues[id]) id++;
  sim_queue_t *q = NULL;
  if (id < MAX_QUEUES) {
    q = sim_queue_start(aql, (uint32_t)g + 1, ring, a->ring_size,
                        sim_vm_ptr(a->read_pointer_address, 8),
                        sim_vm_ptr(a->write_pointer_address, 8), (a->queue_percentage & 0xff) == 0);
    queues[id] = q;
  }
  pthread_mutex_unlock(&mu);
  if (!q) return -ENOMEM;
  a->queue_id = id;
  a->doorbell_offset = doorbell_page(g) + 8ull * id;
  return 0;
}

static sim_queue_t *take(uint32_t id) {
  pthread_mutex_lock(&mu);
  sim_queue_t *q = id < MAX_QUEUES ? queues[id] : NULL;
  if (q) queues[id] = NULL;
  pthread_mutex_unlock(&mu);
  return q;
}

int kfdsim_destroy_queue(void *arg) {
  struct kfd_ioctl_destroy_queue_args *a = arg;
  sim_queue_t *q = take(a->queue_id);
  if (!q) return -EINVAL;
  sim_queue_stop(q);
  return 0;
}

/* ROCR suspends a queue by giving it 0 percent. */
int kfdsim_update_queue(void *arg) {
  struct kfd_ioctl_update_queue_args *a = arg;
  pthread_mutex_lock(&mu);
  sim_queue_t *q = a->queue_id < MAX_QUEUES ? queues[a->queue_id] : NULL;
  if (q) sim_queue_suspend(q, (a->queue_percentage & 0xff) == 0);
  pthread_mutex_unlock(&mu);
  return q ? 0 : -EINVAL;
}
