/* config.c - reads the SIMGPU_* environment once, when ROCR opens the driver.
 * Every knob is listed in README.md. Bad values fall back to the default with
 * a warning on stderr, so a typo never silently changes a test's meaning. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "sim_core.h"

sim_config_t sim_cfg;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static uint64_t env_u64(const char *name, uint64_t def, uint64_t min, uint64_t max) {
  const char *v = getenv(name);
  if (!v || !*v) return def;
  char *end;
  unsigned long long x = strtoull(v, &end, 0);
  if (*end || x < min || x > max) {
    fprintf(stderr, "simgpu: ignoring %s=%s (want %llu..%llu)\n", name, v, (unsigned long long)min,
            (unsigned long long)max);
    return def;
  }
  return x;
}

/* "gfx90a", "90a", "gfx1030": the last two characters are minor and stepping
 * (stepping in hex), the rest is the major version. Only targets that ROCR
 * 5.2.3 has blit and trap-handler code for are accepted. */
static int parse_gfx(const char *s, sim_gfx_t *g) {
  static const char *const known[] = {"900", "906", "908", "90a", "1010", "1030"};
  if (!strncmp(s, "gfx", 3)) s += 3;
  size_t n = strlen(s);
  int ok = 0;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) ok |= !strcmp(s, known[i]);
  if (!ok) return -1;
  char major[3] = {0};
  memcpy(major, s, n - 2);
  char step[2] = {s[n - 1], 0};
  g->major = atoi(major);
  g->minor = s[n - 2] - '0';
  g->stepping = (int)strtol(step, NULL, 16);
  return 0;
}

/* SIMGPU_GFX: one target for every GPU, or a comma list (the last entry
 * repeats for the remaining GPUs). */
static void load_gfx(void) {
  sim_gfx_t def = {9, 0, 10};
  for (int i = 0; i < SIM_MAX_GPUS; i++) sim_cfg.gfx[i] = def;
  const char *v = getenv("SIMGPU_GFX");
  if (!v || !*v) return;
  char *copy = strdup(v), *save = NULL;
  int i = 0;
  for (char *tok = strtok_r(copy, ",", &save); tok && i < SIM_MAX_GPUS;
       tok = strtok_r(NULL, ",", &save), i++) {
    if (parse_gfx(tok, &def))
      fprintf(stderr,
              "simgpu: ignoring SIMGPU_GFX entry %s (want gfx900, gfx906, gfx908, "
              "gfx90a, gfx1010 or gfx1030)\n",
              tok);
    sim_cfg.gfx[i] = def;
  }
  for (; i < SIM_MAX_GPUS; i++) sim_cfg.gfx[i] = def;
  free(copy);
}

/* SIMGPU_KERNEL_TIMES="vadd=50000,fill=1000": the first entry whose pattern
 * is a substring of the kernel name gives its duration in ns. */
static void load_times(void) {
  const char *v = getenv("SIMGPU_KERNEL_TIMES");
  if (!v || !*v) return;
  char *copy = strdup(v), *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strrchr(tok, '='), *end;
    unsigned long long ns = eq ? strtoull(eq + 1, &end, 0) : 0;
    if (!eq || eq == tok || !eq[1] || *end) {
      fprintf(stderr, "simgpu: ignoring SIMGPU_KERNEL_TIMES entry %s (want name=ns)\n", tok);
      continue;
    }
    sim_kernel_time_t *t = realloc(sim_cfg.times, (sim_cfg.ntimes + 1) * sizeof *t);
    if (!t) break;
    sim_cfg.times = t;
    t[sim_cfg.ntimes].pattern = strndup(tok, eq - tok);
    t[sim_cfg.ntimes].ns = ns;
    sim_cfg.ntimes++;
  }
  free(copy);
}

/* SIMGPU_CPUS="4-5" or "4,6,8-9": the CPUs of the simulated GPU's threads. */
static void load_cpus(void) {
  const char *v = getenv("SIMGPU_CPUS");
  if (!v || !*v) return;
  uint64_t set[16] = {0};
  const char *p = v;
  for (;;) {
    char *end;
    unsigned long lo = strtoul(p, &end, 10), hi = lo;
    if (end == p) break;
    if (*end == '-') {
      p = end + 1;
      hi = strtoul(p, &end, 10);
      if (end == p) break;
    }
    for (unsigned long c = lo; c <= hi && c < 1024; c++) set[c / 64] |= 1ull << (c % 64);
    p = end;
    if (*p == ',') {
      p++;
      continue;
    }
    if (!*p && lo <= hi) {
      memcpy(sim_cfg.cpus, set, sizeof set);
      return;
    }
    break;
  }
  fprintf(stderr, "simgpu: ignoring SIMGPU_CPUS=%s (want a list such as 4-5 or 4,6,8-9)\n", v);
}

static void load(void) {
  const char *log = getenv("SIMGPU_LOG");
  sim_cfg.log = log && *log && strcmp(log, "0");
  sim_cfg.gpus = (uint32_t)env_u64("SIMGPU_GPUS", 1, 1, SIM_MAX_GPUS);
  sim_cfg.cus = (uint32_t)env_u64("SIMGPU_CUS", 104, 1, 1024);
  sim_cfg.vram = env_u64("SIMGPU_VRAM_MB", 65536, 64, 1u << 24) << 20;
  sim_cfg.kernel_ns = env_u64("SIMGPU_KERNEL_NS", 20000, 0, 3600ull * 1000000000ull);
  sim_cfg.sdma_mbps = env_u64("SIMGPU_SDMA_MBPS", 0, 0, 1ull << 40);
  sim_cfg.poll_ns = env_u64("SIMGPU_POLL_US", 20, 1, 1000000) * 1000;
  sim_cfg.idle_ns = env_u64("SIMGPU_IDLE_US", 2000, 1, 1000000) * 1000;
  sim_cfg.spin_ns = env_u64("SIMGPU_SPIN_US", 0, 0, 1000000) * 1000;
  sim_cfg.wait_entry_ns = env_u64("SIMGPU_WAIT_ENTRY_US", 0, 0, 10000000) * 1000;
  load_gfx();
  load_times();
  load_cpus();
}

void sim_config_load(void) {
  pthread_once(&loaded, load);
}
