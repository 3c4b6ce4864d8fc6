/* Inputs that are a byte range of another file: the trace files packed in
 * an rtg-convert part (src/convert/in/part.c).  The readers (trace_reader,
 * linereader, and the converter's prescans) open a name through
 * rtg_inrange_open: a name registered here reads as its range of the file
 * that holds it, any other name as itself. */
#ifndef RTG_INRANGE_H
#define RTG_INRANGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct rtg_inrange {
  const char *name; /* as the inputs name it (messages say it) */
  const char *file; /* the file that holds it */
  uint64_t off, size;
} rtg_inrange;

/* The ranges from now on (not copied: they stay the caller's); NULL, 0:
 * none. */
void rtg_inrange_set(const rtg_inrange *r, size_t n);

/* The range registered under the pointer name (not a copy of it), or
 * NULL. */
const rtg_inrange *rtg_inrange_find(const char *name);

/* Opens name for reading: a range's file, else name itself.  *base is where
 * its bytes start in the file opened, *size how many there are when it is
 * a range or a regular file; else (a pipe, a device) *size is
 * UINT64_MAX.  -1 with errno set when it cannot be opened. */
int rtg_inrange_open(const char *name, uint64_t *base, uint64_t *size);

#endif
