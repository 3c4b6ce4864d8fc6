/* The generic slot wrappers of the dispatch-table path (hip_trampoline.c)
 * and what they call (hip_dispatch_table.c). */
#ifndef RTG_HIP_TRAMPOLINE_H
#define RTG_HIP_TRAMPOLINE_H

#include "hip_internal.h"

#include <stdint.h>

/* Stubs available for all wrapped tables together (HIP 6.2 has 452 + 9). */
#define RTG_TRAMP_STUBS 1024
/* Bytes of stack arguments passed on to the original (HIP's largest list,
 * hipExtModuleLaunchKernel, puts 64 bytes there). */
#define RTG_TRAMP_STACK_COPY 256

/* The argument registers as the trampoline saved them. */
typedef struct rtg_hip_regs {
  uint64_t gpr[7]; /* rdi rsi rdx rcx r8 r9 rax */
  uint64_t pad;
  uint64_t xmm[16]; /* xmm0..7, 16 bytes each */
} rtg_hip_regs;

/* Per-call state, in the trampoline's frame. */
typedef struct rtg_hip_tframe {
  rtg_hip_call call;
  const rtg_hip_regs *regs;
  const uint64_t *stack; /* the caller's stack arguments */
  uint32_t stub;
  uint32_t traced;
} rtg_hip_tframe;

/* The address of stub i (i < RTG_TRAMP_STUBS). */
RTG_HIDDEN void *rtg_hip_tramp_stub(unsigned i);
RTG_HIDDEN extern const char rtg_hip_tramp_stubs[];

/* Called by the trampoline only. */
RTG_HIDDEN void *rtg_hip_tramp_enter(uint32_t stub, const rtg_hip_regs *regs, rtg_hip_tframe *f,
                                     const uint64_t *stack);
RTG_HIDDEN void rtg_hip_tramp_exit(rtg_hip_tframe *f, uint64_t ret);

#endif
