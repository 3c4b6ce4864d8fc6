/* rtg trace record format: the one definition of every record kind.
 *
 * A trace is line-oriented text, one record a line:
 *
 *   PREFIX: pid:P tid:T [KEYWORD] FIELD FIELD ...
 *
 * The lines rocm-timeline-generator wrote are kept field for field, because
 * existing scripts match them with regular expressions; new information is
 * only ever appended as key:value fields after them.  Each kind below lists
 * its fields in line order; the writer (rtg_record_format) and the parser
 * (rtg_record_parse) in src/common/record.c both walk these lists, so they
 * cannot disagree.  All times are CLOCK_BOOTTIME nanoseconds.
 *
 * Field styles:
 *   KV     " key:123"            unsigned decimal
 *   KVI    " key:-5"             signed decimal
 *   KVS    " key:'text'"         quoted, with \\ \' and \xNN escapes
 *   KVW    " key:word"           a token without spaces
 *   KV3    " key:{x,y,z}"        three unsigned decimals
 *   FUNC   " name"               a bare function name (HSA) or name(args) (HIP)
 *   ARGS   " (args)"             HSA argument list, written raw
 *   ARGA   "(args)"              HIP argument list, attached to FUNC
 *   KERN   " [name]"             HIP kernel name, optional
 *   RET    " ret=R"              return value as text (number or void)
 *   AT     " @start"             start time
 *   PLUS   " +duration"          duration
 * A field whose flag is OPT may be absent; the parser records which fields it
 * saw in rtg_record.present.
 */
#ifndef RTG_RECORD_H
#define RTG_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define RTG_FORMAT_VERSION 1

/* F(K, type, member, key, style, flags), K being the kind
 * type: u64, i64, str, dim3.  flags: REQ or OPT. */

/* First line of every trace: format version, process, host and clock.
 * boot_ns/realtime_ns: one instant on both clocks (at the process's
 * start), realtime_err: that pair's own error, ns (half the bracket of two
 * boottime reads around the realtime read). */
#define RTG_FIELDS_HEADER(F, K)                                                                    \
  F(K, u64, format, "format", KV, REQ)                                                             \
  F(K, str, host, "host", KVW, REQ)                                                                \
  F(K, str, clock, "clock", KVW, REQ)                                                              \
  F(K, u64, ppid, "ppid", KV, OPT)                                                                 \
  F(K, u64, boot_ns, "boot_ns", KV, OPT)                                                           \
  F(K, u64, realtime_ns, "realtime_ns", KV, OPT)                                                   \
  F(K, str, rank, "rank", KVW, OPT)                                                                \
  F(K, str, version, "version", KVW, OPT)                                                          \
  F(K, str, exe, "exe", KVS, OPT)                                                                  \
  F(K, u64, realtime_err, "realtime_err", KV, OPT)

/* An agent the runtime reported, so tools can name GPU tracks. */
#define RTG_FIELDS_AGENT(F, K)                                                                     \
  F(K, u64, index, "index", KV, REQ)                                                               \
  F(K, str, type, "type", KVW, REQ)                                                                \
  F(K, str, name, "name", KVS, OPT)                                                                \
  F(K, str, product, "product", KVS, OPT)                                                          \
  F(K, u64, node, "node", KV, OPT)                                                                 \
  F(K, u64, handle, "handle", KV, OPT)

/* A queue the tracer intercepts: queue index -> agent index. */
#define RTG_FIELDS_QUEUE(F, K)                                                                     \
  F(K, u64, index, "index", KV, REQ)                                                               \
  F(K, u64, agent, "agent", KV, REQ)                                                               \
  F(K, u64, size, "size", KV, OPT)                                                                 \
  F(K, u64, hw_id, "hw_id", KV, OPT)

/* An HSA API call: HSA: pid:P tid:T FUNC (ARGS) ret=R @START +DUR
 * A run of calls that repeat the first one on its thread (the same
 * function, arguments and return value, nothing else recorded on the
 * thread in between: a runtime polling; RTG_HSA_POLL) is one record: START
 * and DUR are the first call's, polls the number of calls (>= 2), last and
 * last_dur the last call's start and duration, busy the sum of all the
 * calls' durations.  cid: the call's own correlation id (a record of
 * repeated calls: the first one's); corr: the traced call it was made in
 * (its ancestor), absent when none. */
