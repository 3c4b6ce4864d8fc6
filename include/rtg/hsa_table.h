/* A C mirror of the HSA runtime's API tables (ROCm's hsa_api_trace.h is C++
 * only).  The runtime hands a tools library (HSA_TOOLS_LIB) these tables in
 * OnLoad; each sub-table begins with a version whose minor_id is the table's
 * size in the runtime that built it, so a tool must never read or write an
 * entry at offset o unless o + 8 <= minor_id.
 *
 * Core, image and finalizer tables only ever grew at the end.  The
 * AMD-extension table did not in ROCm 5.x: 5.5 inserted spm_* before
 * queue_cu_get_mask, 5.6 inserted memory_async_copy_on_engine and
 * memory_copy_engine_status after memory_async_copy (and appended the dmabuf
 * pair).  From 6.0 (major_id 2) it is append-only.  RTG_AMD_EXT_TABLE_FIELDS
 * lists every entry in the newest order with the 5.x layouts it belongs to;
 * each 5.x layout is that list filtered, in the same order.
 *
 *   minor_id  400: 5.2-5.4   424: 5.5   456: 5.6/5.7   (major_id 1)
 *             552: 6.0  560: 6.1  576: 6.2  584: 6.3  592: 6.4  608: 7.0
 *             624: 7.2  (major_id 2; 6.4 and 7.2 from Debian's 6.4.3 and 7.2.4)
 *
 * tests/unit/tracer/hsa/test_tracer_hsa_table.cpp checks every offset below against the
 * real hsa_api_trace.h the build machine has. */
#ifndef RTG_HSA_TABLE_H
#define RTG_HSA_TABLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Entries are stored untyped; the tracer casts them to the real signatures
 * (src/tracer/hsa/gen/hsa_api_list.h). */
typedef void (*rtg_hsa_fn)(void);

typedef struct rtg_table_version {
  uint32_t major_id;
  uint32_t minor_id; /* sizeof the table in the runtime that filled it */
  uint32_t step_id;
  uint32_t reserved;
} rtg_table_version;

