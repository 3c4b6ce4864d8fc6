/* The ways a runtime can report its API calls to a tool change with its
 * release: HIP and ROCTx each list theirs in a table, in the order they
 * are tried (paths.c).  A path's start says whether it took over, whether
 * the runtime lacks it (try the next), or whether the runtime has it but
 * it cannot be used (stop: an older path would be wrong there). */
#ifndef RTG_PATHS_H
#define RTG_PATHS_H

#include "visibility.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  RTG_PATH_ABSENT,  /* not offered by this runtime: try the next path */
  RTG_PATH_TAKEN,   /* started: calls are reported this way from now on */
  RTG_PATH_REFUSED, /* offered but unusable (said why): trace no other way */
} rtg_path_start;

typedef struct rtg_path {
  const char *name;
  bool needs_library; /* start is given the runtime's library (else NULL) */
  rtg_path_start (*start)(void *library);
  void (*stop)(void); /* safe on a path that never started */
} rtg_path;

/* Start the first path of paths[0..n) that takes over.  The library is
 * found (find) only when the first path that needs it comes, once; when
 * it cannot be found the choice ends there.  Returns the path, or NULL. */
RTG_HIDDEN const rtg_path *rtg_path_choose(const rtg_path *paths, size_t n, void *(*find)(void));

/* Stop every path of the table (process end). */
RTG_HIDDEN void rtg_paths_stop(const rtg_path *paths, size_t n);

/* The runtime's library if the application has loaded it: the first of
 * sonames (NULL-terminated) that is loaded, else the one defining symbol
 * (a framework may have dlopened it RTLD_LOCAL under another name).  Never
 * loads it into a program that has none (RTLD_NOLOAD).  NULL: not loaded. */
RTG_HIDDEN void *rtg_path_loaded_library(const char *const *sonames, const char *symbol);

#endif
