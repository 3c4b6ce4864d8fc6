/* Round trip of every record kind through rtg_record_format and
 * rtg_record_parse, the original tracer's exact lines, and bad lines. */
#include "check.h"
#include "rtg/record.h"

#include <stdlib.h>
#include <string.h>

static char line[4096];

static enum rtg_kind roundtrip(const rtg_record *in, rtg_record *out) {
  size_t n = rtg_record_format(line, sizeof line, in);
  CHECK(n > 0 && line[n - 1] == '\n');
  return rtg_record_parse(line, n, out, NULL);
}

static void test_dispatch(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_DISPATCH, 4242, 77);
  r.u.DISPATCH.queue = 1;
  r.u.DISPATCH.agent = 2;
  r.u.DISPATCH.signal = 123456789;
  r.u.DISPATCH.name = "_Z4vaddPKfS0_Pfi.kd";
  r.u.DISPATCH.start = 1000;
  r.u.DISPATCH.stop = 21000;
  r.u.DISPATCH.id = 7;
  RTG_SET(&r, DISPATCH, grid, ((rtg_dim3){256, 1, 1}));
  RTG_SET(&r, DISPATCH, corr, 99);
  RTG_SET(&r, DISPATCH, demangled, "vadd(float const*, float const*, float*, int)");
  CHECK(roundtrip(&r, &p) == RTG_KIND_DISPATCH);
  CHECK_U64(p.pid, 4242);
  CHECK_U64(p.tid, 77);
  CHECK_STR(p.u.DISPATCH.name, "_Z4vaddPKfS0_Pfi.kd");
  CHECK_U64(p.u.DISPATCH.stop - p.u.DISPATCH.start, 20000);
  CHECK(RTG_HAS(&p, RTG_FIELD(DISPATCH, corr)) && p.u.DISPATCH.corr == 99);
  CHECK(RTG_HAS(&p, RTG_FIELD(DISPATCH, grid)) && p.u.DISPATCH.grid.x == 256);
  CHECK(!RTG_HAS(&p, RTG_FIELD(DISPATCH, workgroup)));
  CHECK_STR(p.u.DISPATCH.demangled, "vadd(float const*, float const*, float*, int)");
  CHECK_U64(p.present, r.present);
}

/* An MPI call: every field, negative peers and roots, the exact line, and
 * a line of another prefix that starts with M is still foreign text. */
static void test_mpi(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_MPI, 7, 8);
  r.u.MPI.func = "MPI_Allreduce";
  r.u.MPI.start = 1000;
  r.u.MPI.dur = 250;
  RTG_SET(&r, MPI, ret, 0);
  RTG_SET(&r, MPI, comm, "0.8.0");
  RTG_SET(&r, MPI, size, 8);
  RTG_SET(&r, MPI, rank, 3);
  RTG_SET(&r, MPI, bytes, 4096);
  RTG_SET(&r, MPI, seq, 12);
  size_t n = rtg_record_format(line, sizeof line, &r);
  CHECK(n > 0);
  CHECK_STR(line, "MPI: pid:7 tid:8 call func:MPI_Allreduce start:1000 dur:250 ret:0 comm:0.8.0 "
                  "size:8 rank:3 bytes:4096 seq:12\n");
  CHECK(roundtrip(&r, &p) == RTG_KIND_MPI);
  CHECK_STR(p.u.MPI.func, "MPI_Allreduce");
  CHECK_STR(p.u.MPI.comm, "0.8.0");
  CHECK_U64(p.u.MPI.seq, 12);
  CHECK_U64(p.u.MPI.bytes, 4096);
  CHECK_U64(p.present, r.present);
  rtg_record_init(&r, RTG_KIND_MPI, 7, 8);
  r.u.MPI.func = "MPI_Irecv";
  RTG_SET(&r, MPI, peer, -1);
  RTG_SET(&r, MPI, root, -4);
  RTG_SET(&r, MPI, req, 140000000000000ull);
  RTG_SET(&r, MPI, nreq, 3);
  RTG_SET(&r, MPI, done, 1);
  CHECK(roundtrip(&r, &p) == RTG_KIND_MPI);
  CHECK(p.u.MPI.peer == -1 && p.u.MPI.root == -4);
  CHECK_U64(p.u.MPI.req, 140000000000000ull);
  CHECK_U64(p.u.MPI.nreq, 3);
  CHECK_U64(p.present, r.present);
  char bad[] = "MPI: pid:1 tid:1 call start:1 dur:2";
  const char *why = NULL;
  CHECK(rtg_record_parse(bad, strlen(bad), &p, &why) == RTG_KIND_NONE && why);
  char foreign[] = "MPICH says hello";
  CHECK(rtg_record_parse(foreign, strlen(foreign), &p, &why) == RTG_KIND_NONE && !why);
}

