/* Choosing among a runtime's reporting paths (paths.h). */
#include "paths.h"

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
