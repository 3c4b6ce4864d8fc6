/* The names of copies on the timelines; see names.h. */
#include "names.h"

#include <stdio.h>

const char *cv_copy_name(const cv_event *ev, char *buf, size_t cap) {
  if (ev->has_bytes)
    snprintf(buf, cap, "%s %llu bytes", ev->name, (unsigned long long)ev->bytes);
  else
    snprintf(buf, cap, "%s", ev->name);
  return buf;
}
