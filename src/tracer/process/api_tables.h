/* api_tables.c: the API tables rocprofiler-register handed out (6.2+). */
#ifndef RTG_API_TABLES_H
#define RTG_API_TABLES_H

#include "core/visibility.h"

/* Take the tables rtg_register.so kept, now and whenever more arrive. */
RTG_HIDDEN void rtg_api_tables_attach(void);

#endif