#define RTG_FIELDS_HSA_API(F, K)                                                                   \
  F(K, str, func, "", FUNC, REQ)                                                                   \
  F(K, str, args, "", ARGS, REQ)                                                                   \
  F(K, str, ret, "", RET, REQ)                                                                     \
  F(K, u64, start, "", AT, REQ)                                                                    \
  F(K, u64, dur, "", PLUS, REQ)                                                                    \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  F(K, u64, stack, "stack", KV, OPT)                                                               \
  F(K, u64, polls, "polls", KV, OPT)                                                               \
  F(K, u64, last, "last", KV, OPT)                                                                 \
  F(K, u64, last_dur, "last_dur", KV, OPT)                                                         \
  F(K, u64, busy, "busy", KV, OPT)                                                                 \
  F(K, u64, cid, "cid", KV, OPT)

/* A HIP API call: HIP: pid:P tid:T FUNC[(ARGS)] [KERNEL] ret=R @START +DUR
 * corr: the call's own correlation id, which the GPU ops it submitted
 * carry; ancestor: the traced call it was made in, absent when none. */
#define RTG_FIELDS_HIP_API(F, K)                                                                   \
  F(K, str, func, "", FUNC, REQ)                                                                   \
  F(K, str, args, "", ARGA, OPT)                                                                   \
  F(K, str, kernel, "", KERN, OPT)                                                                 \
  F(K, str, ret, "", RET, REQ)                                                                     \
  F(K, u64, start, "", AT, REQ)                                                                    \
  F(K, u64, dur, "", PLUS, REQ)                                                                    \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  F(K, u64, stack, "stack", KV, OPT)                                                               \
  F(K, u64, ancestor, "ancestor", KV, OPT)

/* A kernel dispatch as the host enqueued it (RTG_HSA_HOST_DISPATCH). */
#define RTG_FIELDS_DISPATCH_HOST(F, K)                                                             \
  F(K, u64, queue, "queue", KV, REQ)                                                               \
  F(K, u64, agent, "agent", KV, REQ)                                                               \
  F(K, u64, signal, "signal", KV, REQ)                                                             \
  F(K, str, name, "name", KVS, REQ)                                                                \
  F(K, u64, tick, "tick", KV, REQ)                                                                 \
  F(K, u64, id, "id", KV, REQ)                                                                     \
  F(K, dim3, workgroup, "workgroup", KV3, REQ)                                                     \
  F(K, dim3, grid, "grid", KV3, REQ)                                                               \
  F(K, u64, corr, "corr", KV, OPT)

/* A kernel dispatch as the GPU ran it.  waiter (also on barriers and
 * copies): the first application thread that waited for the op to finish
 * (in a wait on its completion signal, or a load of it that saw it
 * finished); absent: none did.  graph, node (also on copies): submitted by
 * a hipGraphLaunch (its corr), of the graph exec numbered graph (1, 2, ...
 * in the order of their first launch), the node-th kernel or copy that
 * launch submitted (the same node at every launch of the graph). */
#define RTG_FIELDS_DISPATCH(F, K)                                                                  \
  F(K, u64, queue, "queue", KV, REQ)                                                               \
  F(K, u64, agent, "agent", KV, REQ)                                                               \
  F(K, u64, signal, "signal", KV, REQ)                                                             \
  F(K, str, name, "name", KVS, REQ)                                                                \
  F(K, u64, start, "start", KV, REQ)                                                               \
  F(K, u64, stop, "stop", KV, REQ)                                                                 \
  F(K, u64, id, "id", KV, REQ)                                                                     \
  F(K, dim3, workgroup, "workgroup", KV3, OPT)                                                     \
  F(K, dim3, grid, "grid", KV3, OPT)                                                               \
  F(K, u64, lds, "lds", KV, OPT)                                                                   \
  F(K, u64, scratch, "scratch", KV, OPT)                                                           \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  F(K, u64, tick, "tick", KV, OPT)                                                                 \
  F(K, str, demangled, "demangled", KVS, OPT)                                                      \
  F(K, u64, waiter, "waiter", KV, OPT)                                                             \
  F(K, u64, kernel_id, "kernel_id", KV, OPT)                                                       \
  F(K, u64, graph, "graph", KV, OPT)                                                               \
  F(K, u64, node, "node", KV, OPT)

