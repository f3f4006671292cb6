// SPDX-License-Identifier: MIT
// Classic CK's value generators for Tensor<T>::GenerateTensorValue, given the element's
// multi-index. Deterministic: the value is a hash of the index (classic CK draws from std::rand),
// so a run is reproducible.
//   GeneratorTensor_0<T>        0
//   GeneratorTensor_1<T>{v}     v (default 1)
//   GeneratorTensor_2<T>{a, b}  integers in [a, b)
//   GeneratorTensor_3<T>{a, b}  reals in [a, b)
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>
#include "ck_tile/core/numeric/type_convert.hpp"

namespace ck::detail {
inline std::uint64_t index_hash(const std::vector<std::size_t>& idx, std::uint64_t salt)
{
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ salt;
    for(std::size_t i : idx)
    {
        h ^= static_cast<std::uint64_t>(i) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    return h;
}
} // namespace ck::detail

template <typename T>
struct GeneratorTensor_0
{
    T operator()(const std::vector<std::size_t>&) const { return ck_tile::type_convert<T>(0.f); }
};

template <typename T>
struct GeneratorTensor_1
{
    float value = 1.f;
    T operator()(const std::vector<std::size_t>&) const { return ck_tile::type_convert<T>(value); }
};

template <typename T>
struct GeneratorTensor_2
{
    int min_value = 0;
    int max_value = 1;
    T operator()(const std::vector<std::size_t>& idx) const
    {
        const int span = max_value > min_value ? max_value - min_value : 1;
        const auto h   = ck::detail::index_hash(idx, 2);
        return ck_tile::type_convert<T>(static_cast<float>(min_value + static_cast<int>(h % span)));
    }
};

template <typename T>
struct GeneratorTensor_3
{
    float min_value = 0;
    float max_value = 1;
    T operator()(const std::vector<std::size_t>& idx) const
    {
        const double u = static_cast<double>(ck::detail::index_hash(idx, 3) >> 11) * 0x1p-53;
        return ck_tile::type_convert<T>(static_cast<float>(min_value + (max_value - min_value) * u));
    }
};