/* Core table: 125 entries, unchanged from ROCm 5.2 to 7.0. */
#define RTG_CORE_TABLE_FIELDS(F)                                                                   \
  F(hsa_init)                                                                                      \
  F(hsa_shut_down)                                                                                 \
  F(hsa_system_get_info)                                                                           \
  F(hsa_system_extension_supported)                                                                \
  F(hsa_system_get_extension_table)                                                                \
  F(hsa_iterate_agents)                                                                            \
  F(hsa_agent_get_info)                                                                            \
  F(hsa_queue_create)                                                                              \
  F(hsa_soft_queue_create)                                                                         \
  F(hsa_queue_destroy)                                                                             \
  F(hsa_queue_inactivate)                                                                          \
  F(hsa_queue_load_read_index_scacquire)                                                           \
  F(hsa_queue_load_read_index_relaxed)                                                             \
  F(hsa_queue_load_write_index_scacquire)                                                          \
  F(hsa_queue_load_write_index_relaxed)                                                            \
  F(hsa_queue_store_write_index_relaxed)                                                           \
  F(hsa_queue_store_write_index_screlease)                                                         \
  F(hsa_queue_cas_write_index_scacq_screl)                                                         \
  F(hsa_queue_cas_write_index_scacquire)                                                           \
  F(hsa_queue_cas_write_index_relaxed)                                                             \
  F(hsa_queue_cas_write_index_screlease)                                                           \
  F(hsa_queue_add_write_index_scacq_screl)                                                         \
  F(hsa_queue_add_write_index_scacquire)                                                           \
  F(hsa_queue_add_write_index_relaxed)                                                             \
  F(hsa_queue_add_write_index_screlease)                                                           \
  F(hsa_queue_store_read_index_relaxed)                                                            \
  F(hsa_queue_store_read_index_screlease)                                                          \
  F(hsa_agent_iterate_regions)                                                                     \
  F(hsa_region_get_info)                                                                           \
  F(hsa_agent_get_exception_policies)                                                              \
  F(hsa_agent_extension_supported)                                                                 \
  F(hsa_memory_register)                                                                           \
  F(hsa_memory_deregister)                                                                         \
  F(hsa_memory_allocate)                                                                           \
  F(hsa_memory_free)                                                                               \
  F(hsa_memory_copy)                                                                               \
  F(hsa_memory_assign_agent)                                                                       \
  F(hsa_signal_create)                                                                             \
  F(hsa_signal_destroy)                                                                            \
  F(hsa_signal_load_relaxed)                                                                       \
  F(hsa_signal_load_scacquire)                                                                     \
  F(hsa_signal_store_relaxed)                                                                      \
  F(hsa_signal_store_screlease)                                                                    \
  F(hsa_signal_wait_relaxed)                                                                       \
  F(hsa_signal_wait_scacquire)                                                                     \
  F(hsa_signal_and_relaxed)                                                                        \
  F(hsa_signal_and_scacquire)                                                                      \
  F(hsa_signal_and_screlease)                                                                      \
  F(hsa_signal_and_scacq_screl)                                                                    \
  F(hsa_signal_or_relaxed)                                                                         \
  F(hsa_signal_or_scacquire)                                                                       \
  F(hsa_signal_or_screlease)                                                                       \
  F(hsa_signal_or_scacq_screl)                                                                     \
  F(hsa_signal_xor_relaxed)                                                                        \
  F(hsa_signal_xor_scacquire)                                                                      \
  F(hsa_signal_xor_screlease)                                                                      \
  F(hsa_signal_xor_scacq_screl)                                                                    \
  F(hsa_signal_exchange_relaxed)                                                                   \
  F(hsa_signal_exchange_scacquire)                                                                 \
  F(hsa_signal_exchange_screlease)                                                                 \
  F(hsa_signal_exchange_scacq_screl)                                                               \
  F(hsa_signal_add_relaxed)                                                                        \
  F(hsa_signal_add_scacquire)                                                                      \
  F(hsa_signal_add_screlease)                                                                      \
  F(hsa_signal_add_scacq_screl)                                                                    \
  F(hsa_signal_subtract_relaxed)                                                                   \
  F(hsa_signal_subtract_scacquire)                                                                 \
  F(hsa_signal_subtract_screlease)                                                                 \
  F(hsa_signal_subtract_scacq_screl)                                                               \
  F(hsa_signal_cas_relaxed)                                                                        \
  F(hsa_signal_cas_scacquire)                                                                      \
  F(hsa_signal_cas_screlease)                                                                      \
  F(hsa_signal_cas_scacq_screl)                                                                    \
  F(hsa_isa_from_name)                                                                             \
  F(hsa_isa_get_info)                                                                              \
  F(hsa_isa_compatible)                                                                            \
  F(hsa_code_object_serialize)                                                                     \
  F(hsa_code_object_deserialize)                                                                   \
  F(hsa_code_object_destroy)                                                                       \
  F(hsa_code_object_get_info)                                                                      \
  F(hsa_code_object_get_symbol)                                                                    \
  F(hsa_code_symbol_get_info)                                                                      \
  F(hsa_code_object_iterate_symbols)                                                               \
  F(hsa_executable_create)                                                                         \
  F(hsa_executable_destroy)                                                                        \
  F(hsa_executable_load_code_object)                                                               \
  F(hsa_executable_freeze)                                                                         \
  F(hsa_executable_get_info)                                                                       \
  F(hsa_executable_global_variable_define)                                                         \
  F(hsa_executable_agent_global_variable_define)                                                   \
  F(hsa_executable_readonly_variable_define)                                                       \
  F(hsa_executable_validate)                                                                       \
  F(hsa_executable_get_symbol)                                                                     \
  F(hsa_executable_symbol_get_info)                                                                \
  F(hsa_executable_iterate_symbols)                                                                \
  F(hsa_status_string)                                                                             \
  F(hsa_extension_get_name)                                                                        \
  F(hsa_system_major_extension_supported)                                                          \
  F(hsa_system_get_major_extension_table)                                                          \
  F(hsa_agent_major_extension_supported)                                                           \
  F(hsa_cache_get_info)                                                                            \
  F(hsa_agent_iterate_caches)                                                                      \
  F(hsa_signal_silent_store_relaxed)                                                               \
  F(hsa_signal_silent_store_screlease)                                                             \
  F(hsa_signal_group_create)                                                                       \
  F(hsa_signal_group_destroy)                                                                      \
  F(hsa_signal_group_wait_any_scacquire)                                                           \
  F(hsa_signal_group_wait_any_relaxed)                                                             \
  F(hsa_agent_iterate_isas)                                                                        \
  F(hsa_isa_get_info_alt)                                                                          \
  F(hsa_isa_get_exception_policies)                                                                \
  F(hsa_isa_get_round_method)                                                                      \
  F(hsa_wavefront_get_info)                                                                        \
  F(hsa_isa_iterate_wavefronts)                                                                    \
  F(hsa_code_object_get_symbol_from_name)                                                          \
  F(hsa_code_object_reader_create_from_file)                                                       \
  F(hsa_code_object_reader_create_from_memory)                                                     \
  F(hsa_code_object_reader_destroy)                                                                \
  F(hsa_executable_create_alt)                                                                     \
  F(hsa_executable_load_program_code_object)                                                       \
  F(hsa_executable_load_agent_code_object)                                                         \
  F(hsa_executable_validate_alt)                                                                   \
  F(hsa_executable_get_symbol_by_name)                                                             \
  F(hsa_executable_iterate_agent_symbols)                                                          \
  F(hsa_executable_iterate_program_symbols)

