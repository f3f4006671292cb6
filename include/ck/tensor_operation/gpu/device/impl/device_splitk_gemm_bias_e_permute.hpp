// SPDX-License-Identifier: MIT
// DeviceSplitkGemmBiasEPermute: a split-K batched GEMM with a fused bias, element-wise and permute
// epilogue, as a classic CK device op built on CK Tile's GEMM (grid/gridwise_splitk_gemm_bias_e_permute.hpp).
//
//   F[g0,g1,m0,m1,n0,n1] = (sum over S splits of A_s * B_s + D) * E        (AddMultiply)
//
//   A [G0, G1, M0, M1, K]   K contiguous, M0 and M1 mergeable (stride M0 = M1 * stride M1)
//   B [G0, G1, N0, N1, K]   K contiguous, N0 and N1 mergeable
//   D, E, F [G0, G1, M0, M1, N0, N1] at any strides: D's strides 0 along M make it a bias, F's
//   strides place it in the permuted layout (e.g. physically [G0, G1, M0, N0, M1, N1]).
//
// The split_k S parts of K are reduced by one of two schemes (the argument's reduction):
//   Workspace (default)  stage 1 stores each split's fp32 partial product to its slice of a
//                        workspace [S, G, M, N]; stage 2 sums the slices and applies bias, E and
//                        the permute in one pass. Deterministic.
//   Atomic               F is zeroed, then split 0 adds (C_0 + D) * E and every other split adds
//                        C_s * E atomically into F (the epilogue is linear in C): fp32 atomic adds
//                        for fp32 F; packed 16-bit atomic adds for fp16 F, one element per atomic
//                        (the other half of its dword + 0, so any F strides and an odd element or
//                        a misaligned pair need nothing special). No workspace. fp16 F is then the
//                        sum of split_k contributions each rounded to fp16, added in fp16: about
//                        split_k fp16 roundings of the running sum instead of one, in an order
//                        that varies from run to run.
// split_k = 1 needs neither: one kernel stores (C + D) * E.
//
// Restrictions (IsSupportedArgument / GetUnsupportedReason): K, A's and B's row and batch
// strides multiples of the vector (16 bytes of A / B); every tensor within 2^31 elements.
// Any M, N and K otherwise (partial tiles and a K that is not a multiple of split_k x KPerBlock).
#pragma once
#include <array>
#include <cstddef>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ck/ck.hpp"
#include "ck/stream_config.hpp"
#include "ck/tensor_operation/gpu/device/device_base.hpp"
#include "ck/tensor_operation/gpu/element/element_wise_operation.hpp"
#include "ck/tensor_operation/gpu/grid/gridwise_splitk_gemm_bias_e_permute.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/kernel_launch.hpp"

