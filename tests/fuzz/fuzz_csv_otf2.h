/* fuzz_convert.c's oracles for --csv and --otf2: the rocprofv3 CSV files
 * all begin with one of rocprofv3's headers and every row has that
 * header's number of fields (quote-aware), the rows together being the
 * JSON's host calls, kernels, copies and ROCTx events; the OTF2 archive
 * reads back with the OTF2 reader, one Enter and one Leave per JSON slice
 * and ROCTx mark,
 * in time order and balanced per location.  Both directories are removed
 * before each run (the archive is replaced anyway; per-host directories of
 * CSV files would pile up). */
#ifndef FUZZ_CSV_OTF2_H
#define FUZZ_CSV_OTF2_H

#include <sys/stat.h>

#include "fuzz_cv.h"

#if defined(__has_include)
#if __has_include(<otf2/otf2.h>)
#include <otf2/otf2.h>
#define FZ_HAVE_OTF2 1 /* as src/convert/out/otf2/otf2.c decides: built with the library */
#endif
#endif

static char fz_csv[128], fz_otf2[128];

/* Calls fn for every regular file under dir (depth first), then, when
 * rm, removes the directories too. */
static void fz_walk(const char *dir, void (*fn)(const char *path), bool rm) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (lstat(p, &sb)) continue;
    if (S_ISDIR(sb.st_mode))
      fz_walk(p, fn, rm);
    else if (fn)
      fn(p);
    else if (rm)
      unlink(p);
  }
  if (d) closedir(d);
  if (rm) rmdir(dir);
}
static void fz_rmtree(const char *p) {
  fz_walk(p, NULL, true);
}

static void fz_csv_otf2_setup(void) {
  if (fz_csv[0]) return;
  snprintf(fz_csv, sizeof fz_csv, "%s/csv", fz_dir);
  snprintf(fz_otf2, sizeof fz_otf2, "%s/otf2", fz_dir);
}

static void fz_csv_otf2_reset(void) {
  fz_csv_otf2_setup();
  fz_rmtree(fz_csv);
  fz_rmtree(fz_otf2);
}

/* Both outputs into fresh directories (OTF2 only where rtg-convert has it). */
static bool fz_add_csv_otf2_sinks(cv_ctx *ctx) {
  fz_csv_otf2_reset();
  ctx->opt.csv_dir = fz_csv;
  if (!cv_add_sink(ctx, &cv_csv_sink)) return false;
#ifdef FZ_HAVE_OTF2
  ctx->opt.otf2_dir = fz_otf2;
  if (!cv_add_sink(ctx, &cv_otf2_sink)) return false;
#endif
  return true;
}

/* ------------------------------------------------------------ CSV */

static const char *const fz_csv_headers[] = {
    "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\","
    "\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"LDS_Block_Size\","
    "\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\","
    "\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n",
    "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\","
    "\"End_Timestamp\"\n",
    "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\",\"Destination_Agent_Id\","
    "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n",
};

static uint64_t fz_csv_rows;

/* Fields per record of a whole file, quote-aware; aborts on a record with
 * another count than the header's or an unterminated quote. */
static void fz_check_csv_file(const char *path) {
  size_t n;
  char *t = fz_slurp(path, &n);
  if (!t) abort();
  bool known = false;
  for (size_t i = 0; i < sizeof fz_csv_headers / sizeof fz_csv_headers[0]; i++)
    known |= !strncmp(t, fz_csv_headers[i], strlen(fz_csv_headers[i]));
  if (!known) abort();
  int want = -1, fields = 1;
  bool quoted = false;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (quoted) {
      if (c == '"' && i + 1 < n && t[i + 1] == '"')
        i++;
      else if (c == '"')
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields++;
    } else if (c == '\n') {
      if (want < 0)
        want = fields;
      else if (fields != want)
        abort();
      else
        fz_csv_rows++;
      fields = 1;
    }
  }
  if (quoted || (n && t[n - 1] != '\n')) abort();
  free(t);
}

