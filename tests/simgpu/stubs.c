/* stubs.c - driver services simgpu does not simulate: IPC and shared memory,
 * SVM attributes, graphics interop. ROCR copes with NOT_SUPPORTED for all. */
#include "sim.h"

#define UNSUPPORTED(name)                                                                          \
  do {                                                                                             \
    SIM_LOG("%s: not supported\n", name);                                                          \
    return HSAKMT_STATUS_NOT_SUPPORTED;                                                            \
  } while (0)

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 handle,
                                                            HsaGraphicsResourceInfo *info,
                                                            HSAuint64 n, HSAuint32 *nodes) {
  (void)handle, (void)info, (void)n, (void)nodes;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle *h, void **addr,
                                                   HSAuint64 *size) {
  (void)h, (void)addr, (void)size;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle *h,
                                                          void **addr, HSAuint64 *size, HSAuint64 n,
                                                          HSAuint32 *nodes) {
  (void)h, (void)addr, (void)size, (void)n, (void)nodes;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtShareMemory(void *addr, HSAuint64 size, HsaSharedMemoryHandle *h) {
  (void)addr, (void)size, (void)h;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSVMGetAttr(void *addr, HSAuint64 size, unsigned int n,
                                         HSA_SVM_ATTRIBUTE *attrs) {
  (void)addr, (void)size, (void)n, (void)attrs;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSVMSetAttr(void *addr, HSAuint64 size, unsigned int n,
                                         HSA_SVM_ATTRIBUTE *attrs) {
  (void)addr, (void)size, (void)n, (void)attrs;
  UNSUPPORTED(__func__);
}
