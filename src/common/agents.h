/* The agents of one traced process, and the one rule by which rpt and every
 * output of rtg-convert (gaps, JSON and Perfetto lanes, OTF2 locations,
 * SQLite gpuId) name the device an op ran on:
 *
 *   - A record names its agent by a value: the agent's index in the
 *     tracer's AGENT records, or (the original tracer) its HSA handle.  A
 *     value is looked up among the handles first, then among the indexes.
 *   - GPUs are numbered apart from the other agents, in index order:
 *     GPU0 is the first GPU the runtime lists, as HIP device numbers,
 *     rocm-smi and rocprofv3 count them.  CPU agents are CPU0, CPU1...:
 *     an op the runtime timed on a host agent (a copy) is shown there,
 *     never as a GPU.  Agents of any other type are AGENT0, AGENT1...
 *   - A value that no AGENT record explains (a trace without them) is a
 *     GPU numbered after the known ones, in order of first use.
 *   - HCC_PROFILE=2 "profile:" lines name their GPU by number already
 *     (the tracer writes the GPU number as #device).
 *   - A label adds the agent's name and product: "GPU0 (gfx90a MI210)".
 * AGENT records come first in a trace, before any op, so every op is
 * named with all the agents of its process known. */
#ifndef RTG_AGENTS_H
#define RTG_AGENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtg/record.h"

/* A device as the tools name it: its class and its number in the class.
 * GPUs are class 0, so a GPU's device is its number. */
typedef uint32_t rtg_device;
enum rtg_device_class { RTG_DEV_GPU = 0, RTG_DEV_CPU = 1, RTG_DEV_OTHER = 2 };
#define RTG_DEVICE(cls, n) ((uint32_t)(cls) << 24 | ((uint32_t)(n)&0xffffffu))

static inline enum rtg_device_class rtg_device_class_of(rtg_device d) {
  return (enum rtg_device_class)(d >> 24);
}
static inline uint32_t rtg_device_number(rtg_device d) {
  return d & 0xffffffu;
}

typedef struct rtg_agent {
  uint64_t index, handle;
  bool has_handle;
  enum rtg_device_class cls;
  char *desc; /* "name product" as the record gave them; may be "" */
} rtg_agent;

typedef struct rtg_agents {
  rtg_agent *a;
  size_t n;
  uint64_t *unknown; /* values no agent explains, in order of first use */
  size_t nunknown;
  /* the value looked up last and its device (a trace names one agent in
   * long runs) */
  uint64_t last_value;
  rtg_device last_device;
  bool have_last;
} rtg_agents;

/* A zeroed struct is an empty table. */
void rtg_agents_free(rtg_agents *t);

/* An AGENT record; one whose index is known already (the same trace read
 * twice, or a prescan) adds nothing.  false when memory runs out. */
bool rtg_agents_add(rtg_agents *t, const rtg_record *agent);

/* The device an agent value of a record names (an unknown value is
 * numbered here, on its first use). */
rtg_device rtg_agents_device(rtg_agents *t, uint64_t value);

/* "GPU0", "CPU1", "AGENT2" into buf; returns buf. */
const char *rtg_device_name(rtg_device d, char *buf, size_t cap);

/* The name with the agent's description when it has one: "GPU0 (gfx90a)";
 * t may be NULL. */
const char *rtg_agents_label(const rtg_agents *t, rtg_device d, char *buf, size_t cap);

#endif
