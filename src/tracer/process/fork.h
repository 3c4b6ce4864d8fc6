/* fork.c: the tracer's one pthread_atfork registration. */
#ifndef RTG_FORK_H
#define RTG_FORK_H

#include "core/visibility.h"

RTG_HIDDEN void rtg_fork_handlers_install(void);

#endif