static void test_strings_escaped(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_ROCTX, 1, 1);
  r.u.ROCTX.op = "push";
  r.u.ROCTX.start = 5;
  r.u.ROCTX.stop = 6;
  RTG_SET(&r, ROCTX, message, "it's a \\ \"range\"\n\twith\x01 ctl and UTF-8 \xc3\xa9");
  size_t n = rtg_record_format(line, sizeof line, &r);
  CHECK(strchr(line, '\n') == line + n - 1); /* one line */
  CHECK(roundtrip(&r, &p) == RTG_KIND_ROCTX);
  CHECK_STR(p.u.ROCTX.message, "it's a \\ \"range\"\n\twith\x01 ctl and UTF-8 \xc3\xa9");
}

/* A range still open at exit: unclosed:1 after the older fields, which a
 * reader that does not know the key skips. */
static void test_roctx_unclosed(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_ROCTX, 3, 4);
  r.u.ROCTX.op = "push";
  r.u.ROCTX.start = 100;
  r.u.ROCTX.stop = 250;
  RTG_SET(&r, ROCTX, depth, 0);
  RTG_SET(&r, ROCTX, message, "outer");
  RTG_SET(&r, ROCTX, unclosed, 1);
  rtg_record_format(line, sizeof line, &r);
  CHECK(strstr(line, " message:'outer' unclosed:1\n") != NULL);
  CHECK(roundtrip(&r, &p) == RTG_KIND_ROCTX); /* (the parser works in place) */
  CHECK(RTG_HAS(&p, RTG_FIELD(ROCTX, unclosed)) && p.u.ROCTX.unclosed == 1);
  CHECK_U64(p.u.ROCTX.stop, 250);
  CHECK_U64(p.present, r.present);
  char old[] = "ROCTX: pid:3 tid:4 op:push start:1 stop:2 depth:0 message:'m'";
  CHECK(rtg_record_parse(old, strlen(old), &p, NULL) == RTG_KIND_ROCTX);
  CHECK(!RTG_HAS(&p, RTG_FIELD(ROCTX, unclosed)));
}

static void test_api(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_HSA_API, 10, 11);
  r.u.HSA_API.func = "hsa_signal_create";
  r.u.HSA_API.args = "initial_value=1, num_consumers=0, consumers=0, signal=0x7ffd) ret=(0";
  r.u.HSA_API.ret = "0";
  r.u.HSA_API.start = 123;
  r.u.HSA_API.dur = 45;
  RTG_SET(&r, HSA_API, corr, 3);
  CHECK(roundtrip(&r, &p) == RTG_KIND_HSA_API);
  CHECK_STR(p.u.HSA_API.func, "hsa_signal_create");
  CHECK_STR(p.u.HSA_API.args, r.u.HSA_API.args);
  CHECK_STR(p.u.HSA_API.ret, "0");
  CHECK_U64(p.u.HSA_API.start, 123);
  CHECK_U64(p.u.HSA_API.dur, 45);
  CHECK_U64(p.u.HSA_API.corr, 3);

  rtg_record_init(&r, RTG_KIND_HIP_API, 10, 12);
  r.u.HIP_API.func = "hipLaunchKernel";
  RTG_SET(&r, HIP_API, args, "stream=0x0, grid={1,1,1}");
  RTG_SET(&r, HIP_API, kernel, "vadd(float*, int) [clone .kd]");
  r.u.HIP_API.ret = "0";
  r.u.HIP_API.start = 1;
  r.u.HIP_API.dur = 2;
  RTG_SET(&r, HIP_API, corr, 8);
  CHECK(roundtrip(&r, &p) == RTG_KIND_HIP_API);
  CHECK_STR(p.u.HIP_API.func, "hipLaunchKernel");
  CHECK_STR(p.u.HIP_API.args, "stream=0x0, grid={1,1,1}");
  CHECK_STR(p.u.HIP_API.kernel, "vadd(float*, int) [clone .kd]");
  CHECK_U64(p.u.HIP_API.corr, 8);

  rtg_record_init(&r, RTG_KIND_HIP_API, 10, 12);
  r.u.HIP_API.func = "hipDeviceSynchronize";
  r.u.HIP_API.ret = "0";
  CHECK(roundtrip(&r, &p) == RTG_KIND_HIP_API);
  CHECK(!RTG_HAS(&p, RTG_FIELD(HIP_API, args)) && !RTG_HAS(&p, RTG_FIELD(HIP_API, kernel)));
}

