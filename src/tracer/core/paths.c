/* Choosing among a runtime's reporting paths (paths.h). */
#define _GNU_SOURCE /* dladdr */
#include "paths.h"

#include <dlfcn.h>

const rtg_path *rtg_path_choose(const rtg_path *paths, size_t n, void *(*find)(void)) {
  void *library = NULL;
  bool looked = false;
  for (size_t i = 0; i < n; i++) {
    const rtg_path *p = &paths[i];
    if (p->needs_library && !looked) {
      looked = true;
      if (!(library = find())) return NULL;
    }
    rtg_path_start r = p->start(p->needs_library ? library : NULL);
    if (r == RTG_PATH_TAKEN) return p;
    if (r == RTG_PATH_REFUSED) return NULL;
  }
  return NULL;
}

void rtg_paths_stop(const rtg_path *paths, size_t n) {
  for (size_t i = 0; i < n; i++) paths[i].stop();
}

void *rtg_path_loaded_library(const char *const *sonames, const char *symbol) {
  for (int i = 0; sonames[i]; i++) {
    void *h = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (h) return h;
  }
  /* (RTLD_DEFAULT is NULL, so it cannot be the "found" answer) */
  Dl_info info;
  void *sym = dlsym(RTLD_DEFAULT, symbol);
  if (sym && dladdr(sym, &info) && info.dli_fname)
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  return NULL;
}