/* A kernel of a loaded code object, once per kernel object (at the
 * executable's freeze), before any dispatch of it: id (the kernel_id of
 * its dispatches, unique in the process), object (its kernel_object),
 * agent (an agent index), name (the symbol without ".kd"); the registers
 * as rocprofiler-sdk decodes the kernel descriptor (arch_vgpr, accum_vgpr,
 * sgpr: allocation granules), lds and scratch (static group and private
 * segment bytes), kernarg (bytes), wavefront (lanes).  A value the tracer
 * could not read is absent. */
#define RTG_FIELDS_KERNEL(F, K)                                                                    \
  F(K, u64, id, "id", KV, REQ)                                                                     \
  F(K, u64, object, "object", KV, REQ)                                                             \
  F(K, u64, agent, "agent", KV, OPT)                                                               \
  F(K, str, name, "name", KVS, REQ)                                                                \
  F(K, u64, arch_vgpr, "arch_vgpr", KV, OPT)                                                       \
  F(K, u64, accum_vgpr, "accum_vgpr", KV, OPT)                                                     \
  F(K, u64, sgpr, "sgpr", KV, OPT)                                                                 \
  F(K, u64, lds, "lds", KV, OPT)                                                                   \
  F(K, u64, scratch, "scratch", KV, OPT)                                                           \
  F(K, u64, kernarg, "kernarg", KV, OPT)                                                           \
  F(K, u64, wavefront, "wavefront", KV, OPT)                                                       \
  F(K, str, arch, "arch", KVW, OPT)

/* The five dependency signals of a barrier packet (0 when unused); copies
 * write the same five for the signals they waited on. */
#define RTG_FIELDS_DEPS(F, K)                                                                      \
  F(K, u64, dep1, "dep1", KV, REQ)                                                                 \
  F(K, u64, dep2, "dep2", KV, REQ)                                                                 \
  F(K, u64, dep3, "dep3", KV, REQ)                                                                 \
  F(K, u64, dep4, "dep4", KV, REQ)                                                                 \
  F(K, u64, dep5, "dep5", KV, REQ)

/* What an AMD barrier-value packet waits for (op:value; dep1 is its one
 * dependency signal): until (value of dep1 & mask) cond value, cond being
 * eq, ne, lt or gte (hsa_signal_condition_t).  HIP >= 5.3 makes kernels wait
 * for copies with these. */
#define RTG_FIELDS_BARRIER_VALUE(F, K)                                                             \
  F(K, i64, value, "value", KVI, OPT)                                                              \
  F(K, u64, mask, "mask", KV, OPT)                                                                 \
  F(K, str, cond, "cond", KVW, OPT)

/* A barrier packet as the host enqueued it. */
#define RTG_FIELDS_BARRIER_HOST(F, K)                                                              \
  F(K, u64, queue, "queue", KV, REQ)                                                               \
  F(K, u64, agent, "agent", KV, REQ)                                                               \
  F(K, u64, signal, "signal", KV, REQ)                                                             \
  RTG_FIELDS_DEPS(F, K)                                                                            \
  F(K, u64, tick, "tick", KV, REQ)                                                                 \
  F(K, u64, id, "id", KV, REQ)                                                                     \
  F(K, str, op, "op", KVW, OPT)                                                                    \
  RTG_FIELDS_BARRIER_VALUE(F, K)

/* A barrier packet as the GPU ran it; op is "and", "or" or "value" (an AMD
 * barrier-value packet, with the fields of RTG_FIELDS_BARRIER_VALUE). */