/* AMD extension table, newest order.  F(name, in_5_2, in_5_5, in_5_6, since)
 * in_5_x: 1 if the entry is in that 5.x layout; since: the release that
 * added it (52 = present in 5.2). */
#define RTG_AMD_EXT_TABLE_FIELDS(F)                                                                \
  F(hsa_amd_coherency_get_type, 1, 1, 1, 52)                                                       \
  F(hsa_amd_coherency_set_type, 1, 1, 1, 52)                                                       \
  F(hsa_amd_profiling_set_profiler_enabled, 1, 1, 1, 52)                                           \
  F(hsa_amd_profiling_async_copy_enable, 1, 1, 1, 52)                                              \
  F(hsa_amd_profiling_get_dispatch_time, 1, 1, 1, 52)                                              \
  F(hsa_amd_profiling_get_async_copy_time, 1, 1, 1, 52)                                            \
  F(hsa_amd_profiling_convert_tick_to_system_domain, 1, 1, 1, 52)                                  \
  F(hsa_amd_signal_async_handler, 1, 1, 1, 52)                                                     \
  F(hsa_amd_async_function, 1, 1, 1, 52)                                                           \
  F(hsa_amd_signal_wait_any, 1, 1, 1, 52)                                                          \
  F(hsa_amd_queue_cu_set_mask, 1, 1, 1, 52)                                                        \
  F(hsa_amd_memory_pool_get_info, 1, 1, 1, 52)                                                     \
  F(hsa_amd_agent_iterate_memory_pools, 1, 1, 1, 52)                                               \
  F(hsa_amd_memory_pool_allocate, 1, 1, 1, 52)                                                     \
  F(hsa_amd_memory_pool_free, 1, 1, 1, 52)                                                         \
  F(hsa_amd_memory_async_copy, 1, 1, 1, 52)                                                        \
  F(hsa_amd_memory_async_copy_on_engine, 0, 0, 1, 56)                                              \
  F(hsa_amd_memory_copy_engine_status, 0, 0, 1, 56)                                                \
  F(hsa_amd_agent_memory_pool_get_info, 1, 1, 1, 52)                                               \
  F(hsa_amd_agents_allow_access, 1, 1, 1, 52)                                                      \
  F(hsa_amd_memory_pool_can_migrate, 1, 1, 1, 52)                                                  \
  F(hsa_amd_memory_migrate, 1, 1, 1, 52)                                                           \
  F(hsa_amd_memory_lock, 1, 1, 1, 52)                                                              \
  F(hsa_amd_memory_unlock, 1, 1, 1, 52)                                                            \
  F(hsa_amd_memory_fill, 1, 1, 1, 52)                                                              \
  F(hsa_amd_interop_map_buffer, 1, 1, 1, 52)                                                       \
  F(hsa_amd_interop_unmap_buffer, 1, 1, 1, 52)                                                     \
  F(hsa_amd_image_create, 1, 1, 1, 52)                                                             \
  F(hsa_amd_pointer_info, 1, 1, 1, 52)                                                             \
  F(hsa_amd_pointer_info_set_userdata, 1, 1, 1, 52)                                                \
  F(hsa_amd_ipc_memory_create, 1, 1, 1, 52)                                                        \
  F(hsa_amd_ipc_memory_attach, 1, 1, 1, 52)                                                        \
  F(hsa_amd_ipc_memory_detach, 1, 1, 1, 52)                                                        \
  F(hsa_amd_signal_create, 1, 1, 1, 52)                                                            \
  F(hsa_amd_ipc_signal_create, 1, 1, 1, 52)                                                        \
  F(hsa_amd_ipc_signal_attach, 1, 1, 1, 52)                                                        \
  F(hsa_amd_register_system_event_handler, 1, 1, 1, 52)                                            \
  F(hsa_amd_queue_intercept_create, 1, 1, 1, 52)                                                   \
  F(hsa_amd_queue_intercept_register, 1, 1, 1, 52)                                                 \
  F(hsa_amd_queue_set_priority, 1, 1, 1, 52)                                                       \
  F(hsa_amd_memory_async_copy_rect, 1, 1, 1, 52)                                                   \
  F(hsa_amd_runtime_queue_create_register, 1, 1, 1, 52)                                            \
  F(hsa_amd_memory_lock_to_pool, 1, 1, 1, 52)                                                      \
  F(hsa_amd_register_deallocation_callback, 1, 1, 1, 52)                                           \
  F(hsa_amd_deregister_deallocation_callback, 1, 1, 1, 52)                                         \
  F(hsa_amd_signal_value_pointer, 1, 1, 1, 52)                                                     \
  F(hsa_amd_svm_attributes_set, 1, 1, 1, 52)                                                       \
  F(hsa_amd_svm_attributes_get, 1, 1, 1, 52)                                                       \
  F(hsa_amd_svm_prefetch_async, 1, 1, 1, 52)                                                       \
  F(hsa_amd_spm_acquire, 0, 1, 1, 55)                                                              \
  F(hsa_amd_spm_release, 0, 1, 1, 55)                                                              \
  F(hsa_amd_spm_set_dest_buffer, 0, 1, 1, 55)                                                      \
  F(hsa_amd_queue_cu_get_mask, 1, 1, 1, 52)                                                        \
  F(hsa_amd_portable_export_dmabuf, 0, 0, 1, 56)                                                   \
  F(hsa_amd_portable_close_dmabuf, 0, 0, 1, 56)                                                    \
  F(hsa_amd_vmem_address_reserve, 0, 0, 0, 60)                                                     \
  F(hsa_amd_vmem_address_free, 0, 0, 0, 60)                                                        \
  F(hsa_amd_vmem_handle_create, 0, 0, 0, 60)                                                       \
  F(hsa_amd_vmem_handle_release, 0, 0, 0, 60)                                                      \
  F(hsa_amd_vmem_map, 0, 0, 0, 60)                                                                 \
  F(hsa_amd_vmem_unmap, 0, 0, 0, 60)                                                               \
  F(hsa_amd_vmem_set_access, 0, 0, 0, 60)                                                          \
  F(hsa_amd_vmem_get_access, 0, 0, 0, 60)                                                          \
  F(hsa_amd_vmem_export_shareable_handle, 0, 0, 0, 60)                                             \
  F(hsa_amd_vmem_import_shareable_handle, 0, 0, 0, 60)                                             \
  F(hsa_amd_vmem_retain_alloc_handle, 0, 0, 0, 60)                                                 \
  F(hsa_amd_vmem_get_alloc_properties_from_handle, 0, 0, 0, 60)                                    \
  F(hsa_amd_agent_set_async_scratch_limit, 0, 0, 0, 61)                                            \
  F(hsa_amd_queue_get_info, 0, 0, 0, 62)                                                           \
  F(hsa_amd_vmem_address_reserve_align, 0, 0, 0, 62)                                               \
  F(hsa_amd_enable_logging, 0, 0, 0, 63)                                                           \
  F(hsa_amd_signal_wait_all, 0, 0, 0, 64)                                                          \
  F(hsa_amd_memory_get_preferred_copy_engine, 0, 0, 0, 70)                                         \
  F(hsa_amd_portable_export_dmabuf_v2, 0, 0, 0, 70)                                                \
  F(hsa_amd_ais_file_write, 0, 0, 0, 72)                                                           \
  F(hsa_amd_ais_file_read, 0, 0, 0, 72)