/* A memory record (an allocation, its fields in line order) goes through
 * the one definition both ways; a free without size or agent stays so. */
static void test_memory(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_MEMORY, 7, 8);
  r.u.MEMORY.op = "alloc";
  r.u.MEMORY.start = 100;
  r.u.MEMORY.stop = 150;
  r.u.MEMORY.addr = 140737488355328ull;
  RTG_SET(&r, MEMORY, size, 1048576);
  RTG_SET(&r, MEMORY, agent, 1);
  RTG_SET(&r, MEMORY, kind, "device");
  RTG_SET(&r, MEMORY, api, "hsa_amd_memory_pool_allocate");
  RTG_SET(&r, MEMORY, corr, 12);
  RTG_SET(&r, MEMORY, pool, 99);
  rtg_record_format(line, sizeof line, &r);
  CHECK_STR(line, "RTG: pid:7 tid:8 memory op:alloc start:100 stop:150 addr:140737488355328"
                  " size:1048576 agent:1 kind:device api:hsa_amd_memory_pool_allocate corr:12"
                  " pool:99\n");
  CHECK(roundtrip(&r, &p) == RTG_KIND_MEMORY);
  CHECK_STR(p.u.MEMORY.op, "alloc");
  CHECK_U64(p.u.MEMORY.addr, 140737488355328ull);
  CHECK_U64(p.u.MEMORY.size, 1048576);
  CHECK_U64(p.u.MEMORY.agent, 1);
  CHECK_STR(p.u.MEMORY.kind, "device");
  CHECK_U64(p.u.MEMORY.corr, 12);
  CHECK_U64(p.present, r.present);
  char free_line[] = "RTG: pid:7 tid:8 memory op:free start:200 stop:210 addr:4096";
  CHECK(rtg_record_parse(free_line, strlen(free_line), &p, NULL) == RTG_KIND_MEMORY);
  CHECK_STR(p.u.MEMORY.op, "free");
  CHECK_U64(p.u.MEMORY.addr, 4096);
  CHECK(!RTG_HAS(&p, RTG_FIELD(MEMORY, size)) && !RTG_HAS(&p, RTG_FIELD(MEMORY, agent)));
}

/* A record of repeated HSA calls (polls:, last:, last_dur:, busy:, after
 * corr:) goes through the one definition both ways; a line of the
 * tracer's as it writes one parses into the same fields; without them the
 * record is a single call, as before. */
