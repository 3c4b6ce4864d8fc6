/* drm/drm.h stand-in for systems whose kernel headers lack it (Debian 12's
 * linux-libc-dev ships <linux/kfd_ioctl.h> but not <drm/drm.h>, which it
 * includes only for the kernel's integer types). Searched after the system
 * directories (-idirafter), so a real drm.h always wins. */
#ifndef SIMGPU_COMPAT_DRM_H
#define SIMGPU_COMPAT_DRM_H
#include <linux/types.h>
#endif