#define RTG_IMAGE_TABLE_FIELDS(F)                                                                  \
  F(hsa_ext_image_get_capability)                                                                  \
  F(hsa_ext_image_data_get_info)                                                                   \
  F(hsa_ext_image_create)                                                                          \
  F(hsa_ext_image_import)                                                                          \
  F(hsa_ext_image_export)                                                                          \
  F(hsa_ext_image_copy)                                                                            \
  F(hsa_ext_image_clear)                                                                           \
  F(hsa_ext_image_destroy)                                                                         \
  F(hsa_ext_sampler_create)                                                                        \
  F(hsa_ext_sampler_destroy)                                                                       \
  F(hsa_ext_image_get_capability_with_layout)                                                      \
  F(hsa_ext_image_data_get_info_with_layout)                                                       \
  F(hsa_ext_image_create_with_layout)

#define RTG_FINALIZER_TABLE_FIELDS(F)                                                              \
  F(hsa_ext_program_create)                                                                        \
  F(hsa_ext_program_destroy)                                                                       \
  F(hsa_ext_program_add_module)                                                                    \
  F(hsa_ext_program_iterate_modules)                                                               \
  F(hsa_ext_program_get_info)                                                                      \
  F(hsa_ext_program_finalize)

/* 6.1+: events the runtime reports to tools (scratch allocation). */
#define RTG_TOOLS_TABLE_FIELDS(F)                                                                  \
  F(hsa_amd_tool_scratch_event_alloc_start)                                                        \
  F(hsa_amd_tool_scratch_event_alloc_end)                                                          \
  F(hsa_amd_tool_scratch_event_free_start)                                                         \
  F(hsa_amd_tool_scratch_event_free_end)                                                           \
  F(hsa_amd_tool_scratch_event_async_reclaim_start)                                                \
  F(hsa_amd_tool_scratch_event_async_reclaim_end)

