/* Settings: the RTG_* environment variables (and HCC_PROFILE), read once in
 * OnLoad.  A value that cannot be understood gets a clear message and the
 * documented default, never a guess.  Also the API filters and diagnostics. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

rtg_config rtg_cfg;

void rtg_log(int level, const char *fmt, ...) {
  if (level > rtg_cfg.verbose) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n > (int)sizeof buf - 2) n = sizeof buf - 2;
  buf[n++] = '\n';
  /* one write() so lines from several threads do not interleave */
  if (write(2, "rtg: ", 5) < 0 || write(2, buf, n) < 0) return;
}

/* Booleans: 1/0, true/false, yes/no, on/off (any case); empty = default. */
static bool env_bool(const char *name, bool dflt) {
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  static const char *const yes[] = {"1", "true", "yes", "on", "y", "t"};
  static const char *const no[] = {"0", "false", "no", "off", "n", "f"};
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
    if (!strcasecmp(v, yes[i])) return true;
    if (!strcasecmp(v, no[i])) return false;
  }
  fprintf(stderr,
          "rtg: cannot understand %s=%s (expected 1/0, true/false, yes/no, on/off); using %s\n",
          name, v, dflt ? "true" : "false");
  return dflt;
}

/* Non-negative integers up to max: digits only (no sign, exponent or
 * trailing text).  A number above max is clamped to it, saying so.  Only
 * HCC_PROFILE also takes true/yes/on as 1 (and false/no/off as 0), as the
 * original tracer did: elsewhere a word is garbage, not a 1 ms wait. */
static int env_int_words(const char *name, int dflt, int max, bool words) {
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  const char *d = v;
  while (*d == ' ' || *d == '\t') d++; /* as strtol would */
  if (*d >= '0' && *d <= '9') {
    char *end;
    errno = 0;
    unsigned long long n = strtoull(d, &end, 10); /* digits: never negative */
    if (*end == 0) {
      if (errno != ERANGE && n <= (unsigned long long)max) return (int)n;
      fprintf(stderr, "rtg: %s=%s is above the maximum; using %d\n", name, v, max);
      return max;
    }
  }
  if (words) {
    if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on")) return 1;
    if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off")) return 0;
  }
  fprintf(stderr, "rtg: cannot understand %s=%s (expected a number 0..%d); using %d\n", name, v,
          max, dflt);
  return dflt;
}
static int env_int(const char *name, int dflt, int max) {
  return env_int_words(name, dflt, max, false);
}

static const char *env_str(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

/* Does one comma-separated token list match?  "all" matches everything,
 * "core"/"ext"/"image"/"finalizer" match a category, anything else is a
 * substring of the name. */
static bool tokens_match(const char *spec, const char *name, const char *category) {
  const char *p = spec;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    while (n && isspace((unsigned char)*p)) p++, n--;
    while (n && isspace((unsigned char)p[n - 1])) n--;
    if (n) {
      if (n == 3 && !strncmp(p, "all", 3)) return true;
      if (category && strlen(category) == n && !strncmp(p, category, n)) return true;
      /* substring search of p[0..n) in name */
      for (const char *s = name; *s; s++)
        if (!strncmp(s, p, n)) return true;
    }
    if (!e) break;
    p = e + 1;
  }
  return false;
}

bool rtg_filter_match_cat(const rtg_filter *in, const rtg_filter *out, const char *name,
                          const char *category, bool dflt) {
  bool keep = in->spec ? tokens_match(in->spec, name, category) : dflt;
  if (keep && out->spec && tokens_match(out->spec, name, NULL)) keep = false;
  return keep;
}

bool rtg_filter_match(const rtg_filter *in, const rtg_filter *out, const char *name, bool dflt) {
  return rtg_filter_match_cat(in, out, name, NULL, dflt);
}

/* The patterns of RTG_FILENAME and what each becomes. */
typedef struct pattern {
  const char *name; /* with its % signs */
  const char *value;
} pattern;

/* Copy src to dst (cap bytes) replacing each pattern of pats[0..n). */
static void expand_filename(char *dst, size_t cap, const char *src, const pattern *pats, size_t n) {
  size_t o = 0;
  while (*src && o + 1 < cap) {
    const pattern *rep = NULL;
    for (size_t i = 0; i < n && !rep; i++)
      if (!strncmp(src, pats[i].name, strlen(pats[i].name))) rep = &pats[i];
    if (rep) {
      size_t k = strlen(rep->value);
      if (o + k >= cap) k = cap - 1 - o;
      memcpy(dst + o, rep->value, k);
      o += k;
      src += strlen(rep->name);
    } else {
      dst[o++] = *src++;
    }
  }
  dst[o] = 0;
}

