// SPDX-License-Identifier: MIT
// GenericPermute<Problem>: y = x.permute(perm).contiguous() for a packed row-major x of up to
// Problem::kMaxRanks dimensions (torch's meaning: y's dimension i is x's dimension perm[i]).
//
//   using Kernel = GenericPermute<GenericPermuteProblem<half_t>>;
//   auto kargs   = Kernel::MakeKargs(GenericPermuteHostArgs{p_x, p_y, rank, shape, perm});
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(kargs),
//                                                    Kernel::BlockSize(), 0, kargs));
//
// The host side simplifies the problem first (MakeKargs): it drops dimensions of length 1 and
// merges output dimensions that are also neighbours, in the same order, in x (their elements stay
// contiguous together). A 2x3x4 tensor permuted by (0,1,2) becomes one dimension of 24, and
// (1,0,2) of a 4x8x64 tensor becomes 8x4 rows of 64 contiguous elements. Each thread then owns
// GetRunsPerThread() runs of GetVectorSize() consecutive elements of y (a block's threads take
// neighbouring runs in each round); for each run it splits the index of its first element into
// output coordinates, turns them into x's offset and moves the run. With KeepLastDim a run is a
// 16-byte vector, which needs x's innermost dimension to stay innermost in y with a length that is
// a multiple of the vector (IsSupportedArgument); the scalar instance takes any permutation.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/permute/pipeline/generic_petmute_problem.hpp"
#include "ck_tile/ops/permute/pipeline/generic_permute_policy.hpp"

namespace ck_tile {

struct GenericPermuteHostArgs
{
    static constexpr index_t kMaxRanks = 8; // upstream's limit

    const void* p_src;
    void* p_dst;
    index_t rank;
    index_t shape[kMaxRanks]; // x's lengths
    index_t perm[kMaxRanks];  // y's dimension i is x's dimension perm[i]
};

template <typename Problem_, typename Policy_ = GenericPermutePolicy>
struct GenericPermute
{
    using Problem                           = Problem_;
    using Policy                            = Policy_;
    using DataType                          = typename Problem::DataType;
    static constexpr index_t kBlockSize     = Problem::kBlockSize;
    static constexpr index_t kMaxRanks      = Problem::kMaxRanks;
    static constexpr index_t kVector        = Policy::template GetVectorSize<Problem>();
    static constexpr index_t kRunsPerThread = Policy::template GetRunsPerThread<Problem>();
    static_assert(kMaxRanks >= GenericPermuteHostArgs::kMaxRanks, "the host args hold up to 8 dimensions");

    // The simplified problem: y has `rank` dimensions, right-aligned in the arrays (the first
    // kMaxRanks - rank entries are unused); dimension i of y has length lengths[i] and steps
    // src_strides[i] elements through x.
    struct Kargs
    {
        const void* p_src;
        void* p_dst;
        index_t rank;
        index_t total; // elements
        index_t lengths[kMaxRanks];
        index_t src_strides[kMaxRanks];
    };

    CK_TILE_HOST static Kargs MakeKargs(const GenericPermuteHostArgs& h)
    {
        Kargs k{};
        k.p_src = h.p_src;
        k.p_dst = h.p_dst;
        index_t in_stride[kMaxRanks];
        index_t s = 1;
        for(index_t d = h.rank - 1; d >= 0; --d)
        {
            in_stride[d] = s;
            s *= h.shape[d];
        }
        k.total = s;

        // y's dimensions in order, without length-1 ones, merged with their predecessor where
        // that one steps exactly over them in x
        index_t lens[kMaxRanks], strides[kMaxRanks], n = 0;
        for(index_t i = 0; i < h.rank; ++i)
        {
            const index_t len = h.shape[h.perm[i]], stride = in_stride[h.perm[i]];
            if(len == 1)
                continue;
            if(n > 0 && strides[n - 1] == stride * len)
            {
                lens[n - 1] *= len;
                strides[n - 1] = stride;
                continue;
            }
            lens[n]    = len;
            strides[n] = stride;
            ++n;
        }
        if(n == 0) // a single element
        {
            lens[0]    = 1;
            strides[0] = 1;
            n          = 1;
        }
        k.rank = n;
        for(index_t i = 0; i < kMaxRanks; ++i)
        {
            k.lengths[i]     = 1;
            k.src_strides[i] = 0;
        }
        for(index_t i = 0; i < n; ++i)
        {
            k.lengths[kMaxRanks - n + i]     = lens[i];
            k.src_strides[kMaxRanks - n + i] = strides[i];
        }
        return k;
    }

    // the vector instance needs a contiguous innermost run that the vectors tile exactly
    CK_TILE_HOST static bool IsSupportedArgument(const Kargs& k)
    {
        if constexpr(kVector == 1)
            return true;
        else
            return k.src_strides[kMaxRanks - 1] == 1 && k.lengths[kMaxRanks - 1] % kVector == 0;
    }

    // x's offset of y's element `i` (y is packed row-major)
    CK_TILE_HOST_DEVICE static index_t GetSrcOffset(const Kargs& k, index_t i)
    {
        index_t off = 0;
        for(index_t d = kMaxRanks - 1; d >= kMaxRanks - k.rank; --d)
        {
            const index_t len = k.lengths[d];
            off += (i % len) * k.src_strides[d];
            i /= len;
        }
        return off;
    }

    CK_TILE_HOST static dim3 GridSize(const Kargs& k)
    {
        return dim3(integer_divide_ceil(k.total / kVector, kBlockSize * kRunsPerThread));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST static std::string GetName() { return "generic_permute_v" + std::to_string(kVector); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const auto x = make_buffer_view<address_space_enum::global>(static_cast<const DataType*>(k.p_src), k.total);
        const auto y = make_buffer_view<address_space_enum::global>(static_cast<DataType*>(k.p_dst), k.total);
        const index_t runs  = k.total / kVector;
        const index_t first = get_block_id() * kBlockSize * kRunsPerThread + get_thread_id();
        // neighbouring threads take neighbouring runs of y in each round
        static_for<0, kRunsPerThread, 1>{}([&](auto r) __attribute__((always_inline)) {
            const index_t run = first + r * kBlockSize;
            if(run < runs)
            {
                const index_t dst = run * kVector;
                y.template set<kVector>(dst, true, x.template get<kVector>(GetSrcOffset(k, dst), true));
            }
        });
    }
};

} // namespace ck_tile
