/* HCC_PROFILE=2: the legacy "profile:" line of each finished GPU op, as
 * the original tracer wrote it for `rpt` (writer in src/common/hcc_profile.c).
 * Kernels are named by their raw symbol (".kd" kept) or, with
 * RTG_KERNEL_RENAME, by the ROCTx range they were submitted in; barriers have no
 * name, copies are named by direction and carry bytes, MB and GB/s. */
#include "hcc_profile.h"
#include "hsa/hsa_side.h"

void rtg_hcc_profile_emit(const rtg_op *op, uint64_t start, uint64_t stop) {
  char buf[1024], extra[160] = "";
  const char *type, *name;
  if (op->kind == RTG_OP_DISPATCH) {
    type = "kernel";
    name = op->rename ? op->rename : rtg_kernel_name_of(op->kernel_object).symbol;
  } else if (op->kind == RTG_OP_COPY) {
    type = "copy";
    name = op->copy_kind;
    if (!rtg_hcc_profile_copy_extra(extra, sizeof extra, op->bytes, start, stop)) extra[0] = 0;
  } else {
    type = "barrier";
    name = "";
  }
  size_t n =
      rtg_hcc_profile_format(buf, sizeof buf, type, name, start, stop,
                             rtg_agent_hcc_device(op->agent), op->agent_queue, op->seq, extra);
  if (n) rtg_sink_push_keep(RTG_ENTRY_TEXT, buf, n); /* GPU records are never dropped */
}
