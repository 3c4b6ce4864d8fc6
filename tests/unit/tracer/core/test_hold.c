/* Held entries (core/hold.h) on their own: a thread holds an entry back and
 * counts repeats into it; the entry is written exactly once and in its
 * place among the thread's entries, however its life ends - another entry
 * of the thread, another hold, the thread's exit, a fork's prepare, the
 * final flush while its thread is blocked (exit, exec), and again after an
 * exec that failed, when the thread goes on. */
#define _GNU_SOURCE
#include "check.h"
#include "core/hold.h"
#include "core/sink.h"
#include "core/tracer.h"
#include "core/writer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { THREADS = 4, RUNS = 3000 };

/* An entry: whose, which of its entries, how many calls it stands for. */
typedef struct rep_entry {
  uint32_t thread, seq;
  uint64_t count;
} rep_entry;

static size_t format_rep(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid) {
  rep_entry e;
  if (len != sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  int n = snprintf(out, cap, "REP thread:%u seq:%u count:%llu\n", e.thread, e.seq,
                   (unsigned long long)e.count);
  return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static const rtg_entry_format fmt = format_rep;

/* Count a repeat into the held entry of (thread, seq), or hold a new one
 * (false: no buffer space). */
static bool repeat(uint32_t thread, uint32_t seq) {
  rtg_tchain *t = rtg_tls.chain;
  uint32_t len;
  char *held = rtg_hold_entry(t, &len);
  rep_entry e;
  if (held && len == sizeof fmt + sizeof e) {
    memcpy(&e, held + sizeof fmt, sizeof e);
    if (e.thread == thread && e.seq == seq) {
      e.count++;
      rtg_hold_edit_begin(t);
      memcpy(held + sizeof fmt, &e, sizeof e);
      rtg_hold_edit_end(t);
      return true;
    }
  }
  e = (rep_entry){thread, seq, 1};
  return rtg_hold_put(t, &fmt, sizeof fmt, &e, sizeof e, 0);
}

/* Each thread: runs of 1 to 7 repeats; every third run ends with a plain
 * entry (which must come after the run), the others with the next hold.
 * (The threads count their failures apart: CHECK's counters are plain.) */
static _Atomic int thread_failures;

static void *producer(void *arg) {
  uint32_t th = (uint32_t)(uintptr_t)arg, seq = 0;
  for (int run = 0; run < RUNS; run++) {
    for (int i = 0; i < run % 7 + 1; i++)
      if (!repeat(th, seq)) thread_failures++;
    seq++;
    if (run % 3 == 0) {
      rep_entry plain = {th, seq++, 0};
      rtg_emit_entry(format_rep, &plain, sizeof plain);
    }
  }
  return NULL; /* its last hold is written at its exit */
}

/* A thread that holds an entry and then blocks: only a final flush can
 * write it.  After the exec's flush (which failed) it goes on counting. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int step; /* 1: it holds; 2: flushed for an exec that failed; 3: it counted on; 4: closed */

static void wait_step(int s) {
  pthread_mutex_lock(&mu);
  while (step < s) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
}
static void set_step(int s) {
  pthread_mutex_lock(&mu);
  step = s;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
}

static void *blocked(void *arg) {
  (void)arg;
  for (int i = 0; i < 5; i++) /* 5: written by the exec's flush */
    if (!repeat(100, 0)) thread_failures++;
  set_step(1);
  wait_step(2);
  for (int i = 0; i < 3; i++) /* 3 more: a new entry, same call */
    if (!repeat(100, 0)) thread_failures++;
  set_step(3);
  wait_step(4);
  repeat(100, 0); /* after the close: into a buffer nobody drains, nothing twice */
  rtg_hold_publish_mine();
  return NULL;
}

int main(void) {
  setenv("RTG_FILENAME", "hold_trace", 1);
  rtg_config_read();
  CHECK(rtg_sink_open());

  pthread_t t[THREADS], b;
  for (uintptr_t i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, producer, (void *)i);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);

  /* on this thread: a hold written before a fork (the prepare step) */
  for (int i = 0; i < 4; i++) CHECK(repeat(50, 0));
  rtg_sink_fork_prepare();
  rtg_sink_fork_parent();
  uint32_t len;
  CHECK(rtg_hold_entry(rtg_tls.chain, &len) == NULL);

  pthread_create(&b, NULL, blocked, NULL);
  wait_step(1);
  CHECK(rtg_sink_exec_begin()); /* exec's flush, then the exec fails */
  rtg_sink_exec_failed();
  set_step(2);
  wait_step(3);
  /* the thread still holds its 3: the close's flush writes them */
  rtg_sink_close();
  set_step(4);
  pthread_join(b, NULL);

  char path[64];
  snprintf(path, sizeof path, "hold_trace.%d", (int)getpid());
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f) return check_done("test_hold");
  char line[4096];
  uint32_t next[THREADS] = {0};
  uint64_t bad = 0, counts[THREADS] = {0}, blocked_lines = 0, main_lines = 0, summaries = 0;
  uint64_t blocked_counts[2] = {0};
  while (fgets(line, sizeof line, f)) {
    unsigned th, seq;
    unsigned long long count;
    if (sscanf(line, "REP thread:%u seq:%u count:%llu", &th, &seq, &count) == 3) {
      if (th < THREADS) {
        bad += seq != next[th]++; /* each once, in order */
        counts[th] += count;
      } else if (th == 100 && blocked_lines < 2) {
        blocked_counts[blocked_lines++] = count;
      } else if (th == 100) {
        blocked_lines++;
      } else if (th == 50) {
        main_lines++;
        CHECK_U64(count, 4);
      }
    } else if (strstr(line, " summary ")) {
      summaries++;
    }
  }
  fclose(f);
  CHECK_U64(thread_failures, 0);
  CHECK_U64(bad, 0);
  /* runs of run % 7 + 1 repeats, and a plain entry (count 0) every third */
  uint64_t want = 0, want_seq = 0;
  for (int run = 0; run < RUNS; run++) want += run % 7 + 1, want_seq += run % 3 == 0 ? 2 : 1;
  for (int i = 0; i < THREADS; i++) {
    CHECK_U64(counts[i], want);
    CHECK_U64(next[i], want_seq);
  }
  CHECK_U64(main_lines, 1);
  CHECK_U64(blocked_lines, 2);
  CHECK_U64(blocked_counts[0], 5);
  CHECK_U64(blocked_counts[1], 3);
  CHECK_U64(summaries, 1); /* the exec's was cut off again */
  return check_done("test_hold");
}
