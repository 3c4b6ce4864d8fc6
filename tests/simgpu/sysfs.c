/* sysfs.c - the host view's tree (hostview.h): what sysfs and /proc show
 * of the simulated GPUs, with the values the thunk front end reports
 * (topology.c, gpu_facts.c):
 *   topology/      the KFD topology (/sys/devices/virtual/kfd/kfd/topology:
 *                  generation_id, system_properties, nodes/N/{gpu_id, name,
 *                  properties, mem_banks, caches, io_links})
 *   sys/class/drm/ cardN and renderD<128 + N>, links into each GPU's PCI
 *                  directory sys/devices/pci0000:00/0000:00:0M.0/0000:BB:00.0
 *                  (vendor, device, revision, class, unique_id, drm/), as
 *                  ROCm SMI enumerates devices: a card whose device/vendor
 *                  is 0x1002, matched to the KFD node of the same unique_id,
 *                  whose PCI address (the link's last bus-address component)
 *                  is the KFD node's location_id and domain
 *   sys/module/amdgpu/initstate   "live": rocminfo's check for the driver
 *   cpuinfo, modules   /proc/cpuinfo whose "model name" names the CPU agent,
 *                  /proc/modules with amdgpu (libkmod's list, rocminfo 5.x)
 *
 * The tree is written once per configuration into
 * $TMPDIR/simgpu-sysfs-<uid>-<hash of its contents> and kept: forked children,
 * exec'd programs and later runs with the same SIMGPU_* share it, and no
 * process removes a tree another one still reads. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostview.h"

typedef struct file {
  char path[128];
  char *text; /* a symbolic link's target, NULL for a directory */
  enum { F_REGULAR, F_LINK, F_DIR } kind;
} file_t;

static file_t files[512];
static int nfiles;

static void vadd(int kind, const char *path, const char *fmt, va_list ap) {
  if (nfiles == (int)(sizeof files / sizeof files[0])) return;
  file_t *f = &files[nfiles++];
  snprintf(f->path, sizeof f->path, "%s", path);
  f->kind = kind;
  if (!fmt || vasprintf(&f->text, fmt, ap) < 0) f->text = NULL;
}

/* A file, its contents printf-style. */
static void add(const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vadd(F_REGULAR, path, fmt, ap);
  va_end(ap);
}

/* A symbolic link, its target printf-style. */
static void add_link(const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vadd(F_LINK, path, fmt, ap);
  va_end(ap);
}

/* An empty directory (those with files need no entry). */
static void add_dir(const char *path, ...) {
  va_list ap;
  va_start(ap, path);
  vadd(F_DIR, path, NULL, ap);
  va_end(ap);
}

/* A copy of the host's /proc file `name`, each line through edit (which
 * returns the line to write), then `extra`. */
static void proc_copy(const char *name, const char *(*edit)(const char *line), const char *extra) {
  char path[64], *out = NULL, line[1024];
  snprintf(path, sizeof path, "/proc/%s", name);
  int fd = sim_real_open(path, O_RDONLY | O_CLOEXEC, 0);
  FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
  size_t n = 0;
  FILE *o = open_memstream(&out, &n);
  while (in && o && fgets(line, sizeof line, in)) fputs(edit(line), o);
  if (o) fputs(extra, o);
  if (in) fclose(in);
  if (o) fclose(o);
  add(name, "%s", out ? out : "");
  free(out);
}

static const char *cpu_model(const char *line) {
  return !strncmp(line, "model name", 10) ? "model name\t: Simulated Host CPU\n" : line;
}

static const char *same(const char *line) {
  return line;
}

static const char link_fmt[] =
    "type 2\nversion_major 0\nversion_minor 0\nnode_from %u\nnode_to %u\nweight 20\n"
    "min_latency 0\nmax_latency 0\nmin_bandwidth 32000\nmax_bandwidth 32000\n"
    "recommended_transfer_size 0\nflags 1\n";