static void test_api_polls(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_HSA_API, 10, 11);
  r.u.HSA_API.func = "hsa_signal_load_relaxed";
  r.u.HSA_API.args = "signal=0x7f2453168e80";
  r.u.HSA_API.ret = "1";
  r.u.HSA_API.start = 1000;
  r.u.HSA_API.dur = 40;
  RTG_SET(&r, HSA_API, corr, 7);
  RTG_SET(&r, HSA_API, polls, 100000);
  RTG_SET(&r, HSA_API, last, 9000000);
  RTG_SET(&r, HSA_API, last_dur, 30);
  RTG_SET(&r, HSA_API, busy, 3500000);
  char text[256];
  CHECK(rtg_record_format(text, sizeof text, &r) > 0);
  CHECK(strstr(text,
               " ret=1 @1000 +40 corr:7 polls:100000 last:9000000 last_dur:30 busy:3500000\n") !=
        NULL);
  CHECK(roundtrip(&r, &p) == RTG_KIND_HSA_API);
  CHECK_U64(p.present, r.present);
  CHECK_U64(p.u.HSA_API.start, 1000);
  CHECK_U64(p.u.HSA_API.dur, 40);
  CHECK_U64(p.u.HSA_API.corr, 7);
  CHECK_U64(p.u.HSA_API.polls, 100000);
  CHECK_U64(p.u.HSA_API.last, 9000000);
  CHECK_U64(p.u.HSA_API.last_dur, 30);
  CHECK_U64(p.u.HSA_API.busy, 3500000);

  char l[] =
      "HSA: pid:5 tid:6 hsa_signal_wait_scacquire (signal=0x7f00, condition=HSA_SIGNAL_"
      "CONDITION_LT, compare_value=1, timeout_hint=10000, wait_state_hint=HSA_WAIT_STATE_"
      "ACTIVE) ret=1 @2291993945167 +410 polls:5000 last:2291994203964 last_dur:0 busy:47540";
  CHECK(rtg_record_parse(l, strlen(l), &p, NULL) == RTG_KIND_HSA_API);
  CHECK_STR(p.u.HSA_API.ret, "1");
  CHECK(!RTG_HAS(&p, RTG_FIELD(HSA_API, corr)));
  CHECK(RTG_HAS(&p, RTG_FIELD(HSA_API, polls)) && RTG_HAS(&p, RTG_FIELD(HSA_API, busy)));
  CHECK_U64(p.u.HSA_API.polls, 5000);
  CHECK_U64(p.u.HSA_API.last, 2291994203964ull);
  CHECK_U64(p.u.HSA_API.last_dur, 0);
  CHECK_U64(p.u.HSA_API.busy, 47540);

  char one[] = "HSA: pid:5 tid:6 hsa_signal_load_relaxed (signal=0x7f00) ret=1 @5 +6";
  CHECK(rtg_record_parse(one, strlen(one), &p, NULL) == RTG_KIND_HSA_API);
  CHECK(!RTG_HAS(&p, RTG_FIELD(HSA_API, polls)) && !RTG_HAS(&p, RTG_FIELD(HSA_API, last)));
  CHECK_U64(p.u.HSA_API.polls, 0);
}

/* Function names and argument lists are scanned several bytes a step: a
 * byte a token cannot hold (controls, space, DEL), or a line break in the
 * arguments, is caught at every position of every length up to 40, among
 * bytes that are fine (UTF-8 above 0x7f, '!' just above space, '~' just
 * below DEL), and written as a byte-by-byte writer would. */
static void test_scans_every_position(void) {
  static const unsigned char bad_word[] = {' ', '\t', 1, 0x1f, 0x7f};
  static const unsigned char bad_raw[] = {'\n', '\r'};
  static const unsigned char good[] = {'a', '!', '~', 0x80, 0xff, 0xc3, '0'};
  int wrong = 0;
  for (size_t len = 1; len <= 40; len++)
    for (size_t at = 0; at <= len; at++) /* at == len: none bad */
      for (size_t b = 0; b < sizeof bad_word; b++) {
        char func[48], args[48], want_func[48], want_args[48];
        for (size_t i = 0; i < len; i++) {
          unsigned char g = good[(i + len) % sizeof good];
          func[i] = args[i] = want_func[i] = want_args[i] = (char)g;
        }
        func[len] = args[len] = want_func[len] = want_args[len] = 0;
        if (at < len) {
          func[at] = (char)bad_word[b];
          want_func[at] = '_';
          args[at] = (char)bad_raw[b % sizeof bad_raw];
          want_args[at] = ' ';
        }
        rtg_record r, p;
        rtg_record_init(&r, RTG_KIND_HSA_API, 1, 2);
        r.u.HSA_API.func = func;
        r.u.HSA_API.args = args;
        r.u.HSA_API.ret = "0";
        if (roundtrip(&r, &p) != RTG_KIND_HSA_API || strcmp(p.u.HSA_API.func, want_func) ||
            strcmp(p.u.HSA_API.args, want_args))
          wrong++;
      }
  CHECK(wrong == 0);
}

