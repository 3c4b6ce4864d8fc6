/* gpu_facts.c - what a simulated GPU of a given gfx target reports, shared by
 * the thunk's node properties (topology.c) and the kernel driver's sysfs
 * topology (sysfs.c, for both front ends), so they describe the same card. */
#define _GNU_SOURCE
#include <string.h>

#include "sim_core.h"

uint32_t sim_device_id(const sim_gfx_t *g) {
  if (g->major == 10) return g->minor == 1 ? 0x731f : 0x73bf; /* Navi10, Navi21 */
  switch (g->stepping) {
  case 0:
    return 0x6860; /* Vega10 */
  case 6:
    return 0x66a1; /* Vega20 */
  case 8:
    return 0x738c; /* MI100 */
  default:
    return 0x740f; /* MI210 */
  }
}

/* AMDGPU_FAMILY_AI (gfx9) and _NV (gfx10) of the kernel's amdgpu_drm.h:
 * ROCR >= 6 reads it from the node (FamilyID) and from libdrm. */
uint32_t sim_family_id(const sim_gfx_t *g) {
  return g->major >= 10 ? 143 : 141;
}

uint32_t sim_wave_size(const sim_gfx_t *g) {
  return g->major >= 10 ? 32 : 64;
}

uint32_t sim_max_waves_per_simd(const sim_gfx_t *g) {
  return (g->major == 9 && g->stepping == 10) ? 8 : 10;
}

int sim_sram_ecc(const sim_gfx_t *g) {
  return g->major == 9 && g->stepping >= 6;
}

void sim_marketing_name(const sim_gfx_t *g, char *buf, size_t n) {
  snprintf(buf, n, "Simulated AMD GPU (gfx%d%d%x)", g->major, g->minor, g->stepping);
}

/* The prefix of libdrm's struct amdgpu_gpu_info that ROCR reads (up to
 * gpu_counter_freq, which gives the wall clock of the GPU's timestamps). */
void sim_amdgpu_gpu_info(uint32_t gpu, sim_amdgpu_gpu_info_t *info) {
  sim_config_load();
  const sim_gfx_t *g = &sim_cfg.gfx[gpu < SIM_MAX_GPUS ? gpu : 0];
  memset(info, 0, sizeof *info);
  info->asic_id = sim_device_id(g);
  info->family_id = sim_family_id(g);
  info->max_engine_clk = 1700000; /* kHz */
  info->max_memory_clk = 1600000;
  info->num_shader_engines = 8;
  info->num_shader_arrays_per_engine = 1;
  info->gpu_counter_freq = 1000000; /* kHz: the 1 GHz of the clock counters */
}
