/* kfd_ioctls: drives simgpu's kernel-driver front end (libsimgpu-kfd.so,
 * LD_PRELOADed) the way ROCR's built-in thunk does, without ROCR, so the
 * front end is tested on every system, also where ROCR still loads a
 * separate thunk (Debian 12):
 *   1. /dev/kfd: version; the sysfs topology and /proc/cpuinfo as served;
 *   2. render nodes: one per GPU, no more;
 *   3. a VRAM buffer object at a reserved address, mapped through the
 *      render node: the memory stays the same (CPU address = GPU address);
 *   4. events: a wait times out, a set is seen, event ages (a set since the
 *      age the caller passes satisfies the wait at once);
 *   5. an SDMA queue: COPY_LINEAR, FENCE and TRAP packets are executed, the
 *      TRAP raises the event; then copies and a fill through a userptr
 *      object (the program's memory at a GPU address of its own, as the
 *      thunk registers memory) reach the program's memory;
 *   6. requests not simulated fail with ENOTTY; a freed object is gone;
 *   7. the runtime enable of KFD 1.13 (the thunk's hsaKmtRuntimeEnable and
 *      Disable; the GPU node says its firmware supports the debugger): a
 *      second enable is EBUSY, a disable succeeds, and a forked child's
 *      state is its own (it enables while its parent is enabled). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int kfd;

#define OK(call)                                                                                   \
  do {                                                                                             \
    if ((call) != 0) {                                                                             \
      fprintf(stderr, "kfd_ioctls: %s failed: %s\n", #call, strerror(errno));                      \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static void show_property(const char *path, const char *key) {
  FILE *f = fopen(path, "r");
  char line[256];
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, n) && (line[n] == ' ' || line[n] == '\t')) {
      printf("%s", line); /* the first: cpuinfo repeats it per CPU */
      break;
    }
  if (f) fclose(f);
  if (!f) printf("%s: cannot open\n", path);
}

static uint32_t wait1(uint32_t id, uint32_t ms, uint64_t *age) {
  struct kfd_event_data d;
  memset(&d, 0, sizeof d);
  d.event_id = id;
  memcpy(&d, age, sizeof *age); /* last_event_age: the union's first word */
  struct kfd_ioctl_wait_events_args w = {(uint64_t)(uintptr_t)&d, 1, 1, ms, 0};
  OK(ioctl(kfd, AMDKFD_IOC_WAIT_EVENTS, &w));
  memcpy(age, &d, sizeof *age);
  return w.wait_result;
}

/* Appends an SDMA COPY_LINEAR of n bytes; returns the next dword. */
static uint32_t sdma_copy(uint32_t *ring, uint32_t i, uint64_t dst, uint64_t src, uint32_t n) {
  ring[i++] = 1; /* COPY, LINEAR */
  ring[i++] = n - 1;
  ring[i++] = 0;
  ring[i++] = (uint32_t)src, ring[i++] = (uint32_t)(src >> 32);
  ring[i++] = (uint32_t)dst, ring[i++] = (uint32_t)(dst >> 32);
  return i;
}

/* Appends FENCE (value to *fence) and TRAP (the event). */
static uint32_t sdma_fence_trap(uint32_t *ring, uint32_t i, uint64_t fence, uint32_t value,
                                uint32_t event) {
  ring[i++] = 5; /* FENCE */
  ring[i++] = (uint32_t)fence, ring[i++] = (uint32_t)(fence >> 32);
  ring[i++] = value;
  ring[i++] = 6; /* TRAP: the event */
  ring[i++] = event;
  return i;
}

/* The program's memory as a userptr object at a GPU address of its own
 * (a reserved range), as the thunk registers memory; its GPU address. */
static uint64_t userptr(void *mem, size_t size, unsigned gpu_id, uint64_t *handle) {
  char *gva = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  struct kfd_ioctl_alloc_memory_of_gpu_args al = {0};
  al.va_addr = (uintptr_t)gva;
  al.size = size;
  al.gpu_id = gpu_id;
  al.mmap_offset = (uintptr_t)mem; /* the CPU address */
  al.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | 0x80000000u;
  OK(ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al));
  uint32_t dev = gpu_id;
  struct kfd_ioctl_map_memory_to_gpu_args map = {al.handle, (uintptr_t)&dev, 1, 0};
  OK(ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map));
  *handle = al.handle;
  return (uintptr_t)gva;
}

static int all(const unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v) return 0;
  return 1;
}

/* AMDKFD_IOC_RUNTIME_ENABLE, spelled out (not in Debian 12's header) */
struct runtime_enable_args {
  uint64_t r_debug;
  uint32_t mode_mask, capabilities_mask;
};
#define IOC_RUNTIME_ENABLE _IOWR('K', 0x25, struct runtime_enable_args)

