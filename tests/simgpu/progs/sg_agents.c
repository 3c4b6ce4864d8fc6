/* sg_agents: lists the agents ROCR found, with the properties HIP and tools
 * rely on. Everything printed is independent of the host machine. */
#include <string.h>

#include "common.h"

static hsa_status_t count_pool(hsa_amd_memory_pool_t p, void *data) {
  (void)p;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t show(hsa_agent_t a, void *data) {
  int *n = data;
  char name[64] = "", product[64] = "";
  hsa_device_type_t type;
  uint32_t cus = 0, wave = 0, qmax = 0;
  int pools = 0;
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name));
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type));
  CHECK(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product));
  CHECK(hsa_amd_agent_iterate_memory_pools(a, count_pool, &pools));
  if (type == HSA_DEVICE_TYPE_CPU) {
    printf("agent %d: cpu \"%s\" pools=%d\n", (*n)++, product, pools);
    return HSA_STATUS_SUCCESS;
  }
  CHECK(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax));
  printf("agent %d: gpu %s \"%s\" cus=%u wavefront=%u queue_max=%u pools=%d\n", (*n)++, name,
         product, cus, wave, qmax, pools);
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  int n = 0;
  CHECK(hsa_init());
  CHECK(hsa_iterate_agents(show, &n));
  CHECK(hsa_shut_down());
  printf("agents=%d\n", n);
  return 0;
}
