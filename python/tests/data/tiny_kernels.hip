// Tiny kernels for the device-check tests; compiled with clang's device-only HIP mode,
// without HIP headers or device libraries.
extern "C" __attribute__((global)) void add_one(float* p) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  p[i] += 1.0f;
}

template <int N>
__attribute__((global)) void rotate_through_lds(float* p) {
  __attribute__((shared)) float lds[N];
  unsigned i = __builtin_amdgcn_workitem_id_x();
  lds[i] = p[i];
  __builtin_amdgcn_s_barrier();
  p[i] = lds[(i + 1) % N];
}
template __attribute__((global)) void rotate_through_lds<256>(float*);

#ifdef WITH_SCRATCH
// A private array indexed at run time lives in scratch memory.
extern "C" __attribute__((global)) void uses_scratch(float* p, int j) {
  float a[64];
  unsigned i = __builtin_amdgcn_workitem_id_x();
  for (int k = 0; k < 64; ++k) a[k] = p[i + k];
  p[i] = a[(j + i) & 63];
}
#endif
