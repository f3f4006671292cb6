// SPDX-License-Identifier: MIT
// A user's program: the copy tutorial's kernel over an awkward size, checked element by element.
// Exit status 0 when the copy is exact.
#include <cstdio>
#include "ck_tile/host.hpp"
#include "copy_kernel.hpp"

int main()
{
    using T     = ck_tile::half_t;
    using Shape = ck_tile::CopyShape<T>;
    const int M = 100, N = 72;

    ck_tile::HostTensor<T> x({M, N});
    ck_tile::HostTensor<T> y({M, N});
    ck_tile::FillUniformDistribution<T>{-5.f, 5.f, 7}(x);
    ck_tile::DeviceMem x_dev(x.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(y.get_element_space_size_in_bytes());
    x_dev.ToDevice(x.data());
    y_dev.SetZero();

    const auto* p_x = static_cast<const T*>(x_dev.GetDeviceBuffer());
    auto* p_y       = static_cast<T*>(y_dev.GetDeviceBuffer());
    ck_tile::launch_kernel(ck_tile::stream_config{}, ck_tile::make_kernel<Shape::kBlockSize>(
                                                         ck_tile::TileCopyKernel<Shape, true>{},
                                                         dim3(ck_tile::integer_divide_ceil(M, Shape::kMPerBlock)),
                                                         dim3(Shape::kBlockSize), 0, p_x, p_y, M, N));
    y_dev.FromDevice(y.data());
    const bool pass = ck_tile::check_err(y.mData, x.mData, "Error: the copy differs from its input", 0, 0);
    std::printf("consumer (C++ standard %ld): valid:%s\n", static_cast<long>(__cplusplus), pass ? "y" : "n");
    return pass ? 0 : 1;
}