/* 6.2+: PC sampling extension. */
#define RTG_PC_SAMPLING_TABLE_FIELDS(F)                                                            \
  F(hsa_ven_amd_pcs_iterate_configuration)                                                         \
  F(hsa_ven_amd_pcs_create)                                                                        \
  F(hsa_ven_amd_pcs_create_from_id)                                                                \
  F(hsa_ven_amd_pcs_destroy)                                                                       \
  F(hsa_ven_amd_pcs_start)                                                                         \
  F(hsa_ven_amd_pcs_stop)                                                                          \
  F(hsa_ven_amd_pcs_flush)

#define RTG_HSA_TABLE_MEMBER(name, ...) rtg_hsa_fn name##_fn;
#define RTG_HSA_IF_1(x) x
#define RTG_HSA_IF_0(x)
#define RTG_AMD_EXT_MEMBER_52(name, a, b, c, since) RTG_HSA_IF_##a(rtg_hsa_fn name##_fn;)
#define RTG_AMD_EXT_MEMBER_55(name, a, b, c, since) RTG_HSA_IF_##b(rtg_hsa_fn name##_fn;)
#define RTG_AMD_EXT_MEMBER_56(name, a, b, c, since) RTG_HSA_IF_##c(rtg_hsa_fn name##_fn;)

