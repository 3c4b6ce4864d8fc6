/* libamdhip64.so.tp: a stand-in with HIP's file name whose calls map and
 * unmap memory as HIP 6.4's managed memory does (rocclr's Os::reserveMemory
 * and releaseMemory: anonymous mmap, then SVM attributes on the range;
 * munmap at the free); tp_managed_os loads it before HSA starts.  The
 * tracer watches the mmap and munmap of an object of that name alone. */
#include <errno.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stddef.h>
#include <sys/mman.h>

void *tp_hip_managed(size_t size);
int tp_hip_advise(void *p, size_t size);
int tp_hip_free(void *p, size_t size);
int tp_hip_errno_kept(void);

/* As hipMallocManaged: NULL when the runtime refuses the attributes. */
void *tp_hip_managed(size_t size) {
  void *p =
      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  return tp_hip_advise(p, size) ? NULL : p;
}

/* As hipMemAdvise: SVM attributes set again on the range. */
int tp_hip_advise(void *p, size_t size) {
  hsa_amd_svm_attribute_pair_t a = {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG,
                                    HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED};
  return hsa_amd_svm_attributes_set(p, size, &a, 1) != HSA_STATUS_SUCCESS;
}

int tp_hip_free(void *p, size_t size) {
  return munmap(p, size);
}

/* Calls that fail return and set errno as untraced: 1 when they do. */
int tp_hip_errno_kept(void) {
  errno = 0;
  int bad = munmap((void *)4097, 1) != -1 || errno != EINVAL;
  errno = 0;
  bad |=
      mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED || errno != EINVAL;
  return !bad;
}
