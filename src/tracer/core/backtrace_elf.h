/* backtrace_elf.c: names of the functions dladdr cannot name. */
#ifndef RTG_BACKTRACE_ELF_H
#define RTG_BACKTRACE_ELF_H

#include "visibility.h"

#include <stdint.h>

/* The function containing addr in the .symtab of the module dladdr found
 * (fname, fbase), or NULL; *offset from its start.  For what dladdr cannot
 * name (static functions).  Process end only. */
RTG_HIDDEN const char *rtg_bt_symtab_lookup(const char *fname, const void *fbase, uintptr_t addr,
                                            uint64_t *offset);
RTG_HIDDEN void rtg_bt_symtab_free(void);

#endif
