/* The AMD-extension functions ROCm added to the runtime's table after 5.2,
 * for the HSA headers this tracer is built with (Debian's ROCm 5.2.3),
 * which lack them and their types.
 *
 * The first part is compiled (through hsa_api_list.h): the types of their
 * parameters, with rtg_ names so that they never clash with newer real
 * headers.  Handles are structs of one uint64_t, enums are int, structs
 * only ever pointed to are incomplete.
 *
 * The second part, under RTG_HSA_API_GEN, is never compiled: it is read by
 * gen-hsa-api-list.py.  It has their prototypes, each marked with the
 * release whose AMD-extension table first has it (RTG_SINCE(5, 5): 5.5;
 * the table offsets per release are in include/rtg/hsa_table.h, which the
 * generator checks these marks against), and the enumerators newer headers
 * added to enums whose values records print by name.  Both are facts from
 * ROCR-Runtime's hsa_ext_amd.h / hsa.h / hsa_api_trace.h of those releases
 * (rocm-5.5.0 ... rocm-6.2.x tags, 6.3 and 7.0 sources) and of Debian's
 * libhsa-runtime-dev 6.4.3 and 7.2.4. */
#ifndef RTG_HSA_API_EXT_NEW_H
#define RTG_HSA_API_EXT_NEW_H

#include <stdint.h>

typedef struct rtg_hsa_amd_vmem_alloc_handle_s {
  uint64_t handle;
} rtg_hsa_amd_vmem_alloc_handle_t;       /* 6.0 */
struct rtg_hsa_amd_memory_access_desc_s; /* 6.0: {permissions, agent} */
typedef struct rtg_hsa_amd_memory_access_desc_s rtg_hsa_amd_memory_access_desc_t;
typedef int rtg_hsa_amd_sdma_engine_id_t;   /* 5.6: one bit per engine */
typedef int rtg_hsa_amd_memory_type_t;      /* 6.0 */
typedef int rtg_hsa_queue_info_attribute_t; /* 6.2 */
typedef struct rtg_hsa_amd_ais_file_handle_s {
  uint64_t handle;               /* a union {void *handle; int fd; uint8_t pad[8]} */
} rtg_hsa_amd_ais_file_handle_t; /* 7.2 */

#endif

#ifdef RTG_HSA_API_GEN
/* ---- prototypes, in the table's order ---- */
RTG_SINCE(5, 5) hsa_status_t hsa_amd_spm_acquire(hsa_agent_t preferred_agent);
RTG_SINCE(5, 5) hsa_status_t hsa_amd_spm_release(hsa_agent_t preferred_agent);
RTG_SINCE(5, 5)
hsa_status_t hsa_amd_spm_set_dest_buffer(hsa_agent_t preferred_agent, size_t size_in_bytes,
                                         uint32_t *timeout, uint32_t *size_copied, void *dest,
                                         bool *is_data_loss);
RTG_SINCE(5, 6)
hsa_status_t hsa_amd_memory_async_copy_on_engine(
    void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent, size_t size,
    uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal,
    rtg_hsa_amd_sdma_engine_id_t engine_id, bool force_copy_on_sdma);
RTG_SINCE(5, 6)
hsa_status_t hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent, hsa_agent_t src_agent,
                                               uint32_t *engine_ids_mask);
RTG_SINCE(5, 6)
hsa_status_t hsa_amd_portable_export_dmabuf(const void *ptr, size_t size, int *dmabuf,
                                            uint64_t *offset);
RTG_SINCE(5, 6) hsa_status_t hsa_amd_portable_close_dmabuf(int dmabuf);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_address_reserve(void **va, size_t size, uint64_t address, uint64_t flags);
RTG_SINCE(6, 0) hsa_status_t hsa_amd_vmem_address_free(void *va, size_t size);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
                                        rtg_hsa_amd_memory_type_t type, uint64_t flags,
                                        rtg_hsa_amd_vmem_alloc_handle_t *memory_handle);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_handle_release(rtg_hsa_amd_vmem_alloc_handle_t memory_handle);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_map(void *va, size_t size, size_t in_offset,
                              rtg_hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags);
RTG_SINCE(6, 0) hsa_status_t hsa_amd_vmem_unmap(void *va, size_t size);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_set_access(void *va, size_t size,
                                     const rtg_hsa_amd_memory_access_desc_t *desc, size_t desc_cnt);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *perms,
                                     hsa_agent_t agent_handle);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_export_shareable_handle(int *dmabuf_fd,
                                                  rtg_hsa_amd_vmem_alloc_handle_t handle,
                                                  uint64_t flags);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
                                                  rtg_hsa_amd_vmem_alloc_handle_t *handle);
RTG_SINCE(6, 0)
hsa_status_t hsa_amd_vmem_retain_alloc_handle(rtg_hsa_amd_vmem_alloc_handle_t *memory_handle,
                                              void *addr);
RTG_SINCE(6, 0)
hsa_status_t
hsa_amd_vmem_get_alloc_properties_from_handle(rtg_hsa_amd_vmem_alloc_handle_t memory_handle,
                                              hsa_amd_memory_pool_t *pool,
                                              rtg_hsa_amd_memory_type_t *type);
RTG_SINCE(6, 1)
hsa_status_t hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold);
RTG_SINCE(6, 2)
hsa_status_t hsa_amd_queue_get_info(hsa_queue_t *queue, rtg_hsa_queue_info_attribute_t attribute,
                                    void *value);
