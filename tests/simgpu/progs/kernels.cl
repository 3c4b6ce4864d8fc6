// Kernels for simgpu's tests. simgpu never runs GPU code: the tests check
// that these load, dispatch and take their simulated time; a dispatch hook
// can compute vadd on the CPU. Built with -nogpulib (no device libraries), so
// the work-item index comes from amdgcn builtins instead of get_global_id.
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  c[i] = a[i] + b[i];
}

__kernel void scale(__global float *x, float f) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  x[i] *= f;
}
