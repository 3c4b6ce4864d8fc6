/* The version-safe handling of the runtime's tables.
 *
 * The runtime's tables are read and written only through here: each
 * entry's offset comes from the layout the table's version names, and an
 * entry is touched only when offset + 8 <= minor_id (the table's size in
 * the runtime that built it).  The runtime's functions are copied into
 * normalized (newest-layout) mirrors, from which rtg_real is filled. */
#include "hsa_side.h"

#include <string.h>

rtg_hsa_fns rtg_real, rtg_impl;

static const rtg_hsa_api_table *root;
static rtg_core_table core_saved;
static rtg_amd_ext_table ext_saved;
static rtg_image_table image_saved;
static rtg_finalizer_table finalizer_saved;

/* Per table: the runtime's table, and per normalized entry its byte
 * offset in the runtime's layout (-1: absent). */
#define N_CORE ((sizeof(rtg_core_table) - 16) / 8)
#define N_EXT ((sizeof(rtg_amd_ext_table) - 16) / 8)
#define N_IMAGE ((sizeof(rtg_image_table) - 16) / 8)
#define N_FIN ((sizeof(rtg_finalizer_table) - 16) / 8)
static struct {
  char *base;
  uint32_t minor;
  int n;
  int off[N_EXT > N_CORE ? N_EXT : N_CORE];
} tbls[4];

static rtg_amd_ext_layout ext_layout;

static const unsigned char ext_in_52[] = {
#define IN52(name, a, b, c, s) a,
    RTG_AMD_EXT_TABLE_FIELDS(IN52)};
static const unsigned char ext_in_55[] = {
#define IN55(name, a, b, c, s) b,
    RTG_AMD_EXT_TABLE_FIELDS(IN55)};
static const unsigned char ext_in_56[] = {
#define IN56(name, a, b, c, s) c,
    RTG_AMD_EXT_TABLE_FIELDS(IN56)};

/* Choose the AMD-extension layout from the table's version. */
RTG_HIDDEN rtg_amd_ext_layout rtg_amd_ext_layout_of(uint32_t major, uint32_t minor) {
  if (major == 1) {
    if (minor <= sizeof(rtg_amd_ext_table_5_2)) return RTG_AMD_EXT_5_2;
    if (minor <= sizeof(rtg_amd_ext_table_5_5)) return RTG_AMD_EXT_5_5;
    return RTG_AMD_EXT_5_6; /* larger: a later 5.x, read only what 5.6 had */
  }
  if (major == 2) return RTG_AMD_EXT_6_0;
  return RTG_AMD_EXT_UNKNOWN;
}

static void ext_offsets(rtg_amd_ext_layout layout, int *off) {
  const unsigned char *in = layout == RTG_AMD_EXT_5_2   ? ext_in_52
                            : layout == RTG_AMD_EXT_5_5 ? ext_in_55
                            : layout == RTG_AMD_EXT_5_6 ? ext_in_56
                                                        : NULL;
  int k = 0;
  size_t shared = (offsetof(rtg_amd_ext_table, hsa_amd_memory_async_copy_fn) - 16) / 8;
  for (size_t i = 0; i < N_EXT; i++) {
    if (layout == RTG_AMD_EXT_6_0)
      off[i] = 16 + 8 * (int)i;
    else if (layout == RTG_AMD_EXT_UNKNOWN)
      off[i] = i <= shared ? 16 + 8 * (int)i : -1;
    else
      off[i] = in[i] ? 16 + 8 * k++ : -1;
  }
}

static void linear_offsets(int *off, int n) {
  for (int i = 0; i < n; i++) off[i] = 16 + 8 * i;
}

/* Copy the runtime's entries into the normalized mirror `saved`. */
static void capture(int t, void *table, int n, void *saved) {
  tbls[t].n = n;
  if (!table) return;
  rtg_table_version v;
  memcpy(&v, table, sizeof v);
  tbls[t].base = table;
  tbls[t].minor = v.minor_id;
  memcpy(saved, &v, sizeof v);
  for (int i = 0; i < n; i++) {
    int o = tbls[t].off[i];
    if (o >= 0 && (uint32_t)o + 8 <= v.minor_id)
      memcpy((char *)saved + 16 + 8 * i, (char *)table + o, 8);
  }
}

