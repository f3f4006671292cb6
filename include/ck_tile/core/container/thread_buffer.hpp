// SPDX-License-Identifier: MIT
// thread_buffer<T, N>: the registers one thread holds for a distributed tile (a plain array that
// the compiler keeps in VGPRs when every index is a compile-time constant), plus ext_vector_t,
// the clang/gcc vector type used for vector loads and stores.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"

namespace ck_tile {

template <typename T, index_t N>
using thread_buffer = array<T, N>;

// T __attribute__((ext_vector_type(N))) on clang; a GCC vector on g++ (same layout).
template <typename T, index_t N>
struct ext_vector
{
#if defined(__clang__)
    using type = T __attribute__((ext_vector_type(N)));
#else
    using type __attribute__((vector_size(sizeof(T) * N))) = T;
#endif
};
template <typename T, index_t N>
using ext_vector_t = typename ext_vector<T, N>::type;

} // namespace ck_tile
