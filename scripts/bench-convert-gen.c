/* Synthetic rtg trace for rtg-convert's benchmark and tests: HIP launches
 * with their kernels (correlated), copies with their hipMemcpyAsync, HSA
 * calls, ROCTx ranges and markers, random gaps and overlapping queues.
 * Written with the record writer, so it is exactly what a tracer writes.
 *   bench-convert-gen BYTES [SEED [PROCESSES [hsa]]] > trace.txt
 * "hsa": a trace dominated by HSA API records, as an HSA program traced
 * with RTG_HSA_API_FILTER=all writes it (a kernel per 24 calls; the
 * arguments name a few queues, signals and pools, as real ones do).
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
static uint64_t written;
static void emit(const rtg_record *r) {
  size_t n = rtg_record_format(buf, sizeof buf, r);
  fwrite(buf, 1, n, stdout);
  written += n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s BYTES [SEED [PROCESSES]]\n", argv[0]);
    return 2;
  }
  uint64_t target = strtoull(argv[1], NULL, 10);
  rng = argc > 2 ? strtoull(argv[2], NULL, 10) * 2654435761u + 1 : 88172645463325252ull;
  int nproc = argc > 3 ? atoi(argv[3]) : 1;
  if (nproc < 1) nproc = 1;
  int hsa_mix = argc > 4 && !strcmp(argv[4], "hsa");
  static char names[64][128];
  for (int i = 0; i < 64; i++)
    snprintf(names[i], sizeof names[i], "void kernel_%d<float, %d>(float*, int)", i, i % 7);
  uint64_t per_proc = target / (uint64_t)nproc;
  for (int p = 0; p < nproc; p++) {
    uint32_t pid = 1000 + (uint32_t)p;
    uint64_t tid = pid, gtid = pid + 1;
    uint64_t t = 1000000000ull, gpu = t; /* host clock, GPU clock */
    uint64_t corr = 0, id = 0, stop_at = written + per_proc;
    rtg_record r;
    rtg_record_init(&r, RTG_KIND_HEADER, pid, tid);
    r.u.HEADER.format = RTG_FORMAT_VERSION;
    r.u.HEADER.host = "bench";
    r.u.HEADER.clock = "CLOCK_BOOTTIME";
    emit(&r);
    rtg_record_init(&r, RTG_KIND_AGENT, pid, tid);
    r.u.AGENT.index = 1;
    r.u.AGENT.type = "gpu";
    RTG_SET(&r, AGENT, name, "gfx90a");
    emit(&r);
    uint64_t iter = 0;
    while (hsa_mix && written < stop_at) {
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
    while (written < stop_at) {
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
    emit(&r);
  }
  return 0;
}
