/* The HIP op id -> name tables of each ROCm release family (hip_ops.c, built
 * from src/tracer/hip/gen/hip_ops_table.h).  The expected values come from
 * each release's hip_prof_str.h (6.4 and 7.2: Debian's headers, see below):
 * each family's last op id, number of ops, a few (id, name) pairs, and an
 * FNV-1a hash of every "id name\n" line in id order, so any changed,
 * missing or extra op fails. */
#include "check.h"
#include "hip/hip_internal.h"

#include <stdint.h>

rtg_hip_state rtg_hip; /* for rtg_hip_op_name */

typedef struct pair {
  uint32_t id;
  const char *name;
} pair;

static const struct expect {
  const char *name;
  uint32_t last_op, data_size, count;
  uint64_t hash;
  pair pairs[8];
} expect[] = {
    {"5.2",
     333,
     832,
     329,
     0xd0d643de4858d2aeull,
     {{1, "__hipPopCallConfiguration"},
      {6, "hipChooseDevice"},
      {107, "hipLaunchKernel"},
      {125, "hipMemcpy"}}},
    {"5.3-5.4",
     348,
     840,
     344,
     0x9ba87819b8525e91ull,
     {{6, "hipChooseDevice"},
      {107, "hipLaunchKernel"},
      {125, "hipMemcpy"},
      {348, "hipGraphReleaseUserObject"}}},
    {"5.5",
     359,
     840,
     355,
     0x3d2595cab3fd57cdull,
     {{6, "hipChooseDevice"}, {107, "hipLaunchKernel"}, {125, "hipMemcpy"}}},
    {"5.6-5.7",
     363,
     840,
     359,
     0x7d462a009e21f8b3ull,
     {{6, "hipChooseDevice"}, {107, "hipLaunchKernel"}, {125, "hipMemcpy"}}},
    {"6.0",
     378,
     1520,
     374,
     0x3b88f78ac3d3747bull,
     {{6, "hipChooseDeviceR0000"},
      {107, "hipLaunchKernel"},
      {125, "hipMemcpy"},
      {365, "hipExtGetLastError"},
      {366, "hipChooseDeviceR0600"}}},
    {"6.1",
     379,
     1520,
     375,
     0x67ea4b2bf1f99f43ull,
     {{6, "hipChooseDeviceR0000"},
      {107, "hipLaunchKernel"},
      {365, "hipChooseDeviceR0600"},
      {379, "hipExtGetLastError"}}},
    {"6.2",
     399,
     1520,
     387,
     0xb67cf5fb65a86cd4ull,
     {{6, "hipChooseDeviceR0000"},
      {107, "hipLaunchKernel"},
      {125, "hipMemcpy"},
      {365, "hipChooseDeviceR0600"},
      {379, "hipExtGetLastError"},
      {399, "hipSetValidDevices"}}},
    /* 6.4 and 7.2: from Debian's libamdhip64-dev 6.4.3 and 7.2.4; the hash
     * computed from those headers' enum hip_api_id_t directly.  7.2 moved
     * op 418 (hipEventRecordWithFlags in 6.4) and later ops. */
    {"6.4",
     418,
     1520,
     406,
     0x2b5cec13a9bb505aull,
     {{6, "hipChooseDeviceR0000"},
      {107, "hipLaunchKernel"},
      {125, "hipMemcpy"},
      {365, "hipChooseDeviceR0600"},
      {400, "hipMemcpy2DArrayToArray"},
      {418, "hipEventRecordWithFlags"}}},
    {"7.2",
     449,
     1520,
     436,
     0xf1f3b66069dc091cull,
     {{6, "hipChooseDeviceR0000"},
      {107, "hipLaunchKernel"},
      {125, "hipMemcpy"},
      {134, "hipMemcpyAsync"},
      {418, "hipLinkDestroy"},
      {419, "hipLaunchKernelExC"},
      {449, "hipOccupancyAvailableDynamicSMemPerBlock"}}},
};

static uint64_t fnv(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

int main(void) {
  const rtg_hip_release *const *rels = rtg_hip_releases();
  size_t n = 0;
  while (rels[n]) n++;
  CHECK_U64(n, sizeof expect / sizeof expect[0]);
  for (size_t i = 0; i < n && i < sizeof expect / sizeof expect[0]; i++) {
    const rtg_hip_release *r = rels[i];
    const struct expect *e = &expect[i];
    CHECK_STR(r->name, e->name);
    CHECK_U64(r->last_op, e->last_op);
    CHECK_U64(r->data_size, e->data_size);
    CHECK(rtg_hip_release_by_last(e->last_op) == r);
    uint32_t count = 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t id = 0; id <= r->last_op; id++) {
      if (!r->names[id]) continue;
      char line[128];
      snprintf(line, sizeof line, "%u %s\n", id, r->names[id]);
      h = fnv(h, line);
      count++;
    }
    CHECK_U64(count, e->count);
    CHECK_U64(h, e->hash);
    for (const pair *p = e->pairs; p->name; p++) CHECK_STR(r->names[p->id], p->name);
    /* ids without an op: 0 (HIP_API_ID_NONE), 50 (reserved), past the last */
    CHECK(r->names[0] == NULL);
    CHECK(r->names[50] == NULL);
    rtg_hip.rel = r;
    CHECK_STR(rtg_hip_op_name(107), "hipLaunchKernel");
    CHECK_STR(rtg_hip_op_name(0), "hipUnknown");
    CHECK_STR(rtg_hip_op_name(50), "hipUnknown");
    CHECK_STR(rtg_hip_op_name(r->last_op + 1), "hipUnknown");
    CHECK_STR(rtg_hip_op_name(100000), "hipUnknown");
  }
  rtg_hip.rel = NULL;
  CHECK_STR(rtg_hip_op_name(107), "hipUnknown");
  CHECK(rtg_hip_release_by_last(0) == NULL);
  CHECK(rtg_hip_release_by_last(400) == NULL);
  CHECK(rtg_hip_release_by_last(1023) == NULL);
  return check_done("test_hip_ops");
}