RTG_SINCE(6, 2)
hsa_status_t hsa_amd_vmem_address_reserve_align(void **va, size_t size, uint64_t address,
                                                uint64_t alignment, uint64_t flags);
RTG_SINCE(6, 3) hsa_status_t hsa_amd_enable_logging(uint8_t *flags, void *file);
RTG_SINCE(6, 4)
uint32_t hsa_amd_signal_wait_all(uint32_t signal_count, hsa_signal_t *signals,
                                 hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                                 uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                 hsa_signal_value_t *satisfying_values);
RTG_SINCE(7, 0)
hsa_status_t hsa_amd_memory_get_preferred_copy_engine(hsa_agent_t dst_agent, hsa_agent_t src_agent,
                                                      uint32_t *recommended_ids_mask);
RTG_SINCE(7, 0)
hsa_status_t hsa_amd_portable_export_dmabuf_v2(const void *ptr, size_t size, int *dmabuf,
                                               uint64_t *offset, uint64_t flags);
RTG_SINCE(7, 2)
hsa_status_t hsa_amd_ais_file_write(rtg_hsa_amd_ais_file_handle_t handle, void *devicePtr,
                                    uint64_t size, int64_t file_offset, uint64_t *size_copied,
                                    int32_t *status);
RTG_SINCE(7, 2)
hsa_status_t hsa_amd_ais_file_read(rtg_hsa_amd_ais_file_handle_t handle, void *devicePtr,
                                   uint64_t size, int64_t file_offset, uint64_t *size_copied,
                                   int32_t *status);

/* ---- enums of the types above, by value ---- */
typedef enum {
  HSA_AMD_SDMA_ENGINE_0 = 0x1,
  HSA_AMD_SDMA_ENGINE_1 = 0x2,
  HSA_AMD_SDMA_ENGINE_2 = 0x4,
  HSA_AMD_SDMA_ENGINE_3 = 0x8,
  HSA_AMD_SDMA_ENGINE_4 = 0x10,
  HSA_AMD_SDMA_ENGINE_5 = 0x20,
  HSA_AMD_SDMA_ENGINE_6 = 0x40,
  HSA_AMD_SDMA_ENGINE_7 = 0x80,
  HSA_AMD_SDMA_ENGINE_8 = 0x100,
  HSA_AMD_SDMA_ENGINE_9 = 0x200,
  HSA_AMD_SDMA_ENGINE_10 = 0x400,
  HSA_AMD_SDMA_ENGINE_11 = 0x800,
  HSA_AMD_SDMA_ENGINE_12 = 0x1000,
  HSA_AMD_SDMA_ENGINE_13 = 0x2000,
  HSA_AMD_SDMA_ENGINE_14 = 0x4000,
  HSA_AMD_SDMA_ENGINE_15 = 0x8000
} rtg_hsa_amd_sdma_engine_id_t;
typedef enum { MEMORY_TYPE_NONE = 0, MEMORY_TYPE_PINNED = 1 } rtg_hsa_amd_memory_type_t;
typedef enum {
  HSA_AMD_QUEUE_INFO_AGENT = 0,
  HSA_AMD_QUEUE_INFO_DOORBELL_ID = 1
} rtg_hsa_queue_info_attribute_t;

/* ---- enumerators added after 5.2 to enums of the 5.2 headers ---- */
typedef enum {
  HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED = 0x203,
  HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED = 0x204,
  HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED = 0x205,
  HSA_AMD_SYSTEM_INFO_XNACK_ENABLED = 0x206,
  HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR = 0x207,
  HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR = 0x208
} hsa_system_info_t;
typedef enum { HSA_EXTENSION_AMD_PC_SAMPLING = 0x203 } hsa_extension_t;
typedef enum { HSA_DEVICE_TYPE_AIE = 3 } hsa_device_type_t;
typedef enum { HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE = 19 } hsa_code_symbol_info_t;
typedef enum {
  HSA_AMD_AGENT_INFO_MEMORY_AVAIL = 0xA015,
  HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY = 0xA016,
  HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID = 0xA107,
  HSA_AMD_AGENT_INFO_UCODE_VERSION = 0xA108,
  HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION = 0xA109,
  HSA_AMD_AGENT_INFO_NUM_SDMA_ENG = 0xA10A,
  HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG = 0xA10B,
  HSA_AMD_AGENT_INFO_IOMMU_SUPPORT = 0xA110,
  HSA_AMD_AGENT_INFO_NUM_XCC = 0xA111,
  HSA_AMD_AGENT_INFO_DRIVER_UID = 0xA112,
  HSA_AMD_AGENT_INFO_NEAREST_CPU = 0xA113,
  HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES = 0xA114,
  HSA_AMD_AGENT_INFO_AQL_EXTENSIONS = 0xA115,
  HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX = 0xA116,
  HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT = 0xA117,
  HSA_AMD_AGENT_INFO_CLOCK_COUNTERS = 0xA118
} hsa_amd_agent_info_t;
typedef enum {
  HSA_AMD_MEMORY_POOL_INFO_LOCATION = 17,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE = 18
} hsa_amd_memory_pool_info_t;
typedef enum { HSA_AMD_SVM_ATTRIB_GPU_EXEC = 7 } hsa_amd_svm_attribute_t;
#endif
