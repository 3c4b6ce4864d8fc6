// Kernels of the HSA examples, compiled for the GPU by clang-14 (see
// examples.mk). Built without device libraries (-nogpulib), so the index comes
// from amdgcn builtins; every dispatch uses 64-wide work-groups.
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  c[i] = a[i] + b[i];
}
