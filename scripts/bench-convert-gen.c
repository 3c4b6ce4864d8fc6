/* Synthetic rtg trace for rtg-convert's benchmark and tests: HIP launches
 * with their kernels (correlated), copies with their hipMemcpyAsync, HSA
 * calls, ROCTx ranges and markers, random gaps and overlapping queues.
 * Written with the record writer, so it is exactly what a tracer writes.
 *   bench-convert-gen BYTES [SEED [PROCESSES [hsa]]] > trace.txt
 *   bench-convert-gen ranks DIR RANKS HOSTS EVENTS [SEED]
 * "hsa": a trace dominated by HSA API records, as an HSA program traced
 * with RTG_HSA_API_FILTER=all writes it (a kernel per 24 calls; the
 * arguments name a few queues, signals and pools, as real ones do).
 * "ranks": an MPI job's traces, one file per rank (DIR/rtg_trace.txt.HOST.RANK,
 * EVENTS records each), the ranks dealt round-robin over HOSTS hosts
 * (node0, node1, ...) whose boot clocks differ by minutes, each header and
 * summary with its clock pair, the wall clocks in agreement.
 * Deterministic for a seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtg/record.h"

static uint64_t rng;
static uint64_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

static char buf[1 << 16];
static uint64_t written, records;
static FILE *out;
static void emit(const rtg_record *r) {
  size_t n = rtg_record_format(buf, sizeof buf, r);
  fwrite(buf, 1, n, out);
  written += n;
  records++;
}

static char names[64][128];

/* One process: host, rank (NULL: none) and its clocks; records until
 * stop_bytes bytes were written in all, or stop_records records. */
typedef struct proc_spec {
  uint32_t pid;
  const char *host, *rank;
  uint64_t t0;                 /* its boot clock at its start */
  int64_t realtime_minus_boot; /* 0: no clock pairs */
  uint64_t stop_bytes, stop_records;
  int hsa_mix;
} proc_spec;

static int more(const proc_spec *ps) {
  return ps->stop_records ? records < ps->stop_records : written < ps->stop_bytes;
}

