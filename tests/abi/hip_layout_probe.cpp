// Measures the layout facts of one HIP release's hip_api_data_t (compiled by
// hip_layouts.sh against that release's headers).  Prints one line:
//   REL last=N size=S args=A  member=offset ...
#include <hip/hip_runtime_api.h>
#include <hip/amd_detail/hip_prof_str.h>
#include <stddef.h>
#include <stdio.h>

#define OFF(call, m) printf(" " #call "." #m "=%zu", offsetof(hip_api_data_t, args.call.m))

int main() {
  printf("%s last=%d size=%zu args=%zu", RTG_REL, (int)HIP_API_ID_LAST, sizeof(hip_api_data_t),
         offsetof(hip_api_data_t, args));
  OFF(hipMalloc, ptr__val);
  OFF(hipMalloc, size);
  OFF(hipFree, ptr);
  OFF(hipMemcpy, dst);
  OFF(hipMemcpy, src);
  OFF(hipMemcpy, sizeBytes);
  OFF(hipMemcpy, kind);
  OFF(hipMemcpyAsync, kind);
  OFF(hipMemcpyAsync, stream);
  OFF(hipMemset, dst);
  OFF(hipMemset, value);
  OFF(hipMemset, sizeBytes);
  OFF(hipMemsetAsync, stream);
  OFF(hipLaunchKernel, function_address);
  OFF(hipLaunchKernel, numBlocks);
  OFF(hipLaunchKernel, dimBlocks);
  OFF(hipLaunchKernel, sharedMemBytes);
  OFF(hipLaunchKernel, stream);
  OFF(hipModuleLaunchKernel, f);
  OFF(hipModuleLaunchKernel, stream);
  OFF(hipStreamCreate, stream__val);
  OFF(hipEventRecord, event);
  OFF(hipEventRecord, stream);
  printf("\n");
  return 0;
}