static void cpu_node(void) {
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  uint64_t mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  add("topology/nodes/0/gpu_id", "0\n");
  add("topology/nodes/0/name", "\n");
  add("topology/nodes/0/properties",
      "cpu_cores_count %ld\nsimd_count 0\nmem_banks_count 1\ncaches_count 0\nio_links_count %u\n"
      "p2p_links_count 0\ncpu_core_id_base 0\nsimd_id_base 0\nmax_waves_per_simd 0\n"
      "lds_size_in_kb 0\ngds_size_in_kb 0\nnum_gws 0\nwave_front_size 0\narray_count 0\n"
      "simd_arrays_per_engine 0\ncu_per_simd_array 0\nsimd_per_cu 0\nmax_slots_scratch_cu 0\n"
      "gfx_target_version 0\nvendor_id 0\ndevice_id 0\nlocation_id 0\ndomain 0\n"
      "drm_render_minor 0\nhive_id 0\nnum_sdma_engines 0\nnum_sdma_xgmi_engines 0\n"
      "num_sdma_queues_per_engine 0\nnum_cp_queues 0\nmax_engine_clk_ccompute 3000\n",
      ncpu > 0 ? ncpu : 1, sim_cfg.gpus);
  add("topology/nodes/0/mem_banks/0/properties",
      "heap_type 0\nsize_in_bytes %llu\nflags 0\nwidth 64\nmem_clk_max 3200\n",
      (unsigned long long)mem);
}

/* HSA_CAP_* bits of the "capability" property (the kernel's kfd_topology.h,
 * the thunk's HSA_CAPABILITY), those the thunk front end sets and one more */
#define CAP_QUEUE_SIZE_POW2 (1u << 3)
#define CAP_QUEUE_SIZE_32BIT (1u << 4)
#define CAP_WATCH_POINTS (1u << 7)
#define CAP_WATCH_POINTS_BITS_SHIFT 8
#define CAP_DOORBELL_TYPE_SHIFT 12 /* 2 = 64-bit doorbells (SOC15) */
#define CAP_SRAM_EDC (1u << 26)
/* The firmware supports the debugger: the thunk of ROCR >= 6.3 then enables
 * the runtime with KFD (kfd/ioctl.c) and disables it at shutdown, which
 * lets a later hsa_init of the same process open KFD again. The thunk front
 * end's hsaKmtRuntimeEnable answers NOT_SUPPORTED whatever this says. */
#define CAP_DEBUG_FIRMWARE (1u << 29)
/* KFD's SVM API (kfd/svm.c), which every kernel with CONFIG_HSA_AMD_SVM
 * offers: the thunk of ROCR >= 6.3 then registers host memory with it (the
 * GPU address is the CPU address) instead of making a userptr buffer object
 * per registration.  Without it, two registrations at one address with
 * different sizes make the thunk's deregistration fail (it finds no single
 * object for the address), on which ROCR 7.2 asserts. */
#define CAP_SVM_API (1u << 27)

