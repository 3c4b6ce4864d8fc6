/* String interning: ids are dense and stable, lookups find what was added,
 * the table grows past its first size, and any bytes but NUL are allowed. */
#include "check.h"
#include "strtab.h"
#include "u64map.h"

int main(void) {
  rtg_strtab *t = rtg_strtab_new();
  CHECK_U64(rtg_strtab_intern(t, "a", 1), 0);
  CHECK_U64(rtg_strtab_intern(t, "bc", 2), 1);
  CHECK_U64(rtg_strtab_intern(t, "a", 1), 0);
  CHECK_U64(rtg_strtab_find(t, "zz", 2), UINT32_MAX);
  CHECK_U64(rtg_strtab_intern(t, "", 0), 2);
  CHECK_STR(rtg_strtab_get(t, 1), "bc");
  char buf[32];
  for (int i = 0; i < 100000; i++) {
    int n = snprintf(buf, sizeof buf, "name\xff%d", i);
    CHECK_U64(rtg_strtab_intern(t, buf, (size_t)n), (uint64_t)i + 3);
  }
  CHECK_U64(rtg_strtab_find(t,
                            "name\xff"
                            "777",
                            8),
            780);
  CHECK_U64(rtg_strtab_count(t), 100003);
  CHECK_STR(rtg_strtab_get(t, 100002), "name\xff"
                                       "99999");
  rtg_strtab_free(t);

  rtg_u64map m = {0};
  for (uint64_t k = 0; k < 50000; k++) *rtg_u64map_put(&m, k * 7919, 0, NULL) = k;
  bool added;
  CHECK_U64(*rtg_u64map_put(&m, 7919 * 3, 9, &added), 3);
  CHECK(!added);
  CHECK(rtg_u64map_get(&m, 5) == NULL);
  CHECK_U64(*rtg_u64map_get(&m, 7919 * 49999), 49999);
  size_t it = 0, n = 0;
  uint64_t k, v;
  while (rtg_u64map_next(&m, &it, &k, &v)) n += k == v * 7919;
  CHECK_U64(n, 50000);
  rtg_u64map_free(&m);
  return check_done("test_strtab");
}
