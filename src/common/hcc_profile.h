/* The legacy HCC_PROFILE=2 "profile:" line, as the hcc runtime and the
 * original rtg tracer wrote it:
 *
 *   profile: %7s;\t%40s;\t%6.1f us;\tSTART;\tSTOP;\t#DEV.QUEUE.SEQ;EXTRA
 *
 * with, for copies, EXTRA = "\tN bytes;\tX MB;\tY GB/s;".  Older runtimes
 * wrote an enqueue time before START, and the original converter also
 * accepted lines without the timestamps and/or without the #op tag, so
 * the parser takes every one of these:
 *
 *   profile: TYPE; NAME; DUR us; [ENQ;] START; STOP; #D.Q.S; EXTRA
 *   profile: TYPE; NAME; DUR us; START; STOP; #D.Q.S;
 *   profile: TYPE; NAME; DUR us; START; STOP;
 *   profile: TYPE; NAME; DUR us; #D.Q.S;
 *   profile: TYPE; NAME; DUR us;
 *
 * Fields are separated by ';' and trimmed of white space, as rpt did.  The
 * parser neither copies nor modifies the line: the strings in the result
 * point into it (not NUL-terminated; use the _len members).  Shared by rpt
 * and rtg-convert; the writer is for the tracer's HCC_PROFILE mode and for
 * tests. */
#ifndef RTG_HCC_PROFILE_H
#define RTG_HCC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

enum {
  RTG_HCC_HAS_TIMES = 1u << 0, /* start and stop were on the line */
  RTG_HCC_HAS_ENQ = 1u << 1,   /* an enqueue time preceded start (old hcc) */
  RTG_HCC_HAS_OP = 1u << 2,    /* #device.queue.seq was on the line */
  RTG_HCC_BAD_OP = 1u << 3,    /* a field where #op belongs was not one */
  RTG_HCC_HAS_BYTES = 1u << 4, /* EXTRA began with "N bytes" */
};

typedef struct rtg_hcc_profile {
  const char *type; /* "kernel", "barrier", "copy", "copyslo", ... */
  size_t type_len;
  const char *name; /* kernel name, copy direction; may be empty */
  size_t name_len;
  const char *extra; /* raw text after the last parsed field; may be empty */
  size_t extra_len;
  double dur_us;             /* the DUR field as written (rounded by the writer) */
  uint64_t enq, start, stop; /* ns; enq == start unless RTG_HCC_HAS_ENQ */
  uint32_t device, queue;    /* from #op, else 0 */
  uint64_t seq;              /* from #op, else 0 */
  uint64_t bytes;            /* copies: from EXTRA, else 0 */
  unsigned flags;            /* RTG_HCC_* */
} rtg_hcc_profile;

/* Parse line[0..len) (need not be NUL-terminated).  Returns 1 for a
 * profile line (*p filled), 0 for a line that does not start with
 * "profile:" (foreign text such as application output; *why = NULL), or -1
 * for a profile line that cannot be used (*why says why).  A stop time
 * before the start time is returned as written: callers decide. */
int rtg_hcc_profile_parse(const char *line, size_t len, rtg_hcc_profile *p, const char **why);

/* Type tests with the original rpt's meaning. */
int rtg_hcc_profile_is_copy(const rtg_hcc_profile *p); /* copy, copyslo */
int rtg_hcc_profile_is_gpu(const rtg_hcc_profile *p);  /* kernel, barrier */
int rtg_hcc_profile_type_is(const rtg_hcc_profile *p, const char *type);

/* Write one line exactly as the original tracer's HCC_PROFILE mode did,
 * '\n' included.  extra may be NULL.  Returns the length, or 0 when cap is
 * too small. */
size_t rtg_hcc_profile_format(char *buf, size_t cap, const char *type, const char *name,
                              uint64_t start, uint64_t stop, unsigned device, unsigned queue,
                              uint64_t seq, const char *extra);

/* The EXTRA text of a copy: "\tN bytes;\tX MB;\tY GB/s;" (C++ stream
 * formatting of the original, i.e. %g).  Returns the length or 0. */
size_t rtg_hcc_profile_copy_extra(char *buf, size_t cap, uint64_t bytes, uint64_t start,
                                  uint64_t stop);

#endif