/* A %word% in RTG_FILENAME that is no pattern stays as it is, said once. */
static void check_filename(const char *f) {
  for (const char *p = strchr(f, '%'); p; p = strchr(p + 1, '%')) {
    size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_");
    if (!n || p[1 + n] != '%') continue;
    if ((n == 8 && !strncmp(p + 1, "hostname", 8)) || (n == 4 && !strncmp(p + 1, "rank", 4)) ||
        (n == 3 && !strncmp(p + 1, "pid", 3))) {
      p += n + 1;
      continue;
    }
    fprintf(stderr,
            "rtg: RTG_FILENAME=%s: %%%.*s%% is no pattern (%%hostname%%, %%rank%%, %%pid%%); "
            "kept as it is\n",
            f, (int)n, p + 1);
    return;
  }
}

const char *rtg_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
    if (env_str(vars[i])) return env_str(vars[i]);
  return NULL;
}

/* The output path for process pid: pattern expanded, ".<pid>" appended. */
void rtg_config_path(char *out, size_t cap, uint32_t pid) {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = 0;
  const char *rank = rtg_rank();
  char id[16];
  snprintf(id, sizeof id, "%u", pid);
  const pattern pats[] = {{"%hostname%", host}, {"%rank%", rank ? rank : "0"}, {"%pid%", id}};
  char base[sizeof rtg_cfg.path - 32];
  expand_filename(base, sizeof base, rtg_cfg.filename, pats, sizeof pats / sizeof *pats);
  snprintf(out, cap, "%s.%u", base, pid);
}

void rtg_config_read(void) {
  rtg_config *c = &rtg_cfg;
  c->verbose = env_int("RTG_VERBOSE", 0, 2);
  c->filename = env_str("RTG_FILENAME") ? env_str("RTG_FILENAME") : "rtg_trace.txt";
  check_filename(c->filename);
  c->trace_list = env_str("RTG_TRACE_LIST");
  c->hsa_filter.spec = env_str("RTG_HSA_API_FILTER");
  c->hsa_filter_out.spec = env_str("RTG_HSA_API_FILTER_OUT");
  /* FILTER_OUT alone means "all but these" (seed 002). */
  c->hsa_api = c->hsa_filter.spec || c->hsa_filter_out.spec;
  c->hip_filter.spec = env_str("RTG_HIP_API_FILTER");
  c->hip_filter_out.spec = env_str("RTG_HIP_API_FILTER_OUT");
  c->hip_api = !getenv("RTG_HIP_API_FILTER") || c->hip_filter.spec; /* set but empty: off */
  c->hip_args = env_bool("RTG_HIP_API_ARGS", false);
  c->hip_path = env_str("RTG_HIP_PATH");
  if (c->hip_path && strcmp(c->hip_path, "got") && strcmp(c->hip_path, "callback")) {
    fprintf(stderr,
            "rtg: cannot understand RTG_HIP_PATH=%s (expected got or callback); using the "
            "release's own\n",
            c->hip_path);
    c->hip_path = NULL;
  }
  c->hsa_host_dispatch = env_bool("RTG_HSA_HOST_DISPATCH", false);
  c->profile = env_bool("RTG_PROFILE", true);
  c->profile_copy = env_bool("RTG_PROFILE_COPY", true);
  c->hcc_profile = env_int_words("HCC_PROFILE", 0, 2, true);
  if (c->hcc_profile == 1) {
    /* 1 was hcc's own summary at exit: rpt makes it from the profile: lines */
    const char *v = getenv("HCC_PROFILE");
    if (isdigit((unsigned char)v[strspn(v, " \t")]))
      fprintf(stderr,
              "rtg: HCC_PROFILE=%s is no mode of rtg (0: off, 2: profile: lines); using 2\n", v);
    c->hcc_profile = 2;
  }
  c->roctx = env_bool("RTG_ROCTX", true);
  c->mpi = env_bool("RTG_MPI", true);
  c->kernel_rename = env_bool("RTG_KERNEL_RENAME", false);
  c->backtrace = env_str("RTG_BACKTRACE");
  c->exit_wait_ms = env_int("RTG_EXIT_WAIT_MS", 2000, 3600000);
  c->throttle_ms = env_int("RTG_THROTTLE_MS", 1000, 3600000);
  c->buffer_mb = env_int("RTG_BUFFER_MB", 256, 1 << 20);
  c->writer_stall = env_bool("RTG_WRITER_STALL", false);
  c->gpu_deps = env_bool("RTG_GPU_DEPS", true);
  c->tsc = env_bool("RTG_TSC", true); /* rtg_stamp_init says whether the machine allows it */
  if (c->buffer_mb < 1) {
    fprintf(stderr, "rtg: RTG_BUFFER_MB=%d is too small; using 1\n", c->buffer_mb);
    c->buffer_mb = 1;
  }
  const char *poll = env_str("RTG_HSA_POLL");
  c->hsa_poll_each = poll && !strcasecmp(poll, "each");
  if (poll && !c->hsa_poll_each && strcasecmp(poll, "coalesce"))
    fprintf(stderr,
            "rtg: cannot understand RTG_HSA_POLL=%s (expected coalesce or each); using coalesce\n",
            poll);
  poll = env_str("RTG_MPI_POLL");
  c->mpi_poll_each = poll && !strcasecmp(poll, "each");
  if (poll && !c->mpi_poll_each && strcasecmp(poll, "coalesce"))
    fprintf(stderr,
            "rtg: cannot understand RTG_MPI_POLL=%s (expected coalesce or each); using coalesce\n",
            poll);
  const char *full = env_str("RTG_BUFFER_FULL");
  c->buffer_drop = full && !strcasecmp(full, "drop");
  if (full && !c->buffer_drop && strcasecmp(full, "wait"))
    fprintf(stderr,
            "rtg: cannot understand RTG_BUFFER_FULL=%s (expected wait or drop); using wait\n",
            full);
  if (getenv("RTG_BUFFER_KB"))
    fprintf(stderr,
            "rtg: RTG_BUFFER_KB is no longer used: buffers grow as needed up to "
            "RTG_BUFFER_MB (%d MB)\n",
            c->buffer_mb);
  if (c->hcc_profile) {
    /* As in the original: HCC_PROFILE mode writes only profile: lines for
     * GPU work, no API records. */
    c->hsa_api = false;
    c->hip_api = false;
  }
}

