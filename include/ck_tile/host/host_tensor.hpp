// SPDX-License-Identifier: MIT
// HostTensorDescriptor and HostTensor<T>: an N-dimensional tensor in host memory, described by a
// length and a stride (in elements) per dimension. Used to prepare kernel inputs, hold reference
// results and compare them.
//
//   ck_tile::HostTensor<ck_tile::half_t> a({M, K});                 // packed row-major
//   ck_tile::HostTensor<float> c(ck_tile::host_tensor_descriptor(M, N, stride_c, row_major));
//   a(i, k) = ...;                                                   // element access by strides
//   ck_tile::DeviceMem buf(a.get_element_space_size_in_bytes()); buf.ToDevice(a.data());
//
// Storage: mData holds get_element_space_size() elements, enough for the largest offset the
// descriptor can produce (1 + sum over dims of (length - 1) * stride); a padded (strided) tensor
// therefore also stores its padding, exactly as the device buffer it mirrors. Iteration
// (begin/end), fills and check_err work on that storage.
//
// Element access checks the number of indices and their bounds with assert() (debug builds only),
// so release-mode reference loops pay nothing.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

namespace ck_tile {

namespace detail {

// A range (std::vector, std::array, ...) whose elements are integers: lengths, strides, indices.
template <typename R>
concept host_index_range = requires(const R& r) {
    std::begin(r);
    std::end(r);
} && std::is_integral_v<std::remove_cvref_t<decltype(*std::begin(std::declval<const R&>()))>>;

template <typename R>
std::vector<std::size_t> to_size_vector(const R& r, const char* what)
{
    std::vector<std::size_t> out;
    for(const auto& x : r)
    {
        if constexpr(std::is_signed_v<std::remove_cvref_t<decltype(x)>>)
        {
            if(x < 0)
                throw std::invalid_argument(std::string("HostTensorDescriptor: negative ") + what + " " +
                                            std::to_string(static_cast<long long>(x)));
        }
        out.push_back(static_cast<std::size_t>(x));
    }
    return out;
}

// One length or stride in a braced list: any integer type, so that {m, n, 1} may mix int,
// index_t and std::size_t; negative values are rejected.
struct host_dim
{
    std::size_t value;

    template <typename I>
        requires std::is_integral_v<I>
    host_dim(I v) : value(static_cast<std::size_t>(v))
    {
        if constexpr(std::is_signed_v<I>)
        {
            if(v < 0)
                throw std::invalid_argument("HostTensorDescriptor: negative length or stride " +
                                            std::to_string(static_cast<long long>(v)));
        }
    }
};

inline std::vector<std::size_t> to_size_vector(std::initializer_list<host_dim> l)
{
    std::vector<std::size_t> out;
    out.reserve(l.size());
    for(const host_dim& d : l)
        out.push_back(d.value);
    return out;
}

inline void print_size_list(std::ostream& os, const std::vector<std::size_t>& v)
{
    os << '{';
    for(std::size_t i = 0; i < v.size(); ++i)
        os << (i ? ", " : "") << v[i];
    os << '}';
}

} // namespace detail

struct HostTensorDescriptor
{
    HostTensorDescriptor() = default;

    // Packed row-major: the last dimension is contiguous. Lengths from a braced list of integers
    // ({m, n}) or from any range of integers (std::vector<index_t>, std::array, ...).
    HostTensorDescriptor(std::initializer_list<detail::host_dim> lens) : mLens(detail::to_size_vector(lens))
    {
        CalculateStrides();
    }

    template <detail::host_index_range Lens>
    HostTensorDescriptor(const Lens& lens) : mLens(detail::to_size_vector(lens, "length"))
    {
        CalculateStrides();
    }

    // Explicit strides (in elements), one per dimension.
    HostTensorDescriptor(std::initializer_list<detail::host_dim> lens, std::initializer_list<detail::host_dim> strides)
        : mLens(detail::to_size_vector(lens)), mStrides(detail::to_size_vector(strides))
    {
        CheckRanks();
    }

    template <detail::host_index_range Lens, detail::host_index_range Strides>
    HostTensorDescriptor(const Lens& lens, const Strides& strides)
        : mLens(detail::to_size_vector(lens, "length")), mStrides(detail::to_size_vector(strides, "stride"))
    {
        CheckRanks();
    }

    std::size_t get_num_of_dimension() const { return mLens.size(); }
    const std::vector<std::size_t>& get_lengths() const { return mLens; }
    const std::vector<std::size_t>& get_strides() const { return mStrides; }
    std::size_t get_length(std::size_t dim) const { return mLens.at(dim); }
    std::size_t get_stride(std::size_t dim) const { return mStrides.at(dim); }

