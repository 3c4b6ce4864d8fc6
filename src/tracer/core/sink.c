/* The record sink: the per-thread buffers (tbuf.c), the writer thread
 * (writer.c) and the trace file (trace_file.c) together, from open to
 * close, and through exec, fork and fatal signals. */
#include "sink.h"

#include "config.h"
#include "emit.h"
#include "hold.h"
#include "tbuf.h"
#include "trace_file.h"
#include "writer.h"

#include <stdatomic.h>
#include <sys/types.h>

static bool closed_before; /* a trace of this process was finished */

/* The counts a trace's summary gives: its own records only. */
static void counters_zero(void) {
  for (int i = 0; i < RTG_CNT_COUNT; i++) {
    atomic_store(&rtg_counters[i], 0);
    atomic_store(&rtg_written_counts[i], 0);
  }
}

bool rtg_sink_open(void) {
  if (closed_before) counters_zero(); /* a new trace after hsa_shut_down */
  rtg_tbuf_configure((size_t)rtg_cfg.buffer_mb << 20,
                     rtg_cfg.buffer_drop ? RTG_FULL_DROP : RTG_FULL_WAIT);
  rtg_tbuf_set_kick(rtg_writer_wake);
  if (!rtg_file_open()) return false;
  atomic_store(&rtg_emit_on, 1);
  rtg_writer_start();
  return true;
}

void rtg_sink_close(void) {
  if (!atomic_exchange(&rtg_emit_on, 0)) return;
  rtg_writer_stop();
  rtg_writer_flush();
  rtg_file_write_summary();
  rtg_tbuf_stats bs = rtg_tbuf_get_stats();
  uint64_t lost = rtg_counter_get(RTG_CNT_LOST) + bs.lost,
           lost_gpu = rtg_counter_get(RTG_CNT_LOST_GPU),
           unfinished = rtg_counter_get(RTG_CNT_UNFINISHED);
  if (lost || lost_gpu || unfinished)
    rtg_log(0,
            "%s: %lu records lost (buffers full), %lu GPU times unreadable, %lu GPU ops "
            "unfinished at exit",
            rtg_cfg.path, (unsigned long)lost, (unsigned long)lost_gpu, (unsigned long)unfinished);
  rtg_writer_stats ws = rtg_writer_get_stats();
  if (ws.entries)
    rtg_log(1,
            "writer: %lu records in %.3f s of its CPU time (%.2f M records/s); buffers peaked at "
            "%lu MB",
            (unsigned long)ws.entries, (double)ws.cpu_ns / 1e9,
            ws.cpu_ns ? (double)ws.entries * 1e3 / (double)ws.cpu_ns : 0.0,
            (unsigned long)(bs.peak_bytes >> 20));
  if (bs.waits)
    rtg_log(0,
            "%s: threads waited %lu times, %.3f s in all, for the writer to free buffer space "
            "(RTG_BUFFER_MB=%d; peak %lu MB)",
            rtg_cfg.path, (unsigned long)bs.waits, (double)bs.wait_ns / 1e9, rtg_cfg.buffer_mb,
            (unsigned long)(bs.peak_bytes >> 20));
  rtg_file_close();
  closed_before = true;
}

void rtg_sink_dump_fatal(void) {
  rtg_writer_flush_from_signal();
  rtg_file_write_summary();
}

static off_t exec_mark = -1;

bool rtg_sink_exec_begin(void) {
  if (!atomic_load(&rtg_emit_on)) return false;
  rtg_writer_hold();                  /* until exec replaces us or fails */
  exec_mark = rtg_file_put_summary(); /* no message yet: exec may fail */
  return true;
}

void rtg_sink_exec_failed(void) {
  /* the image goes on: its final summary will be written at exit */
  rtg_file_unput_summary(exec_mark);
  rtg_writer_unlock();
}

void rtg_sink_fork_prepare(void) {
  rtg_hold_publish_mine(); /* the parent's to write, before the child exists */
  rtg_writer_lock();
}
void rtg_sink_fork_parent(void) {
  rtg_writer_unlock();
}

void rtg_sink_fork_child(void) {
  rtg_writer_after_fork_child();
  rtg_tbuf_after_fork_child(); /* the parent's records are the parent's to write */
  counters_zero();
  rtg_file_after_fork_child();
  if (!atomic_load(&rtg_emit_on)) return;
  if (!rtg_file_open()) {
    atomic_store(&rtg_emit_on, 0);
    return;
  }
  rtg_writer_start_later();
}
