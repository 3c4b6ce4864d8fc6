/* Where the trace file goes (trace_path.c): the path RTG_FILENAME gives
 * (never over the file of an earlier image of this process), its
 * directories made, or the fallback in the working directory; and the
 * launcher's list of the traces its process tree wrote. */
#ifndef RTG_TRACE_PATH_H
#define RTG_TRACE_PATH_H

#include "visibility.h"

#include <stddef.h>

/* Set rtg_cfg.path and open it for writing (truncated).  The directories
 * of the path are made as `mkdir -p` does (mode 0777 & ~umask); when the
 * file cannot be created there, it is made in the working directory under
 * its own name (one line on stderr says why).  Returns the descriptor, or
 * -1 when not even that could be opened (said). */
RTG_HIDDEN int rtg_trace_path_open(void);

/* The line to append to RTG_TRACE_LIST (the launcher's list of the traces
 * of its process tree): the trace's absolute path and a newline, in
 * out[0..cap).  Its length; 0 when there is no list or the path does not
 * fit. */
RTG_HIDDEN size_t rtg_trace_path_list_line(char *out, size_t cap);

#endif
