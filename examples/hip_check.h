// CK(call): a HIP call that must succeed; on an error, the call, where it
// was made and HIP's message on stderr, and exit status 1.  For the HIP
// example and the simulated GPU's HIP test program.
#ifndef RTG_EXAMPLES_HIP_CHECK_H
#define RTG_EXAMPLES_HIP_CHECK_H

#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                      \
  do {                                                                                             \
    hipError_t e_ = (x);                                                                           \
    if (e_ != hipSuccess) {                                                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_));           \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

#endif