namespace ck::tensor_operation::device {

enum struct SplitKReduction
{
    Workspace, // two stages through an fp32 workspace (default)
    Atomic     // atomic adds into F (the first split applies the epilogue)
};

inline const char* to_string(SplitKReduction r) { return r == SplitKReduction::Atomic ? "atomic" : "workspace"; }

namespace splitk_gemm_bias_e_permute {

// The pipeline policy: CK Tile's default one, whose warp GEMM comes from WarpGemmMfmaDispatcher
// for 16-bit types, and the fp32 MFMA (v_mfma_f32_32x32x2_f32 / 16x16x4) for fp32.
struct PipelinePolicy : ck_tile::GemmPipelineAGmemBGmemCRegV1DefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto GetBlockGemm()
    {
        using S = typename Problem::BlockGemmShape;
        using A = typename Problem::ADataType;
        using B = typename Problem::BDataType;
        using C = typename Problem::AccDataType;
        if constexpr(std::is_same_v<A, float>)
        {
            static_assert(std::is_same_v<B, float> && std::is_same_v<C, float>, "fp32 A needs fp32 B and C");
            using Instr    = std::conditional_t<S::WarpTile::at(0) == 32, ck_tile::mfma_instr::v_mfma_f32_32x32x2_f32,
                                                ck_tile::mfma_instr::v_mfma_f32_16x16x4_f32>;
            using WarpGemm = ck_tile::WarpGemmImpl<ck_tile::WarpGemmAttributeMfmaTransposedCDistribution<Instr>>;
            static_assert(WarpGemm::kK == S::WarpTile::at(2), "fp32: the warp tile's K is the MFMA's");
            using BlockGemmPolicy =
                ck_tile::BlockGemmASmemBSmemCRegV1CustomPolicy<A, B, C, typename S::BlockWarps, WarpGemm>;
            return ck_tile::BlockGemmASmemBSmemCRegV1<Problem, BlockGemmPolicy>{};
        }
        else
            return ck_tile::GemmPipelineAGmemBGmemCRegV1DefaultPolicy::GetBlockGemm<Problem>();
    }
};

template <typename A, typename B, typename D, typename E, typename F, index_t MPerBlock, index_t NPerBlock,
          index_t KPerBlock, index_t MPerXdl, index_t NPerXdl, index_t MWaves, index_t NWaves>
struct Config
{
    using ADataType = A;
    using BDataType = B;
    using DDataType = D;
    using EDataType = E;
    using FDataType = F;
    // K of one MFMA: 32x32x8 / 16x16x16 for 16-bit types, 32x32x2 / 16x16x4 for fp32
    static constexpr index_t kWarpK = std::is_same_v<A, float> ? (MPerXdl == 32 ? 2 : 4) : (MPerXdl == 32 ? 8 : 16);
    using Shape =
        ck_tile::TileGemmShape<ck_tile::sequence<MPerBlock, NPerBlock, KPerBlock>, ck_tile::sequence<MWaves, NWaves, 1>,
                               ck_tile::sequence<MPerXdl, NPerXdl, kWarpK>>;
    static constexpr index_t kVectorA = 16 / static_cast<index_t>(sizeof(A));
    static constexpr index_t kVectorB = 16 / static_cast<index_t>(sizeof(B));
    using PipelinePolicy              = splitk_gemm_bias_e_permute::PipelinePolicy;
};

template <typename T>
constexpr const char* type_name()
{
    if constexpr(std::is_same_v<T, float>)
        return "fp32";
    else if constexpr(std::is_same_v<T, ck_tile::half_t>)
        return "fp16";
    else if constexpr(std::is_same_v<T, ck_tile::bf16_t>)
        return "bf16";
    else
        return "?";
}

} // namespace splitk_gemm_bias_e_permute

template <typename ADataType, typename BDataType, typename DDataType, typename EDataType, typename FDataType,
          index_t MPerBlock = 128, index_t NPerBlock = 128, index_t KPerBlock = 32, index_t MPerXdl = 32,
          index_t NPerXdl = 32, index_t MWaves = 2, index_t NWaves = 2>
struct DeviceSplitkGemmBiasEPermute : public BaseOperator
{
    using Config  = splitk_gemm_bias_e_permute::Config<ADataType, BDataType, DDataType, EDataType, FDataType, MPerBlock,
                                                       NPerBlock, KPerBlock, MPerXdl, NPerXdl, MWaves, NWaves>;
    using Problem = splitk_gemm_bias_e_permute::Problem;
    using Mode    = splitk_gemm_bias_e_permute::EpilogueMode;
    using GemmKernel   = splitk_gemm_bias_e_permute::SplitKGemmKernel<Config>;
    using ReduceKernel = splitk_gemm_bias_e_permute::ReduceEpilogueKernel<Config>;

    using AElementwiseOperation   = element_wise::PassThrough;
    using BElementwiseOperation   = element_wise::PassThrough;
    using CDEElementwiseOperation = element_wise::AddMultiply;

    static_assert(std::is_same_v<FDataType, float> || std::is_same_v<FDataType, ck_tile::half_t> ||
                      std::is_same_v<FDataType, ck_tile::bf16_t>,
                  "DeviceSplitkGemmBiasEPermute: F is fp32, fp16 or bf16 (the types with atomic adds)");
    static constexpr index_t kVecA   = Config::kVectorA;
    static constexpr index_t kVecB   = Config::kVectorB;
    static constexpr index_t kNumDim = 6;