typedef struct rtg_core_table {
  rtg_table_version version;
  RTG_CORE_TABLE_FIELDS(RTG_HSA_TABLE_MEMBER)
} rtg_core_table;

/* The newest AMD-extension table, also the 6.0+ (major_id 2) layout. */
typedef struct rtg_amd_ext_table {
  rtg_table_version version;
  RTG_AMD_EXT_TABLE_FIELDS(RTG_HSA_TABLE_MEMBER)
} rtg_amd_ext_table;

/* The three 5.x layouts (major_id 1). */
typedef struct rtg_amd_ext_table_5_2 {
  rtg_table_version version;
  RTG_AMD_EXT_TABLE_FIELDS(RTG_AMD_EXT_MEMBER_52)
} rtg_amd_ext_table_5_2;
typedef struct rtg_amd_ext_table_5_5 {
  rtg_table_version version;
  RTG_AMD_EXT_TABLE_FIELDS(RTG_AMD_EXT_MEMBER_55)
} rtg_amd_ext_table_5_5;
typedef struct rtg_amd_ext_table_5_6 {
  rtg_table_version version;
  RTG_AMD_EXT_TABLE_FIELDS(RTG_AMD_EXT_MEMBER_56)
} rtg_amd_ext_table_5_6;

typedef struct rtg_image_table {
  rtg_table_version version;
  RTG_IMAGE_TABLE_FIELDS(RTG_HSA_TABLE_MEMBER)
} rtg_image_table;

typedef struct rtg_finalizer_table {
  rtg_table_version version;
  RTG_FINALIZER_TABLE_FIELDS(RTG_HSA_TABLE_MEMBER)
} rtg_finalizer_table;

typedef struct rtg_tools_table {
  rtg_table_version version;
  RTG_TOOLS_TABLE_FIELDS(RTG_HSA_TABLE_MEMBER)
} rtg_tools_table;

typedef struct rtg_pc_sampling_table {
  rtg_table_version version;
  RTG_PC_SAMPLING_TABLE_FIELDS(RTG_HSA_TABLE_MEMBER)
} rtg_pc_sampling_table;

/* The root table OnLoad receives.  tools_ is there from 6.1 (root minor_id
 * >= 56), pc_sampling_ext_ from 6.2 (>= 64). */
typedef struct rtg_hsa_api_table {
  rtg_table_version version;
  rtg_core_table *core_;
  rtg_amd_ext_table *amd_ext_; /* layout depends on its version, see above */
  rtg_finalizer_table *finalizer_ext_;
  rtg_image_table *image_ext_;
  rtg_tools_table *tools_;
  rtg_pc_sampling_table *pc_sampling_ext_;
} rtg_hsa_api_table;

/* AMD-extension layouts the tracer knows. */
typedef enum rtg_amd_ext_layout {
  RTG_AMD_EXT_UNKNOWN = 0, /* only the prefix shared by all (..memory_async_copy) */
  RTG_AMD_EXT_5_2,
  RTG_AMD_EXT_5_5,
  RTG_AMD_EXT_5_6,
  RTG_AMD_EXT_6_0, /* append-only, major_id 2 */
} rtg_amd_ext_layout;

/* Declarations of the tool-only functions (C++-only in ROCm's header). */
struct hsa_queue_s;
typedef void (*hsa_amd_queue_intercept_packet_writer)(const void *pkts, uint64_t pkt_count);
typedef void (*hsa_amd_queue_intercept_handler)(const void *pkts, uint64_t pkt_count,
                                                uint64_t user_pkt_index, void *data,
                                                hsa_amd_queue_intercept_packet_writer writer);

#ifdef __cplusplus
}
#endif
#endif
