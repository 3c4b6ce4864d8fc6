/* fatal_signals.c: a process dying of a signal still writes its trace. */
#ifndef RTG_FATAL_SIGNALS_H
#define RTG_FATAL_SIGNALS_H

#include "core/visibility.h"

RTG_HIDDEN void rtg_fatal_signals_install(void);

#endif