/* Every kind: a record with all fields set survives the round trip. */
static void test_all_kinds(void) {
  for (int k = 1; k < RTG_KIND_COUNT; k++) {
    rtg_record r, p;
    rtg_record_init(&r, (enum rtg_kind)k, 1, 2);
    r.present = ~0ull >> (64 - 40); /* more bits than fields: ignored */
    /* fill strings with something parseable */
    const char **s = (const char **)&r.u;
    for (size_t i = 0; i < sizeof r.u / sizeof *s; i++) s[i] = "x";
    size_t n = rtg_record_format(line, sizeof line, &r);
    (void)n;
    /* fields of non-string type now hold pointer bits: only check it parses */
    rtg_record_init(&r, (enum rtg_kind)k, 1, 2);
    for (size_t i = 0; i < sizeof r.u / sizeof *s; i++) s[i] = NULL;
    memset(&r.u, 0, sizeof r.u);
    switch (k) {
    case RTG_KIND_HEADER:
      r.u.HEADER.host = "h";
      r.u.HEADER.clock = "boottime";
      break;
    case RTG_KIND_AGENT:
      r.u.AGENT.type = "gpu";
      break;
    case RTG_KIND_STACK:
      r.u.STACK.pcs = "1,2,3";
      break;
    case RTG_KIND_SYMBOL:
      r.u.SYMBOL.name = "main";
      break;
    case RTG_KIND_KERNEL:
      r.u.KERNEL.name = "k";
      break;
    case RTG_KIND_DISPATCH_HOST:
      r.u.DISPATCH_HOST.name = "k";
      break;
    case RTG_KIND_DISPATCH:
      r.u.DISPATCH.name = "k";
      break;
    case RTG_KIND_HSA_API:
      r.u.HSA_API.func = "f";
      r.u.HSA_API.args = "";
      r.u.HSA_API.ret = "void";
      break;
    case RTG_KIND_HIP_API:
      r.u.HIP_API.func = "f";
      r.u.HIP_API.ret = "0";
      break;
    case RTG_KIND_ROCTX:
      r.u.ROCTX.op = "mark";
      break;
    case RTG_KIND_MEMORY:
      r.u.MEMORY.op = "alloc";
      break;
    case RTG_KIND_MPI:
      r.u.MPI.func = "MPI_Barrier";
      break;
    }
    enum rtg_kind got = roundtrip(&r, &p);
    if (got != (enum rtg_kind)k)
      fprintf(stderr, "kind %s: %s", rtg_kind_name((enum rtg_kind)k), line);
    CHECK(got == (enum rtg_kind)k);
    CHECK_U64(p.present, r.present);
  }
}

/* A string its producer vouches for (rtg_record.clean) is copied unscanned:
 * for text that needs no escaping the line is the same byte for byte, in
 * every kind and style (texts clean for all: no space), empty strings
 * included; the parser never sets it. */
static void test_clean_strings(void) {
  static const char *const texts[] = {
      "",  "x",    "hsa_signal_load_relaxed", "signal=0x7f31,value=3",
      "0", "void", "HSA_AGENT_INFO_NAME"};
  char plain[4096];
  for (int k = 1; k < RTG_KIND_COUNT; k++)
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
      rtg_record r, p;
      rtg_record_init(&r, (enum rtg_kind)k, 1, 2);
      r.present = ~0ull >> (64 - 40);
      const char **s = (const char **)&r.u;
      for (size_t i = 0; i < sizeof r.u / sizeof *s; i++) s[i] = texts[(t + i) % 7];
      size_t n = rtg_record_format(plain, sizeof plain, &r);
      r.clean = ~0ull;
      size_t m = rtg_record_format(line, sizeof line, &r);
      if (n != m || memcmp(plain, line, n))
        fprintf(stderr, "kind %s clean:\n  %s  %s", rtg_kind_name((enum rtg_kind)k), plain, line);
      CHECK(n == m && memcmp(plain, line, n) == 0);
      rtg_record_parse(line, m, &p, NULL);
      CHECK_U64(p.clean, 0);
    }
}

/* A kernel's resources (a KERNEL record) and a dispatch naming its kernel
 * by kernel_id: every field survives the round trip, line for line as the
 * tracer writes them. */
