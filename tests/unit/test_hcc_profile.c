/* The legacy profile: line: the original tracer's exact layout (kernel,
 * barrier, copy), every variant the original converter and rpt accepted,
 * the writer round trip, and lines that must be refused. */
#include "check.h"
#include "hcc_profile.h"

#include <math.h>

static int parse(const char *line, rtg_hcc_profile *p, const char **why) {
  return rtg_hcc_profile_parse(line, strlen(line), p, why);
}

static int span_is(const char *s, size_t n, const char *want) {
  return n == strlen(want) && memcmp(s, want, n) == 0;
}

static void test_tracer_layout(void) {
  rtg_hcc_profile p;
  const char *why;
  /* byte for byte what the original tracer's LOG_PROFILE wrote */
  const char *k = "profile:  kernel;\t              __amd_rocclr_fillBuffer.kd;\t   4.7 us;\t"
                  "1000;\t5700;\t#0.1.0;";
  CHECK(parse(k, &p, &why) == 1);
  CHECK(span_is(p.type, p.type_len, "kernel"));
  CHECK(span_is(p.name, p.name_len, "__amd_rocclr_fillBuffer.kd"));
  CHECK(fabs(p.dur_us - 4.7) < 1e-9);
  CHECK_U64(p.start, 1000);
  CHECK_U64(p.stop, 5700);
  CHECK_U64(p.enq, 1000);
  CHECK_U64(p.device, 0);
  CHECK_U64(p.queue, 1);
  CHECK_U64(p.seq, 0);
  CHECK(p.flags == (RTG_HCC_HAS_TIMES | RTG_HCC_HAS_OP));
  CHECK(p.extra_len == 0);
  CHECK(rtg_hcc_profile_is_gpu(&p) && !rtg_hcc_profile_is_copy(&p));

  const char *b = "profile: barrier;\t                                        ;\t   2.1 us;\t"
                  "7;\t2107;\t#1.0.12;";
  CHECK(parse(b, &p, &why) == 1);
  CHECK(span_is(p.type, p.type_len, "barrier"));
  CHECK(p.name_len == 0);
  CHECK_U64(p.device, 1);
  CHECK_U64(p.seq, 12);

  const char *c = "profile:    copy;\t                            HostToDevice;\t   7.4 us;\t"
                  "10;\t7410;\t#0.0.3;\t16384 bytes;\t0.015625 MB;\t2.11149 GB/s;";
  CHECK(parse(c, &p, &why) == 1);
  CHECK(rtg_hcc_profile_is_copy(&p) && !rtg_hcc_profile_is_gpu(&p));
  CHECK(span_is(p.name, p.name_len, "HostToDevice"));
  CHECK(p.flags & RTG_HCC_HAS_BYTES);
  CHECK_U64(p.bytes, 16384);
  CHECK(span_is(p.extra, p.extra_len, "16384 bytes;\t0.015625 MB;\t2.11149 GB/s;"));
}

