/* The tracer core as every wing sees it: the settings, the clock, the
 * per-thread state (ids, correlation, recursion guard) and how a record is
 * made.  The core (this folder) uses no other wing and links on its own. */
#ifndef RTG_TRACER_H
#define RTG_TRACER_H

#include "config.h"
#include "emit.h"
#include "thread_state.h"
#include "visibility.h"

#endif
