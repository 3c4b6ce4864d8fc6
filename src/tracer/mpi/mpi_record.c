/* The record of one MPI call: the application's thread fills a fixed
 * payload and copies it; the writer makes the line (format_mpi).
 *
 * Tests that complete nothing (RTG_MPI_POLL=coalesce, the default): the
 * entry is held back by its thread (core/hold.h) instead of pushed; a next
 * call that is the same test again (function, requests, return code, and
 * again nothing completed) only counts itself into the held entry, so a
 * program polling a request makes one record with polls:N, the last
 * call's times and the sum of the durations.  Any other entry of the
 * thread (the test that completes, another call) publishes the held one
 * first. */
#include "core/hold.h"
#include "core/stamp.h"
#include "mpi_internal.h"

#include <string.h>

typedef struct mpi_entry {
  const char *func;
  const rtg_mpi_comm *comm; /* lives for good (mpi_comm.c's table) */
  uint64_t start, dur;      /* stamps */
  uint64_t bytes, seq, req, nreq;
  int32_t ret, peer, root;
  uint8_t has_peer, has_root, has_bytes, has_req, has_nreq, has_done, done;
  uint8_t pad[1];
  /* repeated tests: how many calls (1: one), the last one's start and
   * duration, the sum of the durations (stamps) */
  uint64_t polls, last_start, last_dur, busy;
} mpi_entry;

/* The part of two entries that says they are the same test again. */
#define MPI_SAME_END offsetof(mpi_entry, start)
#define MPI_SAME_FROM offsetof(mpi_entry, bytes)
#define MPI_SAME_TO offsetof(mpi_entry, polls)

static size_t format_mpi(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid) {
  rtg_count_written(RTG_CNT_MPI_CALLS);
  mpi_entry e;
  if (len < sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  rtg_record rec, *r = &rec;
  rtg_record_init(r, RTG_KIND_MPI, pid, tid);
  r->u.MPI.func = e.func;
  RTG_CLEAN(r, MPI, func);
  rtg_stamp_span_ns(e.start, e.dur, &r->u.MPI.start, &r->u.MPI.dur);
  RTG_SET(r, MPI, ret, e.ret);
  if (e.comm) {
    RTG_SET(r, MPI, comm, e.comm->id);
    RTG_CLEAN(r, MPI, comm);
    RTG_SET(r, MPI, size, e.comm->size);
    RTG_SET(r, MPI, rank, e.comm->rank);
  }
  if (e.has_peer) RTG_SET(r, MPI, peer, e.peer);
  if (e.has_root) RTG_SET(r, MPI, root, e.root);
  if (e.has_bytes) RTG_SET(r, MPI, bytes, e.bytes);
  if (e.seq) RTG_SET(r, MPI, seq, e.seq);
  if (e.has_req) RTG_SET(r, MPI, req, e.req);
  if (e.has_nreq) RTG_SET(r, MPI, nreq, e.nreq);
  if (e.has_done) RTG_SET(r, MPI, done, e.done);
  if (e.polls > 1) { /* the last call's times, the durations' sum within the span */
    uint64_t last, last_dur, from, busy;
    rtg_stamp_span_ns(e.last_start, e.last_dur, &last, &last_dur);
    rtg_stamp_span_ns(e.start, e.busy, &from, &busy);
    uint64_t span = last + last_dur > r->u.MPI.start ? last + last_dur - r->u.MPI.start : 0;
    RTG_SET(r, MPI, polls, e.polls);
    RTG_SET(r, MPI, last, last);
    RTG_SET(r, MPI, last_dur, last_dur);
    RTG_SET(r, MPI, busy, busy < span ? busy : span);
    rtg_count_written_n(RTG_CNT_MPI_CALLS, e.polls - 1);
  }
  return rtg_entry_record(out, cap, r);
}

/* RTG_MPI_POLL=coalesce: count a test that completed nothing into the
 * entry the thread holds when it is the same test again, else hold its
 * entry (which publishes the one held before). */
static void hold_mpi(mpi_entry *e) {
  if (!atomic_load_explicit(&rtg_emit_on, memory_order_relaxed)) return; /* not tracing */
  const rtg_entry_format fmt = format_mpi;
  rtg_tchain *t = rtg_tls.chain;
  uint32_t len;
  char *held = rtg_hold_entry(t, &len);
  if (held && len == sizeof fmt + sizeof *e) {
    rtg_entry_format held_fmt;
    memcpy(&held_fmt, held, sizeof held_fmt);
    char *p = held + sizeof fmt; /* the held mpi_entry */
    if (held_fmt == fmt && !memcmp(p, e, MPI_SAME_END) &&
        !memcmp(p + MPI_SAME_FROM, (const char *)e + MPI_SAME_FROM, MPI_SAME_TO - MPI_SAME_FROM)) {
      mpi_entry h;
      memcpy(&h, p, sizeof h);
      h.polls++;
      h.last_start = e->start;
      h.last_dur = e->dur;
      h.busy += e->dur;
      rtg_hold_edit_begin(t);
      memcpy(p + offsetof(mpi_entry, polls), &h.polls, sizeof h - offsetof(mpi_entry, polls));
      rtg_hold_edit_end(t);
      return;
    }
  }
  if (!rtg_hold_put(t, &fmt, sizeof fmt, e, sizeof *e, 0))
    rtg_count(RTG_CNT_MPI_CALLS, 1); /* dropped (counted as lost) */
}

void rtg_mpi_begin(rtg_mpi_call *c, const char *func, mpi_h comm) {
  memset(c, 0, sizeof *c);
  c->func = func;
  if (comm) c->comm = rtg_mpi_comm_of(comm);
  c->start = rtg_stamp();
}

void rtg_mpi_begin_coll(rtg_mpi_call *c, const char *func, mpi_h comm) {
  memset(c, 0, sizeof *c);
  c->func = func;
  rtg_mpi_comm *m = rtg_mpi_comm_of(comm);
  c->comm = m;
  if (m) c->seq = atomic_fetch_add_explicit(&m->seq, 1, memory_order_relaxed) + 1;
  c->start = rtg_stamp();
}

void rtg_mpi_bytes(rtg_mpi_call *c, int count, mpi_h dt) {
  int sz = 0;
  if (count < 0 || !rtg_mpi.type_size || rtg_mpi.type_size(dt, &sz) || sz < 0) return;
  c->bytes = (uint64_t)count * (uint64_t)sz;
  c->has_bytes = 1;
}

void rtg_mpi_end(rtg_mpi_call *c, int ret) {
  uint64_t end = rtg_stamp();
  mpi_entry e;
  memset(&e, 0, sizeof e); /* every byte set: no stray bytes in the buffers */
  e.func = c->func;
  e.comm = c->comm;
  e.start = c->start;
  e.dur = end - c->start;
  e.bytes = c->bytes, e.seq = c->seq, e.req = c->req, e.nreq = c->nreq;
  e.ret = ret, e.peer = c->peer, e.root = c->root;
  e.has_peer = c->has_peer, e.has_root = c->has_root, e.has_bytes = c->has_bytes;
  e.has_req = c->has_req, e.has_nreq = c->has_nreq, e.has_done = c->has_done, e.done = c->done;
  e.polls = 1, e.last_start = e.start, e.last_dur = e.busy = e.dur;
  if (e.has_done && !e.done && !rtg_cfg.mpi_poll_each)
    hold_mpi(&e);
  else if (!rtg_emit_entry(format_mpi, &e, sizeof e))
    rtg_count(RTG_CNT_MPI_CALLS, 1);
}
