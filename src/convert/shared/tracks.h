/* The tracks of the timeline outputs (out/chrome, out/perfetto): which
 * Chrome (pid, tid) an event goes on, its name and sort order, and lanes
 * for ops that overlap on one GPU queue or copy engine (Perfetto draws a
 * track only when its slices nest).  The Perfetto output makes one track
 * of its own per Chrome thread, in the same order. */
#ifndef RTG_CONVERT_TRACKS_H
#define RTG_CONVERT_TRACKS_H

#include "convert.h"

enum tk_kind {
  TK_HIP,
  TK_HSA,
  TK_DISPATCH,
  TK_ROCTX,
  TK_SYSCALL,
  TK_QUEUE,
  TK_COPY,
  TK_MPI,
  TK_GAPS
};

#define TK_MAX_LANES 32
#define TK_LANE_SPANS 64 /* per lane; see tracks_lane */

#define TK_LANE_CAND 4 /* closest pairs remembered; see lane_add */

/* The busy time of a lane: disjoint [start, end) spans in time order. */
typedef struct tk_lane {
  uint64_t (*span)[2];
  uint32_t n, cap;
  /* the smallest gaps span[k+1][0] - span[k][1] and their positions k, by
   * gap then position: exactly the ncand smallest of all (0: not known) */
  uint64_t cand_gap[TK_LANE_CAND];
  uint8_t cand[TK_LANE_CAND];
  uint32_t ncand;
} tk_lane;

typedef struct track {
  uint32_t proc;
  enum tk_kind kind;
  uint64_t a, b; /* thread; or agent and queue/engine */
  uint32_t lane;
  uint64_t cpid, ctid, sort;
  /* ,"pid":P,"tid":T as the JSON of every event on the track carries it */
  char where[48];
  uint32_t where_len;
  struct tk_lane *lanes; /* lane 0 of a lane group: what each lane holds */
  uint64_t latest_begin; /* Perfetto: the latest begin written on it (pf_slice_end) */
  uint32_t nlanes;
} track;

typedef struct tracks {
  cv_ctx *ctx;
  track *t;
  uint32_t n, cap;
  rtg_u64map index;           /* hash of the key -> track index + 1 chain head */
  uint32_t *next;             /* collision chain */
  rtg_u64map next_tid;        /* cpid -> next ctid */
  rtg_u64map queue_ord;       /* (proc, agent, queue) -> ordinal within the agent */
  rtg_u64map nqueues;         /* (proc, agent) -> queues seen */
  uint32_t last[TK_GAPS + 1]; /* per kind: index + 1 of the track last returned */
} tracks;

void tracks_init(tracks *ts, cv_ctx *ctx);
void tracks_free(tracks *ts);
track *tracks_find(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b,
                   uint32_t lane);
/* The track of (proc, kind, a, b, lane), made when new.  Consecutive events
 * of a kind are mostly on one track (one thread's calls, one queue's
 * kernels): the last one is tried first, here, without a call (last[kind]
 * only ever names a track of that kind). */
static inline track *tracks_get(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a,
                                uint64_t b, uint32_t lane) {
  uint32_t last = ts->last[kind];
  track *t = last ? &ts->t[last - 1] : NULL;
  if (t && t->proc == proc && t->a == a && t->b == b && t->lane == lane) return t;
  return tracks_find(ts, proc, kind, a, b, lane);
}
/* The track of an op [start, end) on a lane group: the first lane free
 * during [start, end), or a new one.  A lane remembers the spans it is busy
 * (up to TK_LANE_SPANS: beyond that, the two closest spans merge, the time
 * between them counting as busy), not just its last end, so that ops in
 * any order (a reversed or shuffled file, threads' records interleaved)
 * take as few lanes as in time order, in bounded memory. */
track *tracks_lane(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b,
                   uint64_t start, uint64_t end);
/* Chrome process of a track kind of a process (for process-level names). */
uint64_t tracks_cpid(const tracks *ts, uint32_t proc, enum tk_kind kind);
void tracks_name(const tracks *ts, const track *t, char *buf, size_t cap);
void tracks_process_name(const tracks *ts, uint64_t cpid, uint32_t proc, enum tk_kind kind,
                         char *buf, size_t cap);

#endif
