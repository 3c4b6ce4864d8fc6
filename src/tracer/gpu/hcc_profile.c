/* HCC_PROFILE=2: the legacy "profile:" line of each finished GPU op, as
 * the original tracer wrote it for `rpt` (writer in src/common/hcc_profile.c).
 * Kernels are named by their raw symbol (".kd" kept) or, with
 * RTG_KERNEL_RENAME, by the ROCTx range they were submitted in; barriers have no
 * name, copies are named by direction and carry bytes, MB and GB/s.  The
 * line is made by the writer thread from what the entry keeps. */
#include "hcc_profile.h"
#include "hsa/hsa_side.h"

#include <string.h>

typedef struct profile_entry {
  const char *type, *name; /* static, or kept until exit (kernel names, ranges) */
  uint64_t start, stop, bytes, seq;
  uint32_t device, queue;
} profile_entry;

static size_t format_profile(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                             uint64_t tid) {
  (void)pid, (void)tid;
  profile_entry e;
  if (len != sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  char extra[160] = "";
  if (!strcmp(e.type, "copy") &&
      !rtg_hcc_profile_copy_extra(extra, sizeof extra, e.bytes, e.start, e.stop))
    extra[0] = 0;
  return rtg_hcc_profile_format(out, cap, e.type, e.name, e.start, e.stop, e.device, e.queue, e.seq,
                                extra);
}

void rtg_hcc_profile_emit(const rtg_op *op, uint64_t start, uint64_t stop) {
  profile_entry e = {.start = start,
                     .stop = stop,
                     .bytes = op->bytes,
                     .seq = op->seq,
                     .device = rtg_agent_hcc_device(op->agent),
                     .queue = op->agent_queue};
  if (op->kind == RTG_OP_DISPATCH) {
    e.type = "kernel";
    e.name = op->rename ? op->rename : rtg_kernel_name_of(op->kernel_object).symbol;
  } else if (op->kind == RTG_OP_COPY) {
    e.type = "copy";
    e.name = op->copy_kind;
  } else {
    e.type = "barrier";
    e.name = "";
  }
  rtg_emit_entry_keep(format_profile, &e, sizeof e); /* GPU records are never dropped */
}