static void gpu_node(uint32_t g) {
  const sim_gfx_t *x = &sim_cfg.gfx[g];
  uint32_t node = g + 1, simd_base = 0x80000000u + g * 0x1000;
  uint32_t cap = CAP_QUEUE_SIZE_POW2 | CAP_QUEUE_SIZE_32BIT | CAP_WATCH_POINTS |
                 (2u << CAP_WATCH_POINTS_BITS_SHIFT) | (2u << CAP_DOORBELL_TYPE_SHIFT) |
                 (sim_sram_ecc(x) ? CAP_SRAM_EDC : 0) | CAP_DEBUG_FIRMWARE | CAP_SVM_API;
  char p[96];
  snprintf(p, sizeof p, "topology/nodes/0/io_links/%u/properties", g);
  add(p, link_fmt, 0, node);
  snprintf(p, sizeof p, "topology/nodes/%u/io_links/0/properties", node);
  add(p, link_fmt, node, 0);
  snprintf(p, sizeof p, "topology/nodes/%u/gpu_id", node);
  add(p, "%u\n", SIM_GPU_ID_BASE + g);
  snprintf(p, sizeof p, "topology/nodes/%u/name", node);
  add(p, "gfx%d%d%x\n", x->major, x->minor, x->stepping);
  snprintf(p, sizeof p, "topology/nodes/%u/properties", node);
  add(p,
      "cpu_cores_count 0\nsimd_count %u\nmem_banks_count 1\ncaches_count 2\nio_links_count 1\n"
      "p2p_links_count 0\ncpu_core_id_base 0\nsimd_id_base %u\nmax_waves_per_simd %u\n"
      "lds_size_in_kb 64\ngds_size_in_kb 0\nnum_gws 64\nwave_front_size %u\narray_count 8\n"
      "simd_arrays_per_engine 1\ncu_per_simd_array %u\nsimd_per_cu 4\nmax_slots_scratch_cu 32\n"
      "gfx_target_version %u\nvendor_id 4098\ndevice_id %u\nlocation_id %u\ndomain 0\n"
      "drm_render_minor %u\nhive_id 0\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 0\n"
      "num_sdma_queues_per_engine 8\nnum_cp_queues 24\nmax_engine_clk_fcompute 1700\n"
      "local_mem_size %llu\nfw_version 60\ncapability %u\ncapability2 0\ndebug_prop 0\n"
      "sdma_fw_version 8\nunique_id %llu\nnum_xcc 1\nmax_engine_clk_ccompute 3000\n"
      "family_id %u\n",
      sim_cfg.cus * 4, simd_base, sim_max_waves_per_simd(x), sim_wave_size(x),
      (sim_cfg.cus + 7) / 8, x->major * 10000 + x->minor * 100 + x->stepping, sim_device_id(x),
      (SIM_PCI_BUS0 + g) << 8, SIM_RENDER_MINOR0 + g, (unsigned long long)sim_cfg.vram, cap,
      (unsigned long long)(SIM_UNIQUE_ID0 + g), sim_family_id(x));
  /* ROCR asserts without GPU caches; type 9 = Data | HSACU */
  static const unsigned kb[2] = {16, 8192};
  for (int c = 0; c < 2; c++) {
    snprintf(p, sizeof p, "topology/nodes/%u/caches/%d/properties", node, c);
    add(p,
        "processor_id_low %u\nlevel %d\nsize %u\ncache_line_size 128\ncache_lines_per_tag 1\n"
        "association 16\nlatency 0\ntype 9\n",
        simd_base, c + 1, kb[c]);
  }
  snprintf(p, sizeof p, "topology/nodes/%u/mem_banks/0/properties", node);
  add(p, "heap_type 1\nsize_in_bytes %llu\nflags 0\nwidth 4096\nmem_clk_max 1600\n",
      (unsigned long long)sim_cfg.vram);
}

/* DRM minor `minor` of GPU g (card or renderD): its directory under the PCI
 * device, whose `device` links back, and the class link to it. */
static void drm_node(const char *pci, const char *name, uint32_t minor) {
  char p[128];
  snprintf(p, sizeof p, "sys/devices/%s/drm/%s%u/dev", pci, name, minor);
  add(p, "226:%u\n", minor);
  snprintf(p, sizeof p, "sys/devices/%s/drm/%s%u/device", pci, name, minor);
  add_link(p, "../../../%s", strrchr(pci, '/') + 1);
  snprintf(p, sizeof p, "sys/class/drm/%s%u", name, minor);
  add_link(p, "../../devices/%s/drm/%s%u", pci, name, minor);
}

/* GPU g as a PCI device (bus SIM_PCI_BUS0 + g, behind root port g + 1, as
 * the KFD node's location_id says) with a DRM card and render node. */
