/* OnLoad/OnUnload for the stand-in tracer (standin_core.c): lets the HIP
 * side run under a real HSA runtime (simgpu) without the HSA interception. */
#include <stdbool.h>
#include <stdint.h>

void rtg_standin_init(void);
void rtg_standin_fini(void);

__attribute__((visibility("default"))) bool OnLoad(void *table, uint64_t rv, uint64_t nfailed,
                                                   const char *const *failed) {
  rtg_standin_init();
  return true;
}

__attribute__((visibility("default"))) void OnUnload(void) {
  rtg_standin_fini();
}