static void gen_proc(const proc_spec *ps) {
  {
    uint32_t pid = ps->pid;
    int hsa_mix = ps->hsa_mix;
    uint64_t tid = pid, gtid = pid + 1;
    uint64_t t = ps->t0, gpu = t; /* host clock, GPU clock */
    uint64_t corr = 0, id = 0;
    rtg_record r;
    rtg_record_init(&r, RTG_KIND_HEADER, pid, tid);
    r.u.HEADER.format = RTG_FORMAT_VERSION;
    r.u.HEADER.host = ps->host;
    r.u.HEADER.clock = "CLOCK_BOOTTIME";
    if (ps->rank) RTG_SET(&r, HEADER, rank, ps->rank);
    if (ps->realtime_minus_boot) {
      RTG_SET(&r, HEADER, boot_ns, t);
      RTG_SET(&r, HEADER, realtime_ns, (uint64_t)((int64_t)t + ps->realtime_minus_boot));
      RTG_SET(&r, HEADER, realtime_err, 200);
    }
    emit(&r);
    rtg_record_init(&r, RTG_KIND_AGENT, pid, tid);
    r.u.AGENT.index = 1;
    r.u.AGENT.type = "gpu";
    RTG_SET(&r, AGENT, name, "gfx90a");
    emit(&r);
    uint64_t iter = 0;
    while (hsa_mix && more(ps)) {
      static const char *const calls[][2] = {
          {"hsa_signal_store_relaxed", "signal=0x7f316ce8%04llx, value=%llu"},
          {"hsa_signal_load_scacquire", "signal=0x7f316ce8%04llx"},
          {"hsa_queue_load_read_index_scacquire", "queue=0x7f316ce8%04llx"},
          {"hsa_queue_add_write_index_relaxed", "queue=0x7f316ce8%04llx, value=%llu"},
          {"hsa_signal_wait_scacquire",
           "signal=0x7f316ce8%04llx, condition=HSA_SIGNAL_CONDITION_LT, compare_value=%llu, "
           "timeout_hint=18446744073709551615, wait_state_hint=HSA_WAIT_STATE_BLOCKED"},
          {"hsa_amd_memory_pool_get_info",
           "memory_pool=0x55fd462a%04llx, attribute=HSA_AMD_MEMORY_POOL_INFO_SEGMENT, "
           "value=0x7ffe4d82%04llx"},
      };
      char args[256];
      iter++;
      for (int i = 0; i < 24; i++) {
        int c = (int)(rnd() % 6);
        snprintf(args, sizeof args, calls[c][1], (unsigned long long)(rnd() % 8) * 0x80,
                 (unsigned long long)(c == 5 ? 0x6054 : rnd() % 4));
        rtg_record_init(&r, RTG_KIND_HSA_API, pid, tid);
        r.u.HSA_API.func = calls[c][0];
        r.u.HSA_API.args = args;
        r.u.HSA_API.ret = "0";
        r.u.HSA_API.start = t + 50;
        r.u.HSA_API.dur = 30 + rnd() % 2000;
        t += 100 + r.u.HSA_API.dur;
        emit(&r);
      }
      uint64_t ks = (gpu > t ? gpu : t) + rnd() % 3000, kd = 1000 + rnd() % 20000;
      gpu = ks + kd;
      rtg_record_init(&r, RTG_KIND_DISPATCH, pid, gtid);
      r.u.DISPATCH.queue = 0;
      r.u.DISPATCH.agent = 1;
      r.u.DISPATCH.signal = 7;
      r.u.DISPATCH.name = names[rnd() % 64];
      r.u.DISPATCH.start = ks;
      r.u.DISPATCH.stop = ks + kd;
      r.u.DISPATCH.id = ++id;
      emit(&r);
    }
    while (more(ps)) {
      iter++;
      /* a launch: the call, then the kernel on one of 2 queues */
      uint64_t call = t + rnd() % 2000;
      uint64_t cdur = 2000 + rnd() % 3000;
      t = call + cdur;
      const char *kn = names[rnd() % 64];
      corr++;
      rtg_record_init(&r, RTG_KIND_HIP_API, pid, tid);
      r.u.HIP_API.func = "hipLaunchKernel";
      RTG_SET(&r, HIP_API, kernel, kn);
      r.u.HIP_API.ret = "0";
      r.u.HIP_API.start = call;
      r.u.HIP_API.dur = cdur;
      RTG_SET(&r, HIP_API, corr, corr);
      emit(&r);
      uint64_t gap = rnd() % 16 == 0 ? rnd() % 200000 : rnd() % 3000;
      uint64_t ks = (gpu > t ? gpu : t) + gap, kd = 1000 + rnd() % 20000;
      /* sometimes the other queue runs at the same time */
      int queue = rnd() % 8 == 0;
      if (!queue) gpu = ks + kd;
      rtg_record_init(&r, RTG_KIND_DISPATCH, pid, gtid);
      r.u.DISPATCH.queue = (uint64_t)queue;
      r.u.DISPATCH.agent = 1;
      r.u.DISPATCH.signal = 7;
      r.u.DISPATCH.name = kn;
      r.u.DISPATCH.start = ks;
      r.u.DISPATCH.stop = ks + kd;
      r.u.DISPATCH.id = ++id;
      RTG_SET(&r, DISPATCH, workgroup, ((rtg_dim3){256, 1, 1}));
      RTG_SET(&r, DISPATCH, grid, ((rtg_dim3){(uint32_t)(1024 << (iter % 5)), 1, 1}));
      RTG_SET(&r, DISPATCH, corr, corr);
      emit(&r);
      if (iter % 8 == 0) { /* an async copy and its call */
        corr++;
        uint64_t cs = t + 500, cl = 3000 + rnd() % 10000;
        rtg_record_init(&r, RTG_KIND_HIP_API, pid, tid);
        r.u.HIP_API.func = "hipMemcpyAsync";
        RTG_SET(&r, HIP_API, args, "dst=0x7f00, src=0x5500, size=65536, kind=1");
        r.u.HIP_API.ret = "0";
        r.u.HIP_API.start = t;
        r.u.HIP_API.dur = 400;
        RTG_SET(&r, HIP_API, corr, corr);
        emit(&r);
        rtg_record_init(&r, RTG_KIND_COPY, pid, gtid);
        r.u.COPY.agent = 1;
        r.u.COPY.signal = 9;
        r.u.COPY.start = cs;
        r.u.COPY.stop = cs + cl;
        RTG_SET(&r, COPY, bytes, 65536);
        RTG_SET(&r, COPY, kind, iter % 16 ? "HostToDevice" : "DeviceToHost");
        RTG_SET(&r, COPY, engine, iter % 3);
        RTG_SET(&r, COPY, corr, corr);
        emit(&r);
      }
      if (iter % 4 == 0) { /* an HSA call */
        rtg_record_init(&r, RTG_KIND_HSA_API, pid, tid);
        r.u.HSA_API.func =
            iter % 8 ? "hsa_signal_wait_scacquire" : "hsa_queue_load_read_index_relaxed";
        r.u.HSA_API.args = "signal_123, 2, 1, 18446744073709551615, 1";
        r.u.HSA_API.ret = "0";
        r.u.HSA_API.start = t + 10;
        r.u.HSA_API.dur = 300 + rnd() % 500;
        emit(&r);
        t += 900;
      }
      if (iter % 64 == 0) { /* a ROCTx range around the last launches, and a marker */
        rtg_record_init(&r, RTG_KIND_ROCTX, pid, tid);
        r.u.ROCTX.op = "push";
        r.u.ROCTX.start = call - 1;
        r.u.ROCTX.stop = t + 1;
        RTG_SET(&r, ROCTX, message, iter % 128 ? "step" : "step \"checkpoint\"");
        emit(&r);
        rtg_record_init(&r, RTG_KIND_ROCTX, pid, tid);
        r.u.ROCTX.op = "mark";
        r.u.ROCTX.start = r.u.ROCTX.stop = t + 2;
        RTG_SET(&r, ROCTX, message, "mark");
        emit(&r);
        t += 3;
      }
    }
    rtg_record_init(&r, RTG_KIND_SUMMARY, pid, tid);
    if (ps->realtime_minus_boot) {
      uint64_t end = (gpu > t ? gpu : t) + 1000;
      RTG_SET(&r, SUMMARY, boot_ns, end);
      RTG_SET(&r, SUMMARY, realtime_ns, (uint64_t)((int64_t)end + ps->realtime_minus_boot));
      RTG_SET(&r, SUMMARY, realtime_err, 200);
    }
    emit(&r);
  }
}