void rtg_config_print(void) {
  if (rtg_cfg.verbose < 1) return;
  const rtg_config *c = &rtg_cfg;
#define S(v) ((v) ? (v) : "(unset)")
#define B(v) ((v) ? "true" : "false")
  rtg_log(1, "%-24s = %s", "RTG_FILENAME", c->filename);
  rtg_log(1, "%-24s = %s", "output", c->path);
  rtg_log(1, "%-24s = %s", "RTG_HSA_API_FILTER", S(c->hsa_filter.spec));
  rtg_log(1, "%-24s = %s", "RTG_HSA_API_FILTER_OUT", S(c->hsa_filter_out.spec));
  rtg_log(1, "%-24s = %s", "RTG_HSA_HOST_DISPATCH", B(c->hsa_host_dispatch));
  rtg_log(1, "%-24s = %s", "RTG_HSA_POLL", c->hsa_poll_each ? "each" : "coalesce");
  rtg_log(1, "%-24s = %s", "RTG_MPI_POLL", c->mpi_poll_each ? "each" : "coalesce");
  rtg_log(1, "%-24s = %s", "RTG_HIP_API_FILTER", c->hip_filter.spec ? c->hip_filter.spec : "all");
  rtg_log(1, "%-24s = %s", "RTG_HIP_API_FILTER_OUT", S(c->hip_filter_out.spec));
  rtg_log(1, "%-24s = %s", "RTG_HIP_API_ARGS", B(c->hip_args));
  rtg_log(1, "%-24s = %s", "RTG_HIP_PATH", S(c->hip_path));
  rtg_log(1, "%-24s = %d", "HCC_PROFILE", c->hcc_profile);
  rtg_log(1, "%-24s = %s", "RTG_PROFILE", B(c->profile));
  rtg_log(1, "%-24s = %s", "RTG_PROFILE_COPY", B(c->profile_copy));
  rtg_log(1, "%-24s = %d", "RTG_VERBOSE", c->verbose);
  rtg_log(1, "%-24s = %s", "RTG_ROCTX", B(c->roctx));
  rtg_log(1, "%-24s = %s", "RTG_MPI", B(c->mpi));
  rtg_log(1, "%-24s = %s", "RTG_KERNEL_RENAME", B(c->kernel_rename));
  rtg_log(1, "%-24s = %s", "RTG_BACKTRACE", S(c->backtrace));
  rtg_log(1, "%-24s = %d", "RTG_EXIT_WAIT_MS", c->exit_wait_ms);
  rtg_log(1, "%-24s = %d", "RTG_THROTTLE_MS", c->throttle_ms);
  rtg_log(1, "%-24s = %d", "RTG_BUFFER_MB", c->buffer_mb);
  rtg_log(1, "%-24s = %s", "RTG_BUFFER_FULL", c->buffer_drop ? "drop" : "wait");
  rtg_log(1, "%-24s = %s", "RTG_WRITER_STALL", B(c->writer_stall));
  rtg_log(1, "%-24s = %s", "RTG_TSC", B(c->tsc));
  rtg_log(1, "%-24s = %s", "RTG_GPU_DEPS", B(c->gpu_deps));
#undef S
#undef B
}
