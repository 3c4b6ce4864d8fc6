/* One line of a trace file, classified the one way rpt and rtg-convert
 * both read it.  A trace file holds rtg records, HCC_PROFILE=2 "profile:"
 * lines and anything else (the application's output, strace lines), in
 * any mix:
 *
 *   RECORD   an rtg record ("HSA: pid:P tid:T ..."), parsed into rec
 *   SEEN     an rtg record of a kind the reader was not asked to parse:
 *            only its pid is known (rpt needs no API call's fields)
 *   PROFILE  a "profile:" line, parsed into hcc
 *   BAD      a record or profile line that does not parse: why says why
 *   CUT      the file's last line, without its '\n', that holds a record
 *            or profile line, whole or not: the file was cut while it was
 *            written, and a number on it may be cut short
 *   TEXT     anything else
 *
 * nul tells that the line held NUL bytes (binary junk): a record or profile
 * line with them is BAD, other text stays TEXT.  What a tool does with each
 * class (warn, count, keep as text) is the tool's own. */
#ifndef RTG_TRACE_LINE_H
#define RTG_TRACE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hcc_profile.h"
#include "rtg/record.h"

enum rtg_line_class {
  RTG_LINE_TEXT,
  RTG_LINE_RECORD,
  RTG_LINE_SEEN,
  RTG_LINE_PROFILE,
  RTG_LINE_BAD,
  RTG_LINE_CUT,
  RTG_LINE_END, /* not a line: the end of an input file (trace_reader.h) */
};

/* The read error of a file that became shorter while it was read. */
#define RTG_READ_SHRANK (-1)

typedef struct rtg_line {
  uint8_t cls;  /* enum rtg_line_class */
  uint8_t kind; /* RECORD: the record's kind; SEEN, BAD: the kind its prefix
                   and keyword name, when they name one (RTG_KIND_NONE else) */
  bool nul;     /* the line held NUL bytes */
  bool has_pid; /* RECORD, SEEN, BAD: pid is the record's process */
  uint32_t pid;
  uint32_t count;  /* SEEN: lines of pid in a row it stands for (>= 1) */
  uint32_t file;   /* index of its input */
  uint64_t lineno; /* in its file, from 1 */
  char *text;      /* the line, without '\n' (or '\r\n'), NUL-terminated */
  size_t len;
  const char *why; /* BAD, CUT: the reason */
  /* What the reader's caller made of the line beside it on the producers'
   * threads (rtg_reader_opts.prepare, in its rtg_line_space): its bytes and
   * a mark of the caller's own; NULL when nothing. */
  const char *prep;
  uint32_t prep_len, prep_mark;
  union {
    rtg_record rec;                         /* RECORD */
    rtg_hcc_profile hcc;                    /* PROFILE (its strings point into text) */
    unsigned char user[sizeof(rtg_record)]; /* the reader's caller's (prepare) */
    struct {
      uint64_t lines;    /* lines in the file, too long ones included */
      uint64_t too_long; /* lines over RTG_LINE_MAX, skipped */
      int err;           /* errno of a read error, RTG_READ_SHRANK, 0 = none */
      uint64_t err_line; /* lines read when it happened */
      bool not_opened;   /* err: the file could not be opened at all */
    } end;               /* END */
  } u;
} rtg_line;

/* Which record kinds to parse: bit 1 << kind; bit 0 (RTG_KIND_NONE) asks
 * for lines whose keyword names no kind too (to hear why they are bad). */
#define RTG_PARSE(kind) (1u << (kind))
#define RTG_PARSE_ALL 0xffffffffu

typedef struct rtg_line_how {
  uint32_t parse;
  bool nul_free;     /* the caller knows the line holds no NUL byte */
  bool unterminated; /* the file's last line, without '\n' */
  /* When set, records of the kinds in copy_kinds are parsed from a copy
   * here (len + 1 bytes), so that text stays as it was read (or the record
   * outlives text); else text is parsed in place.  copied says whether. */
  char *copy;
  uint32_t copy_kinds;
  bool copied;
} rtg_line_how;

/* Classify text[0..len) (writable, and text[len] may be overwritten) into
 * *l: cls, kind, nul, pid, why and rec or hcc; the other members are the
 * caller's.  why may point into thread-local memory of the parser: copy it
 * before the line crosses to another thread. */
void rtg_line_classify(rtg_line *l, char *text, size_t len, rtg_line_how *how);

#endif
