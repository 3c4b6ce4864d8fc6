/* Which MPI library the process has, and sending the other objects' calls
 * to its functions to the wrappers through their GOT slots (as hip_got.c
 * does for HIP, core/got_hook.c).  Nothing is linked against MPI: the
 * library is found among the loaded objects (a file named libmpi.so*), its
 * functions looked up with dlsym in its own handle.  The library's calls
 * among its own functions stay its own (its object is skipped).
 *
 * What it sees: the calls other objects make through their GOT (the
 * application's, its libraries', the language bindings'), for a library
 * loaded when the tracer starts (HSA's init, which an MPI program reaches
 * after MPI_Init, or before it: the handles are only looked at in calls). */
#define _GNU_SOURCE
#include "core/got_hook.h"
#include "mpi_internal.h"
#include "mpi_tracing.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <string.h>

rtg_mpi_lib rtg_mpi;
int rtg_mpi_on;

static bool installed;

static int find_lib(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  const char *n = info->dlpi_name, *slash = n ? strrchr(n, '/') : NULL;
  const char *base = slash ? slash + 1 : n;
  if (!base || strncmp(base, "libmpi.so", 9) || strlen(n) >= PATH_MAX) return 0;
  strcpy(data, n);
  return 1;
}

/* Under the loader's lock: no dlsym, no malloc. */
static void *match(const char *name) {
  if (name[0] != 'M' || strncmp(name, "MPI_", 4)) return NULL;
  for (int i = 0; i < rtg_mpi_nwraps; i++)
    if (!strcmp(rtg_mpi_wraps[i].name, name))
      return *rtg_mpi_wraps[i].real ? rtg_mpi_wraps[i].wrapper : NULL;
  return NULL;
}

void rtg_mpi_init(void) {
  if (!rtg_cfg.mpi || installed) return;
  char path[PATH_MAX] = "";
  dl_iterate_phdr(find_lib, path);
  if (!path[0]) return; /* not an MPI program */
  void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (!h) return;
  void *in_mpi = dlsym(h, "MPI_Comm_size");
  if (!in_mpi) {
    rtg_log(1, "MPI tracing: %s has no MPI_Comm_size; not tracing MPI", path);
    return;
  }
  *(void **)&rtg_mpi.comm_size = in_mpi;
  *(void **)&rtg_mpi.comm_rank = dlsym(h, "MPI_Comm_rank");
  *(void **)&rtg_mpi.comm_group = dlsym(h, "MPI_Comm_group");
  *(void **)&rtg_mpi.group_translate_ranks = dlsym(h, "MPI_Group_translate_ranks");
  *(void **)&rtg_mpi.group_free = dlsym(h, "MPI_Group_free");
  *(void **)&rtg_mpi.type_size = dlsym(h, "MPI_Type_size");
  void *world = dlsym(h, "ompi_mpi_comm_world"); /* Open MPI: MPI_COMM_WORLD's address */
  rtg_mpi.int_handles = !world;
  rtg_mpi.world = world ? world : (mpi_h)(uintptr_t)0x44000000; /* MPICH's MPI_COMM_WORLD */
  int found = 0;
  for (int i = 0; i < rtg_mpi_nwraps; i++) {
    *rtg_mpi_wraps[i].real = dlsym(h, rtg_mpi_wraps[i].name);
    found += !!*rtg_mpi_wraps[i].real;
  }
  __atomic_store_n(&rtg_mpi_on, 1, __ATOMIC_RELEASE);
  installed = true;
  int slots = rtg_got_install_matching(match, in_mpi);
  rtg_log(1, "MPI tracing: %s, %d of %d functions, %d slots", path, found, rtg_mpi_nwraps, slots);
}

void rtg_mpi_fini(void) {
  __atomic_store_n(&rtg_mpi_on, 0, __ATOMIC_RELEASE);
}