#define RTG_FIELDS_BARRIER(F, K)                                                                   \
  F(K, u64, queue, "queue", KV, REQ)                                                               \
  F(K, u64, agent, "agent", KV, REQ)                                                               \
  F(K, u64, signal, "signal", KV, REQ)                                                             \
  F(K, u64, start, "start", KV, REQ)                                                               \
  F(K, u64, stop, "stop", KV, REQ)                                                                 \
  RTG_FIELDS_DEPS(F, K)                                                                            \
  F(K, u64, id, "id", KV, REQ)                                                                     \
  F(K, str, op, "op", KVW, OPT)                                                                    \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  RTG_FIELDS_BARRIER_VALUE(F, K)                                                                   \
  F(K, u64, waiter, "waiter", KV, OPT)

/* An async copy.  kind: HostToDevice, DeviceToHost, DeviceToDevice,
 * HostToHost; engine: the copy engine index when known; graph, node: as a
 * dispatch's. */
#define RTG_FIELDS_COPY(F, K)                                                                      \
  F(K, u64, agent, "agent", KV, REQ)                                                               \
  F(K, u64, signal, "signal", KV, REQ)                                                             \
  F(K, u64, start, "start", KV, REQ)                                                               \
  F(K, u64, stop, "stop", KV, REQ)                                                                 \
  RTG_FIELDS_DEPS(F, K)                                                                            \
  F(K, u64, bytes, "bytes", KV, OPT)                                                               \
  F(K, str, kind, "kind", KVW, OPT)                                                                \
  F(K, u64, src_agent, "src_agent", KV, OPT)                                                       \
  F(K, u64, dst_agent, "dst_agent", KV, OPT)                                                       \
  F(K, u64, engine, "engine", KV, OPT)                                                             \
  F(K, u64, id, "id", KV, OPT)                                                                     \
  F(K, u64, tick, "tick", KV, OPT)                                                                 \
  F(K, str, api, "api", KVW, OPT)                                                                  \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  F(K, u64, waiter, "waiter", KV, OPT)                                                             \
  F(K, u64, graph, "graph", KV, OPT)                                                               \
  F(K, u64, node, "node", KV, OPT)

/* A ROCTx marker (op mark) or a closed range (op push or start).  A range
 * still open when its thread or the process ended is written then, with
 * that time as stop and unclosed:1.  corr: the correlation id of the
 * call that marked or opened it; ancestor: the traced call that call was
 * made in, absent when none. */
#define RTG_FIELDS_ROCTX(F, K)                                                                     \
  F(K, str, op, "op", KVW, REQ)                                                                    \
  F(K, u64, start, "start", KV, REQ)                                                               \
  F(K, u64, stop, "stop", KV, REQ)                                                                 \
  F(K, u64, depth, "depth", KV, OPT)                                                               \
  F(K, u64, id, "id", KV, OPT)                                                                     \
  F(K, str, message, "message", KVS, OPT)                                                          \
  F(K, u64, unclosed, "unclosed", KV, OPT)                                                         \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  F(K, u64, ancestor, "ancestor", KV, OPT)

/* An MPI call (RTG_MPI): MPI: pid:P tid:T call func:NAME start:S dur:D ...
 * ret: MPI's return code.  comm: the communicator as every rank names it,
 * LEADER.SIZE.K (LEADER: the world rank of its rank 0, K: how many other
 * communicators of that leader and size this process used before it, in
 * the order of first use), with size (its ranks) and rank (this process's
 * rank in it).  peer: the destination or source rank of a point-to-point
 * call (-1: any source), root: a rooted collective's root.  bytes: the
 * data this rank sends (receives, for MPI_Recv and MPI_Irecv).  seq: a
 * collective's number among the collectives this process called on comm,
 * from 1: the same on every rank for one collective instance.  req: the
 * request a non-blocking start made, or the one MPI_Wait and MPI_Test
 * complete; nreq: how many requests a Waitall/any/some, Testall/any/some
 * was given; done: whether a test completed anything (1) or not (0).  A
 * run of tests that completed nothing and repeat the first one on its
 * thread (the same function, requests and return code, nothing else
 * recorded on the thread in between: a program polling; RTG_MPI_POLL) is
 * one record: start and dur are the first call's, polls the number of
 * calls (>= 2), last and last_dur the last call's start and duration, busy
 * the sum of all the calls' durations (as an HSA call's). */
