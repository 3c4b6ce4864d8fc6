// The C mirror of the HSA API tables (include/rtg/hsa_table.h) against the
// real hsa_api_trace.h of the build machine: every mirrored field must sit
// at the same offset, and the tables have the same size.  With a 5.x header
// (Debian 12: ROCm 5.2.3; AMD-extension table major 1) that is the 5.2 layout.
// With a 6.x/7.x header (major 2, append-only: Debian trixie 6.1, sid 6.4,
// experimental 7.2) every field of the newest layout that the header has is
// checked, and they must cover the header's whole table; the image table grew
// after the mirror (6.4: 128 bytes), which must then be a prefix of it.
#include <hsa/hsa_api_trace.h>

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "rtg/hsa_table.h"

static int failures, checks;

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION != 1
// Does the installed AmdExtTable have name##_fn, and where? (SFINAE: the
// header of one release lacks the entries of later ones.)
#define HAS_FIELD(name, a, b, c, since)                                                            \
  template <typename T, typename = void> struct has_##name : std::false_type {};                   \
  template <typename T> struct has_##name<T, decltype((void)&T::name##_fn)> : std::true_type {};   \
  template <typename T> size_t off_##name(std::true_type) {                                        \
    return offsetof(T, name##_fn);                                                                 \
  }                                                                                                \
  template <typename T> size_t off_##name(std::false_type) {                                       \
    return 0;                                                                                      \
  }
RTG_AMD_EXT_TABLE_FIELDS(HAS_FIELD)
#endif

static void same(const char *what, size_t mine, size_t theirs) {
  checks++;
  if (mine != theirs) {
    failures++;
    std::printf("FAIL %s: mirror %zu, hsa_api_trace.h %zu\n", what, mine, theirs);
  }
}

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION != 1
// A field the header has must sit where the mirror has it; *end advances
// past the fields found, to be compared with the header's table size.
static void check_present(const char *what, bool has, size_t mine, size_t theirs, size_t *end) {
  if (!has) return;
  same(what, mine, theirs);
  if (mine + sizeof(void *) > *end) *end = mine + sizeof(void *);
}
#endif

int main() {
#define CORE(name)                                                                                 \
  same(#name, offsetof(rtg_core_table, name##_fn), offsetof(CoreApiTable, name##_fn));
  RTG_CORE_TABLE_FIELDS(CORE)
  same("sizeof core", sizeof(rtg_core_table), sizeof(CoreApiTable));

#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION == 1
#define EXT52_1(name)                                                                              \
  same(#name, offsetof(rtg_amd_ext_table_5_2, name##_fn), offsetof(AmdExtTable, name##_fn));
#define EXT52_0(name)
#define EXT52(name, a, b, c, since) EXT52_##a(name)
  RTG_AMD_EXT_TABLE_FIELDS(EXT52)
  same("sizeof amd_ext 5.2", sizeof(rtg_amd_ext_table_5_2), sizeof(AmdExtTable));
#else
  size_t ext_end = offsetof(AmdExtTable, hsa_amd_coherency_get_type_fn);
#define EXT(name, a, b, c, since)                                                                  \
  check_present(                                                                                   \
      #name, has_##name<AmdExtTable>::value, offsetof(rtg_amd_ext_table, name##_fn),               \
      off_##name<AmdExtTable>(std::integral_constant<bool, has_##name<AmdExtTable>::value>()),     \
      &ext_end);
  RTG_AMD_EXT_TABLE_FIELDS(EXT)
  same("installed amd_ext covered by the mirror", ext_end, sizeof(AmdExtTable));
  std::printf("amd_ext: major %d, %zu bytes\n", HSA_AMD_EXT_API_TABLE_MAJOR_VERSION,
              sizeof(AmdExtTable));
#endif

#define IMAGE(name)                                                                                \
  same(#name, offsetof(rtg_image_table, name##_fn), offsetof(ImageExtTable, name##_fn));
  RTG_IMAGE_TABLE_FIELDS(IMAGE)
#if HSA_AMD_EXT_API_TABLE_MAJOR_VERSION == 1
  same("sizeof image", sizeof(rtg_image_table), sizeof(ImageExtTable));
#else
  same("image mirror a prefix", sizeof(rtg_image_table) <= sizeof(ImageExtTable), 1);
  std::printf("image: mirror %zu of %zu bytes\n", sizeof(rtg_image_table), sizeof(ImageExtTable));
#endif

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
  same("7.0 minor", sizeof(rtg_amd_ext_table), 608);
  std::printf("%d offsets checked, %d wrong\n", checks, failures);
  return failures != 0;
}
