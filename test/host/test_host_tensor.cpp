// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <array>
#include <sstream>
#include <vector>

#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"

using ck_tile::HostTensor;
using ck_tile::HostTensorDescriptor;

TEST_CASE("packed descriptor: row-major strides, sizes, offsets")
{
    HostTensorDescriptor d({2, 3, 4});
    CHECK(d.get_num_of_dimension() == 3);
    CHECK(d.get_lengths() == std::vector<std::size_t>{2, 3, 4});
    CHECK(d.get_strides() == std::vector<std::size_t>{12, 4, 1});
    CHECK(d.get_element_size() == 24);
    CHECK(d.get_element_space_size() == 24);
    CHECK(d.is_packed_row_major());
    CHECK(d.GetOffsetFromMultiIndex(0, 0, 0) == 0);
    CHECK(d.GetOffsetFromMultiIndex(1, 2, 3) == 23);
    CHECK(d.GetOffsetFromMultiIndex(std::vector<std::size_t>{1, 0, 2}) == 14);
    CHECK(d.GetOffsetFromMultiIndex(std::array<int, 3>{0, 1, 1}) == 5);
}

TEST_CASE("strided descriptor: element space covers the largest offset")
{
    // 3 x 4 rows padded to 6
    HostTensorDescriptor d({3, 4}, {6, 1});
    CHECK(d.get_element_size() == 12);
    CHECK(d.get_element_space_size() == 2 * 6 + 3 + 1);
    CHECK(d.GetOffsetFromMultiIndex(2, 3) == 15);
    CHECK_FALSE(d.is_packed_row_major());

    // column-major via explicit strides, from vectors of another integer type
    HostTensorDescriptor c(std::vector<int>{3, 4}, std::vector<long>{1, 3});
    CHECK(c.get_element_space_size() == 12);
    CHECK(c.GetOffsetFromMultiIndex(1, 2) == 7);

    // broadcast (stride 0)
    HostTensorDescriptor b({5, 4}, {0, 1});
    CHECK(b.get_element_space_size() == 4);

    // a zero length: nothing to store
    HostTensorDescriptor z({3, 0});
    CHECK(z.get_element_size() == 0);
    CHECK(z.get_element_space_size() == 0);
}

TEST_CASE("braced lists may mix integer types")
{
    int m                = 3;
    std::size_t n        = 4;
    long stride          = 6;
    ck_tile::index_t one = 1;
    HostTensorDescriptor d({m, n}, {stride, one});
    CHECK(d.get_lengths() == std::vector<std::size_t>{3, 4});
    CHECK(d.get_strides() == std::vector<std::size_t>{6, 1});
    HostTensor<float> t({m, n}, {n, 1});
    CHECK(t.get_element_space_size() == 12);
    HostTensor<float> u{m, n};
    CHECK(u.get_lengths() == std::vector<std::size_t>{3, 4});
    HostTensor<float> s({n});
    CHECK(s.get_element_size() == 4);
}

TEST_CASE("descriptor errors")
{
    CHECK_THROWS_AS(HostTensorDescriptor({2, 3}, {1}), std::invalid_argument);
    CHECK_THROWS_AS(HostTensorDescriptor({2, -3}), std::invalid_argument);
    CHECK_THROWS_AS(HostTensorDescriptor({2, 3}, {-1, 1}), std::invalid_argument);
    CHECK_THROWS_AS(HostTensorDescriptor(std::vector<int>{2, -3}), std::invalid_argument);
}

