/* How an HSA API argument becomes the 64-bit word a record stores, by the
 * kind hsa_api_list.h gives each argument (RTG_W_<kind>; the enum kinds,
 * RTG_W_E_<enum>, are in hsa_api_args.h).  Used by the wrappers (hsa_api.c)
 * and by the test that replays the list against them. */
#ifndef RTG_TRACER_HSA_API_WORDS_H
#define RTG_TRACER_HSA_API_WORDS_H

#include <stdint.h>

#define W_OPAQUE(x) ((void)(x), (uint64_t)0)
#define W_PTR(x) ((uint64_t)(uintptr_t)(x))
#define W_HANDLE(x) ((x).handle)
#define W_U32(x) ((uint64_t)(x))
#define W_I32(x) ((uint64_t)(int64_t)(x))
#define W_U64(x) ((uint64_t)(x))
#define W_I64(x) ((uint64_t)(x))
#define W_BOOL(x) ((uint64_t)(x))

#define RTG_W_PTR W_PTR
#define RTG_W_OPAQUE W_OPAQUE
#define RTG_W_HANDLE W_HANDLE
#define RTG_W_U32 W_U32
#define RTG_W_I32 W_I32
#define RTG_W_U64 W_U64
#define RTG_W_I64 W_I64
#define RTG_W_BOOL W_BOOL

#endif