#define RTG_FIELDS_MPI(F, K)                                                                       \
  F(K, str, func, "func", KVW, REQ)                                                                \
  F(K, u64, start, "start", KV, REQ)                                                               \
  F(K, u64, dur, "dur", KV, REQ)                                                                   \
  F(K, i64, ret, "ret", KVI, OPT)                                                                  \
  F(K, str, comm, "comm", KVW, OPT)                                                                \
  F(K, u64, size, "size", KV, OPT)                                                                 \
  F(K, u64, rank, "rank", KV, OPT)                                                                 \
  F(K, i64, peer, "peer", KVI, OPT)                                                                \
  F(K, i64, root, "root", KVI, OPT)                                                                \
  F(K, u64, bytes, "bytes", KV, OPT)                                                               \
  F(K, u64, seq, "seq", KV, OPT)                                                                   \
  F(K, u64, req, "req", KV, OPT)                                                                   \
  F(K, u64, nreq, "nreq", KV, OPT)                                                                 \
  F(K, u64, done, "done", KV, OPT)                                                                 \
  F(K, u64, polls, "polls", KV, OPT)                                                               \
  F(K, u64, last, "last", KV, OPT)                                                                 \
  F(K, u64, last_dur, "last_dur", KV, OPT)                                                         \
  F(K, u64, busy, "busy", KV, OPT)

/* A host call stack captured for the API record whose stack:ID it is. */
#define RTG_FIELDS_STACK(F, K)                                                                     \
  F(K, u64, id, "id", KV, REQ)                                                                     \
  F(K, str, pcs, "pcs", KVW, REQ)

/* A symbolized return address, written once per address at process end. */
#define RTG_FIELDS_SYMBOL(F, K)                                                                    \
  F(K, u64, addr, "addr", KV, REQ)                                                                 \
  F(K, str, name, "name", KVS, REQ)                                                                \
  F(K, u64, offset, "offset", KV, OPT)                                                             \
  F(K, str, module, "module", KVS, OPT)

/* Last record of a trace: what was recorded, and what had to be dropped
 * (mpi_calls: MPI records, when there are any);
 * boot_ns/realtime_ns/realtime_err: a second clock pair, at its writing
 * (the process's exit), as the header's. */
#define RTG_FIELDS_SUMMARY(F, K)                                                                   \
  F(K, u64, dispatches, "dispatches", KV, REQ)                                                     \
  F(K, u64, barriers, "barriers", KV, REQ)                                                         \
  F(K, u64, copies, "copies", KV, REQ)                                                             \
  F(K, u64, hsa_calls, "hsa_calls", KV, REQ)                                                       \
  F(K, u64, hip_calls, "hip_calls", KV, REQ)                                                       \
  F(K, u64, lost, "lost", KV, REQ)                                                                 \
  F(K, u64, lost_gpu, "lost_gpu", KV, OPT)                                                         \
  F(K, u64, unfinished, "unfinished", KV, OPT)                                                     \
  F(K, u64, other_packets, "other_packets", KV, OPT)                                               \
  F(K, u64, write_errors, "write_errors", KV, OPT)                                                 \
  F(K, u64, buffer_waits, "buffer_waits", KV, OPT)                                                 \
  F(K, u64, buffer_wait_ns, "buffer_wait_ns", KV, OPT)                                             \
  F(K, u64, hip_missed_until, "hip_missed_until", KV, OPT)                                         \
  F(K, u64, destroy_wakeups, "destroy_wakeups", KV, OPT)                                           \
  F(K, u64, throttle_releases, "throttle_releases", KV, OPT)                                       \
  F(K, u64, mpi_calls, "mpi_calls", KV, OPT)                                                       \
  F(K, u64, boot_ns, "boot_ns", KV, OPT)                                                           \
  F(K, u64, realtime_ns, "realtime_ns", KV, OPT)                                                   \
  F(K, u64, realtime_err, "realtime_err", KV, OPT)

