// SPDX-License-Identifier: MIT
// MoE sorting (upstream's names and host arguments): group the (token, topk slot) pairs of a
// [tokens, topk] expert-id matrix by expert, for a fused-MoE GEMM that walks the experts in tiles
// of unit_size rows.
//
//   for each expert x (ascending; masked-out experts and experts without tokens emit nothing):
//     its pairs (t, s) with topk_ids[t, s] == x in token order, as sorted_token_ids = t | s << 24
//     and sorted_weights = weights[t, s], padded up to a multiple of unit_size with
//     (tokens | topk << 24) and weight 0; one sorted_expert_ids entry per unit (the expert's local
//     index: its rank among the unmasked experts, which is x itself without masking)
//   total_tokens_post_pad[0] = the padded length, [1] = the number of tokens sorted
//   moe_buf ([tokens, interm_dim] of elem_bytes each) is zeroed by the same launch
//
// With p_local_tokens (expert parallelism) only the first *p_local_tokens tokens are sorted, a count
// read on the device. Ids outside [0, num_experts) are skipped.
//
// The tokens are cut into contiguous chunks; one thread walks one chunk, so no atomics are needed
// and the order within an expert is the token order by construction:
//   1. count:   each chunk's per-expert counts, in the chunk's private row of a [chunks, experts] table
//   2. offsets: per expert, the exclusive sum over the chunks (each chunk's first slot in the expert)
//               and the expert's total
//   3. starts:  the exclusive sum of the padded totals over the experts (one thread), then per
//               expert its padding entries and its unit's expert ids
//   4. scatter: each chunk walks its tokens again and writes every pair at its slot
// MoeSortingKernel runs the four phases in one workgroup with the table in LDS (up to 256 chunks,
// as many as fit in 32 KiB); MoeSortingMultiPhaseKernel<Problem, phase> runs each phase as its own
// launch over many workgroups with the table in the workspace (moe_sorting_get_workspace_size).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/fused_moe/kernel/moe_sorting_problem.hpp"

namespace ck_tile {

struct MoeSortingHostArgs
{
    const void* p_topk_ids;          // [tokens, topk] index_t
    const void* p_weights;           // [tokens, topk] WeightType
    const void* p_local_expert_mask; // [num_experts] index_t, 0 = not local; nullptr: all experts
    const void* p_local_tokens;      // [1] index_t in [0, tokens]; nullptr: all tokens
    void* p_sorted_token_ids;        // [max_output_ids]
    void* p_sorted_weights;          // [max_output_ids]
    void* p_sorted_expert_ids;       // [max_output_ids / unit_size]
    void* p_total_tokens_post_pad;   // [2]
    void* p_moe_buf;                 // [tokens, moe_buf_interm_dim] of moe_buf_elem_bytes; may be nullptr
    void* p_ws;                      // workspace of the multi-phase kernels (no clearing needed)
    index_t tokens;
    index_t unit_size;
    index_t num_experts;
    index_t topk;
    index_t moe_buf_interm_dim;
    index_t moe_buf_elem_bytes;
};

// The length of sorted_token_ids / sorted_weights that any routing fits in.
CK_TILE_HOST_DEVICE constexpr index_t moe_sorting_max_output_ids(index_t tokens, index_t experts, index_t topk,
                                                                 index_t unit)
{
    return (tokens * topk + experts * unit - topk + unit - 1) / unit * unit;
}

// Chunks of the multi-phase kernels: about 64 tokens each, at most 256.
CK_TILE_HOST_DEVICE constexpr index_t moe_sorting_mp_chunks(index_t tokens)
{
    const index_t c = (tokens + 63) / 64;
    return c < 1 ? 1 : (c > 256 ? 256 : c);
}

// 1 single workgroup, 2 multi-phase; 0 (auto) picks the single kernel while its LDS table fits and
// the token count is small.
CK_TILE_HOST_DEVICE constexpr bool moe_sorting_is_mp(index_t tokens, index_t experts, index_t topk,
                                                     index_t dispatch_policy)
{
    if(dispatch_policy == 1)
        return false;
    if(dispatch_policy == 2)
        return true;
    return 4 * experts + 1 > 8192 || tokens * static_cast<long_index_t>(topk) > 16384;
}

// Bytes of workspace the API needs (0: none), upstream's signature.
CK_TILE_HOST_DEVICE constexpr index_t moe_sorting_get_workspace_size(index_t tokens, index_t experts, index_t topk,
                                                                     index_t dispatch_policy = 0)
{
    if(!moe_sorting_is_mp(tokens, experts, topk, dispatch_policy))
        return 0;
    return (moe_sorting_mp_chunks(tokens) * experts + 3 * experts + 1) * static_cast<index_t>(sizeof(index_t));
}

namespace detail {

// The phases over int tables that live in LDS or in the workspace.
template <typename Problem>
struct moe_sorting_phases
{
    using IndexType  = typename Problem::IndexType;
    using WeightType = typename Problem::WeightType;

