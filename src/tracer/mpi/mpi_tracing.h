/* MPI tracing as the rest of the tracer sees it (mpi_lib.c). */
#ifndef RTG_MPI_TRACING_H
#define RTG_MPI_TRACING_H

#include "core/visibility.h"

/* At load: when an MPI library is loaded and RTG_MPI is on, send the other
 * objects' calls to its functions to the wrappers (mpi_calls.c). */
RTG_HIDDEN void rtg_mpi_init(void);
/* At process end: the wrappers stop recording. */
RTG_HIDDEN void rtg_mpi_fini(void);

#endif
