/* thunk6.c - the thunk entry points ROCR 6.x imports that 5.x did not (ROCR
 * 6.1.2 imports 55 hsaKmt* functions, 16 of them new), and libdrm_amdgpu's
 * amdgpu_query_gpu_info. Built only against a 6.x hsakmt.h (SIM_HSAKMT_6).
 *
 * What ROCR 6.1 does with them: event waits go through the _Ext variants
 * (the age is used only from KFD 1.14 on, we say 1.12: plain waits);
 * hsaKmtAvailableMemory sizes scratch (it asserts on failure);
 * hsaKmtGetRuntimeCapabilities follows hsaKmtRuntimeEnable; each GPU agent
 * asks hsaKmtGetAMDGPUDeviceHandle for a libdrm device and reads the GPU's
 * counter frequency with amdgpu_query_gpu_info ("Agent creation failed.
 * libdrm query failed." without it). Debugger, SPM, SMI events, dma-buf
 * export and ASan header pages are not simulated: NOT_SUPPORTED, which ROCR
 * copes with. */
#define _GNU_SOURCE
#include "sim.h"

#if SIM_HSAKMT_6

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent_Ext(HsaEvent *ev, HSAuint32 ms, uint64_t *age) {
  (void)age;
  return hsaKmtWaitOnEvent(ev, ms);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents_Ext(HsaEvent *evs[], HSAuint32 n, bool all,
                                                       HSAuint32 ms, uint64_t *age) {
  (void)age;
  return hsaKmtWaitOnMultipleEvents(evs, n, all, ms);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtAvailableMemory(HSAuint32 node, HSAuint64 *bytes) {
  sim_config_load();
  if (!sim_is_gpu_node(node)) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  *bytes = sim_cfg.vram;
  return HSAKMT_STATUS_SUCCESS;
}

/* No debugger support (as hsaKmtRuntimeEnable says): no capability bits. */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetRuntimeCapabilities(HSAuint32 *caps) {
  *caps = 0;
  return HSAKMT_STATUS_SUCCESS;
}

/* The "libdrm device" of a GPU node: a token amdgpu_query_gpu_info below
 * recognises. libhsakmt is ROCR's first DT_NEEDED, so our definition of that
 * libdrm_amdgpu function is the one ROCR binds to. */
typedef struct sim_drm_device {
  uint32_t magic, gpu;
} sim_drm_device_t;
#define SIM_DRM_MAGIC 0x5349444du /* "SIDM" */
static sim_drm_device_t drm_devices[SIM_MAX_GPUS];

HSAKMT_STATUS HSAKMTAPI hsaKmtGetAMDGPUDeviceHandle(HSAuint32 node, HsaAMDGPUDeviceHandle *h) {
  sim_config_load();
  if (!sim_is_gpu_node(node)) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  drm_devices[node - 1].magic = SIM_DRM_MAGIC;
  drm_devices[node - 1].gpu = node - 1;
  *h = &drm_devices[node - 1];
  return HSAKMT_STATUS_SUCCESS;
}

SIM_EXPORT int amdgpu_query_gpu_info(void *dev, sim_amdgpu_gpu_info_t *info) {
  const sim_drm_device_t *d = dev;
  if (!d || !info || d->magic != SIM_DRM_MAGIC) return -22; /* -EINVAL, as libdrm */
  sim_amdgpu_gpu_info(d->gpu, info);
  return 0;
}

#define UNSUPPORTED(name)                                                                          \
  do {                                                                                             \
    SIM_LOG("%s: not supported\n", name);                                                          \
    return HSAKMT_STATUS_NOT_SUPPORTED;                                                            \
  } while (0)

HSAKMT_STATUS HSAKMTAPI hsaKmtDbgEnable(void **info, HSAuint32 *size) {
  (void)info, (void)size;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDbgDisable(void) {
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDbgGetDeviceData(void **data, HSAuint32 *n, HSAuint32 *size) {
  (void)data, (void)n, (void)size;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDbgGetQueueData(void **data, HSAuint32 *n, HSAuint32 *size,
                                              bool suspend) {
  (void)data, (void)n, (void)size, (void)suspend;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSPMAcquire(HSAuint32 node) {
  (void)node;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSPMRelease(HSAuint32 node) {
  (void)node;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSPMSetDestBuffer(HSAuint32 node, HSAuint32 size, HSAuint32 *timeout,
                                               HSAuint32 *copied, void *dst, bool *lost) {
  (void)node, (void)size, (void)timeout, (void)copied, (void)dst, (void)lost;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtOpenSMI(HSAuint32 node, int *fd) {
  (void)node, (void)fd;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtExportDMABufHandle(void *addr, HSAuint64 size, int *fd,
                                                 HSAuint64 *offset) {
  (void)addr, (void)size, (void)fd, (void)offset;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtReplaceAsanHeaderPage(void *addr) {
  (void)addr;
  UNSUPPORTED(__func__);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtReturnAsanHeaderPage(void *addr) {
  (void)addr;
  UNSUPPORTED(__func__);
}

#endif
