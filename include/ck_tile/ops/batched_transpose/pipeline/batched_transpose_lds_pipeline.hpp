// SPDX-License-Identifier: MIT
// BatchedTransposeLdsPipeline: one block tile, transposed through LDS with gfx950's LDS transpose
// reads (upstream's pipeline 1).
//   DRAM [M x N] -> registers -> LDS (16-byte writes, row-major [M x N], padded rows)
//   -> barrier -> ds_read_b64_tr_b16 / _b8 -> registers in the output distribution -> DRAM [N x M]
//
// The transpose happens in the read: in each group of 16 lanes, lane j receives E = 8 bytes of
// elements of LDS column n0 + j from E consecutive rows (core/arch/lds.hpp). Two reads at rows m0
// and m0 + E give a lane 16 bytes of one output row, so the output store is 16 bytes wide too. The
// policy's MakeTransposedReadDistribution says which lane holds which output elements; the reads
// below fill each lane's registers in that distribution's order.
//
// Only archs whose table row has lds_tr = 1 compile its body; elsewhere the kernel does nothing
// and the host refuses to launch it.
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

    static constexpr const char* name = "lds";
    // host code of a hip build has no arch (and must not instantiate compiled_arch_info)
    static constexpr bool kSupportedOnCompiledArch =
        has_compiled_arch && get_arch_info(compiled_arch).lds_transpose_read;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    template <typename InWindow, typename OutWindow>
    CK_TILE_DEVICE void operator()(const InWindow& in_window, const OutWindow& out_window, void* p_smem) const
    {
        if constexpr(kSupportedOnCompiledArch)
        {
            using Read                = BatchedTransposeLdsReadShape<Problem>;
            constexpr auto m          = number<Problem::kMPerBlock>{};
            constexpr auto n          = number<Problem::kNPerBlock>{};
            constexpr index_t kVector = Problem::kVector;
            auto* p_lds               = static_cast<InputType*>(p_smem);

            const auto lds_mn =
                make_tensor_view<address_space_enum::lds>(p_lds, Policy::template MakeLdsStoreDescriptor<Problem>());
            const auto x = load_tile(make_tile_window(in_window, Policy::template MakeInputDistribution<Problem>()));
            store_tile(make_tile_window(lds_mn, make_tuple(m, n), make_multi_index(0, 0)), x);
            block_sync_lds(); // the whole tile is in LDS before any lane reads its transpose

            // Every read of this lane, in the order of its registers in the output distribution
            // (Y = RepeatN, RepeatM, kVector = kReads x kElems), issued together.
            const index_t warp = get_warp_id();
            const index_t lane = get_lane_id();
            const index_t wm   = warp / Problem::kWarpsN;
            const index_t wn   = warp % Problem::kWarpsN;
            // this lane's 8 bytes in the kElems x 16 matrix its group reads
            const index_t read_row = (lane % 16) / Read::kLanesPerRow;
            const index_t read_col = (lane % 16) % Read::kLanesPerRow * Read::kElems;
            array<const InputType*, Read::kRepeatN * Read::kRepeatM * Read::kReads> reads;
            static_for<0, Read::kRepeatN, 1>{}([&](auto rn) {
                static_for<0, Read::kRepeatM, 1>{}([&](auto rm) {
                    // the group's 16 output rows start at n0, its lanes' kVector columns at m0
                    const index_t n0 = (rn * Problem::kWarpsN + wn) * 16;
                    const index_t m0 = ((rm * Problem::kWarpsM + wm) * Read::kGroups + lane / 16) * kVector;
                    static_for<0, Read::kReads, 1>{}([&](auto q) {
                        reads[(rn * Read::kRepeatM + rm) * Read::kReads + q] =
                            p_lds + (m0 + q * Read::kElems + read_row) * Read::kLdsRowStride + n0 + read_col;
                    });
                });
            });
            auto y =
                make_static_distributed_tensor<InputType>(Policy::template MakeTransposedReadDistribution<Problem>());
            y.get_thread_buffer() = lds_transpose_read_b64(reads);
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