    CK_TILE_DEVICE static index_t local_tokens(const MoeSortingHostArgs& a)
    {
        return a.p_local_tokens != nullptr ? *static_cast<const index_t*>(a.p_local_tokens) : a.tokens;
    }

    // tokens [b, e) of chunk c of n_chunks
    CK_TILE_DEVICE static void chunk_range(index_t n_tok, index_t n_chunks, index_t c, index_t& b, index_t& e)
    {
        const index_t per = (n_tok + n_chunks - 1) / n_chunks;
        b                 = min(c * per, n_tok);
        e                 = min(b + per, n_tok);
    }

    CK_TILE_DEVICE static bool routed(const MoeSortingHostArgs& a, index_t x)
    {
        if(x < 0 || x >= a.num_experts)
            return false;
        if constexpr(Problem::kLocalExpertMasking)
            if(a.p_local_expert_mask != nullptr && static_cast<const IndexType*>(a.p_local_expert_mask)[x] == 0)
                return false;
        return true;
    }

    // 1. the chunk's per-expert counts into its row
    CK_TILE_DEVICE static void count(const MoeSortingHostArgs& a, index_t b, index_t e, index_t* row)
    {
        for(index_t x = 0; x < a.num_experts; ++x)
            row[x] = 0;
        const auto* ids = static_cast<const IndexType*>(a.p_topk_ids);
        for(index_t i = b * a.topk; i < e * a.topk; ++i)
        {
            const index_t x = ids[i];
            if(routed(a, x))
                row[x] += 1;
        }
    }

    // 2. expert x's counts become each chunk's first slot in the expert; its total into tot[x]
    CK_TILE_DEVICE static void chunk_offsets(index_t* cnt, index_t n_chunks, index_t experts, index_t x, index_t* tot)
    {
        index_t run = 0;
        for(index_t c = 0; c < n_chunks; ++c)
        {
            const index_t v      = cnt[c * experts + x];
            cnt[c * experts + x] = run;
            run += v;
        }
        tot[x] = run;
    }

    // 3a. (one thread) each expert's first slot, start[experts] = the padded length, each
    // expert's local index; the two totals
    CK_TILE_DEVICE static void expert_starts(const MoeSortingHostArgs& a, index_t n_tok, const index_t* tot,
                                             index_t* start, index_t* lidx)
    {
        index_t pos = 0, local = 0;
        for(index_t x = 0; x < a.num_experts; ++x)
        {
            start[x] = pos;
            lidx[x]  = local;
            pos += (tot[x] + a.unit_size - 1) / a.unit_size * a.unit_size;
            if(routed(a, x))
                ++local;
        }
        start[a.num_experts] = pos;
        auto* total          = static_cast<index_t*>(a.p_total_tokens_post_pad);
        total[0]             = pos;
        total[1]             = n_tok;
    }

    // 3b. expert x's padding entries and its units' expert ids
    CK_TILE_DEVICE static void pad_expert(const MoeSortingHostArgs& a, index_t n_tok, index_t x, const index_t* tot,
                                          const index_t* start, const index_t* lidx)
    {
        auto* sorted_ids = static_cast<IndexType*>(a.p_sorted_token_ids);
        auto* sorted_w   = static_cast<WeightType*>(a.p_sorted_weights);
        auto* expert_ids = static_cast<IndexType*>(a.p_sorted_expert_ids);
        const auto pad   = static_cast<IndexType>(moe_sorting_mock_id(n_tok, a.topk));
        for(index_t p = start[x] + tot[x]; p < start[x + 1]; ++p)
        {
            sorted_ids[p] = pad;
            sorted_w[p]   = WeightType{0};
        }
        for(index_t u = start[x] / a.unit_size; u < start[x + 1] / a.unit_size; ++u)
            expert_ids[u] = lidx[x];
    }

