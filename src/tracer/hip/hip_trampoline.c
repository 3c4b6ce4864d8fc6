/* Signature-independent wrappers for dispatch-table slots (x86-64 SysV).
 *
 * HipDispatchTable has ~460 function pointers of ~460 different signatures,
 * some taking structs by value on the stack (hipMemset3D), floats in xmm
 * registers (hipTexRefSetMipmapLevelClamp), 8+ stack arguments
 * (hipExtModuleLaunchKernel) or returning a struct in memory
 * (hipCreateChannelDesc).  Rather than a C wrapper per prototype (the 6.2+
 * headers cannot even be compiled here), each wrapped slot points at a
 * 16-byte stub that loads its slot number into %r11 (not an argument
 * register) and jumps to one common trampoline, which:
 *   1. saves every argument register (rdi..r9, rax = vector count for
 *      varargs, xmm0-7) and calls rtg_hip_tramp_enter(slot, regs, frame,
 *      stack_args), which starts the record and returns the original;
 *   2. copies RTG_TRAMP_STACK_COPY bytes of the caller's stack arguments
 *      into its own frame, restores the registers and calls the original,
 *      so the original sees exactly the arguments the caller passed;
 *   3. saves the return registers (rax, rdx, xmm0, xmm1), calls
 *      rtg_hip_tramp_exit(frame, rax) and returns them unchanged.
 * It keeps a normal %rbp frame described by CFI, so libunwind (backtraces)
 * and debuggers walk through it; no shadow stack of return addresses.
 * The copy reads a little of the caller's frame beyond its arguments; that
 * memory always exists (the HIP entry point that called us has a frame
 * above), and the largest HIP argument list is well under the copy size. */
#include "hip_trampoline.h"

#if !defined(__x86_64__)
#error "the dispatch-table trampolines are written for x86-64"
#endif

/* Frame below %rbp (all offsets negative, 16-byte aligned):
 *   -192..-137  rdi rsi rdx rcx r8 r9 rax      (rtg_hip_regs.gpr)
 *   -128..-1    xmm0..xmm7
 *   -320..-193  rtg_hip_tframe (128 bytes)
 *   -368..-321  saved return rax rdx xmm0 xmm1
 *   -624..-369  copy of the stack arguments (%rsp at the call) */
#define STR_(x) #x
#define STR(x) STR_(x)

__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl rtg_hip_tramp_stubs\n"
    ".hidden rtg_hip_tramp_stubs\n"
    "rtg_hip_tramp_stubs:\n"
    ".set rtg_tramp_i, 0\n"
    ".rept " STR(
        RTG_TRAMP_STUBS) "\n"
                         "  .p2align 4\n"
                         "  movl $rtg_tramp_i, %r11d\n"
                         "  jmp rtg_hip_tramp_common\n"
                         "  .set rtg_tramp_i, rtg_tramp_i + 1\n"
                         ".endr\n"
                         ".p2align 4\n"
                         ".type rtg_hip_tramp_common, @function\n"
                         "rtg_hip_tramp_common:\n"
                         "  .cfi_startproc\n"
                         "  pushq %rbp\n"
                         "  .cfi_def_cfa_offset 16\n"
                         "  .cfi_offset %rbp, -16\n"
                         "  movq %rsp, %rbp\n"
                         "  .cfi_def_cfa_register %rbp\n"
                         "  subq $624, %rsp\n"
                         "  movq %rdi, -192(%rbp)\n"
                         "  movq %rsi, -184(%rbp)\n"
                         "  movq %rdx, -176(%rbp)\n"
                         "  movq %rcx, -168(%rbp)\n"
                         "  movq %r8, -160(%rbp)\n"
                         "  movq %r9, -152(%rbp)\n"
                         "  movq %rax, -144(%rbp)\n"
                         "  movaps %xmm0, -128(%rbp)\n"
                         "  movaps %xmm1, -112(%rbp)\n"
                         "  movaps %xmm2, -96(%rbp)\n"
                         "  movaps %xmm3, -80(%rbp)\n"
                         "  movaps %xmm4, -64(%rbp)\n"
                         "  movaps %xmm5, -48(%rbp)\n"
                         "  movaps %xmm6, -32(%rbp)\n"
                         "  movaps %xmm7, -16(%rbp)\n"
                         "  movl %r11d, %edi\n"
                         "  leaq -192(%rbp), %rsi\n"
                         "  leaq -320(%rbp), %rdx\n"
                         "  leaq 16(%rbp), %rcx\n"
                         "  call rtg_hip_tramp_enter\n"
                         "  movq %rax, %r11\n"
                         /* the caller's stack arguments, to where the original expects them */
                         "  leaq 16(%rbp), %rsi\n"
                         "  movq %rsp, %rdi\n"
                         "  movl $" STR(RTG_TRAMP_STACK_COPY /
                                        8) ", %ecx\n"
                                           "  rep movsq\n"
                                           "  movq -192(%rbp), %rdi\n"
                                           "  movq -184(%rbp), %rsi\n"
                                           "  movq -176(%rbp), %rdx\n"
                                           "  movq -168(%rbp), %rcx\n"
                                           "  movq -160(%rbp), %r8\n"
                                           "  movq -152(%rbp), %r9\n"
                                           "  movq -144(%rbp), %rax\n"
                                           "  movaps -128(%rbp), %xmm0\n"
                                           "  movaps -112(%rbp), %xmm1\n"
                                           "  movaps -96(%rbp), %xmm2\n"
                                           "  movaps -80(%rbp), %xmm3\n"
                                           "  movaps -64(%rbp), %xmm4\n"
                                           "  movaps -48(%rbp), %xmm5\n"
                                           "  movaps -32(%rbp), %xmm6\n"
                                           "  movaps -16(%rbp), %xmm7\n"
                                           "  call *%r11\n"
                                           "  movq %rax, -368(%rbp)\n"
                                           "  movq %rdx, -360(%rbp)\n"
                                           "  movaps %xmm0, -352(%rbp)\n"
                                           "  movaps %xmm1, -336(%rbp)\n"
                                           "  leaq -320(%rbp), %rdi\n"
                                           "  movq %rax, %rsi\n"
                                           "  call rtg_hip_tramp_exit\n"
                                           "  movq -368(%rbp), %rax\n"
                                           "  movq -360(%rbp), %rdx\n"
                                           "  movaps -352(%rbp), %xmm0\n"
                                           "  movaps -336(%rbp), %xmm1\n"
                                           "  leave\n"
                                           "  .cfi_def_cfa %rsp, 8\n"
                                           "  ret\n"
                                           "  .cfi_endproc\n"
                                           ".size rtg_hip_tramp_common, .-rtg_hip_tramp_common\n");

_Static_assert(sizeof(rtg_hip_tframe) <= 128, "the trampoline reserves 128 bytes for the frame");
_Static_assert(RTG_TRAMP_STACK_COPY % 8 == 0 && RTG_TRAMP_STACK_COPY == 256,
               "the frame layout above assumes a 256-byte copy");

void *rtg_hip_tramp_stub(unsigned i) {
  return (char *)rtg_hip_tramp_stubs + 16 * (size_t)i;
}
