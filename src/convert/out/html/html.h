/* rtg-convert --html FILE: one self-contained HTML report (issue 27).
 *
 *   html.c        the sink: runs its own analysis (analyze.h) and hands
 *                 what the timeline takes of each event to html_feed.c,
 *                 which files it (html_file.c: 24 bytes, per track) on a
 *                 thread of its own;
 *   html_data.c   at the end: what the report shows beyond the analysis
 *                 (utilisation over time from the model's idle pieces, the
 *                 gaps, the top kernels, the tracks' coverage bins) and
 *                 which events are embedded;
 *   html_events.c the embedded events' arrays and most of their base64,
 *                 made while the analysis finishes when every event is
 *                 embedded (html_b64.c: the base64, in parts side by side);
 *   html_write.c  writes the template (report.html.in, report.css,
 *                 report.js, embedded at build time by scripts/embed.sh)
 *                 around the data: the typed arrays in base64 (their
 *                 events' start and duration written while the analysis
 *                 finishes), the analysis JSON document verbatim and a
 *                 JSON of the rest.
 *
 * The numbers come from the analysis model; the page's script only draws. */
#ifndef RTG_HTML_H
#define RTG_HTML_H

#include <errno.h>

#include "../../analyze/analyze.h"
#include "../../convert.h"

enum ht_kind { HT_HIP, HT_HSA, HT_MARK, HT_SYS, HT_MPI, HT_QUEUE, HT_COPY, HT_NKINDS };

typedef struct ht_ev {
  uint64_t start, end;
  uint32_t name; /* id in ht_state.names */
  uint32_t args; /* id in ht_state.args, UINT32_MAX: none */
} ht_ev;

typedef struct ht_track {
  uint32_t proc;
  uint8_t kind;
  uint64_t key; /* tid, or device << 32 | queue (engine) */
  ht_ev *v;
  size_t n, cap;
  bool unsorted;
  uint64_t maxdur;
  /* at the end */
  size_t off, nemb; /* its embedded events in the arrays */
  size_t bins_off, nbins;
} ht_track;

/* One idle piece of a (process, GPU). */
typedef struct ht_piece {
  uint64_t s, e;
  int cause;
} ht_piece;

typedef struct ht_gap {
  uint64_t s, e;
  uint32_t dev;
} ht_gap;

typedef struct ht_kstat {
  uint32_t name;
  uint64_t count, total, median, p95, max;
} ht_kstat;

/* What the report shows of one (process, GPU) of the analysis. */
typedef struct ht_dev {
  uint32_t proc;
  rtg_device device;
  ht_piece *p;
  size_t np, cap;
  /* at the end */
  uint64_t span_start, span_end;
  float *util; /* nbins x HT_NSERIES */
  size_t nbins;
  ht_kstat *k;
  size_t nk;
  uint64_t *hist_count, *hist_ns; /* per gap bucket */
  ht_gap *worst;
  size_t nworst;
  uint64_t ngaps;
} ht_dev;

#define HT_UTIL_BINS 2048           /* at most; 4 per op and idle piece, at least 256 */
#define HT_MAX_PIECES 2000000       /* idle pieces embedded for zooming below the bins */
#define HT_NSERIES (2 + AN_NCAUSES) /* busy, copy busy, the causes */
#define HT_WORST_GAPS 20
#define HT_TOP_KERNELS 200

/* The kernels of one (process, GPU), by name. */
typedef struct ht_kgroup {
  uint32_t proc;
  rtg_device device;
  ht_kstat *k;
  size_t nk;
} ht_kgroup;

/* The embedded events' arrays: the binary part's first 20 bytes an event
 * (html_write.c says what they are) and their base64 but for the names'
 * (which are numbered after the top kernels') and a triple or two of its
 * neighbours: [0, 12 n) and [a1, a2) are encoded, [12 n, a1) is not yet. */
typedef struct ht_arrays {
  bool made;
  size_t n;
  unsigned char *blob; /* [12 n, 20 n): names (at the end), args */
  uint32_t *name;      /* per event: its name's place by first use among the events */
  uint32_t *first;     /* that place -> the name's id */
  uint32_t nfirst;
  uint32_t *args_from; /* an argument's place in the report -> its id in ht_state.args */
  uint32_t nargs;
  uint64_t *longs; /* (event, duration) of those of UINT32_MAX ns or more */
  size_t nlong;
  char *b64; /* [0, a2) encoded */
  size_t a1, a2;
} ht_arrays;

/* A kernel's dimensions and the id of their text in the arguments + 1
 * (0: none), in a direct-mapped memo of HT_DIMS_MEMO. */
typedef struct ht_dims_memo {
  uint32_t v[6];
  uint32_t id1;
} ht_dims_memo;
#define HT_DIMS_MEMO 512

/* What the timeline takes of an event: its track, times, name and
 * arguments: the text args, or made of v (args_how). */