    // Number of elements addressed (product of the lengths; 1 for a 0-d tensor).
    std::size_t get_element_size() const
    {
        return std::accumulate(mLens.begin(), mLens.end(), std::size_t{1}, std::multiplies<std::size_t>());
    }

    // Number of elements the storage must hold: the largest offset + 1 (0 if any length is 0).
    std::size_t get_element_space_size() const
    {
        std::size_t space = 1;
        for(std::size_t i = 0; i < mLens.size(); ++i)
        {
            if(mLens[i] == 0)
                return 0;
            space += (mLens[i] - 1) * mStrides[i];
        }
        return space;
    }

    // True when the strides are those of a packed row-major tensor of these lengths.
    bool is_packed_row_major() const
    {
        std::size_t expect = 1;
        for(std::size_t i = mLens.size(); i-- > 0;)
        {
            if(mLens[i] != 1 && mStrides[i] != expect)
                return false;
            expect *= mLens[i];
        }
        return true;
    }

    // Offset (in elements) of a multi-index: sum of index * stride.
    template <typename... Is>
        requires(std::is_integral_v<Is> && ...)
    std::size_t GetOffsetFromMultiIndex(Is... is) const
    {
        assert(sizeof...(Is) == mLens.size() && "HostTensorDescriptor: wrong number of indices");
        std::size_t offset = 0;
        std::size_t dim    = 0;
        ((assert(static_cast<std::size_t>(is) < mLens[dim] && "HostTensor: index out of bounds"),
          offset += static_cast<std::size_t>(is) * mStrides[dim], ++dim),
         ...);
        return offset;
    }

    template <detail::host_index_range Idx>
    std::size_t GetOffsetFromMultiIndex(const Idx& idx) const
    {
        std::size_t offset = 0;
        std::size_t dim    = 0;
        for(const auto& i : idx)
        {
            assert(dim < mLens.size() && "HostTensorDescriptor: too many indices");
            assert(static_cast<std::size_t>(i) < mLens[dim] && "HostTensor: index out of bounds");
            offset += static_cast<std::size_t>(i) * mStrides[dim];
            ++dim;
        }
        assert(dim == mLens.size() && "HostTensorDescriptor: too few indices");
        return offset;
    }

    friend bool operator==(const HostTensorDescriptor& a, const HostTensorDescriptor& b)
    {
        return a.mLens == b.mLens && a.mStrides == b.mStrides;
    }

    // "dim 2, lengths {3, 4}, strides {4, 1}"
    friend std::ostream& operator<<(std::ostream& os, const HostTensorDescriptor& d)
    {
        os << "dim " << d.get_num_of_dimension() << ", lengths ";
        detail::print_size_list(os, d.mLens);
        os << ", strides ";
        detail::print_size_list(os, d.mStrides);
        return os;
    }

private:
    void CalculateStrides()
    {
        mStrides.assign(mLens.size(), 1);
        for(std::size_t i = mLens.size(); i-- > 1;)
            mStrides[i - 1] = mStrides[i] * std::max<std::size_t>(mLens[i], 1);
    }

    void CheckRanks() const
    {
        if(mLens.size() != mStrides.size())
            throw std::invalid_argument("HostTensorDescriptor: " + std::to_string(mLens.size()) + " lengths but " +
                                        std::to_string(mStrides.size()) + " strides");
    }

    std::vector<std::size_t> mLens;
    std::vector<std::size_t> mStrides;
};

// Leading-dimension stride of a 2-D matrix: `stride` if given (non-zero), else the packed one
// (cols for row-major, rows for column-major).
inline std::size_t get_default_stride(long_index_t rows, long_index_t cols, long_index_t stride, bool row_major)
{
    if(stride != 0)
        return static_cast<std::size_t>(stride);
    return static_cast<std::size_t>(row_major ? cols : rows);
}

// A rows x cols matrix with leading-dimension stride `stride` (0: packed). Row-major: element
// (r, c) at r * stride + c; column-major: at r + c * stride. A stride that would make elements
// overlap is rejected. `row_major` also accepts std::bool_constant-like tags.
inline HostTensorDescriptor host_tensor_descriptor(long_index_t rows, long_index_t cols, long_index_t stride,
                                                   bool row_major)
{
    if(rows < 0 || cols < 0 || stride < 0)
        throw std::invalid_argument("host_tensor_descriptor: negative size " + std::to_string(rows) + "x" +
                                    std::to_string(cols) + ", stride " + std::to_string(stride));
    const std::size_t ld = get_default_stride(rows, cols, stride, row_major);
    const auto inner     = static_cast<std::size_t>(row_major ? cols : rows);
    const auto outer     = static_cast<std::size_t>(row_major ? rows : cols);
    if(ld < inner && outer > 1)
    {
        std::ostringstream os;
        os << "host_tensor_descriptor: " << (row_major ? "row" : "column") << "-major " << rows << "x" << cols
           << " needs stride >= " << inner << ", got " << ld;
        throw std::invalid_argument(os.str());
    }
    const std::vector<std::size_t> lens{static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)};
    const std::vector<std::size_t> strides =
        row_major ? std::vector<std::size_t>{ld, 1} : std::vector<std::size_t>{1, ld};
    return HostTensorDescriptor(lens, strides);
}

