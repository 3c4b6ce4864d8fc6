/* Registers from a kernel descriptor, and the occupancy they allow.
 *
 * Registers: as rocprofiler-sdk decodes them (arch_vgpr_count,
 * accum_vgpr_count and sgpr_count in its
 * source/lib/rocprofiler-sdk/code_object/code_object.cpp), so that --csv
 * gives rocprofv3's numbers:
 *   arch VGPRs   gfx90a, gfx94x, gfx95x: (rsrc3.ACCUM_OFFSET + 1) * 4
 *                else: (rsrc1.GRANULATED_WORKITEM_VGPR_COUNT + 1) * (wave32 ? 8 : 4)
 *   accum VGPRs  gfx908: the arch count (a second file of the same size);
 *                gfx90a, gfx94x, gfx95x: (rsrc1.GRANULATED_WORKITEM_VGPR_COUNT + 1) * 8 - arch
 *                (the unified file's allocation past the AGPRs' offset); else 0
 *   SGPRs        gfx10 and later: 128 (always allocated);
 *                else (rsrc1.GRANULATED_WAVEFRONT_SGPR_COUNT / 2 + 1) * 16
 * (ACCUM_OFFSET: rsrc3 bits 0-5; GRANULATED_WORKITEM_VGPR_COUNT: rsrc1 bits
 * 0-5; GRANULATED_WAVEFRONT_SGPR_COUNT: rsrc1 bits 6-9; wave32:
 * kernel_code_properties bit 10.)  gfx95x is decoded as gfx94x: the same
 * unified register file.
 *
 * Occupancy: waves per SIMD as LLVM's AMDGPU backend bounds them
 * (llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp: getMaxWavesPerEU,
 * getNumWavesPerEUWithNumVGPRs, getOccupancyWithNumSGPRs; GCNSubtarget's
 * LDS bound):
 *   slots   gfx90a/94x/95x 8, other gfx9 10, gfx10.1 20, gfx10.3 and later 16
 *   VGPRs   min(slots, file / roundup(vgprs, granule)), vgprs being arch +
 *           accum on the unified files (gfx90a/94x/95x: file 512, granule 8),
 *           the larger of the two on gfx908 (256 each, granule 4), arch
 *           elsewhere (gfx9 256 granule 4; gfx10+ wave32 1024 granule 8,
 *           wave64 512 granule 4; gfx1100/1101/1151 1.5 times those)
 *   SGPRs   gfx9: <= 80: 10, <= 88: 9, <= 100: 8, else 7; gfx10+: no limit
 *   LDS     workgroups per CU = LDS per CU (64 KiB; gfx950 160 KiB) / LDS
 *           per workgroup, times the workgroup's waves, over the CU's SIMDs
 *           (4; 2 per CU on gfx10+ in CU mode, counted as 4 of a WGP with
 *           twice the LDS) */
#include "kernel_res.h"

#include <stdlib.h>
#include <string.h>

rtg_kernel_desc rtg_kernel_desc_read(const void *kd) {
  const unsigned char *b = kd;
  rtg_kernel_desc d;
  memcpy(&d.rsrc3, b + 44, 4);
  memcpy(&d.rsrc1, b + 48, 4);
  memcpy(&d.rsrc2, b + 52, 4);
  memcpy(&d.properties, b + 56, 2);
  return d;
}

/* The gfx number of an agent name ("gfx90a" -> 90, "gfx1030" -> 1030, as
 * rocprofiler-sdk reads it: the first run of digits), 0 when none. */
static unsigned gfx_number(const char *arch) {
  if (!arch) return 0;
  const char *p = arch;
  while (*p && (*p < '0' || *p > '9')) p++;
  if (!*p) return 0;
  return (unsigned)strtoul(p, NULL, 10);
}

/* An LLVM processor name's major version and minor digit: "gfx90a" ->
 * 9, 0; "gfx1030" -> 10, 3 (gfx{major}{minor}{stepping}, the last two one
 * hex digit each); false for other names. */
static bool gfx_version(const char *arch, unsigned *major, unsigned *minor) {
  if (!arch || strncmp(arch, "gfx", 3)) return false;
  const char *v = arch + 3;
  size_t n = strcspn(v, ":");
  if (n < 3 || n > 4) return false;
  unsigned m = 0;
  for (size_t i = 0; i + 2 < n; i++) {
    if (v[i] < '0' || v[i] > '9') return false;
    m = m * 10 + (unsigned)(v[i] - '0');
  }
  char c = v[n - 2];
  *major = m;
  *minor = c >= '0' && c <= '9' ? (unsigned)(c - '0') : 0;
  return true;
}

