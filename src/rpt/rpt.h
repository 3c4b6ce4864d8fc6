/* rpt: the HCC_PROFILE=2 report.  The pieces and what they share:
 *
 *   main.c       options, then read -> sort -> ROI -> resources -> report
 *   input.c      reads the inputs (through the common trace reader) into
 *                rpt_data: records, text, duplicates, GPU numbers
 *   command.c    which classified lines are commands, and their names
 *   sort.c       orders the records by start time (stable)
 *   roi.c        ROI selectors @LINE ^TIME N%REGEX: parsed, watched during
 *                the read, resolved after the sort
 *   resources.c  per resource (GPU0.., DATA): critical time, gaps, summaries
 *   report.c     the text output, laid out exactly as the original rpt
 *   gui_trace.c  -g: a Chrome-tracing JSON of the ROI
 *
 * Records are kept compact (32 bytes) with interned names, so ten million
 * of them fit in a few hundred MB; application text is never kept in
 * memory (only spooled to a temporary file when -t has to print it). */
#ifndef RPT_H
#define RPT_H

#include "agents.h"
#include "gap_buckets.h"
#include "strtab.h"
#include "trace_line.h"
#include "trace_reader.h"
#include "u64map.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------ records */

enum rpt_type { RPT_KERNEL, RPT_BARRIER, RPT_COPY, RPT_COPYSLO, RPT_NTYPES };
extern const char *const rpt_type_names[RPT_NTYPES];

static inline bool rpt_is_copy(unsigned type) {
  return type == RPT_COPY || type == RPT_COPYSLO;
}

/* One profiled command, as the original's ProfileLogRecord minus its text:
 * 32 bytes, so ten million fit in 320 MB. */
typedef struct rpt_rec {
  uint64_t start, stop;  /* ns */
  uint32_t name;         /* id in rpt_data.names */
  uint32_t line;         /* line in its file (saturates at UINT32_MAX) */
  uint32_t seq : 28;     /* #dev.queue.SEQ (shown only; kept modulo 2^28) */
  uint32_t type : 2;     /* enum rpt_type */
  uint32_t devclass : 2; /* enum rtg_device_class of device */
  uint16_t queue;        /* #dev.QUEUE.seq (shown only; kept modulo 2^16) */
  uint16_t device;       /* its number in its class: GPU<device> (agents.h) */
} rpt_rec;

_Static_assert(sizeof(rpt_rec) == 32, "rpt_rec should stay 32 bytes");

/* The device a record ran on, as agents.h names it. */
static inline rtg_device rpt_rec_device(const rpt_rec *r) {
  return RTG_DEVICE(r->devclass, r->device);
}
/* Resources of devices are indexed by class and number (GPUs first). */
static inline uint32_t rpt_device_index(const rpt_rec *r) {
  return (uint32_t)r->devclass << 16 | r->device;
}

/* ------------------------------------------------------------ options */

enum rpt_roi_kind { ROI_DEFAULT, ROI_LINE, ROI_TIME, ROI_REGEX };

typedef struct rpt_roi_match {
  uint64_t start; /* sort key of the record the match selects */
  uint32_t idx;
  uint32_t file;
  uint64_t line; /* where the text matched */
  char *text;
} rpt_roi_match;

/* One ROI point (-r or -R): the selector, and what the read pass saw. */
typedef struct rpt_roi {
  const char *opt; /* "roi_start" or "roi_stop", for messages */
  const char *arg; /* as given */
  enum rpt_roi_kind kind;
  uint64_t line;    /* ROI_LINE */
  uint64_t time_ns; /* ROI_TIME: from the first record's start */
  uint64_t nth;     /* ROI_REGEX: MATCH_NUM (>= 1) */
  regex_t re;
  bool re_ok;

  /* ROI_LINE: the best candidate over all files (smallest sort key) */
  bool found;
  uint64_t cand_start;
  uint32_t cand_idx;
  /* ROI_REGEX: a max-heap of the nth smallest matches by sort key */
  rpt_roi_match *heap;
  size_t nheap;

  /* per-file scan state */
  bool pending;          /* LINE: the line was text; the next record takes it */
  bool block_match;      /* REGEX: the current text block matched */
  bool last_rec_matched; /* REGEX: the file's last record already has a match */
  uint64_t pend_line;
  char *pend_text;
  size_t pend_cap;
} rpt_roi;

