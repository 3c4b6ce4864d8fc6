/* hostview.h - what the host shows of the simulated GPUs besides the driver
 * interface, shared by both front ends (each is LD_PRELOADed for it):
 *   files.c  open/fopen/opendir/access/stat/readlink: /dev/kfd and the
 *            render nodes /dev/dri/renderD<128 + n> are memfds; the paths
 *            sysfs.c generates are served from its tree; anything else goes
 *            to libc untouched
 *   sysfs.c  the generated tree: the KFD topology, a DRM card and render
 *            node per GPU in /sys/class/drm with its PCI device directory
 *            (vendor, device, unique_id), /sys/module/amdgpu, and copies of
 *            /proc/cpuinfo and /proc/modules naming the simulated hardware
 * That is what ROCR's built-in thunk, rocminfo and ROCm SMI (rocm_smi_lib,
 * as rocBLAS and amd-smi use it) read to enumerate devices. */
#ifndef SIMGPU_HOSTVIEW_H
#define SIMGPU_HOSTVIEW_H

#include "sim_core.h"

/* GPU n (0-based) is topology node n + 1 with this gpu_id (KFD's are
 * hashes; any non-zero value unique per GPU does), on PCI bus 3 + n. */
#define SIM_GPU_ID_BASE 0x1000u
#define SIM_PCI_BUS0 3u
#define SIM_RENDER_MINOR0 128u
#define SIM_UNIQUE_ID0 0x5157a11e0000001ull /* KFD's unique_id, sysfs's too */

/* ---- files.c ---- */
int sim_is_kfd_fd(int fd);
int sim_render_gpu(int fd);   /* GPU of a render node fd, -1 if none */
int sim_is_device_fd(int fd); /* /dev/kfd, a render node, or a dup */
int sim_real_open(const char *path, int flags, unsigned mode); /* libc's */

/* ---- sysfs.c: the directory of the generated tree, NULL if it cannot be
 * written ---- */
const char *sim_sysfs_dir(void);

#endif