bool rtg_table_set(int t, size_t norm_off, rtg_hsa_fn fn) {
  if (!tbls[t].base || norm_off < 16) return false;
  size_t i = (norm_off - 16) / 8;
  if ((int)i >= tbls[t].n) return false;
  int o = tbls[t].off[i];
  if (o < 0 || (uint32_t)o + 8 > tbls[t].minor) return false;
  memcpy(tbls[t].base + o, &fn, sizeof fn);
  return true;
}

/* Read a root member only when the root table is big enough to have it. */
static void *root_member(size_t off) {
  if (off + 8 > root->version.minor_id) return NULL;
  void *p;
  memcpy(&p, (char *)root + off, sizeof p);
  return p;
}

bool rtg_hsa_tables_read(const void *table) {
  root = table;
  rtg_core_table *core = root_member(offsetof(rtg_hsa_api_table, core_));
  rtg_amd_ext_table *ext = root_member(offsetof(rtg_hsa_api_table, amd_ext_));
  rtg_image_table *image = root_member(offsetof(rtg_hsa_api_table, image_ext_));
  rtg_finalizer_table *fin = root_member(offsetof(rtg_hsa_api_table, finalizer_ext_));
  if (!core || !ext) {
    rtg_log(0, "Cannot trace: the runtime's table has no core or AMD-extension table");
    return false;
  }
  if (core->version.major_id < 1 || core->version.major_id > 2)
    rtg_log(1, "unknown core table version %u.%u: tracing the entries it is big enough to have",
            core->version.major_id, core->version.minor_id);
  linear_offsets(tbls[RTG_TBL_CORE].off, N_CORE);
  capture(RTG_TBL_CORE, core, N_CORE, &core_saved);
  ext_layout = rtg_amd_ext_layout_of(ext->version.major_id, ext->version.minor_id);
  if (ext_layout == RTG_AMD_EXT_UNKNOWN)
    rtg_log(0, "unknown AMD extension table version %u.%u: only its first entries are traced",
            ext->version.major_id, ext->version.minor_id);
  ext_offsets(ext_layout, tbls[RTG_TBL_EXT].off);
  capture(RTG_TBL_EXT, ext, N_EXT, &ext_saved);
  linear_offsets(tbls[RTG_TBL_IMAGE].off, N_IMAGE);
  capture(RTG_TBL_IMAGE, image, N_IMAGE, &image_saved);
  linear_offsets(tbls[RTG_TBL_FINALIZER].off, N_FIN);
  capture(RTG_TBL_FINALIZER, fin, N_FIN, &finalizer_saved);
  rtg_log(1, "tables: core %u.%u, amd_ext %u.%u (layout %d), image %u, finalizer %u",
          core->version.major_id, core->version.minor_id, ext->version.major_id,
          ext->version.minor_id, (int)ext_layout, image ? image->version.minor_id : 0,
          fin ? fin->version.minor_id : 0);

  /* rtg_real from the mirrors: absent entries stay NULL */
#define SAVED_CORE core_saved
#define SAVED_EXT ext_saved
#define SAVED_IMAGE image_saved
#define SAVED_FINALIZER finalizer_saved
#define RTG_API(T, name, ret, rk, params, call, args)                                              \
  rtg_real.name = (ret(*) params)SAVED_##T.name##_fn;
#define RTG_API_VOID(T, name, params, call, args)                                                  \
  rtg_real.name = (void(*) params)SAVED_##T.name##_fn;
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
  rtg_real.hsa_amd_memory_async_copy_on_engine =
      (__typeof__(rtg_real.hsa_amd_memory_async_copy_on_engine))
          ext_saved.hsa_amd_memory_async_copy_on_engine_fn;
  rtg_impl = rtg_real;
  return true;
}