/* Returns the number of data rows of all CSV files. */
static uint64_t fz_check_csv(void) {
  fz_csv_rows = 0;
  fz_walk(fz_csv, fz_check_csv_file, false);
  return fz_csv_rows;
}

/* ------------------------------------------------------------ OTF2 */

#ifdef FZ_HAVE_OTF2
typedef struct fz_otf2_count {
  uint64_t enters, leaves;
  rtg_u64map last, depth; /* per location: last time, open regions */
} fz_otf2_count;

static OTF2_CallbackCode fz_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  fz_otf2_count *o = ud;
  bool added;
  uint64_t *last = rtg_u64map_put(&o->last, loc, 0, &added);
  uint64_t *depth = rtg_u64map_put(&o->depth, loc, 0, &added);
  if (!last || !depth || t < *last) abort();
  *last = t;
  ++*depth;
  o->enters++;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode fz_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *ud,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  fz_otf2_count *o = ud;
  uint64_t *last = rtg_u64map_get(&o->last, loc), *depth = rtg_u64map_get(&o->depth, loc);
  if (!last || !depth || t < *last || !*depth) abort();
  *last = t;
  --*depth;
  o->leaves++;
  return OTF2_CALLBACK_SUCCESS;
}

typedef struct fz_locs {
  OTF2_Reader *r;
  OTF2_LocationRef *v;
  size_t n;
} fz_locs;

static OTF2_CallbackCode fz_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group) {
  fz_locs *l = ud;
  if (OTF2_Reader_SelectLocation(l->r, self) != OTF2_SUCCESS) abort();
  l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
  if (!l->v) abort();
  l->v[l->n++] = self;
  return OTF2_CALLBACK_SUCCESS;
}

/* Enter events of the archive (aborting unless Leaves match them). */
static uint64_t fz_check_otf2(uint64_t json_slices) {
  char anchor[256];
  snprintf(anchor, sizeof anchor, "%s/trace.otf2", fz_otf2);
  OTF2_Reader *r = OTF2_Reader_Open(anchor);
  if (!r) abort();
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  uint64_t nlocs = 0;
  if (OTF2_Reader_GetNumberOfLocations(r, &nlocs) != OTF2_SUCCESS) abort();
  fz_otf2_count o = {0};
  if (nlocs) {
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, fz_location);
    fz_locs locs = {r, NULL, 0};
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, gcb, &locs);
    OTF2_GlobalDefReaderCallbacks_Delete(gcb);
    uint64_t n;
    if (OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n) != OTF2_SUCCESS) abort();
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
    if (locs.n != nlocs) abort();
    if (OTF2_Reader_OpenDefFiles(r) != OTF2_SUCCESS || OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS)
      abort();
    for (size_t i = 0; i < locs.n; i++) {
      OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, locs.v[i]);
      if (dr) {
        OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
        OTF2_Reader_CloseDefReader(r, dr);
      }
      if (!OTF2_Reader_GetEvtReader(r, locs.v[i])) abort();
    }
    OTF2_Reader_CloseDefFiles(r);
    free(locs.v);
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(r);
    if (!ger) abort();
    OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, fz_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, fz_leave);
    OTF2_Reader_RegisterGlobalEvtCallbacks(r, ger, ecb, &o);
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    if (OTF2_Reader_ReadAllGlobalEvents(r, ger, &n) != OTF2_SUCCESS) abort();
    OTF2_Reader_CloseGlobalEvtReader(r, ger);
    OTF2_Reader_CloseEvtFiles(r);
  }
  OTF2_Reader_Close(r);
  uint64_t k, v;
  for (size_t it = 0; rtg_u64map_next(&o.depth, &it, &k, &v);)
    if (v) abort(); /* a location left with open regions */
  rtg_u64map_free(&o.last);
  rtg_u64map_free(&o.depth);
  if (o.enters != o.leaves || o.enters != json_slices) abort();
  return o.enters;
}
#else
static uint64_t fz_check_otf2(uint64_t json_slices) {
  return json_slices;
}
#endif

#endif