enum { HT_ARGS_TEXT, HT_ARGS_DIMS, HT_ARGS_AGENTS };
typedef struct ht_in {
  uint64_t start, end, key, bytes;
  uint32_t proc;
  uint32_t v[6]; /* HT_ARGS_DIMS: grid, workgroup; HT_ARGS_AGENTS: source, destination */
  uint8_t kind;  /* enum ht_kind */
  uint8_t args_how;
  bool copy_name; /* named as the other outputs name a copy (name, bytes) */
  bool has_bytes;
  const char *name, *args;
} ht_in;

typedef struct ht_state {
  cv_ctx *ctx;
  an_state *an;
  FILE *out;
  const char *path;
  ht_track *t;
  uint32_t nt, cap;
  rtg_u64map track_index; /* hash of (proc, kind, key) -> index + 1 */
  rtg_strtab *args;
  size_t args_budget;
  uint64_t args_dropped;
  uint32_t barrier_name;
  cv_cached args_cache[CV_CACHE]; /* (html_file.c runs on one thread at a time) */
  rtg_strtab *names;              /* the events' names (the report's own) */
  cv_cached names_cache[CV_CACHE];
  ht_dims_memo dims_memo[HT_DIMS_MEMO];
  struct cv_feed *feed;        /* NULL: events filed as they come */
  ht_track *recent[HT_NKINDS]; /* the track of the kind's last event */
  uint64_t nev, first, last;
  uint32_t max_name; /* the largest name id of an event */
  ht_dev *d;
  uint32_t nd, capd;
  rtg_u64map dev_index; /* proc << 32 | device -> index + 1 */
  ht_kgroup *kg;
  size_t nkg;
  uint8_t *bins; /* every track's coverage bins */
  size_t nbins;
  /* html_data.c: what is embedded */
  size_t max_events, nemb;
  bool all_embedded;
  uint64_t *win; /* windows embedded when not all: s, e pairs, sorted, disjoint */
  size_t nwin;
  ht_arrays arr;
  /* html_write.c: the file written up to the data (template_pos: where the
   * template goes on after it) and bin_written chars of #rtg-bin */
  bool head_written, has_data;
  size_t template_pos, bin_written;
  /* the kernels' names the events were numbered after while the analysis
   * ran (ht_names_guess) */
  uint32_t *guess;
  size_t nguess;
  /* where in the file those names' base64 went, written with the
   * arguments' while the analysis ran (a file that can seek back to it,
   * should the report list other kernels); -1: not written then */
  long long names_at;
} ht_state;

/* html_feed.c: the events to html_file.c, in their order.  Until
 * ht_feed_end returns, the filing thread alone touches the tracks, names,
 * arguments, nev, first, last and max_name. */
void ht_feed_start(ht_state *h);
void ht_feed_put(ht_state *h, const ht_in *in);
void ht_feed_end(ht_state *h);

/* html_file.c */
void ht_file(ht_state *h, const ht_in *in);
uint32_t ht_name_id(ht_state *h, const char *s);

/* html_data.c */
void ht_piece_cb(void *arg, const an_piece *p);
/* ht_prepare runs while the analysis finishes on another thread (it
 * touches no device of the analysis), ht_compute after. */
void ht_prepare(ht_state *h);
void ht_compute(ht_state *h);
void ht_free_data(ht_state *h);
/* drops a track's events that are not embedded */
void ht_keep(ht_state *h, ht_track *t);
size_t ht_first_at(const ht_track *t, uint64_t at);

/* html_events.c: ht_arrays_make keeps the events embedded (ht_keep) and
 * makes the arrays (the tracks' events are freed: the arrays have all the
 * report needs of them); ht_arrays_name numbers their names (renumber: a name's
 * place by first use among the events -> its place in the report). */
void ht_arrays_make(ht_state *h);
void ht_arrays_name(ht_state *h, const uint32_t *renumber);
void ht_arrays_free(ht_state *h);

/* html_b64.c: the base64 of in[0..3 triples) to out (4 triples bytes); of
 * in[0..n) with its padding, returning its length */
void ht_b64_triples(const unsigned char *in, size_t triples, char *out);
size_t ht_b64(const unsigned char *in, size_t n, char *out);

/* html_write.c: ht_write_head writes the file up to the data and the
 * events' base64 that is made (while the analysis finishes); ht_write the
 * rest (the head first where not written): false after saying why */
void ht_write_head(ht_state *h);
bool ht_write(ht_state *h);
/* ht_names_guess (after ht_write_head, while the analysis finishes)
 * numbers the events' names after the kernels ht_prepare found, which
 * ht_write keeps where the report lists the same, in the same order, and
 * writes their base64 and the arguments' where the file can seek (ht_write
 * writes the names again over theirs where it numbers them again) */
void ht_names_guess(ht_state *h);

/* Out of memory: says where (the caller's line) and exits 1. */
#define oom() rtg_die(ENOMEM, "out of memory: the HTML report")

#endif