static bool prefix(const char *s, const char *p) {
  return s && !strncmp(s, p, strlen(p));
}

/* gfx90a, gfx94x, gfx95x: one register file for VGPRs and AGPRs. */
static bool unified(const char *arch) {
  return (arch && !strcmp(arch, "gfx90a")) || prefix(arch, "gfx94") || prefix(arch, "gfx95");
}

bool rtg_kernel_regs_decode(const char *arch, rtg_kernel_desc d, rtg_kernel_regs *out) {
  unsigned n = gfx_number(arch);
  if (!n) return false;
  bool wave32 = (d.properties >> 10) & 1;
  uint32_t vgpr_g = d.rsrc1 & 0x3f, sgpr_g = (d.rsrc1 >> 6) & 0xf;
  out->wavefront = wave32 ? 32 : 64;
  if (unified(arch)) {
    out->arch_vgpr = ((d.rsrc3 & 0x3f) + 1) * 4;
    uint32_t total = (vgpr_g + 1) * 8;
    out->accum_vgpr = total > out->arch_vgpr ? total - out->arch_vgpr : 0;
  } else {
    out->arch_vgpr = (vgpr_g + 1) * (wave32 ? 8 : 4);
    out->accum_vgpr = !strcmp(arch, "gfx908") ? out->arch_vgpr : 0;
  }
  out->sgpr = n >= 1000 ? 128 : (sgpr_g / 2 + 1) * 16;
  return true;
}

static uint32_t roundup(uint32_t v, uint32_t g) {
  return (v + g - 1) / g * g;
}

static uint32_t min_u32(uint32_t a, uint32_t b) {
  return a < b ? a : b;
}

bool rtg_occupancy_of(const char *arch, const rtg_kernel_regs *r, uint64_t lds, uint64_t wg,
                      rtg_occupancy *out) {
  unsigned major, minor;
  if (!gfx_version(arch, &major, &minor) || major < 9 || major > 12) return false;
  unsigned n = gfx_number(arch);
  bool gfx10plus = major >= 10;
  bool wave32 = r->wavefront == 32;
  uint32_t slots = unified(arch) ? 8 : !gfx10plus ? 10 : (major == 10 && minor < 3) ? 20 : 16;
  /* VGPRs */
  uint32_t file, granule, vgprs;
  if (unified(arch)) {
    file = 512, granule = 8, vgprs = r->arch_vgpr + r->accum_vgpr;
  } else if (!gfx10plus) {
    file = 256, granule = 4;
    vgprs = r->accum_vgpr > r->arch_vgpr ? r->accum_vgpr : r->arch_vgpr;
  } else {
    file = wave32 ? 1024 : 512, granule = wave32 ? 8 : 4, vgprs = r->arch_vgpr;
    if (n == 1100 || n == 1101 || n == 1151) file = file * 3 / 2, granule = granule * 3;
  }
  uint32_t by_vgpr = slots;
  if (vgprs >= granule) {
    by_vgpr = file / roundup(vgprs, granule);
    by_vgpr = min_u32(by_vgpr ? by_vgpr : 1, slots);
  }
  /* SGPRs */
  uint32_t by_sgpr = slots;
  if (!gfx10plus)
    by_sgpr = min_u32(slots, r->sgpr <= 80 ? 10 : r->sgpr <= 88 ? 9 : r->sgpr <= 100 ? 8 : 7);
  /* LDS */
  uint32_t by_lds = slots;
  uint64_t lds_cu = prefix(arch, "gfx950") ? 160 * 1024 : gfx10plus ? 128 * 1024 : 64 * 1024;
  if (lds && wg) {
    uint32_t wave = r->wavefront ? r->wavefront : 64;
    uint64_t waves_wg = (wg + wave - 1) / wave;
    uint64_t groups = lds_cu / lds;
    uint64_t w = groups * waves_wg / 4;
    if (groups && !w) w = 1;
    by_lds = (uint32_t)(w < slots ? w : slots);
  }
  out->max_waves = slots;
  out->by_vgpr = by_vgpr, out->by_sgpr = by_sgpr, out->by_lds = by_lds;
  out->waves = min_u32(min_u32(by_vgpr, by_sgpr), by_lds);
  out->limit = out->waves == slots     ? "none"
               : out->waves == by_vgpr ? "VGPR"
               : out->waves == by_sgpr ? "SGPR"
                                       : "LDS";
  return true;
}
