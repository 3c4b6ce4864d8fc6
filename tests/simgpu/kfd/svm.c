/* svm.c - KFD's SVM API (AMDKFD_IOC_SVM), as far as the thunk uses it with
 * XNACK off: registering host memory (hsaKmtRegisterMemory: a range's
 * coherence flags), mapping it to GPUs (its access attributes) and ROCR's
 * hsa_amd_svm_attributes_set/_get.  GPU addresses are CPU addresses here, so
 * nothing moves: a range given attributes only becomes memory the engines
 * may touch (memory.c's list, for sim_mem_valid).  The thunk deregisters SVM
 * memory without telling KFD, so a range stays listed; a query answers
 * what a range with no attributes of its own has (locations undefined, no
 * flags, the default granularity). */
#include <errno.h>
#include <stdint.h>

#include "kfdsim.h"

struct svm_attribute {
  uint32_t type, value;
};
struct svm_args {
  uint64_t start_addr, size;
  uint32_t op, nattr;
  struct svm_attribute attrs[];
};
enum { OP_SET_ATTR = 0, OP_GET_ATTR = 1 };
enum {
  ATTR_PREFERRED_LOC,
  ATTR_PREFETCH_LOC,
  ATTR_ACCESS,
  ATTR_ACCESS_IN_PLACE,
  ATTR_NO_ACCESS,
  ATTR_SET_FLAGS,
  ATTR_CLR_FLAGS,
  ATTR_GRANULARITY
};
#define LOCATION_UNDEFINED 0xffffffffu
#define DEFAULT_GRANULARITY 9 /* 2 MiB: 2^9 pages */

int kfdsim_svm(void *arg) {
  struct svm_args *a = arg;
  if (!a->size || (a->start_addr | a->size) & 4095) return -EINVAL;
  if (a->op == OP_SET_ATTR) return kfdsim_svm_range(a->start_addr, a->size);
  if (a->op != OP_GET_ATTR) return -EINVAL;
  for (uint32_t i = 0; i < a->nattr; i++) switch (a->attrs[i].type) {
    case ATTR_PREFERRED_LOC:
    case ATTR_PREFETCH_LOC:
      a->attrs[i].value = LOCATION_UNDEFINED;
      break;
    case ATTR_SET_FLAGS:
      a->attrs[i].value = 0;
      break;
    case ATTR_GRANULARITY:
      a->attrs[i].value = DEFAULT_GRANULARITY;
      break;
    default: /* access: the gpu_id asked about stays as it was asked */
      break;
    }
  return 0;
}
