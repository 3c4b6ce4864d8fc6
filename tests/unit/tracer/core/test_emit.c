/* The tracer core on its own (src/tracer/core, no other wing): records
 * made by hand (rtg_emit) reach the file exactly as rtg_record_format makes
 * them, although their strings die right after the call; a record longer
 * than a line is counted as lost in the summary; entries of several
 * threads (rtg_emit_entry, formatted by the writer) all arrive, each
 * thread's in its order; the file starts with the header and ends with the
 * summary. */
#define _GNU_SOURCE
#include "check.h"
#include "core/sink.h"
#include "core/tracer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { THREADS = 4, PER_THREAD = 20000 };

typedef struct seq_entry {
  uint32_t thread, seq;
} seq_entry;

static size_t format_seq(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid) {
  seq_entry e;
  if (len != sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  int n = snprintf(out, cap, "SEQ thread:%u seq:%u\n", e.thread, e.seq);
  return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static void *producer(void *arg) {
  seq_entry e = {(uint32_t)(uintptr_t)arg, 0};
  for (; e.seq < PER_THREAD; e.seq++) rtg_emit_entry(format_seq, &e, sizeof e);
  return NULL;
}

/* An AGENT record whose strings live in buffers the caller overwrites
 * after rtg_emit; its line as the writer must write it goes to want. */
static void emit_agent(char *want, size_t cap) {
  char name[64], product[64];
  snprintf(name, sizeof name, "gfx90a 'quoted' \\ name");
  snprintf(product, sizeof product, "Simulated GPU");
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_AGENT, 4242, 777); /* another process's ids */
  r.u.AGENT.index = 3;
  r.u.AGENT.type = "gpu";
  RTG_SET(&r, AGENT, name, name);
  RTG_SET(&r, AGENT, product, product);
  RTG_SET(&r, AGENT, node, 2);
  size_t n = rtg_record_format(want, cap, &r);
  want[n] = 0;
  rtg_emit(&r);
  memset(name, 'X', sizeof name - 1);
  memset(product, 'Y', sizeof product - 1);
}

/* A ROCTX record whose message is longer than any line: lost. */
static void emit_too_long(void) {
  static char message[9000];
  memset(message, 'm', sizeof message - 1);
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_ROCTX, rtg_pid(), rtg_tid());
  r.u.ROCTX.op = "mark";
  RTG_SET(&r, ROCTX, message, message);
  rtg_emit(&r);
}

int main(void) {
  setenv("RTG_FILENAME", "emit_trace", 1);
  rtg_config_read();
  CHECK(rtg_sink_open());
  char want[1024];
  emit_agent(want, sizeof want);
  emit_too_long();
  pthread_t t[THREADS];
  for (uintptr_t i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, producer, (void *)i);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  rtg_sink_close();

  char path[64];
  snprintf(path, sizeof path, "emit_trace.%d", (int)getpid());
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f) return check_done("test_emit");
  char line[4096], first[4096] = "", last[4096] = "";
  uint32_t next[THREADS] = {0};
  int agents = 0, out_of_order = 0, lines = 0;
  while (fgets(line, sizeof line, f)) {
    if (!lines++) snprintf(first, sizeof first, "%s", line);
    snprintf(last, sizeof last, "%s", line);
    unsigned th, seq;
    if (sscanf(line, "SEQ thread:%u seq:%u", &th, &seq) == 2 && th < THREADS)
      out_of_order += seq != next[th]++;
    else if (!strncmp(line, "RTG: pid:4242 ", 14)) {
      agents++;
      CHECK_STR(line, want);
    }
  }
  fclose(f);
  CHECK_U64(agents, 1);
  CHECK_U64(out_of_order, 0);
  for (int i = 0; i < THREADS; i++) CHECK_U64(next[i], PER_THREAD);
  rtg_record r;
  CHECK(rtg_record_parse(first, strcspn(first, "\n"), &r, NULL) == RTG_KIND_HEADER);
  CHECK(rtg_record_parse(last, strcspn(last, "\n"), &r, NULL) == RTG_KIND_SUMMARY);
  CHECK_U64(r.u.SUMMARY.lost, 1);
  return check_done("test_emit");
}
