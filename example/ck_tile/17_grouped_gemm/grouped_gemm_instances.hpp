// SPDX-License-Identifier: MIT
// The kernel instances of tile_example_grouped_gemm(_tileloop) and how one is picked. Per data type
// and grid kind, A row-major and B column-major, two instances of the same kernel:
//   - vector: 16-byte DRAM accesses of A and B along K (C: its rows 16-byte aligned);
//   - scalar: element-by-element accesses, for sizes, strides or pointers that are not multiples
//     of the vector (K = 17, stride_A = 65, ...). Its C vector is 1, so it cannot add split-K
//     partial results (16-bit atomic adds come in pairs): split-K needs the vector instance.
// Both pad M, N and K, so any size works. One instance runs every group: the vector one when it
// accepts all of them, else the scalar one.
#pragma once
#include "grouped_gemm.hpp"

namespace grouped_gemm_example {

template <typename Types, bool kPersistent, bool kVector>
struct GroupedGemmInstance
{
    using A   = typename Types::ADataType;
    using B   = typename Types::BDataType;
    using Acc = typename Types::AccDataType;
    using C   = typename Types::CDataType;
    using Row = ck_tile::tensor_layout::gemm::RowMajor;
    using Col = ck_tile::tensor_layout::gemm::ColumnMajor;

    static constexpr ck_tile::index_t kVecA = kVector ? 16 / sizeof(A) : 1;
    static constexpr ck_tile::index_t kVecB = kVector ? 16 / sizeof(B) : 1;
    static constexpr ck_tile::index_t kVecC = kVector ? 16 / sizeof(C) : 1;

    using Traits   = ck_tile::TileGemmUniversalTraits<true, true, true, false, Row, Col, Row, kPersistent>;
    using Problem  = ck_tile::UniversalGemmPipelineProblem<A, B, Acc, Shape, Traits,
                                                           ck_tile::GemmPipelineScheduler::Intrawave, kVecA, kVecB>;
    using Pipeline = ck_tile::GemmPipelineAgBgCrCompV3<Problem>;
    // the C tile is stored from the MFMA's registers (no LDS): with the pipeline's 18 KiB of LDS,
    // three blocks fit gfx942's 64 KiB, so the compiler budgets registers for 2+ waves per SIMD
    using Epilogue = ck_tile::Default2DEpilogue<
        ck_tile::Default2DEpilogueProblem<Acc, C, true, true, ck_tile::element_wise::PassThrough, kVecC>>;
    using Partitioner = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape, 8, 4>;
    using Kernel      = ck_tile::GroupedGemmKernel<Partitioner, Pipeline, Epilogue>;

    static std::string describe(const std::string& access)
    {
        using WarpGemm = typename Pipeline::BlockGemm::WarpGemm;
        using Attr     = typename WarpGemm::WarpGemmAttribute;
        using Instr    = typename Attr::instr;
        using W        = typename Shape::BlockWarps;
        using T        = typename Shape::WarpTile;
        const auto s   = [](auto v) { return std::to_string(v); };
        const int per  = Attr::kK / Attr::base::kK;
        return std::string("kernel ") + Kernel::GetName() + ", pipeline " + Pipeline::description + ", epilogue " +
               Epilogue::name + "\nblock tile " + s(Shape::kM) + "x" + s(Shape::kN) + "x" + s(Shape::kK) + ", warps " +
               s(W::at(0)) + "x" + s(W::at(1)) + "x" + s(W::at(2)) + ", warp tile " + s(T::at(0)) + "x" + s(T::at(1)) +
               "x" + s(T::at(2)) + " (" + (per > 1 ? s(per) + " x " : std::string()) +
               ck_tile::mfma_traits<Instr>::mnemonic + "), block " + s(Kernel::kBlockSize) + " threads, LDS " +
               s(Kernel::GetSmemSize()) + " B\naccess " + access;
    }

    static LaunchResult launch(const LaunchConfig& cfg, const std::vector<ck_tile::GroupedGemmHostArgs>& descs,
                               const std::vector<std::pair<void*, std::size_t>>& c_buffers, const std::string& access)
    {
        LaunchResult r;
        r.instance = describe(access);
        // the groups' descriptors (the non-empty ones) into the device workspace
        const auto kargs = Kernel::MakeKargs(descs);
        r.work_items     = kargs.empty() ? 0 : kargs.back().block_end;
        r.grid           = kPersistent ? Kernel::MaxOccupancyGridSize() : Kernel::GridSize(descs);
        if(kargs.empty())
            return r; // every group has M = 0 or N = 0: nothing to compute
        ck_tile::DeviceMem workspace(Kernel::GetWorkSpaceSize(descs));
        workspace.ToDevice(kargs.data(), kargs.size() * sizeof(kargs[0]));

        const ck_tile::stream_config s{nullptr, true, 0, cfg.warmup, cfg.repeat};
        auto gemm    = ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, r.grid, Kernel::BlockSize(), 0,
                                                                static_cast<const void*>(workspace.GetDeviceBuffer()),
                                                                static_cast<ck_tile::index_t>(kargs.size()));
        bool split_k = false;
        for(const auto& d : descs)
            split_k = split_k || (d.k_batch > 1 && d.M > 0 && d.N > 0 && d.K > 0);
        if(!split_k)
            r.ms = ck_tile::launch_kernel(s, gemm);
        else
        {
            // split-K adds into C: every launch starts from zeroed C (the time includes the zeroing)
            const auto zero_c = [c_buffers](const ck_tile::stream_config&) {
                for(const auto& [p, bytes] : c_buffers)
                    if(bytes != 0)
                        HIP_CHECK_ERROR(hipMemset(p, 0, bytes));
            };
            r.ms = ck_tile::launch_kernel(s, zero_c, gemm);
        }
        return r;
    }
};

template <typename Types, bool kPersistent>
LaunchResult launch_grouped_gemm(const LaunchConfig& cfg, const std::vector<ck_tile::GroupedGemmHostArgs>& descs,
                                 const std::vector<std::pair<void*, std::size_t>>& c_buffers)
{
    using Vector = GroupedGemmInstance<Types, kPersistent, true>;
    using Scalar = GroupedGemmInstance<Types, kPersistent, false>;

    const std::string vector_reason = Vector::Kernel::GetUnsupportedReason(descs);
    if(vector_reason.empty())
        return Vector::launch(cfg, descs, c_buffers,
                              "vector (A " + std::to_string(Vector::kVecA) + ", B " + std::to_string(Vector::kVecB) +
                                  ", C " + std::to_string(Vector::kVecC) + " elements)");

    const std::string scalar_reason = Scalar::Kernel::GetUnsupportedReason(descs);
    if(!scalar_reason.empty())
        throw ck_tile::arg_error("error: the grouped GEMM kernel does not support these arguments: " + scalar_reason);
    return Scalar::launch(cfg, descs, c_buffers, "scalar (" + vector_reason + ")");
}

} // namespace grouped_gemm_example