/* ranks DIR RANKS HOSTS EVENTS [SEED] */
static int gen_ranks(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s ranks DIR RANKS HOSTS EVENTS [SEED]\n", argv[0]);
    return 2;
  }
  const char *dir = argv[2];
  int nranks = atoi(argv[3]), nhosts = atoi(argv[4]);
  uint64_t events = strtoull(argv[5], NULL, 10);
  rng = argc > 6 ? strtoull(argv[6], NULL, 10) * 2654435761u + 1 : 88172645463325252ull;
  if (nranks < 1 || nhosts < 1 || !events) return 2;
  const uint64_t wall0 = 1764000000ull * 1000000000ull; /* the job's start, wall clock */
  for (int k = 0; k < nranks; k++) {
    int h = k % nhosts;
    char host[32], rank[16], path[4096];
    snprintf(host, sizeof host, "node%d", h);
    snprintf(rank, sizeof rank, "%d", k);
    snprintf(path, sizeof path, "%s/rtg_trace.txt.%s.%d", dir, host, k);
    out = fopen(path, "w");
    if (!out) {
      perror(path);
      return 1;
    }
    /* host h booted 1000 + 97 h s before the job; its ranks start 0..1 ms apart */
    uint64_t boot_at_start = (1000ull + 97ull * (uint64_t)h) * 1000000000ull;
    uint64_t t0 = boot_at_start + (uint64_t)(k / nhosts) * 1000u;
    proc_spec ps = {.pid = 1000 + (uint32_t)(k / nhosts),
                    .host = host,
                    .rank = rank,
                    .t0 = t0,
                    .realtime_minus_boot = (int64_t)(wall0 - boot_at_start)};
    records = 0;
    ps.stop_records = events - 1; /* (the summary is the last) */
    gen_proc(&ps);
    if (fclose(out)) {
      perror(path);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s BYTES [SEED [PROCESSES [hsa]]]\n", argv[0]);
    return 2;
  }
  for (int i = 0; i < 64; i++)
    snprintf(names[i], sizeof names[i], "void kernel_%d<float, %d>(float*, int)", i, i % 7);
  if (!strcmp(argv[1], "ranks")) return gen_ranks(argc, argv);
  out = stdout;
  uint64_t target = strtoull(argv[1], NULL, 10);
  rng = argc > 2 ? strtoull(argv[2], NULL, 10) * 2654435761u + 1 : 88172645463325252ull;
  int nproc = argc > 3 ? atoi(argv[3]) : 1;
  if (nproc < 1) nproc = 1;
  uint64_t per_proc = target / (uint64_t)nproc;
  for (int p = 0; p < nproc; p++) {
    proc_spec ps = {.pid = 1000 + (uint32_t)p,
                    .host = "bench",
                    .t0 = 1000000000ull,
                    .stop_bytes = written + per_proc,
                    .hsa_mix = argc > 4 && !strcmp(argv[4], "hsa")};
    gen_proc(&ps);
  }
  return 0;
}
