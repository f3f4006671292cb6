// SPDX-License-Identifier: MIT
// hip backend: gfx950's LDS transpose reads (core/arch/lds.hpp says what they return) through
// clang's builtins: ds_read_b64_tr_b16 for 16-bit elements, ds_read_b64_tr_b8 for 8-bit ones.
// The primitive set and its other implementation: core/arch/backend.hpp.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/thread_buffer.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/core/arch/hip/buffer_addressing.hpp"

namespace ck_tile {

template <typename T>
CK_TILE_DEVICE thread_buffer<T, 8 / sizeof(T)> lds_transpose_read_b64(const T* p,
                                                                      const access_site& = access_site::current())
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2, "lds_transpose_read_b64: 8-bit or 16-bit elements");
    static_assert(sizeof(T) != 0 && has_compiled_arch && get_arch_info(compiled_arch).lds_transpose_read,
                  "lds_transpose_read_b64: this arch has no LDS transpose reads (arch_table.def: lds_tr)");
    using result_t = thread_buffer<T, 8 / sizeof(T)>;
#if defined(__gfx950__)
    if constexpr(sizeof(T) == 2)
    {
        using v4i16 = ext_vector_t<short, 4>;
        return __builtin_bit_cast(
            result_t, __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) v4i16*)(p)));
    }
    else
    {
        using v2i32 = ext_vector_t<int, 2>;
        return __builtin_bit_cast(
            result_t, __builtin_amdgcn_ds_read_tr8_b64_v2i32((__attribute__((address_space(3))) v2i32*)(p)));
    }
#else
    (void)p;
    return result_t{};
#endif
}

// N reads, one instruction each; read i fills elements i * E .. i * E + E - 1.
template <typename T, index_t N>
CK_TILE_DEVICE thread_buffer<T, N * (8 / sizeof(T))>
lds_transpose_read_b64(const array<const T*, N>& p, const access_site& site = access_site::current())
{
    constexpr index_t e = 8 / sizeof(T);
    thread_buffer<T, N * e> out;
    static_for<0, N, 1>{}([&](auto i) {
        const auto v = lds_transpose_read_b64(p[i], site);
        static_for<0, e, 1>{}([&](auto k) { out[i * e + k] = v[k]; });
    });
    return out;
}

} // namespace ck_tile