static const char *runtime(uint32_t mode) {
  struct runtime_enable_args a = {0, mode, 0};
  return ioctl(kfd, IOC_RUNTIME_ENABLE, &a) == 0 ? "ok"
         : errno == EBUSY                        ? "EBUSY"
                                                 : strerror(errno);
}

static const char *result(uint32_t r) {
  return r == KFD_IOC_WAIT_RESULT_COMPLETE  ? "complete"
         : r == KFD_IOC_WAIT_RESULT_TIMEOUT ? "timeout"
                                            : "?";
}

int main(void) {
  /* 1 */
  kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  if (kfd < 0) return perror("open /dev/kfd"), 1;
  struct kfd_ioctl_get_version_args v = {0};
  OK(ioctl(kfd, AMDKFD_IOC_GET_VERSION, &v));
  printf("kfd %u.%u\n", v.major_version, v.minor_version);
  const char *topo = "/sys/devices/virtual/kfd/kfd/topology/nodes";
  char p[256];
  snprintf(p, sizeof p, "%s/1/properties", topo);
  show_property(p, "gfx_target_version");
  show_property(p, "simd_count");
  show_property(p, "drm_render_minor");
  snprintf(p, sizeof p, "%s/1/gpu_id", topo);
  FILE *f = fopen(p, "r");
  unsigned gpu_id = 0;
  if (!f || fscanf(f, "%u", &gpu_id) != 1) return fprintf(stderr, "no gpu_id\n"), 1;
  fclose(f);
  printf("gpu_id %u\n", gpu_id);
  show_property("/proc/cpuinfo", "model name");
  snprintf(p, sizeof p, "%s/2/properties", topo);
  printf("node 2 exists: %s\n", access(p, R_OK) ? "no" : "yes");

  /* 2 */
  int render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  int other = open("/dev/dri/renderD129", O_RDWR | O_CLOEXEC);
  printf("renderD128: %s, renderD129: %s\n", render >= 0 ? "open" : "missing",
         other >= 0 ? "open" : strerror(errno));

  /* 3 */
  const size_t size = 2 << 20;
  char *resv = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  char *va = (char *)(((uintptr_t)resv + size - 1) & ~(uintptr_t)(size - 1));
  struct kfd_ioctl_alloc_memory_of_gpu_args al = {0};
  al.va_addr = (uintptr_t)va;
  al.size = size;
  al.gpu_id = gpu_id;
  /* the header's WRITABLE is (1 << 31), an int shift UBSan refuses */
  al.flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | 0x80000000u;
  OK(ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &al));
  strcpy(va, "written before the CPU mapping");
  char *m =
      mmap(va, size, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_SHARED, render, (off_t)al.mmap_offset);
  printf("mapped at the object's address: %s, contents kept: %s\n", m == va ? "yes" : "no",
         m == va && !strcmp(va, "written before the CPU mapping") ? "yes" : "no");
  uint32_t dev = gpu_id;
  struct kfd_ioctl_map_memory_to_gpu_args map = {al.handle, (uintptr_t)&dev, 1, 0};
  OK(ioctl(kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map));
  printf("mapped to %u of 1 GPU\n", map.n_success);

  /* 4 */
  struct kfd_ioctl_create_event_args ce = {0};
  ce.event_type = KFD_IOC_EVENT_SIGNAL;
  ce.auto_reset = 1;
  OK(ioctl(kfd, AMDKFD_IOC_CREATE_EVENT, &ce));
  uint64_t age = 0;
  printf("wait before any set: %s\n", result(wait1(ce.event_id, 10, &age)));
  struct kfd_ioctl_set_event_args se = {ce.event_id, 0};
  OK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &se));
  printf("wait after a set: %s\n", result(wait1(ce.event_id, 0, &age)));
  uint64_t seen = age;
  printf("the set is consumed: %s\n", result(wait1(ce.event_id, 10, &age)));
  OK(ioctl(kfd, AMDKFD_IOC_SET_EVENT, &se));
  OK(ioctl(kfd, AMDKFD_IOC_RESET_EVENT, &se)); /* not signaled any more, but its age moved */
  age = seen;
  uint32_t older = wait1(ce.event_id, 0, &age);
  printf("wait with an older age: %s, age moved by %llu\n", result(older),
         (unsigned long long)(age - seen));
  printf("wait with the current age: %s\n", result(wait1(ce.event_id, 10, &age)));

  /* 5: ring, pointers and data all in the buffer object */
  uint32_t *ring = (uint32_t *)va;
  volatile uint64_t *rptr = (uint64_t *)(va + 4096), *wptr = (uint64_t *)(va + 4096 + 64);
  volatile uint32_t *fence = (uint32_t *)(va + 4096 + 128);
  char *src = va + 8192, *dst = va + 16384;
  for (int i = 0; i < 1024; i++) src[i] = (char)(i * 7);
  struct kfd_ioctl_create_queue_args cq = {0};
  cq.ring_base_address = (uintptr_t)ring;
  cq.ring_size = 4096;
  cq.read_pointer_address = (uintptr_t)rptr;
  cq.write_pointer_address = (uintptr_t)wptr;
  cq.gpu_id = gpu_id;
  cq.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  cq.queue_percentage = 100;
  OK(ioctl(kfd, AMDKFD_IOC_CREATE_QUEUE, &cq));
  printf("SDMA queue %u, doorbell offset set: %s\n", cq.queue_id,
         cq.doorbell_offset ? "yes" : "no");
  uint32_t n = sdma_copy(ring, 0, (uintptr_t)dst, (uintptr_t)src, 1024);
  n = sdma_fence_trap(ring, n, (uintptr_t)fence, 0xcafe, ce.event_id);
  __atomic_store_n(wptr, (uint64_t)n * 4, __ATOMIC_RELEASE);
  printf("copy done event: %s\n", result(wait1(ce.event_id, 5000, &age)));
  /* the engine moves its read pointer past the trap after raising the
   * event, as hardware may: give it up to a second */
  for (int i = 0; i < 1000 && *rptr != *wptr; i++) usleep(1000);
  printf("copied: %s, fence 0x%x, read pointer at write pointer: %s\n",
         memcmp(src, dst, 1024) ? "no" : "yes", *fence, *rptr == *wptr ? "yes" : "no");
  /* into the program's memory through its GPU address, out again into the
   * buffer object, and a fill there */
  unsigned char *user = aligned_alloc(4096, 8192), *back = (unsigned char *)va + 32768;
  memset(user, 0, 8192);
  uint64_t uh, ugva = userptr(user, 8192, gpu_id, &uh);
  n = sdma_copy(ring, n, ugva + 100, (uintptr_t)src, 1024);
  n = sdma_copy(ring, n, (uintptr_t)back, ugva + 100, 1024);
  ring[n++] = 11; /* CONST_FILL: 256 bytes of 0x5a */
  ring[n++] = (uint32_t)(ugva + 4096), ring[n++] = (uint32_t)((ugva + 4096) >> 32);
  ring[n++] = 0x5a5a5a5a;
  ring[n++] = 256 - 4;
  n = sdma_fence_trap(ring, n, (uintptr_t)fence, 0xbeef, ce.event_id);
  __atomic_store_n(wptr, (uint64_t)n * 4, __ATOMIC_RELEASE);
  printf("userptr copies done event: %s\n", result(wait1(ce.event_id, 5000, &age)));
  for (int i = 0; i < 1000 && *rptr != *wptr; i++) usleep(1000);
  printf("through the userptr GPU address: in %s, out %s, fill %s, fence 0x%x\n",
         memcmp(src, user + 100, 1024) || !all(user, 100, 0) ? "no" : "yes",
         memcmp(src, back, 1024) ? "no" : "yes",
         all(user + 4096, 256, 0x5a) && all(user + 4096 + 256, 256, 0) ? "yes" : "no", *fence);
  struct kfd_ioctl_free_memory_of_gpu_args ufr = {uh};
  OK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &ufr));
  free(user);
  struct kfd_ioctl_destroy_queue_args dq = {cq.queue_id, 0};
  OK(ioctl(kfd, AMDKFD_IOC_DESTROY_QUEUE, &dq));

  /* 6 */
  struct kfd_ioctl_get_dmabuf_info_args di = {0};
  errno = 0;
  int r = ioctl(kfd, AMDKFD_IOC_GET_DMABUF_INFO, &di);
  printf("dma-buf info: %d %s\n", r, errno == ENOTTY ? "ENOTTY" : strerror(errno));
  struct kfd_ioctl_destroy_event_args de = {ce.event_id, 0};
  OK(ioctl(kfd, AMDKFD_IOC_DESTROY_EVENT, &de));
  struct kfd_ioctl_free_memory_of_gpu_args fr = {al.handle};
  OK(ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr));
  errno = 0;
  r = ioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr);
  printf("free twice: %d %s\n", r, errno == EINVAL ? "EINVAL" : strerror(errno));

  /* 7 */
  unsigned cap = 0;
  snprintf(p, sizeof p, "%s/1/properties", topo);
  f = fopen(p, "r");
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "capability ", 11)) cap = (unsigned)strtoul(line + 11, NULL, 10);
  if (f) fclose(f);
  printf("debugger firmware (capability bit 29): %s\n", cap >> 29 & 1 ? "yes" : "no");
  printf("runtime enable: %s", runtime(1));
  printf(", again: %s", runtime(1));
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    printf(", in a forked child: %s", runtime(1));
    fflush(stdout);
    _exit(0);
  }
  waitpid(child, NULL, 0);
  printf(", disable: %s", runtime(0));
  printf(", enable after it: %s\n", runtime(1));
  runtime(0);
  close(render);
  close(kfd);
  return 0;
}
