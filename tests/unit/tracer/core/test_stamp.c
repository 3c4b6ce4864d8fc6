/* Stamps (core/stamp.c): a stamp taken between two CLOCK_BOOTTIME reads
 * converts to a time between them (within the conversion's error, far
 * below the 2 us allowed here; a wrong slope or point would be off by
 * milliseconds), over a spread of intervals: right after start (the second
 * point not yet taken), between points, past the last, and before the
 * oldest point kept; a span's two ends likewise.  Conversions of
 * increasing stamps never decrease.  A time once given is not taken back:
 * a stamp placed past the last point keeps at least that time once the
 * next point is taken, so a call written before a point never ends after
 * the start of the thread's next call written after it.
 * Where the machine does not allow TSC stamps, or with RTG_TSC=0, a stamp
 * is CLOCK_BOOTTIME ns itself. */
#define _GNU_SOURCE
#include "check.h"
#include "core/stamp.h"

#include <stdlib.h>
#include <time.h>

enum { SLACK_NS = 2000 };

typedef struct sample {
  uint64_t before, stamp, after;
} sample;

static sample take(void) {
  sample s;
  s.before = rtg_now();
  s.stamp = rtg_stamp();
  s.after = rtg_now();
  return s;
}

static int within(const sample *s) {
  uint64_t ns = rtg_stamp_ns(s->stamp);
  int ok = ns + SLACK_NS >= s->before && ns <= s->after + SLACK_NS;
  if (!ok)
    fprintf(stderr, "stamp %llu -> %llu ns, outside [%llu, %llu]\n", (unsigned long long)s->stamp,
            (unsigned long long)ns, (unsigned long long)s->before, (unsigned long long)s->after);
  return ok;
}

static void sleep_us(long us) {
  struct timespec ts = {us / 1000000, us % 1000000 * 1000};
  nanosleep(&ts, NULL);
}

int main(void) {
  rtg_cfg.tsc = !getenv("RTG_TSC") || strcmp(getenv("RTG_TSC"), "0");
  rtg_stamp_init();
  printf("stamps are %s\n", rtg_cfg.tsc ? "TSC ticks" : "CLOCK_BOOTTIME ns");

  /* before the second point: the conversion waits for it */
  sample early = take();
  CHECK(within(&early));

  /* 600 samples, points taken as the writer would (at most one a ms), so
   * the oldest samples end up before the oldest point kept */
  enum { N = 600 };
  static sample s[N];
  for (int i = 0; i < N; i++) {
    s[i] = take();
    if (i % 2) rtg_stamp_calibrate();
    sleep_us(i % 7 == 0 ? 3000 : 300);
  }
  sample last = take(); /* past the last point */
  int bad = 0;
  for (int i = 0; i < N; i++) bad += !within(&s[i]);
  CHECK(bad == 0);
  CHECK(within(&last));
  CHECK(within(&early));

  /* spans, within one interval and across many: both ends in their
   * windows */
  int bad_spans = 0;
  for (int i = 0; i + 1 < N; i += 3) {
    int j = i + 1 + (i % 50);
    if (j >= N) j = N - 1;
    uint64_t start_ns, dur_ns;
    rtg_stamp_span_ns(s[i].stamp, s[j].stamp - s[i].stamp, &start_ns, &dur_ns);
    bad_spans += start_ns + SLACK_NS < s[i].before || start_ns > s[i].after + SLACK_NS ||
                 start_ns + dur_ns + SLACK_NS < s[j].before ||
                 start_ns + dur_ns > s[j].after + SLACK_NS;
  }
  CHECK(bad_spans == 0);

  /* increasing stamps convert to non-decreasing times */
  uint64_t prev = 0, stamp0 = s[0].stamp, span = last.stamp - stamp0;
  int backwards = 0;
  for (uint64_t k = 0; k <= 100000; k++) {
    uint64_t ns = rtg_stamp_ns(stamp0 + span / 100000 * k);
    backwards += ns < prev;
    prev = ns;
  }
  CHECK(backwards == 0);

  /* placed past the last point, placed again once the next is taken */
  int taken_back = 0;
  for (int i = 0; i < 300; i++) {
    sleep_us(1100 + i % 3 * 200);
    uint64_t st = rtg_stamp();
    uint64_t first = rtg_stamp_ns(st);
    rtg_stamp_calibrate();
    uint64_t again = rtg_stamp_ns(st), later = rtg_stamp_ns(st + i % 5 * 30);
    taken_back += again < first || later < first;
  }
  if (taken_back) fprintf(stderr, "times taken back: %d of 300\n", taken_back);
  CHECK(taken_back == 0);
  if (!rtg_cfg.tsc) CHECK(rtg_stamp_ns(12345) == 12345);
  return check_done("test_stamp");
}
