// SPDX-License-Identifier: MIT
// hip backend: range-checked global loads and stores (core/arch/amd_buffer_addressing.hpp says
// what they do) as buffer_load / buffer_store, through clang's raw buffer builtins, with a buffer
// resource built from the pointer and the size. An invalid access is moved out of range, so the
// hardware itself drops it: no branch.
// The primitive set and its other implementation: core/arch/backend.hpp.
#pragma once
#include "ck_tile/core/config.hpp"
#include <type_traits>
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"

namespace ck_tile {

namespace detail {
// dword 3 of a buffer resource on CDNA3/CDNA4: 32-bit data format, no swizzle, raw addressing
inline constexpr int buffer_resource_3rd_dword = 0x00020000;

template <int Bytes>
struct buffer_word;
template <>
struct buffer_word<1>
{
    using type = unsigned char;
};
template <>
struct buffer_word<2>
{
    using type = unsigned short;
};
template <>
struct buffer_word<4>
{
    using type = unsigned int;
};
template <>
struct buffer_word<8>
{
    using type = unsigned int __attribute__((ext_vector_type(2)));
};
template <>
struct buffer_word<12>
{
    using type = unsigned int __attribute__((ext_vector_type(3)));
};
template <>
struct buffer_word<16>
{
    using type = unsigned int __attribute__((ext_vector_type(4)));
};

CK_TILE_DEVICE __amdgpu_buffer_rsrc_t make_buffer_resource(const void* p, long_index_t bytes)
{
    const int num_records = bytes > 0x7fffffff ? 0x7fffffff : static_cast<int>(bytes);
    return __builtin_amdgcn_make_buffer_rsrc(const_cast<void*>(p), 0, num_records, buffer_resource_3rd_dword);
}

// an offset no buffer of this library reaches: the access is dropped by the range check
inline constexpr int out_of_range_offset = 0x7fffffff;
} // namespace detail

template <typename T, index_t N>
CK_TILE_DEVICE void buffer_load_checked(T* dst, const T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    constexpr int bytes = sizeof(T) * N;
    using word          = typename detail::buffer_word<bytes>::type;
    const auto rsrc     = detail::make_buffer_resource(base, buffer_size * sizeof(T));
    const int offset    = valid ? static_cast<int>(i * sizeof(T)) : detail::out_of_range_offset;
    word w;
    if constexpr(bytes == 1)
        w = __builtin_amdgcn_raw_buffer_load_b8(rsrc, offset, 0, 0);
    else if constexpr(bytes == 2)
        w = __builtin_amdgcn_raw_buffer_load_b16(rsrc, offset, 0, 0);
    else if constexpr(bytes == 4)
        w = __builtin_amdgcn_raw_buffer_load_b32(rsrc, offset, 0, 0);
    else if constexpr(bytes == 8)
        w = __builtin_amdgcn_raw_buffer_load_b64(rsrc, offset, 0, 0);
    else if constexpr(bytes == 12)
        w = __builtin_amdgcn_raw_buffer_load_b96(rsrc, offset, 0, 0);
    else
        w = __builtin_amdgcn_raw_buffer_load_b128(rsrc, offset, 0, 0);
    __builtin_memcpy(dst, &w, bytes);
}

template <typename T, index_t N>
CK_TILE_DEVICE void buffer_store_checked(const T* src, T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    constexpr int bytes = sizeof(T) * N;
    using word          = typename detail::buffer_word<bytes>::type;
    const auto rsrc     = detail::make_buffer_resource(base, buffer_size * sizeof(T));
    const int offset    = valid ? static_cast<int>(i * sizeof(T)) : detail::out_of_range_offset;
    word w;
    __builtin_memcpy(&w, src, bytes);
    if constexpr(bytes == 1)
        __builtin_amdgcn_raw_buffer_store_b8(w, rsrc, offset, 0, 0);
    else if constexpr(bytes == 2)
        __builtin_amdgcn_raw_buffer_store_b16(w, rsrc, offset, 0, 0);
    else if constexpr(bytes == 4)
        __builtin_amdgcn_raw_buffer_store_b32(w, rsrc, offset, 0, 0);
    else if constexpr(bytes == 8)
        __builtin_amdgcn_raw_buffer_store_b64(w, rsrc, offset, 0, 0);
    else if constexpr(bytes == 12)
        __builtin_amdgcn_raw_buffer_store_b96(w, rsrc, offset, 0, 0);
    else
        __builtin_amdgcn_raw_buffer_store_b128(w, rsrc, offset, 0, 0);
}

// One element of a global fp32 or int32 buffer incremented atomically (buffer_atomic_add_f32,
// buffer_atomic_add: the add is made in memory, so blocks of a grid can add into the same
// results). An invalid or out-of-range access is dropped, as for a store.
template <typename T>
CK_TILE_DEVICE void buffer_atomic_add_checked(T v, T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "buffer_atomic_add_checked: fp32 or int32 (16-bit types: buffer_atomic_pk_add_checked)");
    const auto rsrc  = detail::make_buffer_resource(base, buffer_size * sizeof(T));
    const int offset = valid ? static_cast<int>(i * sizeof(T)) : detail::out_of_range_offset;
    if constexpr(std::is_same_v<T, float>)
        __builtin_amdgcn_raw_ptr_buffer_atomic_fadd_f32(v, rsrc, offset, 0, 0);
    else
        __builtin_amdgcn_raw_ptr_buffer_atomic_add_i32(v, rsrc, offset, 0, 0);
}