static void test_kernel_resources(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_KERNEL, 7, 8);
  r.u.KERNEL.id = 3;
  r.u.KERNEL.object = 140330653447680ull;
  r.u.KERNEL.name = "_Z4vaddPKfS0_Pfi";
  RTG_SET(&r, KERNEL, agent, 1);
  RTG_SET(&r, KERNEL, arch_vgpr, 36);
  RTG_SET(&r, KERNEL, accum_vgpr, 4);
  RTG_SET(&r, KERNEL, sgpr, 32);
  RTG_SET(&r, KERNEL, lds, 4096);
  RTG_SET(&r, KERNEL, scratch, 272);
  RTG_SET(&r, KERNEL, kernarg, 280);
  RTG_SET(&r, KERNEL, wavefront, 64);
  RTG_SET(&r, KERNEL, arch, "gfx90a");
  size_t n = rtg_record_format(line, sizeof line, &r);
  CHECK_STR(line, "RTG: pid:7 tid:8 kernel id:3 object:140330653447680 agent:1 "
                  "name:'_Z4vaddPKfS0_Pfi' arch_vgpr:36 accum_vgpr:4 sgpr:32 lds:4096 "
                  "scratch:272 kernarg:280 wavefront:64 arch:gfx90a\n");
  CHECK(rtg_record_parse(line, n - 1, &p, NULL) == RTG_KIND_KERNEL);
  CHECK_U64(p.present, r.present);
  CHECK_U64(p.u.KERNEL.id, 3);
  CHECK_U64(p.u.KERNEL.object, 140330653447680ull);
  CHECK_STR(p.u.KERNEL.name, "_Z4vaddPKfS0_Pfi");
  CHECK_U64(p.u.KERNEL.arch_vgpr, 36);
  CHECK_U64(p.u.KERNEL.accum_vgpr, 4);
  CHECK_U64(p.u.KERNEL.sgpr, 32);
  CHECK_U64(p.u.KERNEL.lds, 4096);
  CHECK_U64(p.u.KERNEL.scratch, 272);
  CHECK_U64(p.u.KERNEL.kernarg, 280);
  CHECK_U64(p.u.KERNEL.wavefront, 64);
  CHECK_STR(p.u.KERNEL.arch, "gfx90a");
  /* a kernel whose descriptor could not be read: no register fields */
  rtg_record_init(&r, RTG_KIND_KERNEL, 7, 8);
  r.u.KERNEL.id = 4;
  r.u.KERNEL.object = 9;
  r.u.KERNEL.name = "k";
  n = rtg_record_format(line, sizeof line, &r);
  CHECK_STR(line, "RTG: pid:7 tid:8 kernel id:4 object:9 name:'k'\n");
  CHECK(rtg_record_parse(line, n - 1, &p, NULL) == RTG_KIND_KERNEL);
  CHECK(!RTG_HAS(&p, RTG_FIELD(KERNEL, arch_vgpr)));
  /* the dispatch carries the kernel id after every older field */
  char d[] = "HSA: pid:7 tid:9 dispatch queue:0 agent:1 signal:0 name:'k' start:10 stop:20 id:5 "
             "workgroup:{64,1,1} grid:{64,1,1} lds:0 scratch:0 corr:2 tick:5 "
             "demangled:'k()' kernel_id:4";
  CHECK(rtg_record_parse(d, strlen(d), &p, NULL) == RTG_KIND_DISPATCH);
  CHECK(RTG_HAS(&p, RTG_FIELD(DISPATCH, kernel_id)));
  CHECK_U64(p.u.DISPATCH.kernel_id, 4);
}

/* An AMD barrier-value packet: a barrier with op:value, its signal as dep1
 * and the wait's value (signed), mask and condition, both sides; the line
 * as the tracer writes it for HIP 5.7's waits for copies parses back. */