    struct Argument : public BaseArgument
    {
        const void* p_a_;
        const void* p_b_;
        const void* p_d_;
        const void* p_e_;
        void* p_f_;
        std::vector<index_t> a_lengths_, a_strides_, b_lengths_, b_strides_;
        std::vector<index_t> d_lengths_, d_strides_, e_lengths_, e_strides_, f_lengths_, f_strides_;
        index_t split_k_;
        SplitKReduction reduction_;
    };

    struct Invoker : public BaseInvoker
    {
        float Run(const Argument& arg, const StreamConfig& s = StreamConfig{}) const
        {
            const std::string why = GetUnsupportedReason(arg);
            if(!why.empty())
                throw std::invalid_argument(DeviceSplitkGemmBiasEPermute{}.GetTypeString() +
                                            " does not support this problem: " + why);
            Problem p = MakeProblem(arg);
            p.p_ws    = static_cast<float*>(arg.p_workspace_);
            if(WorkSpaceBytes(arg) != 0 && p.p_ws == nullptr)
                throw std::invalid_argument("DeviceSplitkGemmBiasEPermute: the argument needs " +
                                            std::to_string(WorkSpaceBytes(arg)) +
                                            " bytes of workspace (SetWorkSpacePointer)");

            const auto gemm = [&](Mode mode) {
                using K   = GemmKernel;
                Problem q = p;
                q.mode    = static_cast<index_t>(mode);
                return ck_tile::make_kernel<K::kBlockSize>(K{}, K::GridSize(q), dim3(K::kBlockSize), 0, q);
            };
            const auto reduce = [&](index_t num_partials) {
                using K = ReduceKernel;
                return ck_tile::make_kernel<K::kBlockSize>(K{}, K::GridSize(p), dim3(K::kBlockSize), 0, p,
                                                           num_partials);
            };
            const auto zero = [](void* ptr, std::size_t bytes) {
                return [=](const StreamConfig&) { HIP_CHECK_ERROR(hipMemset(ptr, 0, bytes)); };
            };

            if(p.split_k == 1)
                return ck_tile::launch_kernel(s, gemm(Mode::StoreF));
            if(arg.reduction_ == SplitKReduction::Workspace)
                return ck_tile::launch_kernel(s, gemm(Mode::StoreWorkspace), reduce(p.split_k));
            return ck_tile::launch_kernel(s, zero(p.p_f, static_cast<std::size_t>(p.f_space) * sizeof(FDataType)),
                                          gemm(Mode::AtomicAddF));
        }

        float Run(const BaseArgument* p_arg, const StreamConfig& s = StreamConfig{}) override
        {
            return Run(*dynamic_cast<const Argument*>(p_arg), s);
        }
    };

    // ---- the device-op interface ---------------------------------------------------------------

    // Lengths and strides in elements: A [G0,G1,M0,M1,K], B [G0,G1,N0,N1,K],
    // D, E, F [G0,G1,M0,M1,N0,N1].
    static Argument MakeArgument(const void* p_a, const void* p_b, const void* p_d, const void* p_e, void* p_f,
                                 std::vector<index_t> a_gs_ms_ks_lengths, std::vector<index_t> a_gs_ms_ks_strides,
                                 std::vector<index_t> b_gs_ns_ks_lengths, std::vector<index_t> b_gs_ns_ks_strides,
                                 std::vector<index_t> d_gs_ms_ns_lengths, std::vector<index_t> d_gs_ms_ns_strides,
                                 std::vector<index_t> e_gs_ms_ns_lengths, std::vector<index_t> e_gs_ms_ns_strides,
                                 std::vector<index_t> f_gs_ms_ns_lengths, std::vector<index_t> f_gs_ms_ns_strides,
                                 index_t split_k, SplitKReduction reduction = SplitKReduction::Workspace)
    {
        Argument a;
        a.p_a_       = p_a;
        a.p_b_       = p_b;
        a.p_d_       = p_d;
        a.p_e_       = p_e;
        a.p_f_       = p_f;
        a.a_lengths_ = std::move(a_gs_ms_ks_lengths);
        a.a_strides_ = std::move(a_gs_ms_ks_strides);
        a.b_lengths_ = std::move(b_gs_ns_ks_lengths);
        a.b_strides_ = std::move(b_gs_ns_ks_strides);
        a.d_lengths_ = std::move(d_gs_ms_ns_lengths);
        a.d_strides_ = std::move(d_gs_ms_ns_strides);
        a.e_lengths_ = std::move(e_gs_ms_ns_lengths);
        a.e_strides_ = std::move(e_gs_ms_ns_strides);
        a.f_lengths_ = std::move(f_gs_ms_ns_lengths);
        a.f_strides_ = std::move(f_gs_ms_ns_strides);
        a.split_k_   = split_k;
        a.reduction_ = reduction;
        return a;
    }

