/* topology.c - the KFD topology as sysfs shows it
 * (/sys/devices/virtual/kfd/kfd/topology: generation_id, system_properties,
 * nodes/N/{gpu_id,name,properties,mem_banks,caches,io_links,p2p_links}),
 * plus a copy of /proc/cpuinfo whose "model name" names the CPU agent. The
 * values are those the thunk front end reports (topology.c, gpu_facts.c).
 *
 * The tree is written once per configuration into
 * $TMPDIR/simgpu-kfd-<uid>-<hash of its contents> and kept: forked children,
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

#include "kfdsim.h"

typedef struct file {
  char path[96];
  char *text;
} file_t;

static file_t files[256];
static int nfiles;

static void add(const char *path, const char *fmt, ...) {
  if (nfiles == (int)(sizeof files / sizeof files[0])) return;
  file_t *f = &files[nfiles++];
  snprintf(f->path, sizeof f->path, "%s", path);
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&f->text, fmt, ap) < 0) f->text = NULL;
  va_end(ap);
}

static void cpuinfo(void) {
  int fd = kfdsim_real_open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC, 0);
  FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
  char *out = NULL, line[1024];
  size_t n = 0;
  FILE *o = open_memstream(&out, &n);
  while (in && o && fgets(line, sizeof line, in))
    fputs(!strncmp(line, "model name", 10) ? "model name\t: Simulated Host CPU\n" : line, o);
  if (in) fclose(in);
  if (o) fclose(o);
  add("cpuinfo", "%s", out ? out : "");
  free(out);
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
 * the thunk's HSA_CAPABILITY), the same the thunk front end sets */
#define CAP_QUEUE_SIZE_POW2 (1u << 3)
#define CAP_QUEUE_SIZE_32BIT (1u << 4)
#define CAP_WATCH_POINTS (1u << 7)
#define CAP_WATCH_POINTS_BITS_SHIFT 8
#define CAP_DOORBELL_TYPE_SHIFT 12 /* 2 = 64-bit doorbells (SOC15) */
#define CAP_SRAM_EDC (1u << 26)

static void gpu_node(uint32_t g) {
  const sim_gfx_t *x = &sim_cfg.gfx[g];
  uint32_t node = g + 1, simd_base = 0x80000000u + g * 0x1000;
  uint32_t cap = CAP_QUEUE_SIZE_POW2 | CAP_QUEUE_SIZE_32BIT | CAP_WATCH_POINTS |
                 (2u << CAP_WATCH_POINTS_BITS_SHIFT) | (2u << CAP_DOORBELL_TYPE_SHIFT) |
                 (sim_sram_ecc(x) ? CAP_SRAM_EDC : 0);
  char p[96];
  snprintf(p, sizeof p, "topology/nodes/0/io_links/%u/properties", g);
  add(p, link_fmt, 0, node);
  snprintf(p, sizeof p, "topology/nodes/%u/io_links/0/properties", node);
  add(p, link_fmt, node, 0);
  snprintf(p, sizeof p, "topology/nodes/%u/gpu_id", node);
  add(p, "%u\n", KFDSIM_GPU_ID_BASE + g);
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
      (3 + g) << 8, 128 + g, (unsigned long long)sim_cfg.vram, cap, 0x5157a11e0000001ull + g,
      sim_family_id(x));
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

static uint64_t hash(void) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (int i = 0; i < nfiles; i++)
    for (const char *s[2] = {files[i].path, files[i].text ? files[i].text : ""}, **p = s; p < s + 2;
         p++)
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
  int fd = kfdsim_real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
  for (uint32_t g = 0; g < sim_cfg.gpus; g++) gpu_node(g);
  cpuinfo();
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/simgpu-kfd-%u-%016llx", tmp && *tmp ? tmp : "/tmp",
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

const char *kfdsim_topology_dir(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, generate);
  return dir[0] ? dir : NULL;
}
