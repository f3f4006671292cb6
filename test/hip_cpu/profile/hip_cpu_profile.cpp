// SPDX-License-Identifier: MIT
// Kernels whose profile (CK_TILE_EMU_PROFILE=1) can be derived by hand; ctest matches hip-cpu's
// report on stderr. Their bodies are inline asm, so that the instructions are the ones written
// here: a kernel with no arguments whose body is one asm statement compiles to that statement and
// s_endpgm. The asm reads v0, which holds the work-item id at kernel entry (x, for one dimension).
//
//   hip_cpu_profile classes   2 waves of: 2 VALU, 3 SALU, 1 branch (not taken), 1 s_nop, 1 MFMA,
//                             then s_endpgm: 18 instructions (VALU 4, SALU 6, MFMA 2, branch 2,
//                             other 4); v0-v5 in use: 8 VGPRs allocated, 8 waves per SIMD (at
//                             most), 16 blocks of 2 waves per CU (4 SIMDs)
//   hip_cpu_profile memory    1 wave: ds_write_b32 at 4 t (no bank conflict), at 128 t (every lane
//                             in bank 0: 31 extra cycles in each of the 2 phases of 32 lanes, 62),
//                             ds_read_b32 at 4 t (0), s_waitcnt lgkmcnt(0) with 3 DS operations
//                             outstanding (one wait); global_load_dword at 4 t (256 of 256 bytes
//                             fetched) and at 128 t (each lane its own 64-byte segment: 256 of
//                             4096), s_waitcnt vmcnt(0) (one wait)
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void classes()
{
    asm volatile("v_mov_b32 v1, 1.0\n\t"
                 "v_add_f32 v1, v1, v1\n\t"
                 "s_mov_b32 s0, 3\n\t"
                 "s_add_u32 s0, s0, 1\n\t"
                 "s_cmp_eq_u32 s0, 4\n\t"
                 "s_cbranch_scc0 1\n\t"
                 "s_nop 0\n\t"
                 "v_mfma_f32_16x16x4_f32 v[2:5], v1, v1, 0"
                 :
                 :
                 : "v1", "v2", "v3", "v4", "v5", "s0", "scc");
}

__global__ void memory(const int* in)
{
    asm volatile("v_lshlrev_b32 v1, 2, v0\n\t"
                 "v_lshlrev_b32 v2, 7, v0\n\t"
                 "ds_write_b32 v1, v0\n\t"
                 "ds_write_b32 v2, v0\n\t"
                 "ds_read_b32 v3, v1\n\t"
                 "s_waitcnt lgkmcnt(0)\n\t"
                 "global_load_dword v4, v1, %0\n\t"
                 "global_load_dword v5, v2, %0\n\t"
                 "s_waitcnt vmcnt(0)"
                 :
                 : "s"(in)
                 : "v1", "v2", "v3", "v4", "v5", "memory");
}

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    if(std::strcmp(mode, "classes") == 0)
        hipLaunchKernelGGL(classes, dim3(1), dim3(128), 0, 0);
    else if(std::strcmp(mode, "memory") == 0)
    {
        int* in = nullptr;
        if(hipMalloc(&in, 128 * 64 * sizeof(int)) != hipSuccess)
            return 2;
        hipLaunchKernelGGL(memory, dim3(1), dim3(64), 128 * 64, 0, in);
    }
    else
    {
        std::fprintf(stderr, "usage: hip_cpu_profile classes|memory\n");
        return 2;
    }
    if(const hipError_t e = hipGetLastError(); e != hipSuccess)
    {
        std::printf("launch failed: %s\n", hipGetErrorString(e));
        return 1;
    }
    std::printf("launched\n");
    return 0;
}