/* Memory the process took from the runtime or gave back, at the HSA level
 * (where every HIP allocation ends up, so none is counted twice): op alloc
 * (hsa_amd_memory_pool_allocate, hsa_amd_vmem_handle_create), free
 * (hsa_amd_memory_pool_free, hsa_amd_vmem_handle_release), lock
 * (hsa_amd_memory_lock, _lock_to_pool: host memory pinned) or unlock;
 * start and stop: the call's; addr: the address the call took or gave (a
 * lock: the host address; the virtual memory API: the handle); size, agent (the index of the agent
 * whose pool it came from; a lock: the host agent), kind (device: a GPU's pool, host: a CPU agent's
 * pool, pinned: a lock), api (the HSA function), corr (the HIP call it was made in), pool (the
 * pool's handle).  Only calls that succeeded are recorded. */
#define RTG_FIELDS_MEMORY(F, K)                                                                    \
  F(K, str, op, "op", KVW, REQ)                                                                    \
  F(K, u64, start, "start", KV, REQ)                                                               \
  F(K, u64, stop, "stop", KV, REQ)                                                                 \
  F(K, u64, addr, "addr", KV, REQ)                                                                 \
  F(K, u64, size, "size", KV, OPT)                                                                 \
  F(K, u64, agent, "agent", KV, OPT)                                                               \
  F(K, str, kind, "kind", KVW, OPT)                                                                \
  F(K, str, api, "api", KVW, OPT)                                                                  \
  F(K, u64, corr, "corr", KV, OPT)                                                                 \
  F(K, u64, pool, "pool", KV, OPT)

/* X(KIND, prefix, keyword, FIELDS)
 * A kind is recognised by its prefix, then its keyword (the first word after
 * pid/tid), then, where two kinds share both, by the discriminating key that
 * only one of them has (rtg_record_kinds[].discriminator in record.c). */
#define RTG_RECORD_KINDS(X)                                                                        \
  X(HEADER, "RTG", "trace", RTG_FIELDS_HEADER)                                                     \
  X(AGENT, "RTG", "agent", RTG_FIELDS_AGENT)                                                       \
  X(QUEUE, "RTG", "queue", RTG_FIELDS_QUEUE)                                                       \
  X(SUMMARY, "RTG", "summary", RTG_FIELDS_SUMMARY)                                                 \
  X(STACK, "RTG", "stack", RTG_FIELDS_STACK)                                                       \
  X(SYMBOL, "RTG", "symbol", RTG_FIELDS_SYMBOL)                                                    \
  X(KERNEL, "RTG", "kernel", RTG_FIELDS_KERNEL)                                                    \
  X(DISPATCH_HOST, "HSA", "dispatch", RTG_FIELDS_DISPATCH_HOST)                                    \
  X(DISPATCH, "HSA", "dispatch", RTG_FIELDS_DISPATCH)                                              \
  X(BARRIER_HOST, "HSA", "barrier", RTG_FIELDS_BARRIER_HOST)                                       \
  X(BARRIER, "HSA", "barrier", RTG_FIELDS_BARRIER)                                                 \
  X(COPY, "HSA", "copy", RTG_FIELDS_COPY)                                                          \
  X(HSA_API, "HSA", "", RTG_FIELDS_HSA_API)                                                        \
  X(HIP_API, "HIP", "", RTG_FIELDS_HIP_API)                                                        \
  X(ROCTX, "ROCTX", "", RTG_FIELDS_ROCTX)                                                          \
  X(MEMORY, "RTG", "memory", RTG_FIELDS_MEMORY)                                                    \
  X(MPI, "MPI", "call", RTG_FIELDS_MPI)

enum rtg_kind {
  RTG_KIND_NONE = 0,
#define RTG_X_ENUM(K, p, k, FIELDS) RTG_KIND_##K,
  RTG_RECORD_KINDS(RTG_X_ENUM)
#undef RTG_X_ENUM
      RTG_KIND_COUNT
};

