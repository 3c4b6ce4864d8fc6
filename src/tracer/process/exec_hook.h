/* exec_hook.c: exec* and _exit lose nothing (GOT patching, got_hook.c). */
#ifndef RTG_EXEC_HOOK_H
#define RTG_EXEC_HOOK_H

#include "core/visibility.h"

/* Redirect every loaded object's exec* and _exit/_Exit calls; before
 * _exit, at_exit runs (what exit would have done). */
RTG_HIDDEN void rtg_exec_hooks_install(void (*at_exit)(void));

#endif
