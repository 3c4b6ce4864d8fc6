/* The wrappers: each records one MPI call around the library's own
 * function (rtg_mpi_real), with what identifies it across ranks.  The
 * point-to-point calls, the collectives, the non-blocking starts whose
 * requests the completion calls (MPI_Wait*, MPI_Test*) name, and
 * MPI_Finalize.  bytes: the count times the datatype's size the call names
 * for what this rank sends (what it receives for receives, and for the
 * collectives given MPI_IN_PLACE; for MPI_Scatter). */
#include "mpi_internal.h"

#include <stddef.h>

#define ON (__atomic_load_n(&rtg_mpi_on, __ATOMIC_RELAXED) && !rtg_inside())

/* MPI_IN_PLACE: (void *)1 in Open MPI, (void *)-1 in MPICH */
static bool in_place(const void *p) {
  return p == (const void *)1 || p == (const void *)-1;
}

static uint64_t req_at(const void *p) {
  if (!p) return 0;
  return rtg_mpi.int_handles ? *(const uint32_t *)p : (uint64_t) * (const uintptr_t *)p;
}

static void set_req(rtg_mpi_call *c, const void *p) {
  c->req = req_at(p);
  c->has_req = 1;
}

static void set_peer(rtg_mpi_call *c, int peer) {
  c->peer = peer, c->has_peer = 1;
}

static void set_root(rtg_mpi_call *c, int root) {
  c->root = root, c->has_root = 1;
}

/* ------------------------------------------------- point to point */

typedef int send_fn(const void *, int, mpi_h, int, int, mpi_h);
static send_fn *r_send, *r_ssend, *r_rsend, *r_bsend;

static int send_like(send_fn *f, const char *name, const void *b, int n, mpi_h dt, int dest,
                     int tag, mpi_h comm) {
  if (!ON) return f(b, n, dt, dest, tag, comm);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, name, comm);
  rtg_mpi_bytes(&c, n, dt);
  set_peer(&c, dest);
  int ret = f(b, n, dt, dest, tag, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}
static int w_send(const void *b, int n, mpi_h dt, int dest, int tag, mpi_h comm) {
  return send_like(r_send, "MPI_Send", b, n, dt, dest, tag, comm);
}
static int w_ssend(const void *b, int n, mpi_h dt, int dest, int tag, mpi_h comm) {
  return send_like(r_ssend, "MPI_Ssend", b, n, dt, dest, tag, comm);
}
static int w_rsend(const void *b, int n, mpi_h dt, int dest, int tag, mpi_h comm) {
  return send_like(r_rsend, "MPI_Rsend", b, n, dt, dest, tag, comm);
}
static int w_bsend(const void *b, int n, mpi_h dt, int dest, int tag, mpi_h comm) {
  return send_like(r_bsend, "MPI_Bsend", b, n, dt, dest, tag, comm);
}

static int (*r_recv)(void *, int, mpi_h, int, int, mpi_h, void *);
static int w_recv(void *b, int n, mpi_h dt, int src, int tag, mpi_h comm, void *st) {
  if (!ON) return r_recv(b, n, dt, src, tag, comm, st);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Recv", comm);
  rtg_mpi_bytes(&c, n, dt);
  set_peer(&c, src);
  int ret = r_recv(b, n, dt, src, tag, comm, st);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_sendrecv)(const void *, int, mpi_h, int, int, void *, int, mpi_h, int, int, mpi_h,
                         void *);
static int w_sendrecv(const void *sb, int sn, mpi_h st, int dest, int stag, void *rb, int rn,
                      mpi_h rt, int src, int rtag, mpi_h comm, void *status) {
  if (!ON) return r_sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, comm, status);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Sendrecv", comm);
  rtg_mpi_bytes(&c, sn, st);
  set_peer(&c, dest);
  int ret = r_sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, comm, status);
  rtg_mpi_end(&c, ret);
  return ret;
}

/* ------------------------------------------------- non-blocking starts */

typedef int isend_fn(const void *, int, mpi_h, int, int, mpi_h, void *);
static isend_fn *r_isend, *r_issend, *r_irecv;