typedef struct rtg_dim3 {
  uint32_t x, y, z;
} rtg_dim3;

/* One C struct per kind, members in line order. */
#define RTG_CTYPE_u64 uint64_t
#define RTG_CTYPE_i64 int64_t
#define RTG_CTYPE_str const char *
#define RTG_CTYPE_dim3 rtg_dim3
#define RTG_X_MEMBER(K, type, member, key, style, flags) RTG_CTYPE_##type member;
#define RTG_X_STRUCT(K, p, k, FIELDS)                                                              \
  typedef struct rtg_rec_##K {                                                                     \
    FIELDS(RTG_X_MEMBER, K)                                                                        \
  } rtg_rec_##K;
RTG_RECORD_KINDS(RTG_X_STRUCT)
#undef RTG_X_STRUCT

/* A decoded record.  Strings point into the parsed line (valid until the
 * line buffer is reused) or, for the writer, into the caller's memory. */
typedef struct rtg_record {
  enum rtg_kind kind;
  uint32_t pid;
  uint64_t tid;
  uint64_t present; /* bit i: field i of this kind was on the line */
  /* bit i: string field i is written as it is, unscanned: its producer made
   * it and vouches that it holds nothing its style would escape, replace or
   * balance (the tracer's own names and numbers).  Only the writer reads
   * it; the parser leaves it 0. */
  uint64_t clean;
  union {
#define RTG_X_UNION(K, p, k, FIELDS) rtg_rec_##K K;
    RTG_RECORD_KINDS(RTG_X_UNION)
#undef RTG_X_UNION
  } u;
} rtg_record;

/* Field i of kind k: present in r? (Fields are numbered in line order.) */
#define RTG_HAS(r, i) (((r)->present >> (i)) & 1u)

/* Index of a member within its kind: RTG_FIELD(DISPATCH, corr). */
#define RTG_FIELD(K, member) RTG_FIELD_##K##_##member
#define RTG_X_FIDX(K, t, m, ...) RTG_FIELD_##K##_##m,
#define RTG_X_FIDX_ENUM(K, p, k, FIELDS) enum { FIELDS(RTG_X_FIDX, K) RTG_NFIELDS_##K };
RTG_RECORD_KINDS(RTG_X_FIDX_ENUM)
#undef RTG_X_FIDX_ENUM

/* Mark a field present when building a record to write. */
#define RTG_SET(r, K, member, value)                                                               \
  do {                                                                                             \
    (r)->u.K.member = (value);                                                                     \
    (r)->present |= 1ull << RTG_FIELD(K, member);                                                  \
  } while (0)

/* Mark string fields clean (see rtg_record.clean): RTG_CLEAN(r, K, func). */
#define RTG_CLEAN(r, K, member) ((r)->clean |= 1ull << RTG_FIELD(K, member))

/* Start a record of kind K with every REQ field marked present. */
void rtg_record_init(rtg_record *r, enum rtg_kind kind, uint32_t pid, uint64_t tid);

/* Format r as one line ending in '\n' into buf.  Never calls stdio or
 * malloc, so the tracer can use it on any thread and in signal handlers.
 * Returns the length, or 0 if buf (cap bytes) is too small. */
size_t rtg_record_format(char *buf, size_t cap, const rtg_record *r);

/* Parse one line (no trailing '\n' needed; the line is modified in place to
 * unescape strings).  Returns the kind, or RTG_KIND_NONE for a line that is
 * not an rtg record (then *why, if given, says what was wrong, or NULL for a
 * line that is simply foreign, such as application output).  The fields of
 * the returned kind that the line lacks are 0; the rest of r->u is not
 * written. */
enum rtg_kind rtg_record_parse(char *line, size_t len, rtg_record *r, const char **why);

/* The same for a line the caller knows to hold no NUL byte (it looked at a
 * whole buffer at once): the parser does not look again. */
enum rtg_kind rtg_record_parse_nul_free(char *line, size_t len, rtg_record *r, const char **why);

/* Name of a kind ("dispatch", "hsa_api", ...) for messages and statistics. */
const char *rtg_kind_name(enum rtg_kind kind);

#endif
