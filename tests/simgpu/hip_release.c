/* hip_release.c - which HIP release (ROCclr) the process runs, for the blit
 * kernels whose argument layout changed in ROCclr 6.2. Read once from the
 * file name of the loaded libamdhip64 (Debian's libamdhip64.so.6 points to
 * libamdhip64.so.6.4.43484): an installed library, not a guess from the
 * arguments. */
#define _GNU_SOURCE
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "sim_core.h"

static int find(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  const char *p = info->dlpi_name, *base = p ? strrchr(p, '/') : NULL;
  base = base ? base + 1 : p;
  if (!base || strncmp(base, "libamdhip64.so", 14)) return 0;
  char real[PATH_MAX];
  const char *name = realpath(p, real) ? strrchr(real, '/') + 1 : base;
  unsigned major = 0, minor = 0;
  if (sscanf(name, "libamdhip64.so.%u.%u", &major, &minor) < 1) return 0;
  *(int *)data = (int)(major * 100 + minor);
  return 1;
}

static int release = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void probe(void) {
  int r = 0;
  dl_iterate_phdr(find, &r);
  release = r;
  SIM_LOG("HIP release %d.%d\n", r / 100, r % 100);
}

int sim_hip_release(void) {
  pthread_once(&once, probe);
  return release;
}