    template <typename... Args>
    std::unique_ptr<BaseArgument> MakeArgumentPointer(Args&&... args) const
    {
        return std::make_unique<Argument>(MakeArgument(std::forward<Args>(args)...));
    }

    static Invoker MakeInvoker() { return Invoker{}; }
    std::unique_ptr<BaseInvoker> MakeInvokerPointer() const { return std::make_unique<Invoker>(); }

    static bool IsSupportedArgument(const Argument& arg) { return GetUnsupportedReason(arg).empty(); }
    bool IsSupportedArgument(const BaseArgument* p_arg) override
    {
        const auto* arg = dynamic_cast<const Argument*>(p_arg);
        return arg != nullptr && IsSupportedArgument(*arg);
    }

    std::size_t GetWorkSpaceSize(const BaseArgument* p_arg) const override
    {
        const auto* arg = dynamic_cast<const Argument*>(p_arg);
        return arg != nullptr && GetUnsupportedReason(*arg).empty() ? WorkSpaceBytes(*arg) : 0;
    }

    // the block tile, the warps, the MFMA and the vector widths of the GEMM stage
    std::string GetTypeString() const override
    {
        using Instr = typename GemmKernel::BlockGemm::WarpGemm::WarpGemmAttribute::instr;
        std::ostringstream os;
        os << "DeviceSplitkGemmBiasEPermute<" << splitk_gemm_bias_e_permute::type_name<ADataType>() << ", "
           << GemmKernel::kBlockSize << ", " << MPerBlock << ", " << NPerBlock << ", " << KPerBlock << ", " << MWaves
           << "x" << NWaves << " waves, " << ck_tile::mfma_traits<Instr>::mnemonic << ", AK1 " << kVecA << ", BK1 "
           << kVecB << ">";
        return os.str();
    }

