/* topology.c - what the system looks like: node 0 is the host CPU, nodes
 * 1..SIMGPU_GPUS are GPUs, each linked to the CPU by PCIe. The values are
 * those of a real card of the chosen gfx target where ROCR or HIP uses them
 * (wave size, CU count, memory heaps, caches, SDMA engines, doorbell type). */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "sim.h"

/* Private apertures ROCR only reserves, never touches on the host. */
static const uint64_t kLdsBase = 0x1000000000000ull;
static const uint64_t kScratchBase = 0x2000000000000ull;

static uint32_t num_nodes(void) {
  sim_config_load();
  return sim_cfg.gpus + 1;
}

static const sim_gfx_t *gfx_of(uint32_t node) {
  return &sim_cfg.gfx[node - 1];
}

HSAKMT_STATUS HSAKMTAPI hsaKmtAcquireSystemProperties(HsaSystemProperties *p) {
  memset(p, 0, sizeof *p);
  p->NumNodes = num_nodes();
  p->PlatformOem = 0x414d44; /* "AMD" */
  p->PlatformId = 0x53494d;  /* "SIM" */
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtReleaseSystemProperties(void) {
  return HSAKMT_STATUS_SUCCESS;
}

static void set_name(HSAuint16 *dst, const char *s) {
  for (int i = 0; i < HSA_PUBLIC_NAME_SIZE - 1 && s[i]; i++) dst[i] = (HSAuint16)s[i];
}

static void cpu_node(HsaNodeProperties *p) {
  long nc = sysconf(_SC_NPROCESSORS_ONLN);
  p->NumCPUCores = nc > 0 ? (HSAuint32)nc : 1;
  p->CComputeIdLo = 0;
  p->NumMemoryBanks = 1;
  p->NumCaches = 3; /* ROCR asserts (CpuAgent::GetInfo) if a CPU has none */
  p->NumIOLinks = sim_cfg.gpus;
  p->MaxEngineClockMhzCCompute = 3000;
  set_name(p->MarketingName, "Simulated Host CPU");
}

static void gpu_node(uint32_t node, HsaNodeProperties *p) {
  const sim_gfx_t *g = gfx_of(node);
  uint32_t gpu = node - 1;
  p->NumFComputeCores = sim_cfg.cus * 4;
  p->NumSIMDPerCU = 4;
  p->NumMemoryBanks = 4; /* frame buffer, LDS, scratch, MMIO remap */
  p->NumCaches = 2;
  p->NumIOLinks = 1;
  p->FComputeIdLo = 0x80000000u + gpu * 0x1000;
  p->Capability.ui32.DoorbellType = 2; /* 64-bit AQL doorbells (SOC15) */
  p->Capability.ui32.QueueSizePowerOfTwo = 1;
  p->Capability.ui32.QueueSize32bit = 1;
  p->Capability.ui32.WatchPointsSupported = 1;
  p->Capability.ui32.WatchPointsTotalBits = 2;
  p->Capability.ui32.SRAM_EDCSupport = sim_sram_ecc(g);
  p->MaxWavesPerSIMD = sim_max_waves_per_simd(g);
  p->LDSSizeInKB = 64;
  p->WaveFrontSize = sim_wave_size(g);
  p->NumShaderBanks = 8;
  p->NumArrays = 1;
  p->NumCUPerArray = (sim_cfg.cus + 7) / 8;
  p->MaxSlotsScratchCU = 32;
  p->EngineId.ui32.uCode = 60;
  p->EngineId.ui32.Major = g->major;
  p->EngineId.ui32.Minor = g->minor;
  p->EngineId.ui32.Stepping = g->stepping;
  p->VendorId = 0x1002;
  p->DeviceId = sim_device_id(g);
  p->LocationId = (SIM_PCI_BUS0 + gpu) << 8; /* PCI bus 3, 4, ...: HIP tells devices apart by it */
  p->Domain = 0;
  p->LocalMemSize = sim_cfg.vram;
  p->MaxEngineClockMhzFCompute = 1700;
  p->MaxEngineClockMhzCCompute = 3000;
  p->DrmRenderMinor = SIM_RENDER_MINOR0 + gpu;
  char name[64];
  sim_marketing_name(g, name, sizeof name);
  set_name(p->MarketingName, name);
  snprintf((char *)p->AMDName, sizeof p->AMDName, "gfx%d%d%x", g->major, g->minor, g->stepping);
  p->uCodeEngineVersions.uCodeSDMA = 8;
  p->NumSdmaEngines = 2;
  p->NumSdmaXgmiEngines = 0;
  p->NumSdmaQueuesPerEngine = 8;
  p->NumCpQueues = 24;
  p->NumGws = 64;
  p->UniqueID = SIM_UNIQUE_ID0 + gpu;
  p->VGPRSizePerCU = 512 * 1024;
  p->SGPRSizePerCU = 800 * 4 * 4;
#if SIM_HSAKMT_6
  p->NumXcc = 1; /* ROCR 6 divides by it (scratch sizing, SEs per XCC) */
  p->KFDGpuID = SIM_GPU_ID_BASE + gpu;
  p->FamilyID = sim_family_id(g);
#endif
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeProperties(HSAuint32 node, HsaNodeProperties *p) {
  if (node >= num_nodes()) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  memset(p, 0, sizeof *p);
  if (node == SIM_CPU_NODE)
    cpu_node(p);
  else
    gpu_node(node, p);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeMemoryProperties(HSAuint32 node, HSAuint32 num,
                                                      HsaMemoryProperties *m) {
  if (node >= num_nodes()) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  memset(m, 0, sizeof(*m) * num);
  if (node == SIM_CPU_NODE) {
    if (num >= 1) {
      long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
      m[0].HeapType = HSA_HEAPTYPE_SYSTEM;
      m[0].SizeInBytes = (uint64_t)pages * (uint64_t)psize;
      m[0].Width = 64;
      m[0].MemoryClockMax = 3200;
    }
    return HSAKMT_STATUS_SUCCESS;
  }
  HsaMemoryProperties all[4];
  memset(all, 0, sizeof all);
  all[0].HeapType = HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC; /* large BAR: host sees VRAM */
  all[0].SizeInBytes = sim_cfg.vram;
  all[0].Width = 4096;
  all[0].MemoryClockMax = 1600;
  all[1].HeapType = HSA_HEAPTYPE_GPU_LDS;
  all[1].SizeInBytes = 64 * 1024;
  all[1].VirtualBaseAddress = kLdsBase;
  all[2].HeapType = HSA_HEAPTYPE_GPU_SCRATCH;
  all[2].SizeInBytes = 1ull << 32;
  all[2].VirtualBaseAddress = kScratchBase;
  all[3].HeapType = HSA_HEAPTYPE_MMIO_REMAP; /* the HDP flush registers SDMA pokes */
  all[3].SizeInBytes = 4096;
  all[3].VirtualBaseAddress = (uint64_t)(uintptr_t)sim_mmio_page();
  for (uint32_t i = 0; i < num && i < 4; i++) m[i] = all[i];
  return HSAKMT_STATUS_SUCCESS;
}

static void fill_cache(HsaCacheProperties *c, uint32_t proc, uint32_t level, uint32_t kb,
                       uint32_t line, int cpu) {
  c->ProcessorIdLow = proc;
  c->CacheLevel = level;
  c->CacheSize = kb;
  c->CacheLineSize = line;
  c->CacheLinesPerTag = 1;
  c->CacheAssociativity = cpu ? 8 : 16;
  c->CacheType.ui32.Data = 1;
  if (cpu)
    c->CacheType.ui32.CPU = 1;
  else
    c->CacheType.ui32.HSACU = 1;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeCacheProperties(HSAuint32 node, HSAuint32 proc, HSAuint32 num,
                                                     HsaCacheProperties *c) {
  if (node >= num_nodes()) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  if (!c || !num) return HSAKMT_STATUS_SUCCESS;
  memset(c, 0, sizeof(*c) * num);
  static const uint32_t cpu_kb[3] = {32, 512, 32768}, gpu_kb[2] = {16, 8192};
  for (uint32_t i = 0; i < num; i++) {
    if (node == SIM_CPU_NODE && i < 3)
      fill_cache(&c[i], proc, i + 1, cpu_kb[i], 64, 1);
    else if (node != SIM_CPU_NODE && i < 2)
      fill_cache(&c[i], proc, i + 1, gpu_kb[i], 128, 0);
  }
  return HSAKMT_STATUS_SUCCESS;
}

static void pcie_link(HsaIoLinkProperties *l, uint32_t from, uint32_t to) {
  l->IoLinkType = HSA_IOLINKTYPE_PCIEXPRESS;
  l->NodeFrom = from;
  l->NodeTo = to;
  l->Weight = 20;
  l->MinimumBandwidth = l->MaximumBandwidth = 32000;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetNodeIoLinkProperties(HSAuint32 node, HSAuint32 num,
                                                      HsaIoLinkProperties *l) {
  if (node >= num_nodes()) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  if (!l || !num) return HSAKMT_STATUS_SUCCESS;
  memset(l, 0, sizeof(*l) * num);
  if (node == SIM_CPU_NODE) {
    for (uint32_t i = 0; i < num && i < sim_cfg.gpus; i++) pcie_link(&l[i], SIM_CPU_NODE, i + 1);
  } else {
    pcie_link(&l[0], node, SIM_CPU_NODE);
  }
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetXNACKMode(HSAint32 *mode) {
  *mode = 0;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetXNACKMode(HSAint32 mode) {
  return mode ? HSAKMT_STATUS_NOT_SUPPORTED : HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetTileConfig(HSAuint32 node, HsaGpuTileConfig *config) {
  (void)node;
  config->NumTileConfigs = 0;
  config->NumMacroTileConfigs = 0;
  config->GbAddrConfig = 0;
  config->NumBanks = 0;
  config->NumRanks = 0;
  return HSAKMT_STATUS_SUCCESS;
}
