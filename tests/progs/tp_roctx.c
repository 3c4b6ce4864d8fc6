/* tp_roctx [HSACO]: dispatches inside nested ROCTx ranges, for
 * RTG_KERNEL_RENAME:
 *   push "outer": 2 dispatches; push "inner": 1; pop: 1 more; pop: 1 outside.
 * With HSACO (simgpu's kernels.hsaco) the kernel is its "vadd", so that it
 * has a name (never run: the simulated GPU only times it).
 * roctx functions are looked up at run time (the test preloads the
 * stand-in libroctx64 of tests/abi; Debian has none). */
#include <dlfcn.h>

#include "tp_common.h"

static uint64_t kobj = (uint64_t)(uintptr_t)tp_descriptor;

static void dispatch(hsa_queue_t *q, hsa_signal_t s, int n) {
  hsa_signal_store_relaxed(s, n);
  for (int i = 0; i < n; i++) {
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, kobj, NULL, 64, s);
    sg_submit(q, &d);
  }
  sg_wait(s);
}

int main(int argc, char **argv) {
  int (*push)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "roctxRangePushA");
  int (*pop)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "roctxRangePop");
  if (!push || !pop) {
    fprintf(stderr, "no roctx library loaded\n");
    return 2;
  }
  sg_system_t sys;
  sg_init(&sys);
  uint32_t kernarg_size;
  if (argc > 1) kobj = sg_load_kernel(sys.gpu[0].agent, argv[1], "vadd.kd", &kernarg_size);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(2, 0, NULL, &s));
  push("outer");
  dispatch(q, s, 2);
  push("inner");
  dispatch(q, s, 1);
  pop();
  dispatch(q, s, 1);
  pop();
  dispatch(q, s, 1);
  printf("5 dispatches\n");
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  return 0;
}