template <typename T>
struct HostTensor
{
    using Descriptor = HostTensorDescriptor;
    using Data       = std::vector<T>;
    using value_type = T;

    HostTensor() = default;

    HostTensor(std::initializer_list<detail::host_dim> lens) : HostTensor(Descriptor(lens)) {}

    HostTensor(std::initializer_list<detail::host_dim> lens, std::initializer_list<detail::host_dim> strides)
        : HostTensor(Descriptor(lens, strides))
    {}

    template <detail::host_index_range Lens>
    HostTensor(const Lens& lens) : HostTensor(Descriptor(lens))
    {}

    template <detail::host_index_range Lens, detail::host_index_range Strides>
    HostTensor(const Lens& lens, const Strides& strides) : HostTensor(Descriptor(lens, strides))
    {}

    HostTensor(const Descriptor& desc) : mDesc(desc), mData(desc.get_element_space_size()) {}

    std::size_t get_num_of_dimension() const { return mDesc.get_num_of_dimension(); }
    const std::vector<std::size_t>& get_lengths() const { return mDesc.get_lengths(); }
    const std::vector<std::size_t>& get_strides() const { return mDesc.get_strides(); }
    std::size_t get_length(std::size_t dim) const { return mDesc.get_length(dim); }
    std::size_t get_stride(std::size_t dim) const { return mDesc.get_stride(dim); }
    std::size_t get_element_size() const { return mDesc.get_element_size(); }
    std::size_t get_element_space_size() const { return mDesc.get_element_space_size(); }
    std::size_t get_element_space_size_in_bytes() const { return sizeof(T) * get_element_space_size(); }

    // Storage (all get_element_space_size() elements, padding included).
    T* data() { return mData.data(); }
    const T* data() const { return mData.data(); }
    std::size_t size() const { return mData.size(); }
    auto begin() { return mData.begin(); }
    auto end() { return mData.end(); }
    auto begin() const { return mData.begin(); }
    auto end() const { return mData.end(); }

    void SetZero() { std::fill(mData.begin(), mData.end(), T{}); }

    // Calls f(*this, idx) for every multi-index idx (a std::vector<std::size_t>), last dimension
    // fastest.
    template <typename F>
    void ForEach(F&& f)
    {
        for_each_index([&](const std::vector<std::size_t>& idx) { f(*this, idx); });
    }
    template <typename F>
    void ForEach(F&& f) const
    {
        for_each_index([&](const std::vector<std::size_t>& idx) { f(*this, idx); });
    }

    template <typename... Is>
        requires(std::is_integral_v<Is> && ...)
    T& operator()(Is... is)
    {
        return mData[mDesc.GetOffsetFromMultiIndex(is...)];
    }
    template <typename... Is>
        requires(std::is_integral_v<Is> && ...)
    const T& operator()(Is... is) const
    {
        return mData[mDesc.GetOffsetFromMultiIndex(is...)];
    }

    T& operator()(const std::vector<std::size_t>& idx) { return mData[mDesc.GetOffsetFromMultiIndex(idx)]; }
    const T& operator()(const std::vector<std::size_t>& idx) const { return mData[mDesc.GetOffsetFromMultiIndex(idx)]; }

    // A copy with the same descriptor whose elements are type_convert<U>(x).
    template <typename U>
    HostTensor<U> CopyCast() const
    {
        HostTensor<U> out(mDesc);
        std::transform(mData.begin(), mData.end(), out.mData.begin(), [](const T& x) { return type_convert<U>(x); });
        return out;
    }

    // Prints the shape: "HostTensor(dim 2, lengths {3, 4}, strides {4, 1})".
    friend std::ostream& operator<<(std::ostream& os, const HostTensor& t)
    {
        return os << "HostTensor(" << t.mDesc << ")";
    }

    Descriptor mDesc;
    Data mData;

private:
    template <typename G>
    void for_each_index(G&& g) const
    {
        const auto& lens = mDesc.get_lengths();
        if(mDesc.get_element_size() == 0)
            return;
        std::vector<std::size_t> idx(lens.size(), 0);
        while(true)
        {
            g(static_cast<const std::vector<std::size_t>&>(idx));
            std::size_t d = lens.size();
            while(d > 0)
            {
                --d;
                if(++idx[d] < lens[d])
                    break;
                idx[d] = 0;
                if(d == 0)
                    return;
            }
            if(lens.empty())
                return;
        }
    }
};

} // namespace ck_tile