static void test_barrier_value(void) {
  rtg_record r, p;
  rtg_record_init(&r, RTG_KIND_BARRIER, 1, 2);
  r.u.BARRIER.queue = 3;
  r.u.BARRIER.signal = 5;
  r.u.BARRIER.start = 6;
  r.u.BARRIER.stop = 7;
  r.u.BARRIER.dep1 = 140330653447680ull;
  r.u.BARRIER.id = 8;
  RTG_SET(&r, BARRIER, op, "value");
  RTG_SET(&r, BARRIER, corr, 27);
  RTG_SET(&r, BARRIER, value, -3);
  RTG_SET(&r, BARRIER, mask, UINT64_MAX);
  RTG_SET(&r, BARRIER, cond, "gte");
  size_t n = rtg_record_format(line, sizeof line, &r);
  CHECK(n > 0 && strstr(line, " op:value corr:27 value:-3 mask:18446744073709551615 cond:gte\n"));
  CHECK(roundtrip(&r, &p) == RTG_KIND_BARRIER);
  CHECK_U64(p.present, r.present);
  CHECK_STR(p.u.BARRIER.op, "value");
  CHECK(p.u.BARRIER.value == -3);
  CHECK_U64(p.u.BARRIER.mask, UINT64_MAX);
  CHECK_STR(p.u.BARRIER.cond, "gte");
  CHECK_U64(p.u.BARRIER.dep1, 140330653447680ull);
  rtg_record_init(&r, RTG_KIND_BARRIER_HOST, 1, 2);
  r.u.BARRIER_HOST.dep1 = 9;
  r.u.BARRIER_HOST.tick = 10;
  RTG_SET(&r, BARRIER_HOST, op, "value");
  RTG_SET(&r, BARRIER_HOST, value, 1);
  RTG_SET(&r, BARRIER_HOST, mask, INT64_MAX);
  RTG_SET(&r, BARRIER_HOST, cond, "lt");
  CHECK(roundtrip(&r, &p) == RTG_KIND_BARRIER_HOST);
  CHECK_U64(p.present, r.present);
  CHECK(p.u.BARRIER_HOST.value == 1 && p.u.BARRIER_HOST.mask == INT64_MAX);
  CHECK_STR(p.u.BARRIER_HOST.cond, "lt");
  char l[] = "HSA: pid:7967 tid:7976 barrier queue:0 agent:1 signal:140330653447552 "
             "start:972907993932 stop:972907993932 dep1:140330653447680 dep2:0 dep3:0 dep4:0 "
             "dep5:0 id:2 op:value corr:27 value:1 mask:9223372036854775807 cond:lt";
  CHECK(rtg_record_parse(l, strlen(l), &p, NULL) == RTG_KIND_BARRIER);
  CHECK_STR(p.u.BARRIER.cond, "lt");
  CHECK(p.u.BARRIER.value == 1 && p.u.BARRIER.mask == INT64_MAX);
}

/* The original rtg_tracer's lines, as rocm-timeline-generator.py reads them. */
static void test_legacy_lines(void) {
  rtg_record p;
  char l1[] =
      "HSA: pid:100 tid:101 dispatch queue:3 agent:94 signal:5 name:'foo.kd' start:10 stop:20 id:1";
  CHECK(rtg_record_parse(l1, strlen(l1), &p, NULL) == RTG_KIND_DISPATCH);
  CHECK_STR(p.u.DISPATCH.name, "foo.kd");
  char l2[] = "HSA: pid:100 tid:101 dispatch queue:3 agent:94 signal:5 name:'foo.kd' tick:10 id:1 "
              "workgroup:{64,1,1} grid:{256,1,1}";
  CHECK(rtg_record_parse(l2, strlen(l2), &p, NULL) == RTG_KIND_DISPATCH_HOST);
  CHECK_U64(p.u.DISPATCH_HOST.workgroup.x, 64);
  char l3[] =
      "HSA: pid:1 tid:2 barrier queue:3 agent:4 signal:5 start:6 stop:7 dep1:0 dep2:0 dep3:0 "
      "dep4:0 dep5:0 id:8";
  CHECK(rtg_record_parse(l3, strlen(l3), &p, NULL) == RTG_KIND_BARRIER);
  char l4[] =
      "HSA: pid:1 tid:2 copy agent:4 signal:5 start:6 stop:7 dep1:0 dep2:0 dep3:0 dep4:0 dep5:0";
  CHECK(rtg_record_parse(l4, strlen(l4), &p, NULL) == RTG_KIND_COPY);
  char l5[] = "HIP: pid:1 tid:2 hipMemcpy ret=0 @5 +6";
  CHECK(rtg_record_parse(l5, strlen(l5), &p, NULL) == RTG_KIND_HIP_API);
  CHECK_STR(p.u.HIP_API.func, "hipMemcpy");
  char l6[] = "HSA: pid:1 tid:2 hsa_queue_create (agent=1, size=64) ret=0 @5 +6\n";
  CHECK(rtg_record_parse(l6, strlen(l6), &p, NULL) == RTG_KIND_HSA_API);
  CHECK_STR(p.u.HSA_API.args, "agent=1, size=64");
  /* unknown trailing keys from a newer writer are skipped */
  char l7[] = "HIP: pid:1 tid:2 hipFree ret=0 @5 +6 future:'a b' corr:4 other:{1,2}";
  CHECK(rtg_record_parse(l7, strlen(l7), &p, NULL) == RTG_KIND_HIP_API);
  CHECK_U64(p.u.HIP_API.corr, 4);
  /* the tail is the last valid " ret=R @S +D": arguments may hold one, a
   * later field may hold '=' and a broken tail is passed over */
  char l8[] = "HSA: pid:1 tid:2 f (a ret=1 @2 +3, b ret=4 @x) ret=0 @5 +6 future:'k=v' corr:7";
  CHECK(rtg_record_parse(l8, strlen(l8), &p, NULL) == RTG_KIND_HSA_API);
  CHECK_STR(p.u.HSA_API.args, "a ret=1 @2 +3, b ret=4 @x");
  CHECK_STR(p.u.HSA_API.ret, "0");
  CHECK_U64(p.u.HSA_API.start, 5);
  CHECK_U64(p.u.HSA_API.dur, 6);
  CHECK_U64(p.u.HSA_API.corr, 7);
}