static int isend_like(isend_fn *f, const char *name, const void *b, int n, mpi_h dt, int peer,
                      int tag, mpi_h comm, void *req) {
  if (!ON) return f(b, n, dt, peer, tag, comm, req);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, name, comm);
  rtg_mpi_bytes(&c, n, dt);
  set_peer(&c, peer);
  int ret = f(b, n, dt, peer, tag, comm, req);
  set_req(&c, req);
  rtg_mpi_end(&c, ret);
  return ret;
}
static int w_isend(const void *b, int n, mpi_h dt, int dest, int tag, mpi_h comm, void *req) {
  return isend_like(r_isend, "MPI_Isend", b, n, dt, dest, tag, comm, req);
}
static int w_issend(const void *b, int n, mpi_h dt, int dest, int tag, mpi_h comm, void *req) {
  return isend_like(r_issend, "MPI_Issend", b, n, dt, dest, tag, comm, req);
}
static int w_irecv(void *b, int n, mpi_h dt, int src, int tag, mpi_h comm, void *req) {
  return isend_like(r_irecv, "MPI_Irecv", b, n, dt, src, tag, comm, req);
}

/* ------------------------------------------------- completion */

static int (*r_wait)(void *, void *);
static int w_wait(void *req, void *st) {
  if (!ON) return r_wait(req, st);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Wait", NULL);
  set_req(&c, req);
  int ret = r_wait(req, st);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_test)(void *, int *, void *);
static int w_test(void *req, int *flag, void *st) {
  if (!ON) return r_test(req, flag, st);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Test", NULL);
  set_req(&c, req);
  int ret = r_test(req, flag, st);
  c.done = flag && *flag, c.has_done = 1;
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_waitall)(int, void *, void *);
static int w_waitall(int n, void *reqs, void *sts) {
  if (!ON) return r_waitall(n, reqs, sts);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Waitall", NULL);
  c.nreq = n > 0 ? (uint64_t)n : 0, c.has_nreq = 1;
  if (n == 1) set_req(&c, reqs);
  int ret = r_waitall(n, reqs, sts);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_testall)(int, void *, int *, void *);
static int w_testall(int n, void *reqs, int *flag, void *sts) {
  if (!ON) return r_testall(n, reqs, flag, sts);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Testall", NULL);
  c.nreq = n > 0 ? (uint64_t)n : 0, c.has_nreq = 1;
  int ret = r_testall(n, reqs, flag, sts);
  c.done = flag && *flag, c.has_done = 1;
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_waitany)(int, void *, int *, void *);
static int w_waitany(int n, void *reqs, int *idx, void *st) {
  if (!ON) return r_waitany(n, reqs, idx, st);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Waitany", NULL);
  c.nreq = n > 0 ? (uint64_t)n : 0, c.has_nreq = 1;
  int ret = r_waitany(n, reqs, idx, st);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_testany)(int, void *, int *, int *, void *);
static int w_testany(int n, void *reqs, int *idx, int *flag, void *st) {
  if (!ON) return r_testany(n, reqs, idx, flag, st);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Testany", NULL);
  c.nreq = n > 0 ? (uint64_t)n : 0, c.has_nreq = 1;
  int ret = r_testany(n, reqs, idx, flag, st);
  c.done = flag && *flag, c.has_done = 1;
  rtg_mpi_end(&c, ret);
  return ret;
}

typedef int some_fn(int, void *, int *, int *, void *);
static some_fn *r_waitsome, *r_testsome;
static int some_like(some_fn *f, const char *name, int n, void *reqs, int *out, int *idx,
                     void *sts) {
  if (!ON) return f(n, reqs, out, idx, sts);
  rtg_mpi_call c;
  rtg_mpi_begin(&c, name, NULL);
  c.nreq = n > 0 ? (uint64_t)n : 0, c.has_nreq = 1;
  int ret = f(n, reqs, out, idx, sts);
  c.done = out && *out > 0, c.has_done = 1;
  rtg_mpi_end(&c, ret);
  return ret;
}
static int w_waitsome(int n, void *reqs, int *out, int *idx, void *sts) {
  return some_like(r_waitsome, "MPI_Waitsome", n, reqs, out, idx, sts);
}
static int w_testsome(int n, void *reqs, int *out, int *idx, void *sts) {
  return some_like(r_testsome, "MPI_Testsome", n, reqs, out, idx, sts);
}

/* ------------------------------------------------- collectives */