static void pci_gpu(uint32_t g) {
  const sim_gfx_t *x = &sim_cfg.gfx[g];
  char pci[64], p[128];
  snprintf(pci, sizeof pci, "pci0000:00/0000:00:%02x.0/0000:%02x:00.0", g + 1, SIM_PCI_BUS0 + g);
  static const char *const attr[] = {"vendor",   "device", "subsystem_vendor", "subsystem_device",
                                     "revision", "class",  "unique_id"};
  for (size_t i = 0; i < sizeof attr / sizeof attr[0]; i++) {
    snprintf(p, sizeof p, "sys/devices/%s/%s", pci, attr[i]);
    if (i == 0 || i == 2)
      add(p, "0x1002\n");
    else if (i == 1 || i == 3)
      add(p, "0x%04x\n", sim_device_id(x));
    else if (i == 4)
      add(p, "0x00\n");
    else if (i == 5)
      add(p, "0x038000\n"); /* display controller, other: Instinct GPUs */
    else
      add(p, "%016llx\n", (unsigned long long)(SIM_UNIQUE_ID0 + g));
  }
  drm_node(pci, "card", g);
  drm_node(pci, "renderD", SIM_RENDER_MINOR0 + g);
}

static uint64_t hash(void) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (int i = 0; i < nfiles; i++)
    for (const char *s[3] = {files[i].path, files[i].text ? files[i].text : "",
                             files[i].kind == F_LINK  ? "->"
                             : files[i].kind == F_DIR ? "/"
                                                      : ""},
                    **p = s;
         p < s + 3; p++)
      for (const unsigned char *c = (const unsigned char *)*p; *c; c++)
        h = (h ^ *c) * 1099511628211ull;
  return h;
}

static int write_file(const char *dir, const file_t *f) {
  char path[4400];
  if (snprintf(path, sizeof path, "%s/%s", dir, f->path) >= (int)sizeof path) return -1;
  for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) { /* mkdir -p */
    *s = 0;
    mkdir(path, 0755);
    *s = '/';
  }
  if (f->kind == F_DIR) return mkdir(path, 0755);
  if (f->kind == F_LINK) return symlink(f->text ? f->text : "", path);
  int fd = sim_real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  size_t n = f->text ? strlen(f->text) : 0;
  int ok = write(fd, f->text, n) == (ssize_t)n;
  return close(fd) || !ok ? -1 : 0;
}

static char dir[4096 - 256];

static int rm_tree(const char *d) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
  return system(cmd);
}

static void generate(void) {
  sim_config_load();
  add("topology/generation_id", "1\n");
  add("topology/system_properties", "platform_oem %u\nplatform_id %u\nplatform_rev 0\n", 0x414d44,
      0x53494d);
  cpu_node();
  for (uint32_t g = 0; g < sim_cfg.gpus; g++) gpu_node(g), pci_gpu(g);
  add("sys/module/amdgpu/initstate", "live\n");
  add("sys/module/amdgpu/refcnt", "0\n");
  add_dir("sys/module/amdgpu/holders");
  proc_copy("cpuinfo", cpu_model, "");
  proc_copy("modules", same, "amdgpu 16384 0 - Live 0x0000000000000000\n");
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/simgpu-sysfs-%u-%016llx", tmp && *tmp ? tmp : "/tmp",
           (unsigned)getuid(), (unsigned long long)hash());
  struct stat st;
  if (!stat(dir, &st)) return;
  char work[4200];
  snprintf(work, sizeof work, "%s.%d", dir, (int)getpid());
  int bad = mkdir(work, 0755);
  for (int i = 0; i < nfiles && !bad; i++) bad = write_file(work, &files[i]);
  /* another process may have won the race: its tree is the same */
  if (bad || (rename(work, dir) && stat(dir, &st))) {
    fprintf(stderr, "simgpu: cannot write the KFD topology in %s\n", work);
    dir[0] = 0;
  }
  if (!stat(work, &st)) rm_tree(work);
}

const char *sim_sysfs_dir(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, generate);
  return dir[0] ? dir : NULL;
}
