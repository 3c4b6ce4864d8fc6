/* Shared by the rtg-convert fuzz targets (fuzz_json.c, fuzz_convert.c):
 * what src/convert/main.c does for one run, in-process: a fresh context,
 * the sinks asked for, one pass over an input file, the sinks closed, and
 * everything freed so millions of runs do not grow.  Files live in one
 * private temporary directory per process. */
#ifndef FUZZ_CV_H
#define FUZZ_CV_H

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/common/outfile.h"
#include "../../src/convert/convert.h"

static char fz_dir[64];
static char fz_in[128], fz_json[128], fz_gaps[128], fz_db[128], fz_pf[128];
static FILE *fz_null;

/* at exit: the directory and everything the sinks wrote in it (the CSV
 * and OTF2 directories too) */
static void fz_remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[512];
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (!lstat(p, &sb) && S_ISDIR(sb.st_mode))
      fz_remove_tree(p);
    else
      unlink(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}
static void fz_cleanup(void) {
  fz_remove_tree(fz_dir);
}

static void fz_setup(void) {
  if (fz_dir[0]) return;
  const char *tmp = getenv("TMPDIR");
  snprintf(fz_dir, sizeof fz_dir, "%s/rtg-fuzz-XXXXXX",
           tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
  if (!mkdtemp(fz_dir)) abort();
  atexit(fz_cleanup);
  snprintf(fz_in, sizeof fz_in, "%s/in", fz_dir);
  snprintf(fz_json, sizeof fz_json, "%s/out.json", fz_dir);
  snprintf(fz_gaps, sizeof fz_gaps, "%s/gaps.txt", fz_dir);
  snprintf(fz_db, sizeof fz_db, "%s/out.rpd", fz_dir);
  snprintf(fz_pf, sizeof fz_pf, "%s/out.pftrace", fz_dir);
  fz_null = fopen("/dev/null", "w");
  if (!fz_null) abort();
  rtg_diag_set_program("rtg-convert");
  rtg_diag_quiet = 1;
}

static void fz_write(const char *path, const unsigned char *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
}

/* The whole file (NUL-terminated), or NULL. */
static char *fz_slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *b = malloc(cap + 1);
  size_t got;
  while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) b = realloc(b, (cap *= 2) + 1);
  }
  fclose(f);
  if (!b) return NULL;
  b[len] = 0;
  if (n) *n = len;
  return b;
}

static void fz_ctx_init(cv_ctx *ctx) {
  memset(ctx, 0, sizeof *ctx);
  ctx->window_end = UINT64_MAX;
  static const uint64_t buckets[] = {10, 20, 50, 100, 1000, 10000, 100000};
  memcpy(ctx->opt.gap_buckets_us, buckets, sizeof buckets);
  ctx->opt.ngap_buckets = 7;
  ctx->opt.top_gaps = 5;
  ctx->opt.quiet = true;
  ctx->opt.progress_set = 1;
  ctx->strs = rtg_strtab_new();
  if (!ctx->strs) abort();
  ctx->report = fz_null;
}

/* Close the sinks (false when one failed), put the outputs in place as
 * main.c does (src/common/outfile.h) and free the context. */
static bool fz_ctx_finish(cv_ctx *ctx) {
  bool ok = cv_close_sinks(ctx);
  if (ok)
    ok = rtg_out_commit();
  else
    rtg_out_discard();
  cv_ctx_free(ctx);
  return ok;
}

/* The Chrome JSON output must be valid JSON with a traceEvents array whose
 * events are objects with a "ph" string; returns the array (in *root). */
static cJSON *fz_check_chrome(const char *path, cJSON **root) {
  size_t n;
  char *text = fz_slurp(path, &n);
  if (!text) abort();
  *root = cJSON_ParseWithLength(text, n);
  free(text);
  if (!*root) abort(); /* not valid JSON */
  cJSON *evs = cJSON_GetObjectItemCaseSensitive(*root, "traceEvents");
  if (!cJSON_IsArray(evs)) abort();
  return evs;
}

#endif