    // "" when the op runs the argument, else one line saying why not
    static std::string GetUnsupportedReason(const Argument& arg)
    {
        const auto str = [](const std::vector<index_t>& v) {
            std::string s = "{";
            for(std::size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + std::to_string(v[i]);
            return s + "}";
        };
        if(arg.split_k_ < 1)
            return "split_k must be at least 1 (got " + std::to_string(arg.split_k_) + ")";
        if(arg.split_k_ > (1 << 20))
            return "split_k=" + std::to_string(arg.split_k_) + " is too large (at most 2^20)";
        const std::pair<const char*, const std::vector<index_t>*> ranks[] = {
            {"A lengths", &arg.a_lengths_}, {"A strides", &arg.a_strides_}, {"B lengths", &arg.b_lengths_},
            {"B strides", &arg.b_strides_}, {"D lengths", &arg.d_lengths_}, {"D strides", &arg.d_strides_},
            {"E lengths", &arg.e_lengths_}, {"E strides", &arg.e_strides_}, {"F lengths", &arg.f_lengths_},
            {"F strides", &arg.f_strides_}};
        for(std::size_t i = 0; i < 10; ++i)
        {
            const std::size_t want = i < 4 ? 5 : 6;
            if(ranks[i].second->size() != want)
                return std::string(ranks[i].first) + " must have " + std::to_string(want) + " entries (got " +
                       std::to_string(ranks[i].second->size()) + ")";
            for(index_t v : *ranks[i].second)
                if(v < 0 || ((i % 2) == 0 && v < 1))
                    return std::string(ranks[i].first) + " " + str(*ranks[i].second) +
                           ((i % 2) == 0 ? ": every length must be at least 1" : ": strides must not be negative");
        }
        const auto& al = arg.a_lengths_;
        const auto& bl = arg.b_lengths_;
        const std::vector<index_t> out{al[0], al[1], al[2], al[3], bl[2], bl[3]};
        if(bl[0] != al[0] || bl[1] != al[1] || bl[4] != al[4])
            return "A lengths " + str(al) + " and B lengths " + str(bl) + " disagree on G0, G1 or K";
        if(arg.d_lengths_ != out || arg.e_lengths_ != out || arg.f_lengths_ != out)
            return "D, E and F lengths must be [G0, G1, M0, M1, N0, N1] = " + str(out);
        if(arg.p_a_ == nullptr || arg.p_b_ == nullptr || arg.p_d_ == nullptr || arg.p_e_ == nullptr ||
           arg.p_f_ == nullptr)
            return "a null A, B, D, E or F pointer";

        // A and B: K contiguous, the two M (N) dims one merged dim, vector-aligned
        const auto operand = [&](const char* name, const std::vector<index_t>& l, const std::vector<index_t>& s,
                                 index_t vec) -> std::string {
            const std::string n = name;
            if(s[4] != 1)
                return n + " must be K-contiguous (stride of K = 1, got " + std::to_string(s[4]) + ")";
            if(l[2] > 1 && s[2] != l[3] * s[3])
                return n + " strides " + str(s) + ": the two " + (n == "A" ? "M" : "N") +
                       " dims must merge (stride of dim 2 = length of dim 3 x stride of dim 3)";
            if(l[3] > 1 && s[3] < l[4])
                return n + " strides " + str(s) + ": rows overlap (row stride < K)";
            if(l[4] % vec != 0)
                return "K=" + std::to_string(l[4]) + " is not a multiple of " + n + "'s vector size " +
                       std::to_string(vec) + " (16 bytes)";
            for(int d = 0; d < 4; ++d)
                if(l[d] > 1 && s[d] % vec != 0)
                    return n + " strides " + str(s) + " are not multiples of the vector size " + std::to_string(vec);
            return {};
        };
        if(auto r = operand("A", al, arg.a_strides_, kVecA); !r.empty())
            return r;
        if(auto r = operand("B", bl, arg.b_strides_, kVecB); !r.empty())
            return r;
        for(int d = 0; d < kNumDim; ++d)
            if(out[d] > 1 && arg.f_strides_[d] == 0)
                return "F strides " + str(arg.f_strides_) + ": an output dim of length > 1 has stride 0";

        // 32-bit offsets
        const auto space = [](const std::vector<index_t>& l, const std::vector<index_t>& s) {
            long long x = 1;
            for(std::size_t d = 0; d < l.size(); ++d)
                x += static_cast<long long>(l[d] - 1) * s[d];
            return x;
        };
        constexpr long long lim = std::numeric_limits<int32_t>::max();
        const long long G = static_cast<long long>(al[0]) * al[1], M = static_cast<long long>(al[2]) * al[3],
                        N = static_cast<long long>(bl[2]) * bl[3];
        if(space(al, arg.a_strides_) > lim || space(bl, arg.b_strides_) > lim || space(out, arg.d_strides_) > lim ||
           space(out, arg.e_strides_) > lim || space(out, arg.f_strides_) > lim)
            return "a tensor spans more than 2^31 - 1 elements (this op uses 32-bit offsets)";
        if(M * ((N + 3) / 4 * 4) > lim || G * M * N > lim)
            return "G x M x N is too large for 32-bit offsets";
        const long long tiles = ((M + MPerBlock - 1) / MPerBlock) * ((N + NPerBlock - 1) / NPerBlock);
        if(tiles * arg.split_k_ * G > lim)
            return "too many blocks (tiles x split_k x G) for a 1-D grid";
        return {};
    }

    // the K range of one split: K / split_k rounded up to whole K steps of the block
    static index_t KPerSplit(index_t K, index_t split_k)
    {
        return ck_tile::integer_divide_ceil(K, split_k * KPerBlock) * KPerBlock;
    }

private:
    static Problem MakeProblem(const Argument& arg)
    {
        Problem p{};
        p.p_a             = arg.p_a_;
        p.p_b             = arg.p_b_;
        p.p_d             = arg.p_d_;
        p.p_e             = arg.p_e_;
        p.p_f             = arg.p_f_;
        p.p_ws            = nullptr;
        p.G1              = arg.a_lengths_[1];
        p.M1              = arg.a_lengths_[3];
        p.N1              = arg.b_lengths_[3];
        p.G               = arg.a_lengths_[0] * arg.a_lengths_[1];
        p.M               = arg.a_lengths_[2] * arg.a_lengths_[3];
        p.N               = arg.b_lengths_[2] * arg.b_lengths_[3];
        p.K               = arg.a_lengths_[4];
        p.split_k         = arg.split_k_;
        p.k_per_split     = KPerSplit(p.K, p.split_k);
        p.ws_ld           = ck_tile::integer_least_multiple(p.N, 4);
        p.a_stride_g0     = arg.a_strides_[0];
        p.a_stride_g1     = arg.a_strides_[1];
        p.a_stride_m      = arg.a_strides_[3];
        p.b_stride_g0     = arg.b_strides_[0];
        p.b_stride_g1     = arg.b_strides_[1];
        p.b_stride_n      = arg.b_strides_[3];
        long long d_space = 1, e_space = 1, f_space = 1;
        for(int d = 0; d < kNumDim; ++d)
        {
            p.d_strides[d] = arg.d_strides_[d];
            p.e_strides[d] = arg.e_strides_[d];
            p.f_strides[d] = arg.f_strides_[d];
            d_space += static_cast<long long>(arg.d_lengths_[d] - 1) * arg.d_strides_[d];
            e_space += static_cast<long long>(arg.e_lengths_[d] - 1) * arg.e_strides_[d];
            f_space += static_cast<long long>(arg.f_lengths_[d] - 1) * arg.f_strides_[d];
        }
        p.d_space = static_cast<index_t>(d_space);
        p.e_space = static_cast<index_t>(e_space);
        p.f_space = static_cast<index_t>(f_space);
        p.tiles_m = ck_tile::integer_divide_ceil(p.M, MPerBlock);
        p.tiles_n = ck_tile::integer_divide_ceil(p.N, NPerBlock);
        return p;
    }

    static std::size_t WorkSpaceBytes(const Argument& arg)
    {
        if(arg.split_k_ <= 1)
            return 0;
        const Problem p         = MakeProblem(arg);
        const std::size_t slice = static_cast<std::size_t>(p.G) * p.M * p.ws_ld * sizeof(float);
        return arg.reduction_ == SplitKReduction::Workspace ? slice * static_cast<std::size_t>(p.split_k) : 0;
    }
};

// Upstream's code name for this op (its example's source uses it; its README says
// DeviceSplitkGemmBiasEPermute). The same template parameters as ours, not upstream's long list:
// code written against upstream's instance parameters does not compile unchanged either way.
template <typename ADataType, typename BDataType, typename DDataType, typename EDataType, typename FDataType,
          index_t MPerBlock = 128, index_t NPerBlock = 128, index_t KPerBlock = 32, index_t MPerXdl = 32,
          index_t NPerXdl = 32, index_t MWaves = 2, index_t NWaves = 2>
using DeviceSplitKContractionMultipleD_Xdl_CShuffle =
    DeviceSplitkGemmBiasEPermute<ADataType, BDataType, DDataType, EDataType, FDataType, MPerBlock, NPerBlock, KPerBlock,
                                 MPerXdl, NPerXdl, MWaves, NWaves>;

} // namespace ck::tensor_operation::device
