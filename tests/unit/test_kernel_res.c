/* Kernel resources (src/common/kernel_res.c): registers decoded from a
 * kernel descriptor as rocprofiler-sdk decodes them, on each family of
 * register files, and the occupancy limits LLVM's AMDGPU backend gives
 * for them. */
#include <string.h>

#include "check.h"
#include "kernel_res.h"

static rtg_kernel_desc desc(uint32_t rsrc1, uint32_t rsrc3, uint16_t props) {
  unsigned char kd[64];
  memset(kd, 0, sizeof kd);
  memcpy(kd + 44, &rsrc3, 4);
  memcpy(kd + 48, &rsrc1, 4);
  memcpy(kd + 56, &props, 2);
  return rtg_kernel_desc_read(kd);
}

static rtg_kernel_regs regs(const char *arch, rtg_kernel_desc d) {
  rtg_kernel_regs r = {0, 0, 0, 0};
  CHECK(rtg_kernel_regs_decode(arch, d, &r));
  return r;
}

static void test_decode(void) {
  /* gfx90a: AGPRs after ACCUM_OFFSET in one file (rocprofiler-sdk's own
   * test vector: rsrc3 7, rsrc1 5 | 6 << 6 -> 32, 16, 64) */
  rtg_kernel_regs r = regs("gfx90a", desc(5 | 6 << 6, 7, 0));
  CHECK_U64(r.arch_vgpr, 32);
  CHECK_U64(r.accum_vgpr, 16);
  CHECK_U64(r.sgpr, 64);
  CHECK_U64(r.wavefront, 64);
  /* gfx942 decodes the same; gfx950 too */
  r = regs("gfx942", desc(5 | 6 << 6, 7, 0));
  CHECK_U64(r.arch_vgpr, 32);
  CHECK_U64(r.accum_vgpr, 16);
  r = regs("gfx950", desc(5 | 6 << 6, 7, 0));
  CHECK_U64(r.accum_vgpr, 16);
  /* gfx908: a second file of the arch count */
  r = regs("gfx908", desc(9 | 2 << 6, 0, 0));
  CHECK_U64(r.arch_vgpr, 40);
  CHECK_U64(r.accum_vgpr, 40);
  CHECK_U64(r.sgpr, 32);
  /* gfx906: no AGPRs */
  r = regs("gfx906", desc(9 | 1 << 6, 0, 0));
  CHECK_U64(r.arch_vgpr, 40);
  CHECK_U64(r.accum_vgpr, 0);
  CHECK_U64(r.sgpr, 16);
  /* gfx1151 in wave32: granules of 8, 128 SGPRs always */
  r = regs("gfx1151", desc(4 | 3 << 6, 0, 1u << 10));
  CHECK_U64(r.arch_vgpr, 40);
  CHECK_U64(r.accum_vgpr, 0);
  CHECK_U64(r.sgpr, 128);
  CHECK_U64(r.wavefront, 32);
  /* a name without a number: nothing */
  rtg_kernel_regs z;
  CHECK(!rtg_kernel_regs_decode("cpu", desc(0, 0, 0), &z));
  CHECK(!rtg_kernel_regs_decode(NULL, desc(0, 0, 0), &z));
}

static void test_occupancy(void) {
  rtg_occupancy o;
  /* gfx90a: 8 slots; 104 VGPRs -> 512 / 104 = 4 */
  rtg_kernel_regs r = {104, 0, 16, 64};
  CHECK(rtg_occupancy_of("gfx90a", &r, 0, 256, &o));
  CHECK_U64(o.max_waves, 8);
  CHECK_U64(o.by_vgpr, 4);
  CHECK_U64(o.by_sgpr, 8);
  CHECK_U64(o.by_lds, 8);
  CHECK_U64(o.waves, 4);
  CHECK_STR(o.limit, "VGPR");
  /* arch and accum share the file: 4 + 12 = 16 -> 32, capped at 8 */
  r = (rtg_kernel_regs){4, 12, 16, 64};
  CHECK(rtg_occupancy_of("gfx90a", &r, 0, 256, &o));
  CHECK_U64(o.waves, 8);
  CHECK_STR(o.limit, "none");
  /* 64 + 64: 512 / 128 = 4 */
  r = (rtg_kernel_regs){64, 64, 16, 64};
  CHECK(rtg_occupancy_of("gfx90a", &r, 0, 256, &o));
  CHECK_U64(o.by_vgpr, 4);
  /* LDS: 40 KiB a workgroup of 4 waves -> 1 group a CU, 1 wave a SIMD */
  r = (rtg_kernel_regs){8, 0, 16, 64};
  CHECK(rtg_occupancy_of("gfx90a", &r, 40960, 256, &o));
  CHECK_U64(o.by_lds, 1);
  CHECK_STR(o.limit, "LDS");
  /* 4 KiB a workgroup of 16 waves: 16 groups -> 64 waves a SIMD, capped */
  CHECK(rtg_occupancy_of("gfx90a", &r, 4096, 1024, &o));
  CHECK_U64(o.by_lds, 8);
  /* gfx906: 10 slots, SGPR steps at 80, 88, 100 */
  r = (rtg_kernel_regs){24, 0, 96, 64};
  CHECK(rtg_occupancy_of("gfx906", &r, 0, 64, &o));
  CHECK_U64(o.max_waves, 10);
  CHECK_U64(o.by_vgpr, 10);
  CHECK_U64(o.by_sgpr, 8);
  CHECK_STR(o.limit, "SGPR");
  r.sgpr = 80;
  CHECK(rtg_occupancy_of("gfx906", &r, 0, 64, &o));
  CHECK_U64(o.by_sgpr, 10);
  r.sgpr = 112;
  CHECK(rtg_occupancy_of("gfx906", &r, 0, 64, &o));
  CHECK_U64(o.by_sgpr, 7);
  /* gfx908: the larger of the two files: 256 / 128 = 2 */
  r = (rtg_kernel_regs){128, 128, 16, 64};
  CHECK(rtg_occupancy_of("gfx908", &r, 0, 64, &o));
  CHECK_U64(o.by_vgpr, 2);
  /* gfx1030 wave32: 16 slots, 1024 / 64 = 16, SGPRs no limit */
  r = (rtg_kernel_regs){64, 0, 128, 32};
  CHECK(rtg_occupancy_of("gfx1030", &r, 0, 64, &o));
  CHECK_U64(o.max_waves, 16);
  CHECK_U64(o.by_vgpr, 16);
  CHECK_U64(o.by_sgpr, 16);
  /* a name it does not know */
  CHECK(!rtg_occupancy_of("gfx803", &r, 0, 64, &o));
  CHECK(!rtg_occupancy_of("cpu", &r, 0, 64, &o));
}

int main(void) {
  test_decode();
  test_occupancy();
  return check_done("test_kernel_res");
}
