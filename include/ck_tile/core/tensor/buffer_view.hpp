// SPDX-License-Identifier: MIT
// buffer_view: a typed, sized span of memory in one address space (global, LDS, registers).
// Loads and stores take an element offset and a validity flag. Global accesses behave like the
// hardware's buffer instructions: an access that is invalid (padding) or outside the buffer
// reads 0 and a store (or atomic add) is dropped. In LDS and registers the caller guarantees the range.
#pragma once
#include <cstring>
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/amd_buffer_addressing.hpp"
#include "ck_tile/core/utility/functional.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/container/thread_buffer.hpp"

namespace ck_tile {

template <address_space_enum AddressSpace, typename T>
struct buffer_view
{
    using type                                        = std::remove_cv_t<T>; // the element type, without const
    static constexpr address_space_enum address_space = AddressSpace;

    T* p_data                = nullptr;
    long_index_t buffer_size = 0; // elements

    constexpr buffer_view() = default;
    CK_TILE_HOST_DEVICE constexpr buffer_view(T* p, long_index_t size) : p_data(p), buffer_size(size) {}

    CK_TILE_HOST_DEVICE static constexpr address_space_enum get_address_space() { return AddressSpace; }
    CK_TILE_HOST_DEVICE constexpr long_index_t get_buffer_size() const { return buffer_size; }
    CK_TILE_HOST_DEVICE constexpr T* get_pointer() const { return p_data; }

    CK_TILE_HOST_DEVICE constexpr bool in_range(long_index_t i, index_t n) const
    {
        return i >= 0 && i + n <= buffer_size;
    }

    // N consecutive elements starting at element i, returned in a thread_buffer.
    // `site` (where the tile API was called) is for the emulator's race detection and profile;
    // Hooks = false leaves them out (the tile API's path when access_hooks_on() says they are off).
    template <index_t N = 1, bool Hooks = true>
    CK_TILE_DEVICE thread_buffer<type, N> get(long_index_t i, bool is_valid,
                                              const access_site& site = access_site::current()) const
    {
        thread_buffer<type, N> r;
        if constexpr(AddressSpace == address_space_enum::global)
        {
            if constexpr(Hooks)
                global_note_load<type, N>(p_data, buffer_size, i, is_valid, site);
            if constexpr(is_native_buffer_access<type, N>)
                buffer_load_checked<type, N>(r.data, p_data, buffer_size, i, is_valid);
            else
                static_for<0, N>{}(
                    [&](auto k) { buffer_load_checked<type, 1>(r.data + k, p_data, buffer_size, i + k, is_valid); });
        }
        else if(is_valid)
        {
            if constexpr(AddressSpace == address_space_enum::lds && Hooks)
                lds_note_load<type, N>(p_data + i, site);
            __builtin_memcpy(&r, p_data + i, sizeof(type) * N);
        }
        else
            for(index_t k = 0; k < N; ++k)
                r[k] = type{};
        return r;
    }

    template <index_t N = 1, bool Hooks = true>
    CK_TILE_DEVICE void set(long_index_t i, bool is_valid, const thread_buffer<type, N>& x,
                            const access_site& site = access_site::current()) const
    {
        if constexpr(AddressSpace == address_space_enum::global)
        {
            if constexpr(Hooks)
                global_note_store<type, N>(p_data, buffer_size, i, is_valid, site);
            if constexpr(is_native_buffer_access<type, N>)
                buffer_store_checked<type, N>(x.data, p_data, buffer_size, i, is_valid);
            else
                static_for<0, N>{}(
                    [&](auto k) { buffer_store_checked<type, 1>(x.data + k, p_data, buffer_size, i + k, is_valid); });
        }
        else if(is_valid)
        {
            if constexpr(AddressSpace == address_space_enum::lds && Hooks)
                lds_note_store<type, N>(p_data + i, site);
            __builtin_memcpy(p_data + i, &x, sizeof(type) * N);
        }
    }

    // x[k] added atomically to element i + k (global buffers of fp32, int32, fp16 or bf16): several
    // blocks may add into the same elements. One atomic per element, or per pair of elements for
    // 16-bit types; dropped like a store when invalid or outside. 16-bit types have only packed
    // atomics (one aligned dword): an even N adds pairs, so p_data + i must be 4-byte aligned (the
    // emulator reports a misaligned pair); an odd N adds each element on its own (atomic_add_16bit_alone),
    // for outputs whose layout gives no aligned pairs (an odd row length, a permuted layout).
    template <index_t N = 1>
    CK_TILE_DEVICE void atomic_add(long_index_t i, bool is_valid, const thread_buffer<type, N>& x) const
    {
        static_assert(AddressSpace == address_space_enum::global, "buffer_view::atomic_add: global memory only");
        if constexpr(sizeof(type) == 2 && N % 2 == 1)
            static_for<0, N>{}([&](auto k) { atomic_add_16bit_alone(i + k, is_valid, x[k]); });
        else if constexpr(sizeof(type) == 2)
        {
            static_for<0, N / 2>{}([&](auto k) {
                buffer_atomic_pk_add_checked<type>(x[2 * k], x[2 * k + 1], p_data, buffer_size, i + 2 * k, is_valid);
            });
        }
        else
            static_for<0, N>{}(
                [&](auto k) { buffer_atomic_add_checked<type>(x[k], p_data, buffer_size, i + k, is_valid); });
    }

    CK_TILE_HOST_DEVICE T& operator[](long_index_t i) const { return p_data[i]; }

private:
    // v added to 16-bit element i alone: a packed atomic on the aligned dword that holds it, with
    // -0 for the other half (x + -0 is x exactly for every x, -0 and +0 included; +0 would turn a
    // -0 into +0), so the neighbour, which may be another thread's element or lie just outside the
    // buffer, keeps its bits. The element's own range is checked
    // here; the dword is addressed from p_data rounded down to 4 bytes (a uniform base), with a
    // range that covers the whole last dword, so the primitive's range check passes exactly the
    // dwords of valid elements.
    CK_TILE_DEVICE void atomic_add_16bit_alone(long_index_t i, bool is_valid, type v) const
    {
        const bool inside       = is_valid && i >= 0 && i < buffer_size;
        const long_index_t skew = (reinterpret_cast<unsigned long long>(p_data) & 2) ? 1 : 0; // p_data's half
        const long_index_t j    = i + skew;    // element i from the aligned base
        const long_index_t pair = j - (j & 1); // the dword's first element
        const type zero         = type_convert<type>(-0.f);
        buffer_atomic_pk_add_checked<type>((j & 1) ? zero : v, (j & 1) ? v : zero, p_data - skew,
                                           (buffer_size + skew + 1) / 2 * 2, pair, inside);
    }
};

// body(bool_constant<Hooks>{}) once, with Hooks true only when the backend's access hooks (the
// emulator's racecheck and profile) are on in this run: a tile access tests that once and then
// runs its memory accesses with or without them, instead of testing it at every access.
template <typename Body>
CK_TILE_DEVICE void with_access_hooks(Body&& body)
{
    if constexpr(has_access_hooks)
    {
        if(access_hooks_on())
        {
            body(bool_constant<true>{});
            return;
        }
    }
    body(bool_constant<false>{});
}

template <address_space_enum AddressSpace, typename T>
CK_TILE_HOST_DEVICE constexpr auto make_buffer_view(T* p, long_index_t size)
{
    return buffer_view<AddressSpace, T>{p, size};
}

} // namespace ck_tile