static void test_variants(void) {
  rtg_hcc_profile p;
  const char *why;
  /* old hcc: enqueue time first */
  CHECK(parse("profile: kernel; k; 1.0 us; 5; 10; 1010; #2.3.4; extra", &p, &why) == 1);
  CHECK(p.flags & RTG_HCC_HAS_ENQ);
  CHECK_U64(p.enq, 5);
  CHECK_U64(p.start, 10);
  CHECK_U64(p.stop, 1010);
  CHECK_U64(p.device, 2);
  CHECK(span_is(p.extra, p.extra_len, "extra"));
  /* three numbers that cannot be enq/start/stop: rpt took the first two */
  CHECK(parse("profile: kernel; k; 1.0 us; 50; 10; 1010; #2.3.4;", &p, &why) == 1);
  CHECK(!(p.flags & RTG_HCC_HAS_ENQ) && (p.flags & RTG_HCC_BAD_OP));
  CHECK_U64(p.start, 50);
  CHECK_U64(p.stop, 10);
  CHECK(span_is(p.extra, p.extra_len, "1010; #2.3.4;"));
  /* timestamps, no #op (RE_HCC_PROF_TS) */
  CHECK(parse("profile: kernel; k; 1.0 us; 5; 10;", &p, &why) == 1);
  CHECK(p.flags == RTG_HCC_HAS_TIMES);
  CHECK_U64(p.stop, 10);
  CHECK(parse("profile: kernel; k; 1.0 us; 5; 10", &p, &why) == 1);
  CHECK(p.flags == RTG_HCC_HAS_TIMES);
  /* #op, no timestamps (RE_HCC_PROF_OP) */
  CHECK(parse("profile: copy; DeviceToHost; 3.0 us; #0.2.9; 64 bytes; 0 MB; 1 GB/s;", &p, &why) ==
        1);
  CHECK(p.flags == (RTG_HCC_HAS_OP | RTG_HCC_HAS_BYTES));
  CHECK_U64(p.queue, 2);
  CHECK_U64(p.bytes, 64);
  /* type, name and duration only (RE_HCC_PROF) */
  CHECK(parse("profile: kernel; some name; 12.5 us;", &p, &why) == 1);
  CHECK(p.flags == 0);
  CHECK(fabs(p.dur_us - 12.5) < 1e-9);
  CHECK(parse("profile: kernel; some name; 12.5", &p, &why) == 1);
  /* rpt stripped '#' from the tag, so a bare D.Q.S is a tag too */
  CHECK(parse("profile: kernel; k; 1 us; 1; 2; 0.1.2;", &p, &why) == 1);
  CHECK(p.flags & RTG_HCC_HAS_OP);
  /* a bad tag is reported and kept as extra text */
  CHECK(parse("profile: kernel; k; 1 us; 1; 2; #x.y;", &p, &why) == 1);
  CHECK((p.flags & RTG_HCC_BAD_OP) && !(p.flags & RTG_HCC_HAS_OP));
  CHECK(span_is(p.extra, p.extra_len, "#x.y;"));
  /* stop before start is returned as written */
  CHECK(parse("profile: kernel; k; 1 us; 9; 2; #0.0.0;", &p, &why) == 1);
  CHECK(p.stop < p.start);
  /* CR LF endings */
  CHECK(parse("profile: kernel; k; 1 us; 1; 2; #0.0.7;\r", &p, &why) == 1);
  CHECK_U64(p.seq, 7);
}

static void test_refused(void) {
  rtg_hcc_profile p;
  const char *why = "x";
  CHECK(parse("hello world", &p, &why) == 0 && why == NULL);
  CHECK(parse(" profile: kernel; k; 1 us;", &p, &why) == 0);
  CHECK(parse("", &p, &why) == 0);
  CHECK(parse("profile:", &p, &why) == -1 && why);
  CHECK(parse("profile: kernel", &p, &why) == -1 && why);
  CHECK(parse("profile: kernel; name", &p, &why) == -1 && why);
  CHECK(parse("profile: kernel; name; fast;", &p, &why) == -1 && why);
  CHECK(parse("profile: ker nel; name; 1 us;", &p, &why) == -1 && why);
  CHECK(parse("profile: kernel; name; 1 us; 5;", &p, &why) == -1 && why);
  /* a timestamp that overflows is not a timestamp: no times, a bad tag */
  CHECK(parse("profile: kernel; name; 1 us; 99999999999999999999999; 5;", &p, &why) == 1);
  CHECK(!(p.flags & RTG_HCC_HAS_TIMES) && (p.flags & RTG_HCC_BAD_OP));
  /* not NUL-terminated: the parser must stop at len */
  char buf[64];
  memset(buf, 'A', sizeof buf);
  memcpy(buf, "profile: kernel; n; 1 us; 1; 2; #0.0.0;", 39);
  CHECK(rtg_hcc_profile_parse(buf, 39, &p, &why) == 1);
  CHECK_U64(p.seq, 0);
  CHECK(p.extra_len == 0);
}

static void test_writer(void) {
  char line[512], extra[128];
  rtg_hcc_profile p;
  size_t n =
      rtg_hcc_profile_format(line, sizeof line, "kernel", "vadd.kd", 1000, 5700, 0, 1, 0, NULL);
  CHECK_STR(line, "profile:  kernel;\t                                 vadd.kd;\t   4.7 us;\t"
                  "1000;\t5700;\t#0.1.0;\n");
  CHECK(n == strlen(line));
  CHECK(rtg_hcc_profile_copy_extra(extra, sizeof extra, 16384, 0, 7400) > 0);
  CHECK_STR(extra, "\t16384 bytes;\t0.015625 MB;\t2.11149 GB/s;");
  n = rtg_hcc_profile_format(line, sizeof line, "copy", "HostToDevice", 10, 7410, 0, 0, 3, extra);
  CHECK(parse(line, &p, NULL) == 1);
  CHECK_U64(p.bytes, 16384);
  CHECK_U64(p.stop, 7410);
  CHECK(rtg_hcc_profile_format(line, 10, "copy", "x", 1, 2, 0, 0, 0, NULL) == 0);
}

int main(void) {
  test_tracer_layout();
  test_variants();
  test_refused();
  test_writer();
  return check_done("test_hcc_profile");
}