static void test_bad_lines(void) {
  const char *bad[] = {
      "HSA: pid:1 tid:2 dispatch queue:3 agent:4 signal:5 name:'unterminated start:1 stop:2 id:3",
      "HSA: pid:1 tid:2 dispatch queue:3 agent:4",
      "HSA: pid:x tid:2 hsa_init () ret=0 @1 +2",
      "HSA: pid:1 tid:2 hsa_init () ret=0 @1",
      "HIP: pid:1 tid:2 hipFree ret=0 @99999999999999999999999 +1",
      "RTG: pid:1 tid:2 nosuchkind a:1",
      "HSA: pid:1 tid:2 copy agent:4 signal:5 start:6 stop:7x dep1:0 dep2:0 dep3:0 dep4:0 dep5:0",
      "HSA: pid:1 tid:2 barrier queue:1 agent:1 signal:1 dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 tick:1 "
      "id:{",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", bad[i]);
    rtg_record p;
    const char *why = NULL;
    CHECK(rtg_record_parse(buf, strlen(buf), &p, &why) == RTG_KIND_NONE);
    CHECK(why != NULL);
  }
  char foreign[] = "PASSED: application output";
  const char *why = "x";
  rtg_record p;
  CHECK(rtg_record_parse(foreign, strlen(foreign), &p, &why) == RTG_KIND_NONE && why == NULL);
}

static void test_small_buffer(void) {
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_HIP_API, 1, 2);
  r.u.HIP_API.func = "hipMalloc";
  r.u.HIP_API.ret = "0";
  char small[16];
  CHECK(rtg_record_format(small, sizeof small, &r) == 0);
}

/* Numbers at every change of digit count (the writer counts digits from
 * the bit length) and the largest, written and parsed back exactly. */
static void test_number_widths(void) {
  uint64_t p = 1;
  for (int d = 1; d <= 20; d++) {
    uint64_t vs[3] = {p - 1, p, d == 20 ? UINT64_MAX : p * 10 - 1};
    for (int i = 0; i < 3; i++) {
      rtg_record r, back;
      rtg_record_init(&r, RTG_KIND_HSA_API, 1, 2);
      r.u.HSA_API.func = "f";
      r.u.HSA_API.args = "";
      r.u.HSA_API.ret = "0";
      r.u.HSA_API.start = vs[i];
      r.u.HSA_API.dur = vs[i];
      char line[256], want[64];
      CHECK(rtg_record_format(line, sizeof line, &r) > 0);
      snprintf(want, sizeof want, " @%llu +%llu\n", (unsigned long long)vs[i],
               (unsigned long long)vs[i]);
      CHECK(strstr(line, want) != NULL);
      CHECK(rtg_record_parse(line, strlen(line), &back, NULL) == RTG_KIND_HSA_API);
      CHECK_U64(back.u.HSA_API.start, vs[i]);
    }
    if (d < 20) p *= 10;
  }
}

int main(void) {
  test_number_widths();
  test_dispatch();
  test_mpi();
  test_strings_escaped();
  test_roctx_unclosed();
  test_api();
  test_api_polls();
  test_memory();
  test_scans_every_position();
  test_all_kinds();
  test_clean_strings();
  test_legacy_lines();
  test_barrier_value();
  test_kernel_resources();
  test_bad_lines();
  test_small_buffer();
  return check_done("test_record");
}
