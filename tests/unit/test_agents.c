/* The one rule that names devices (agents.h) and the one definition of gap
 * buckets (gap_buckets.h), as rpt and rtg-convert both use them. */
#include "check.h"

#include "agents.h"
#include "gap_buckets.h"

#include <string.h>

static void add_agent(rtg_agents *t, char *line) {
  rtg_record rec;
  CHECK(rtg_record_parse(line, strlen(line), &rec, NULL) == RTG_KIND_AGENT);
  CHECK(rtg_agents_add(t, &rec));
}

static const char *label(rtg_agents *t, uint64_t value) {
  static char buf[128];
  return rtg_agents_label(t, rtg_agents_device(t, value), buf, sizeof buf);
}

static void test_names(void) {
  rtg_agents t = {0};
  char a0[] = "RTG: pid:1 tid:1 agent index:0 type:cpu name:'EPYC' handle:9000";
  char a2[] = "RTG: pid:1 tid:1 agent index:2 type:gpu name:'gfx90a' product:'MI210' handle:9200";
  char a1[] = "RTG: pid:1 tid:1 agent index:1 type:gpu name:'gfx90a' handle:9100";
  char a3[] = "RTG: pid:1 tid:1 agent index:3 type:other name:'dsp'";
  add_agent(&t, a0);
  add_agent(&t, a2); /* out of order: numbers follow the indexes */
  add_agent(&t, a1);
  add_agent(&t, a3);
  add_agent(&t, a1); /* the same agent again (a trace read twice) */
  CHECK_U64(t.n, 4);
  CHECK_STR(label(&t, 0), "CPU0 (EPYC)"); /* the host agent is not a GPU */
  CHECK_STR(label(&t, 1), "GPU0 (gfx90a)");
  CHECK_STR(label(&t, 2), "GPU1 (gfx90a MI210)");
  CHECK_STR(label(&t, 3), "AGENT0 (dsp)");
  CHECK_STR(label(&t, 9200), "GPU1 (gfx90a MI210)"); /* by handle (the original tracer) */
  CHECK_STR(label(&t, 9000), "CPU0 (EPYC)");
  CHECK_STR(label(&t, 77), "GPU2"); /* unknown: after the known GPUs, in order of first use */
  CHECK_STR(label(&t, 55), "GPU3");
  CHECK_STR(label(&t, 77), "GPU2");
  CHECK_U64(rtg_agents_device(&t, 2), RTG_DEVICE(RTG_DEV_GPU, 1));
  CHECK_U64(rtg_agents_device(&t, 0), RTG_DEVICE(RTG_DEV_CPU, 0));
  rtg_agents_free(&t);
  char buf[32];
  CHECK_STR(rtg_agents_label(NULL, 3, buf, sizeof buf), "GPU3"); /* a profile line's #device */
  rtg_agents none = {0};
  CHECK_STR(label(&none, 5), "GPU0"); /* no AGENT records at all */
  CHECK_STR(label(&none, 1), "GPU1");
  rtg_agents_free(&none);
}

static void test_gap_buckets(void) {
  static const uint64_t lim[] = RTG_GAP_BUCKETS_DEFAULT;
  rtg_gap_buckets b = {lim, sizeof lim / sizeof lim[0]};
  CHECK_U64(rtg_gap_bucket(&b, 1), 0);
  CHECK_U64(rtg_gap_bucket(&b, 9999), 0);
  CHECK_U64(rtg_gap_bucket(&b, 10000), 1); /* a limit belongs to the bucket above */
  CHECK_U64(rtg_gap_bucket(&b, 99999999), 6);
  CHECK_U64(rtg_gap_bucket(&b, 100000000), 7);
  char name[64];
  CHECK_STR(rtg_gap_bucket_name(&b, 0, name, sizeof name), "gap <10us");
  CHECK_STR(rtg_gap_bucket_name(&b, 1, name, sizeof name), "gap 10us-20us");
  CHECK_STR(rtg_gap_bucket_name(&b, 7, name, sizeof name), "gap >=100000us");
  uint64_t huge[] = {UINT64_MAX / 10000, 5, 5, 3}; /* no overflow: compared in us */
  size_t n = rtg_gap_limits_normalize(huge, 4);
  CHECK_U64(n, 3);
  rtg_gap_buckets h = {huge, n};
  CHECK_U64(rtg_gap_bucket(&h, UINT64_MAX), 3);
  CHECK_U64(rtg_gap_bucket(&h, 4000), 1);
}

int main(void) {
  test_names();
  test_gap_buckets();
  return check_done("test_agents");
}
