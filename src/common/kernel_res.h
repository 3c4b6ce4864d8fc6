/* A kernel's resources: what its kernel descriptor says of registers, as
 * rocprofiler-sdk decodes them (so rtg's numbers are rocprofv3's), and the
 * occupancy limits they set on a GPU of that architecture.  Shared by the
 * tracer (decoding at an executable's freeze) and rtg-convert (--stats,
 * --analyze). */
#ifndef RTG_KERNEL_RES_H
#define RTG_KERNEL_RES_H

#include <stdbool.h>
#include <stdint.h>

/* The words of a code object v3+ kernel descriptor (llvm::amdhsa::
 * kernel_descriptor_t, 64 bytes) that hold the register counts. */
typedef struct rtg_kernel_desc {
  uint32_t rsrc1, rsrc2, rsrc3;
  uint16_t properties; /* kernel_code_properties */
} rtg_kernel_desc;

/* The descriptor's words from its 64 bytes at kd (bytes 44..57). */
rtg_kernel_desc rtg_kernel_desc_read(const void *kd);

typedef struct rtg_kernel_regs {
  uint32_t arch_vgpr, accum_vgpr, sgpr, wavefront;
} rtg_kernel_regs;

/* Registers per work-item (VGPRs, AGPRs) and per wave (SGPRs) as
 * rocprofiler-sdk reports them for an agent named arch ("gfx90a"), in
 * allocation granules: false for a name without a gfx number. */
bool rtg_kernel_regs_decode(const char *arch, rtg_kernel_desc d, rtg_kernel_regs *out);

/* Waves a SIMD can hold of one kernel, and what limits it. */
typedef struct rtg_occupancy {
  uint32_t max_waves;                /* the architecture's wave slots per SIMD */
  uint32_t by_vgpr, by_sgpr, by_lds; /* each resource's limit (max_waves: none) */
  uint32_t waves;                    /* the least of them */
  const char *limit;                 /* "VGPR", "SGPR", "LDS" or "none" */
} rtg_occupancy;

/* Occupancy of a kernel with these registers (rtg_kernel_regs_decode's
 * units), lds bytes of group segment per workgroup and wg work-items per
 * workgroup on arch: false when arch is not a gfx9, gfx10, gfx11 or gfx12
 * name. */
bool rtg_occupancy_of(const char *arch, const rtg_kernel_regs *r, uint64_t lds, uint64_t wg,
                      rtg_occupancy *out);

#endif