typedef struct rpt_opts {
  char **inputs;
  int ninputs;
  bool text_trace, info, hide_app_text, no_gaps, ignore_barriers, db;
  const char *gui_trace;
  const char *gui_path; /* what -g is written to (outfile.h) */
  bool gui_written;
  rpt_roi roi_start, roi_stop;
  uint64_t *gaps; /* gap bucket limits in us: ascending, distinct, > 0 */
  size_t ngaps;
  long topn; /* < 0: all */
} rpt_opts;

/* ------------------------------------------------------------ data */

/* An input given again (the same file as an earlier one): not read. */
typedef struct rpt_again {
  const char *path;
  uint32_t first; /* index in paths of the first time */
  uint32_t after; /* index in paths of the input read before it */
} rpt_again;

typedef struct rpt_data {
  rpt_rec *recs;
  size_t n, cap;
  rtg_strtab *names;
  const char **paths;
  size_t npaths;
  /* -t: application text spooled to a temporary file; the text before
   * record i is [text_end[i-1], text_end[i]) (text_end[-1] = 0). */
  FILE *spool;
  uint64_t spool_pos;
  uint64_t *text_end;
  uint64_t lines, skipped; /* over all files */
  uint64_t *file_lines;    /* per path, once read */
  rpt_again *again;        /* inputs given again, in command-line order */
  size_t nagain, next_again;
  rtg_u64map seen_headers; /* fingerprints of the header records read */
  rtg_u64map agents_of;    /* pid -> index + 1 in agents */
  rtg_agents *agents;      /* per process, from its AGENT records */
  size_t nagents;
  bool read_error;
  bool rtg_records; /* commands came from rtg trace records (not profile: lines) */
} rpt_data;

/* input.c: read every input; false when one cannot be opened. */
bool rpt_read_inputs(rpt_data *d, rpt_opts *o);
void rpt_data_free(rpt_data *d);

/* command.c: what a classified line is to rpt, worked out on the reader's
 * threads and kept in the line, in the room of its record (l->u.user,
 * written and read in place: hence may_alias).  The name points into the
 * line, or is kept with the command. */
typedef struct __attribute__((may_alias)) rpt_cmd {
  int8_t what;  /* 1: a command; 0: text (not a command, or an ignored
                   barrier); -1: a bad line (why) */
  uint8_t type; /* enum rpt_type */
  bool trace;   /* from an rtg trace record: agent is an agent value */
  bool bad_op;  /* profile: unrecognized #op tag, #0.0.0 used */
  bool sized;   /* a copy with a byte count (bytes) */
  uint64_t start, stop;
  uint64_t agent; /* trace: the agent value; profile: the device number */
  uint64_t bytes;
  uint32_t queue, seq;
  const char *name; /* a copy's: its direction (rpt_cmd_name adds the size) */
  size_t name_len;
  const char *why;
  /* the name itself, when it fits: the main thread then reads it with the
   * command, not from the line far away (a cache miss per command) */
  bool inline_name;
  char text[80];
} rpt_cmd;

_Static_assert(sizeof(rpt_cmd) <= sizeof(((rtg_line *)0)->u.user), "a command fits in a line");

/* The lines that rpt_prepare_line turns into an rpt_cmd (in l->u.user):
 * profile lines and the records that are not headers or agents. */
static inline bool rpt_line_is_cmd(const rtg_line *l) {
  return l->cls == RTG_LINE_PROFILE ||
         (l->cls == RTG_LINE_RECORD && l->kind != RTG_KIND_HEADER && l->kind != RTG_KIND_AGENT);
}
/* The reader's prepare hook; opts: the rpt_opts. */
size_t rpt_prepare_line(rtg_line *l, size_t used, rtg_line_space *space, void *opts);
/* The name to show: a copy's is "<direction>_<bytes>_bytes", as the
 * original named it (built anew each time, valid until the next). */
