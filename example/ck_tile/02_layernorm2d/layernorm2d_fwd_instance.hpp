// SPDX-License-Identifier: MIT
// The launch of one layernorm2d_fwd instance; the instance files instantiate it.
#pragma once
#include "layernorm2d_fwd.hpp"

template <typename Instance>
bool layernorm2d_fwd_supports(const layernorm2d_fwd_args& a)
{
    return Instance::Kernel::IsSupportedArgument(a);
}

template <typename Instance>
float layernorm2d_fwd_run(const layernorm2d_fwd_args& a, const ck_tile::stream_config& s, std::string* kernel_name)
{
    using Kernel = typename Instance::Kernel;
    if(kernel_name != nullptr)
        *kernel_name = Kernel::GetName();
    const auto kargs = Kernel::MakeKargs(a);
    return ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, dim3(Kernel::GridSize(a)),
                                                                              dim3(Kernel::BlockSize()), 0, kargs));
}

#define LAYERNORM2D_FWD_INSTANCE(IN, OUT, VEC, TWO_PASS)                                                               \
    template bool layernorm2d_fwd_supports<layernorm2d_fwd_instance<IN, OUT, VEC, TWO_PASS>>(                          \
        const layernorm2d_fwd_args&);                                                                                  \
    template float layernorm2d_fwd_run<layernorm2d_fwd_instance<IN, OUT, VEC, TWO_PASS>>(                              \
        const layernorm2d_fwd_args&, const ck_tile::stream_config&, std::string*);
