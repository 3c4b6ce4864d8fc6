// The C mirror of the HSA API tables (include/rtg/hsa_table.h) against the
// real hsa_api_trace.h of the build machine (Debian 12: ROCm 5.2.3; the
// matrix: 6.1.2, 6.4.3, 7.2.4): every mirrored field must sit at the same
// offset, and the tables have the same size.  The AMD-extension table is
// the 5.2 layout on a 5.x header (major 1); on a 6.0+ header (major 2,
// append-only) every entry the header has is at the newest mirror's offset
// and the header has no entry the mirror lacks.  Image tables grew after
// 6.1 (hsa_ext_sampler_create_v2): the mirror must be a prefix of the
// header's; what it lacks is untraced, and printed.
#include <hsa/hsa_api_trace.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "rtg/hsa_table.h"

static int failures, checks;

// off_NAME<T>(0): the offset of NAME_fn in T, SIZE_MAX when T has none.
#define DETECT(name, ...)                                                                          \
  template <typename T> static auto off_##name(int)->decltype((void)&T::name##_fn, size_t()) {     \
    return offsetof(T, name##_fn);                                                                 \
  }                                                                                                \
  template <typename T> static size_t off_##name(long) {                                           \
    return SIZE_MAX;                                                                               \
  }
RTG_AMD_EXT_TABLE_FIELDS(DETECT)

static void same(const char *what, size_t mine, size_t theirs) {
  checks++;
  if (mine != theirs) {
    failures++;
    std::printf("FAIL %s: mirror %zu, hsa_api_trace.h %zu\n", what, mine, theirs);
  }
}

int main() {
#define CORE(name)                                                                                 \
  same(#name, offsetof(rtg_core_table, name##_fn), offsetof(CoreApiTable, name##_fn));
  RTG_CORE_TABLE_FIELDS(CORE)
  same("sizeof core", sizeof(rtg_core_table), sizeof(CoreApiTable));

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION < 0x02
#define EXT52_1(name)                                                                              \
  same(#name, offsetof(rtg_amd_ext_table_5_2, name##_fn), off_##name<AmdExtTable>(0));
#define EXT52_0(name)
#define EXT52(name, a, b, c, since) EXT52_##a(name)
  RTG_AMD_EXT_TABLE_FIELDS(EXT52)
  same("sizeof amd_ext 5.2", sizeof(rtg_amd_ext_table_5_2), sizeof(AmdExtTable));
#else
  size_t present = 0;
#define EXTNEW(name, ...)                                                                          \
  if (off_##name<AmdExtTable>(0) != SIZE_MAX) {                                                    \
    present++;                                                                                     \
    same(#name, offsetof(rtg_amd_ext_table, name##_fn), off_##name<AmdExtTable>(0));               \
  }
  RTG_AMD_EXT_TABLE_FIELDS(EXTNEW)
  same("sizeof amd_ext: entries the mirror knows",
       offsetof(rtg_amd_ext_table, version) + sizeof(rtg_table_version) + 8 * present,
       sizeof(AmdExtTable));
  std::printf("amd_ext of this header: %zu bytes, %zu entries, all mirrored\n", sizeof(AmdExtTable),
              present);
#endif

#define IMAGE(name)                                                                                \
  same(#name, offsetof(rtg_image_table, name##_fn), offsetof(ImageExtTable, name##_fn));
  RTG_IMAGE_TABLE_FIELDS(IMAGE)
  checks++;
  if (sizeof(rtg_image_table) > sizeof(ImageExtTable)) {
    failures++;
    std::printf("FAIL sizeof image: mirror %zu, hsa_api_trace.h %zu\n", sizeof(rtg_image_table),
                sizeof(ImageExtTable));
  } else if (sizeof(rtg_image_table) < sizeof(ImageExtTable)) {
    std::printf("image table of this header: %zu entries after the mirror's (untraced)\n",
                (sizeof(ImageExtTable) - sizeof(rtg_image_table)) / 8);
  }

#define FIN(name)                                                                                  \
  same(#name, offsetof(rtg_finalizer_table, name##_fn), offsetof(FinalizerExtTable, name##_fn));
  RTG_FINALIZER_TABLE_FIELDS(FIN)
  same("sizeof finalizer", sizeof(rtg_finalizer_table), sizeof(FinalizerExtTable));

  same("version", offsetof(rtg_hsa_api_table, version), offsetof(HsaApiTable, version));
  same("core_", offsetof(rtg_hsa_api_table, core_), offsetof(HsaApiTable, core_));
  same("amd_ext_", offsetof(rtg_hsa_api_table, amd_ext_), offsetof(HsaApiTable, amd_ext_));
  same("finalizer_ext_", offsetof(rtg_hsa_api_table, finalizer_ext_),
       offsetof(HsaApiTable, finalizer_ext_));
  same("image_ext_", offsetof(rtg_hsa_api_table, image_ext_), offsetof(HsaApiTable, image_ext_));
  same("minor_id", offsetof(rtg_table_version, minor_id), offsetof(ApiTableVersion, minor_id));

  // documented sizes (minor_id) of each AMD-extension layout
  same("5.2 minor", sizeof(rtg_amd_ext_table_5_2), 400);
  same("5.5 minor", sizeof(rtg_amd_ext_table_5_5), 424);
  same("5.6 minor", sizeof(rtg_amd_ext_table_5_6), 456);
  // (6.4 ends after signal_wait_all, 7.0 after dmabuf_v2: Debian's 6.4.3 and 7.2.4 headers)
  same("6.4 minor", offsetof(rtg_amd_ext_table, hsa_amd_memory_get_preferred_copy_engine_fn), 592);
  same("7.0 minor", offsetof(rtg_amd_ext_table, hsa_amd_ais_file_write_fn), 608);
  same("7.2 minor", sizeof(rtg_amd_ext_table), 624);
  std::printf("%d offsets checked, %d wrong\n", checks, failures);
  return failures != 0;
}
