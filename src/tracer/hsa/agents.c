/* Agents as the runtime lists them, numbered 0.. in that order (stable for
 * a given machine), each written once as an AGENT record. */
#include "hsa_side.h"

#include <string.h>

enum { MAX_AGENTS = 64 };
static rtg_agent agents[MAX_AGENTS];
static uint32_t n_agents, n_gpus;

static hsa_status_t add_agent(hsa_agent_t a, void *data) {
  (void)data;
  if (n_agents >= MAX_AGENTS) return HSA_STATUS_SUCCESS;
  rtg_agent *ag = &agents[n_agents];
  ag->agent = a;
  ag->index = n_agents++;
  char name[64] = "", product[64] = "";
  uint32_t node = 0;
  rtg_real.hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &ag->type);
  ag->gpu = ag->type == HSA_DEVICE_TYPE_GPU ? n_gpus++ : 0;
  rtg_real.hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name);
  rtg_real.hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product);
  rtg_real.hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &node);
  name[sizeof name - 1] = product[sizeof product - 1] = 0;
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_AGENT, rtg_pid(), rtg_tid());
  r.u.AGENT.index = ag->index;
  r.u.AGENT.type = ag->type == HSA_DEVICE_TYPE_CPU   ? "cpu"
                   : ag->type == HSA_DEVICE_TYPE_GPU ? "gpu"
                                                     : "other";
  RTG_SET(&r, AGENT, name, name);
  if (product[0]) RTG_SET(&r, AGENT, product, product);
  RTG_SET(&r, AGENT, node, node);
  RTG_SET(&r, AGENT, handle, a.handle);
  rtg_emit(&r);
  return HSA_STATUS_SUCCESS;
}

void rtg_agents_init(void) {
  n_agents = n_gpus = 0;
  if (rtg_real.hsa_iterate_agents) rtg_real.hsa_iterate_agents(add_agent, NULL);
}

rtg_agent *rtg_agent_find(hsa_agent_t a) {
  for (uint32_t i = 0; i < n_agents; i++)
    if (agents[i].agent.handle == a.handle) return &agents[i];
  return NULL;
}

rtg_agent *rtg_agent_host(void) {
  for (uint32_t i = 0; i < n_agents; i++)
    if (agents[i].type == HSA_DEVICE_TYPE_CPU) return &agents[i];
  return NULL;
}

uint32_t rtg_agent_hcc_device(uint32_t index) {
  return index < n_agents ? agents[index].gpu : 0;
}