const char *rpt_cmd_name(const rpt_cmd *c, size_t *len);
/* --db prints the raw text of this line (a profile line or a GPU op's record). */
bool rpt_db_line(const rtg_line *l);

/* sort.c: order[] = 0..n-1 sorted by (start, index): the original's stable
 * sort by start time, inputs taken in command-line order. */
uint32_t *rpt_sort(const rpt_data *d);

/* roi.c */
int rpt_roi_parse(rpt_roi *r, const char *opt, const char *arg); /* 0 ok, else usage error */
void rpt_roi_free(rpt_roi *r);
void rpt_roi_text(rpt_roi *r, uint64_t lineno, const char *line, size_t len);
void rpt_roi_record(rpt_roi *r, uint64_t lineno, const rpt_rec *rec, uint32_t idx, uint32_t file);
/* last: the file's last record index, or UINT32_MAX when it had none */
void rpt_roi_file_end(rpt_roi *r, const rpt_data *d, uint32_t last, uint32_t file);
/* Position in order[] of the ROI point, or dflt when not given; false when
 * the selector matched nothing (message printed).  Prints the original's
 * "info: %roi regular expression matched" line for regex matches. */
bool rpt_roi_resolve(rpt_roi *r, const rpt_data *d, const uint32_t *order, size_t dflt,
                     size_t *pos);

/* resources.c */
typedef struct rpt_row {
  uint64_t key; /* name id, bit 32 set for gap rows */
  uint64_t total, calls, min, max;
} rpt_row;

typedef struct rpt_resource {
  char name[16]; /* GPU0, DATA */
  bool have_max;
  uint64_t max_stop, busy;
  rpt_row *rows;
  size_t nrows, cap;
  uint32_t *row_of; /* name id (gap bucket b: nnames + b) -> row, or UINT32_MAX */
} rpt_resource;

typedef struct rpt_resources {
  rpt_resource **gpu; /* by rpt_device_index; NULL where none */
  size_t ngpu;
  rpt_resource *data;
  uint32_t *gap_names; /* strtab id per bucket: buckets.n + 1 */
  rtg_gap_buckets buckets;
  size_t nnames; /* names interned when the walk began */
} rpt_resources;

#define RPT_GAP_BIT (1ull << 32)

void rpt_resources_init(rpt_resources *rs, rtg_strtab *names, rtg_gap_buckets buckets);
void rpt_resources_free(rpt_resources *rs);
rpt_resource *rpt_resource_of(rpt_resources *rs, const rpt_rec *r);
/* GPU0, CPU0 (agents.h), DATA for copies. */
const char *rpt_resource_name(const rpt_rec *r, char buf[16]);
/* Add the next record (in start order) of its resource: returns its
 * critical time; *gap gets the idle time before it (0: none). */
uint64_t rpt_resource_add(rpt_resources *rs, rpt_resource *res, const rpt_rec *r, uint64_t *gap);

/* report.c */
void rpt_print_roi(const rpt_data *d, const rpt_rec *first, const rpt_rec *last);
void rpt_print_info(void);
void rpt_print_trace_header(void);
void rpt_print_text(rpt_data *d, uint32_t idx);
void rpt_print_trace_line(const rpt_data *d, const rpt_opts *o, const rpt_rec *r, uint64_t offset,
                          uint64_t critical, uint64_t gap);
void rpt_print_summaries(const rpt_resources *rs, const rtg_strtab *names, const rpt_opts *o,
                         uint64_t roi_ns);

/* gui_trace.c: the commands order[from..to) as Chrome JSON, written to
 * to_path (-g's temporary file: outfile.h) and named path in messages;
 * false when the file cannot be written. */
bool rpt_gui_trace(const char *to_path, const char *path, const rpt_data *d, const uint32_t *order,
                   size_t from, size_t to);

#endif