// base[i] += v0 and base[i + 1] += v1 for a 4-byte aligned pair of 16-bit elements, in one
// atomic: buffer_atomic_pk_add_f16 for fp16; for bf16 CDNA3 has only the global form
// (global_atomic_pk_add_bf16), so the range check is a branch there.
template <typename T>
CK_TILE_DEVICE void buffer_atomic_pk_add_checked(T v0, T v1, T* base, long_index_t buffer_size, long_index_t i,
                                                 bool valid)
{
    static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>,
                  "buffer_atomic_pk_add_checked: pairs of fp16 or bf16");
    if constexpr(std::is_same_v<T, half_t>)
    {
        using pair_t     = _Float16 __attribute__((ext_vector_type(2)));
        const auto rsrc  = detail::make_buffer_resource(base, buffer_size * sizeof(T));
        const int offset = valid ? static_cast<int>(i * sizeof(T)) : detail::out_of_range_offset;
        __builtin_amdgcn_raw_ptr_buffer_atomic_fadd_v2f16(pair_t{v0, v1}, rsrc, offset, 0, 0);
    }
    else
    {
        using pair_t = __bf16 __attribute__((ext_vector_type(2)));
        if(valid && i >= 0 && i + 2 <= buffer_size)
        {
            const unsigned int bits = static_cast<unsigned int>(__builtin_bit_cast(unsigned short, v0)) |
                                      (static_cast<unsigned int>(__builtin_bit_cast(unsigned short, v1)) << 16);
            __builtin_amdgcn_global_atomic_fadd_v2bf16(
                (__attribute__((address_space(1))) pair_t*)(reinterpret_cast<pair_t*>(base + i)),
                __builtin_bit_cast(pair_t, bits));
        }
    }
}

// Accesses the buffer instructions cannot do in one go (more than 16 bytes, or sizes like 6)
// are split by the caller; this says which sizes are native.
template <typename T, index_t N>
inline constexpr bool is_native_buffer_access = (sizeof(T) * N == 1 || sizeof(T) * N == 2 || sizeof(T) * N == 4 ||
                                                 sizeof(T) * N == 8 || sizeof(T) * N == 12 || sizeof(T) * N == 16);

// Race detection and the access profile are the emulator's (emulator/racecheck.hpp, profile.hpp):
// on hip their hooks are empty.
struct access_site
{
    static constexpr access_site current() noexcept { return {}; }
};
template <typename T, index_t N>
CK_TILE_DEVICE void lds_note_load(const T*, const access_site&)
{}
template <typename T, index_t N>
CK_TILE_DEVICE void lds_note_store(const T*, const access_site&)
{}
inline constexpr bool has_access_hooks = false;
CK_TILE_DEVICE constexpr bool access_hooks_on() { return false; }
template <typename T, index_t N>
CK_TILE_DEVICE void global_note_load(const T*, long_index_t, long_index_t, bool, const access_site&)
{}
template <typename T, index_t N>
CK_TILE_DEVICE void global_note_store(const T*, long_index_t, long_index_t, bool, const access_site&)
{}

} // namespace ck_tile
