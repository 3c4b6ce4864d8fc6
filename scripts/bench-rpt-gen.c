/* Synthetic input for scripts/bench-rpt.sh: N GPU commands on 4 GPUs (2
 * queues each) and copies, as an HCC_PROFILE=2 log (profile: lines through
 * the shared writer, with a line of application text every 100 commands)
 * or as an rtg trace (records through rtg_record_format, with an API call
 * every 10 commands).  Start times are slightly out of order, as in real
 * logs written at completion, so the sort has work to do.
 *   bench-rpt-gen N profile|trace > file */
#include "hcc_profile.h"
#include "rtg/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kernels[] = {
    "__amd_rocclr_fillBuffer.kd",
    "__amd_rocclr_copyBuffer.kd",
    "_Z13gemm_kernel_fPfS_S_iii.kd",
    "_Z6reducePKfPfi.kd",
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEEEEviT0_T1_.kd",
    "_Z10layer_normPKfPfS1_S1_ii.kd",
    "_Z7softmaxPfi.kd",
    "_Z4vaddPKfS0_Pfi.kd",
};
static const char *const dirs[] = {"HostToDevice", "DeviceToHost", "DeviceToDevice"};

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(unsigned n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (unsigned)(rng % n);
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "profile") && strcmp(argv[2], "trace"))) {
    fprintf(stderr, "usage: bench-rpt-gen N profile|trace\n");
    return 2;
  }
  unsigned long long n = strtoull(argv[1], NULL, 10);
  int trace = !strcmp(argv[2], "trace");
  static char out[1 << 16];
  setvbuf(stdout, out, _IOFBF, sizeof out);
  char line[1024], extra[160];
  unsigned long long t = 1000000000000ull, seq[8] = {0};
  if (trace) {
    rtg_record r;
    for (unsigned a = 0; a < 5; a++) {
      rtg_record_init(&r, RTG_KIND_AGENT, 4242, 4242);
      r.u.AGENT.index = a;
      r.u.AGENT.type = a ? "gpu" : "cpu";
      RTG_SET(&r, AGENT, handle, 94000000ull + a * 100000);
      fwrite(line, 1, rtg_record_format(line, sizeof line, &r), stdout);
    }
  }
  for (unsigned long long i = 0; i < n; i++) {
    unsigned dev = rnd(4), q = rnd(2), kind = rnd(100);
    /* a start a little before the previous one now and then */
    unsigned long long start = t - (rnd(8) == 0 ? rnd(3000) : 0), dur = 1000 + rnd(50000);
    t += 500 + rnd(20000);
    if (trace) {
      rtg_record r;
      size_t len;
      if (kind < 5) {
        rtg_record_init(&r, RTG_KIND_COPY, 4242, 4243);
        r.u.COPY.agent = 0;
        r.u.COPY.start = start;
        r.u.COPY.stop = start + dur;
        RTG_SET(&r, COPY, bytes, 4096ull << rnd(10));
        RTG_SET(&r, COPY, kind, (char *)dirs[rnd(3)]);
      } else if (kind < 20) {
        rtg_record_init(&r, RTG_KIND_BARRIER, 4242, 4243);
        r.u.BARRIER.queue = dev * 2 + q;
        r.u.BARRIER.agent = dev + 1;
        r.u.BARRIER.start = start;
        r.u.BARRIER.stop = start + dur / 20;
        r.u.BARRIER.id = seq[dev * 2 + q]++;
      } else {
        rtg_record_init(&r, RTG_KIND_DISPATCH, 4242, 4243);
        r.u.DISPATCH.queue = dev * 2 + q;
        r.u.DISPATCH.agent = dev + 1;
        r.u.DISPATCH.signal = 140000000000ull + i % 64;
        r.u.DISPATCH.name = kernels[rnd(8)];
        r.u.DISPATCH.start = start;
        r.u.DISPATCH.stop = start + dur;
        r.u.DISPATCH.id = seq[dev * 2 + q]++;
      }
      len = rtg_record_format(line, sizeof line, &r);
      fwrite(line, 1, len, stdout);
      if (i % 10 == 0)
        printf("HIP: pid:4242 tid:4242 hipLaunchKernel ret=0 @%llu +%u\n", start - 2000,
               1500 + rnd(900));
    } else {
      size_t len;
      if (kind < 5) {
        unsigned long long bytes = 4096ull << rnd(10);
        rtg_hcc_profile_copy_extra(extra, sizeof extra, bytes, start, start + dur);
        len = rtg_hcc_profile_format(line, sizeof line, "copy", dirs[rnd(3)], start, start + dur,
                                     dev, 0, seq[7]++, extra);
      } else if (kind < 20) {
        len = rtg_hcc_profile_format(line, sizeof line, "barrier", "", start, start + dur / 20, dev,
                                     q, seq[dev * 2 + q]++, NULL);
      } else {
        len = rtg_hcc_profile_format(line, sizeof line, "kernel", kernels[rnd(8)], start,
                                     start + dur, dev, q, seq[dev * 2 + q]++, NULL);
      }
      fwrite(line, 1, len, stdout);
      if (i % 100 == 0) printf("iteration %llu: loss=%.4f\n", i / 100, 1.0 / (double)(i + 1));
    }
  }
  return fflush(stdout) ? 1 : 0;
}
