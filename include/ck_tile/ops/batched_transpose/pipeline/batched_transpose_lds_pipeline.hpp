// SPDX-License-Identifier: MIT
// BatchedTransposeLdsPipeline: one block tile, transposed through LDS (upstream's pipeline 1, the
// gfx950 path).
//   DRAM [M x N] -> registers -> LDS (16-byte writes, row-major [M x N])
//   -> barrier -> registers in the output distribution, read from LDS as [N x M] -> DRAM [N x M]
//
// Upstream reads the LDS tile back with gfx950's LDS transpose reads (ds_read_b64_tr_b16 and
// kin: one instruction returns, in each lane, elements from several rows). This pipeline reads the
// transposed LDS view element by element instead (ds_read_u16 / ds_read_u8): the same data
// movement through LDS, without the transpose-read instruction. It is still guarded like
// upstream's: only archs whose table row has lds_tr = 1 compile its body; elsewhere the kernel does
// nothing and the host refuses to launch it.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_lds_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = BatchedTransposeLdsPolicy>
struct BatchedTransposeLdsPipeline
{
    using Problem   = Problem_;
    using Policy    = Policy_;
    using InputType = typename Problem::InputType;

    static constexpr const char* name              = "lds";
    static constexpr bool kSupportedOnCompiledArch = has_compiled_arch && compiled_arch_info().lds_transpose_read;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    template <typename InWindow, typename OutWindow>
    CK_TILE_DEVICE void operator()(const InWindow& in_window, const OutWindow& out_window, void* p_smem) const
    {
        if constexpr(kSupportedOnCompiledArch)
        {
            constexpr auto m = number<Problem::kMPerBlock>{};
            constexpr auto n = number<Problem::kNPerBlock>{};
            auto* p_lds      = static_cast<InputType*>(p_smem);

            const auto lds_mn =
                make_tensor_view<address_space_enum::lds>(p_lds, Policy::template MakeLdsStoreDescriptor<Problem>());
            const auto lds_nm = make_tensor_view<address_space_enum::lds>(
                p_lds, Policy::template MakeLdsTransposedDescriptor<Problem>());

            const auto x = load_tile(make_tile_window(in_window, Policy::template MakeInputDistribution<Problem>()));
            store_tile(make_tile_window(lds_mn, make_tuple(m, n), make_multi_index(0, 0)), x);
            block_sync_lds(); // the whole tile is in LDS before any lane reads its transpose
            const auto y = load_tile(make_tile_window(lds_nm, make_tuple(n, m), make_multi_index(0, 0),
                                                      Policy::template MakeOutputDistribution<Problem>()));
            store_tile(out_window, y);
        }
        else
        {
            (void)in_window;
            (void)out_window;
            (void)p_smem;
        }
    }
};

} // namespace ck_tile
