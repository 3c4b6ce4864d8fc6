/* Checking an API filter against the functions of the running release
 * (filter_check.c): a token that selects none of them is said, with the
 * names closest to it, so a typo or a name in the wrong case does not
 * silently trace nothing. */
#ifndef RTG_FILTER_CHECK_H
#define RTG_FILTER_CHECK_H

#include "visibility.h"

#include <stddef.h>

/* For each comma-separated token of spec (the value of variable var) that
 * is no keyword (keywords: NULL-terminated, e.g. "all") and is part of no
 * name of names[0..n) (NULL entries skipped): one line on stderr,
 *   rtg: VAR: "TOKEN" is part of no WHAT function of this release; closest: A, B, C
 * Returns the number of such tokens. */
RTG_HIDDEN int rtg_filter_check(const char *var, const char *spec, const char *what,
                                const char *const *names, size_t n, const char *const *keywords);

#endif