    // 4. the chunk's pairs at their slots (row: the chunk's first slot in each expert)
    CK_TILE_DEVICE static void scatter(const MoeSortingHostArgs& a, index_t b, index_t e, index_t* row,
                                       const index_t* start)
    {
        const auto* ids  = static_cast<const IndexType*>(a.p_topk_ids);
        const auto* w    = static_cast<const WeightType*>(a.p_weights);
        auto* sorted_ids = static_cast<IndexType*>(a.p_sorted_token_ids);
        auto* sorted_w   = static_cast<WeightType*>(a.p_sorted_weights);
        for(index_t t = b; t < e; ++t)
            for(index_t s = 0; s < a.topk; ++s)
            {
                const index_t i = t * a.topk + s;
                const index_t x = ids[i];
                if(!routed(a, x))
                    continue;
                const index_t p = start[x] + row[x];
                row[x] += 1;
                sorted_ids[p] = static_cast<IndexType>(moe_sorting_mock_id(t, s));
                sorted_w[p]   = w[i];
            }
    }

    struct alignas(16) word16
    {
        uint32_t v[4];
    };

    CK_TILE_HOST_DEVICE static long_index_t moe_buf_bytes(const MoeSortingHostArgs& a)
    {
        if(a.p_moe_buf == nullptr)
            return 0;
        return static_cast<long_index_t>(a.tokens) * a.moe_buf_interm_dim * a.moe_buf_elem_bytes;
    }

    // part i of n of moe_buf: a contiguous range of 16-byte words per thread (the emulator runs a
    // thread's loop in one go, so interleaved words would touch each cache line four times), the
    // tail bytes by part 0
    CK_TILE_DEVICE static void clear_moe_buf(const MoeSortingHostArgs& a, long_index_t i, long_index_t n)
    {
        const long_index_t bytes = moe_buf_bytes(a);
        const long_index_t words = bytes / 16;
        const long_index_t per   = (words + n - 1) / n;
        const long_index_t b     = i * per < words ? i * per : words;
        const long_index_t e     = b + per < words ? b + per : words;
        auto* w                  = static_cast<word16*>(a.p_moe_buf);
        for(long_index_t j = b; j < e; ++j)
            w[j] = word16{{0u, 0u, 0u, 0u}};
        if(i == 0)
            for(long_index_t j = words * 16; j < bytes; ++j)
                static_cast<char*>(a.p_moe_buf)[j] = 0;
    }
};

} // namespace detail

// One workgroup: the four phases with the [chunks, experts] table in LDS.
template <typename Problem_>
struct MoeSortingKernel
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Phases  = detail::moe_sorting_phases<Problem>;
    using Kargs   = MoeSortingHostArgs;

    static constexpr index_t kBlockSize = Problem::kBlockSize;
    static constexpr index_t kSmemWords = 8192; // 32 KiB: within gfx942's 64 KiB and gfx950's 160 KiB

    CK_TILE_HOST static constexpr Kargs MakeKargs(const MoeSortingHostArgs& h) { return h; }
    CK_TILE_HOST static constexpr dim3 GridSize(const MoeSortingHostArgs&) { return dim3(1); }
    CK_TILE_HOST static constexpr dim3 BlockSize(const MoeSortingHostArgs&) { return dim3(kBlockSize); }
    CK_TILE_HOST static std::string GetName()
    {
        return "moe_sorting_b" + std::to_string(kBlockSize) + (Problem::kLocalExpertMasking ? "_lem" : "");
    }
    // one chunk's row, the totals, the starts and the local indices must fit in LDS
    CK_TILE_HOST static bool IsSupportedArgument(const MoeSortingHostArgs& h)
    {
        return h.num_experts >= 1 && 4 * h.num_experts + 1 <= kSmemWords;
    }

    CK_TILE_DEVICE void operator()(Kargs a) const
    {
        __shared__ index_t smem[kSmemWords];
        const index_t tid   = get_thread_id();
        const index_t e     = a.num_experts;
        const index_t n_tok = Phases::local_tokens(a);
        index_t chunks      = min(kBlockSize, (kSmemWords - 3 * e - 1) / e);
        chunks              = max(min(chunks, n_tok), 1);
        index_t* cnt        = smem;
        index_t* tot        = smem + chunks * e;
        index_t* start      = tot + e;
        index_t* lidx       = start + e + 1;

        index_t b = 0, end = 0;
        if(tid < chunks)
        {
            Phases::chunk_range(n_tok, chunks, tid, b, end);
            Phases::count(a, b, end, cnt + tid * e);
        }
        block_sync_lds();
        for(index_t x = tid; x < e; x += kBlockSize)
            Phases::chunk_offsets(cnt, chunks, e, x, tot);
        block_sync_lds();
        if(tid == 0)
            Phases::expert_starts(a, n_tok, tot, start, lidx);
        block_sync_lds();
        for(index_t x = tid; x < e; x += kBlockSize)
            Phases::pad_expert(a, n_tok, x, tot, start, lidx);
        if(tid < chunks)
            Phases::scatter(a, b, end, cnt + tid * e, start);
        Phases::clear_moe_buf(a, tid, kBlockSize);
    }
};