static int (*r_barrier)(mpi_h);
static int w_barrier(mpi_h comm) {
  if (!ON) return r_barrier(comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Barrier", comm);
  int ret = r_barrier(comm);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_ibarrier)(mpi_h, void *);
static int w_ibarrier(mpi_h comm, void *req) {
  if (!ON) return r_ibarrier(comm, req);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Ibarrier", comm);
  int ret = r_ibarrier(comm, req);
  set_req(&c, req);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_bcast)(void *, int, mpi_h, int, mpi_h);
static int w_bcast(void *b, int n, mpi_h dt, int root, mpi_h comm) {
  if (!ON) return r_bcast(b, n, dt, root, comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Bcast", comm);
  rtg_mpi_bytes(&c, n, dt);
  set_root(&c, root);
  int ret = r_bcast(b, n, dt, root, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_ibcast)(void *, int, mpi_h, int, mpi_h, void *);
static int w_ibcast(void *b, int n, mpi_h dt, int root, mpi_h comm, void *req) {
  if (!ON) return r_ibcast(b, n, dt, root, comm, req);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Ibcast", comm);
  rtg_mpi_bytes(&c, n, dt);
  set_root(&c, root);
  int ret = r_ibcast(b, n, dt, root, comm, req);
  set_req(&c, req);
  rtg_mpi_end(&c, ret);
  return ret;
}

/* Allreduce, Scan, Exscan, Reduce_scatter_block: (sb, rb, n, dt, op, comm) */
typedef int allred_fn(const void *, void *, int, mpi_h, mpi_h, mpi_h);
static allred_fn *r_allreduce, *r_scan, *r_exscan, *r_rsblock;
static int allred_like(allred_fn *f, const char *name, const void *sb, void *rb, int n, mpi_h dt,
                       mpi_h op, mpi_h comm) {
  if (!ON) return f(sb, rb, n, dt, op, comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, name, comm);
  rtg_mpi_bytes(&c, n, dt);
  int ret = f(sb, rb, n, dt, op, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}
static int w_allreduce(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, mpi_h comm) {
  return allred_like(r_allreduce, "MPI_Allreduce", sb, rb, n, dt, op, comm);
}
static int w_scan(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, mpi_h comm) {
  return allred_like(r_scan, "MPI_Scan", sb, rb, n, dt, op, comm);
}
static int w_exscan(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, mpi_h comm) {
  return allred_like(r_exscan, "MPI_Exscan", sb, rb, n, dt, op, comm);
}
static int w_rsblock(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, mpi_h comm) {
  return allred_like(r_rsblock, "MPI_Reduce_scatter_block", sb, rb, n, dt, op, comm);
}

static int (*r_iallreduce)(const void *, void *, int, mpi_h, mpi_h, mpi_h, void *);
static int w_iallreduce(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, mpi_h comm,
                        void *req) {
  if (!ON) return r_iallreduce(sb, rb, n, dt, op, comm, req);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Iallreduce", comm);
  rtg_mpi_bytes(&c, n, dt);
  int ret = r_iallreduce(sb, rb, n, dt, op, comm, req);
  set_req(&c, req);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_reduce)(const void *, void *, int, mpi_h, mpi_h, int, mpi_h);
static int w_reduce(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, int root, mpi_h comm) {
  if (!ON) return r_reduce(sb, rb, n, dt, op, root, comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Reduce", comm);
  rtg_mpi_bytes(&c, n, dt);
  set_root(&c, root);
  int ret = r_reduce(sb, rb, n, dt, op, root, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_ireduce)(const void *, void *, int, mpi_h, mpi_h, int, mpi_h, void *);
static int w_ireduce(const void *sb, void *rb, int n, mpi_h dt, mpi_h op, int root, mpi_h comm,
                     void *req) {
  if (!ON) return r_ireduce(sb, rb, n, dt, op, root, comm, req);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Ireduce", comm);
  rtg_mpi_bytes(&c, n, dt);
  set_root(&c, root);
  int ret = r_ireduce(sb, rb, n, dt, op, root, comm, req);
  set_req(&c, req);
  rtg_mpi_end(&c, ret);
  return ret;
}

/* Allgather, Alltoall: (sb, sn, st, rb, rn, rt, comm) */
typedef int gather_fn(const void *, int, mpi_h, void *, int, mpi_h, mpi_h);
static gather_fn *r_allgather, *r_alltoall;
static int allgather_like(gather_fn *f, const char *name, const void *sb, int sn, mpi_h st,
                          void *rb, int rn, mpi_h rt, mpi_h comm) {
  if (!ON) return f(sb, sn, st, rb, rn, rt, comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, name, comm);
  if (in_place(sb))
    rtg_mpi_bytes(&c, rn, rt);
  else
    rtg_mpi_bytes(&c, sn, st);
  int ret = f(sb, sn, st, rb, rn, rt, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}
static int w_allgather(const void *sb, int sn, mpi_h st, void *rb, int rn, mpi_h rt, mpi_h comm) {
  return allgather_like(r_allgather, "MPI_Allgather", sb, sn, st, rb, rn, rt, comm);
}
static int w_alltoall(const void *sb, int sn, mpi_h st, void *rb, int rn, mpi_h rt, mpi_h comm) {
  return allgather_like(r_alltoall, "MPI_Alltoall", sb, sn, st, rb, rn, rt, comm);
}

/* Gather, Scatter: (sb, sn, st, rb, rn, rt, root, comm) */
typedef int rooted_fn(const void *, int, mpi_h, void *, int, mpi_h, int, mpi_h);
static rooted_fn *r_gather, *r_scatter;
static int w_gather(const void *sb, int sn, mpi_h st, void *rb, int rn, mpi_h rt, int root,
                    mpi_h comm) {
  if (!ON) return r_gather(sb, sn, st, rb, rn, rt, root, comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Gather", comm);
  if (in_place(sb))
    rtg_mpi_bytes(&c, rn, rt);
  else
    rtg_mpi_bytes(&c, sn, st);
  set_root(&c, root);
  int ret = r_gather(sb, sn, st, rb, rn, rt, root, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}
static int w_scatter(const void *sb, int sn, mpi_h st, void *rb, int rn, mpi_h rt, int root,
                     mpi_h comm) {
  if (!ON) return r_scatter(sb, sn, st, rb, rn, rt, root, comm);
  rtg_mpi_call c;
  rtg_mpi_begin_coll(&c, "MPI_Scatter", comm);
  if (in_place(rb))
    rtg_mpi_bytes(&c, sn, st);
  else
    rtg_mpi_bytes(&c, rn, rt);
  set_root(&c, root);
  int ret = r_scatter(sb, sn, st, rb, rn, rt, root, comm);
  rtg_mpi_end(&c, ret);
  return ret;
}

static int (*r_finalize)(void);
static int w_finalize(void) {
  if (!ON) return r_finalize();
  rtg_mpi_call c;
  rtg_mpi_begin(&c, "MPI_Finalize", NULL);
  int ret = r_finalize();
  rtg_mpi_end(&c, ret);
  return ret;
}

/* ------------------------------------------------- the table */

#define W(name, w, r)                                                                              \
  { name, (void *)w, (void **)&r }
const rtg_mpi_wrap rtg_mpi_wraps[] = {
    W("MPI_Send", w_send, r_send),
    W("MPI_Ssend", w_ssend, r_ssend),
    W("MPI_Rsend", w_rsend, r_rsend),
    W("MPI_Bsend", w_bsend, r_bsend),
    W("MPI_Recv", w_recv, r_recv),
    W("MPI_Sendrecv", w_sendrecv, r_sendrecv),
    W("MPI_Isend", w_isend, r_isend),
    W("MPI_Issend", w_issend, r_issend),
    W("MPI_Irecv", w_irecv, r_irecv),
    W("MPI_Wait", w_wait, r_wait),
    W("MPI_Waitall", w_waitall, r_waitall),
    W("MPI_Waitany", w_waitany, r_waitany),
    W("MPI_Waitsome", w_waitsome, r_waitsome),
    W("MPI_Test", w_test, r_test),
    W("MPI_Testall", w_testall, r_testall),
    W("MPI_Testany", w_testany, r_testany),
    W("MPI_Testsome", w_testsome, r_testsome),
    W("MPI_Barrier", w_barrier, r_barrier),
    W("MPI_Ibarrier", w_ibarrier, r_ibarrier),
    W("MPI_Bcast", w_bcast, r_bcast),
    W("MPI_Ibcast", w_ibcast, r_ibcast),
    W("MPI_Reduce", w_reduce, r_reduce),
    W("MPI_Ireduce", w_ireduce, r_ireduce),
    W("MPI_Allreduce", w_allreduce, r_allreduce),
    W("MPI_Iallreduce", w_iallreduce, r_iallreduce),
    W("MPI_Scan", w_scan, r_scan),
    W("MPI_Exscan", w_exscan, r_exscan),
    W("MPI_Reduce_scatter_block", w_rsblock, r_rsblock),
    W("MPI_Allgather", w_allgather, r_allgather),
    W("MPI_Alltoall", w_alltoall, r_alltoall),
    W("MPI_Gather", w_gather, r_gather),
    W("MPI_Scatter", w_scatter, r_scatter),
    W("MPI_Finalize", w_finalize, r_finalize),
};
const int rtg_mpi_nwraps = sizeof rtg_mpi_wraps / sizeof *rtg_mpi_wraps;