TEST_CASE("host_tensor_descriptor for row- and column-major matrices")
{
    auto r = ck_tile::host_tensor_descriptor(3, 4, 0, true);
    CHECK(r.get_strides() == std::vector<std::size_t>{4, 1});
    auto rp = ck_tile::host_tensor_descriptor(3, 4, 8, true);
    CHECK(rp.get_strides() == std::vector<std::size_t>{8, 1});
    CHECK(rp.get_element_space_size() == 2 * 8 + 4);
    auto c = ck_tile::host_tensor_descriptor(3, 4, 0, false);
    CHECK(c.get_strides() == std::vector<std::size_t>{1, 3});
    CHECK(c.GetOffsetFromMultiIndex(2, 1) == 5);
    auto ct = ck_tile::host_tensor_descriptor(3, 4, 5, std::false_type{});
    CHECK(ct.get_strides() == std::vector<std::size_t>{1, 5});
    CHECK(ck_tile::get_default_stride(3, 4, 0, true) == 4);
    CHECK(ck_tile::get_default_stride(3, 4, 0, false) == 3);
    CHECK(ck_tile::get_default_stride(3, 4, 7, false) == 7);
    CHECK_THROWS_AS(ck_tile::host_tensor_descriptor(3, 4, 2, true), std::invalid_argument);
    CHECK_THROWS_AS(ck_tile::host_tensor_descriptor(3, 4, 2, false), std::invalid_argument);
}

TEST_CASE("HostTensor element access follows the strides")
{
    HostTensor<float> t({3, 4}, {6, 1});
    CHECK(t.get_element_size() == 12);
    CHECK(t.get_element_space_size() == 16);
    CHECK(t.get_element_space_size_in_bytes() == 16 * sizeof(float));
    CHECK(t.mData.size() == 16);
    CHECK(t.size() == 16);
    t.SetZero();
    t(2, 3) = 7.f;
    CHECK(t.mData[15] == 7.f);
    CHECK(t.data()[15] == 7.f);
    t(std::vector<std::size_t>{1, 2}) = 5.f;
    CHECK(t.mData[8] == 5.f);
    const auto& ct = t;
    CHECK(ct(1, 2) == 5.f);
    CHECK(ct(std::vector<std::size_t>{2, 3}) == 7.f);

    int m  = 2;
    long n = 3;
    HostTensor<int> u(std::vector<int>{m, static_cast<int>(n)});
    CHECK(u.get_lengths() == std::vector<std::size_t>{2, 3});
    u(m - 1, n - 1) = 1;
    CHECK(u.mData[5] == 1);

    HostTensor<ck_tile::half_t> h(ck_tile::host_tensor_descriptor(2, 2, 0, false));
    h(1, 0) = ck_tile::half_t(1.5f);
    CHECK(static_cast<float>(h.mData[1]) == 1.5f);
}

TEST_CASE("HostTensor ForEach visits every index, last dimension fastest")
{
    HostTensor<int> t({2, 3});
    int n = 0;
    t.ForEach([&](auto& self, const std::vector<std::size_t>& idx) {
        self(idx) = static_cast<int>(idx[0] * 10 + idx[1]);
        ++n;
    });
    CHECK(n == 6);
    CHECK(t.mData == std::vector<int>{0, 1, 2, 10, 11, 12});
    std::vector<std::vector<std::size_t>> seen;
    const HostTensor<int>& ct = t;
    ct.ForEach([&](const auto&, const std::vector<std::size_t>& idx) { seen.push_back(idx); });
    CHECK(seen.front() == std::vector<std::size_t>{0, 0});
    CHECK(seen.back() == std::vector<std::size_t>{1, 2});

    HostTensor<int> empty({0, 3});
    int visits = 0;
    empty.ForEach([&](auto&, const auto&) { ++visits; });
    CHECK(visits == 0);
}

TEST_CASE("HostTensor iteration, CopyCast and printing")
{
    HostTensor<float> t({2, 2});
    float v = 0;
    for(auto& x : t)
        x = v++;
    CHECK(t(1, 1) == 3.f);
    auto b = t.CopyCast<ck_tile::bf16_t>();
    CHECK(b.mDesc == t.mDesc);
    CHECK(static_cast<float>(b(1, 0)) == 2.f);

    std::ostringstream os;
    os << t;
    CHECK(os.str() == "HostTensor(dim 2, lengths {2, 2}, strides {2, 1})");
    std::ostringstream os2;
    os2 << HostTensorDescriptor({3, 4}, {6, 1});
    CHECK(os2.str() == "dim 2, lengths {3, 4}, strides {6, 1}");
}