// The phases as separate launches over many workgroups, with the table in the workspace:
// kPhase 0 counts (and extra workgroups zero moe_buf), 1 sums over the chunks, 2 sums over the
// experts and writes the padding and expert ids (one workgroup), 3 scatters.
template <typename Problem_, index_t kPhase>
struct MoeSortingMultiPhaseKernel
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Phases  = detail::moe_sorting_phases<Problem>;
    using Kargs   = MoeSortingHostArgs;

    static constexpr index_t kBlockSize   = Problem::kBlockSize;
    static constexpr index_t kClearBlocks = 32; // most workgroups that zero moe_buf in phase 0

    CK_TILE_HOST static constexpr Kargs MakeKargs(const MoeSortingHostArgs& h) { return h; }
    CK_TILE_HOST_DEVICE static constexpr index_t ChunkBlocks(const MoeSortingHostArgs& h)
    {
        return (moe_sorting_mp_chunks(h.tokens) + kBlockSize - 1) / kBlockSize;
    }
    CK_TILE_HOST static index_t ClearBlocks(const MoeSortingHostArgs& h)
    {
        const long_index_t words = Phases::moe_buf_bytes(h) / 16;
        const long_index_t per   = long_index_t{kBlockSize} * 64; // 16 KiB per thread-block pass at least
        const long_index_t n     = (words + per - 1) / per;
        return static_cast<index_t>(n < 1 ? (Phases::moe_buf_bytes(h) > 0 ? 1 : 0)
                                          : min(n, long_index_t{kClearBlocks}));
    }
    CK_TILE_HOST static dim3 GridSize(const MoeSortingHostArgs& h)
    {
        if constexpr(kPhase == 0)
            return dim3(ChunkBlocks(h) + ClearBlocks(h));
        else if constexpr(kPhase == 1)
            return dim3((h.num_experts + kBlockSize - 1) / kBlockSize);
        else if constexpr(kPhase == 2)
            return dim3(1);
        else
            return dim3(ChunkBlocks(h));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize(const MoeSortingHostArgs&) { return dim3(kBlockSize); }
    CK_TILE_HOST static std::string GetName()
    {
        return "moe_sorting_mp" + std::to_string(kPhase) + "_b" + std::to_string(kBlockSize) +
               (Problem::kLocalExpertMasking ? "_lem" : "");
    }
    CK_TILE_HOST static bool IsSupportedArgument(const MoeSortingHostArgs& h)
    {
        return h.num_experts >= 1 && h.p_ws != nullptr;
    }

    CK_TILE_DEVICE void operator()(Kargs a) const
    {
        const index_t e      = a.num_experts;
        const index_t chunks = moe_sorting_mp_chunks(a.tokens);
        auto* cnt            = static_cast<index_t*>(a.p_ws);
        index_t* tot         = cnt + chunks * e;
        index_t* start       = tot + e;
        index_t* lidx        = start + e + 1;
        const index_t tid    = get_thread_id();
        const index_t g      = get_block_id() * kBlockSize + tid;
        const index_t n_tok  = Phases::local_tokens(a);
        index_t b = 0, end = 0;
        if constexpr(kPhase == 0)
        {
            const index_t chunk_blocks = ChunkBlocks(a);
            if(static_cast<index_t>(get_block_id()) >= chunk_blocks)
            {
                const index_t clear_blocks = get_grid_size() - chunk_blocks;
                Phases::clear_moe_buf(a, (get_block_id() - chunk_blocks) * kBlockSize + tid,
                                      long_index_t{clear_blocks} * kBlockSize);
                return;
            }
            if(g < chunks)
            {
                Phases::chunk_range(n_tok, chunks, g, b, end);
                Phases::count(a, b, end, cnt + g * e);
            }
        }
        else if constexpr(kPhase == 1)
        {
            if(g < e)
                Phases::chunk_offsets(cnt, chunks, e, g, tot);
        }
        else if constexpr(kPhase == 2)
        {
            if(tid == 0)
                Phases::expert_starts(a, n_tok, tot, start, lidx);
            block_sync();
            for(index_t x = tid; x < e; x += kBlockSize)
                Phases::pad_expert(a, n_tok, x, tot, start, lidx);
        }
        else
        {
            if(g < chunks)
            {
                Phases::chunk_range(n_tok, chunks, g, b, end);
                Phases::scatter(a, b, end, cnt + g * e, start);
            }
        }
    }
};

} // namespace ck_tile
