// SPDX-License-Identifier: MIT
// ImageToColumn<Problem>: im2col of a grouped convolution's input image, the A matrix of the
// implicit GEMM. The image is NHWGC (N, spatial..., G, C; C contiguous), given by its G, N, C,
// spatial strides; the output is, per group g, a GemmM x GemmK matrix with GemmM = N * Ho * Wo
// (rows in (n, ho, wo) order) and GemmK = Y * X * C (columns in (y, x, c) order, c fastest):
//
//   out[g][(n, ho, wo)][(y, x, c)] = in[n][hi][wi][g][c],  hi = ho * Sy + y * Dy - LPy (same for w),
//                                    or 0 where (hi, wi) falls into the padding
//
//   using Kernel = ImageToColumn<BlockImageToColumnProblem<half_t, half_t, Shape, 2, 8, 8>>;
//   auto kargs = Kernel::MakeKargs(p_in, p_out, G, N, C, in_lengths, filter_lengths, out_lengths,
//                                  image_g_n_c_wis_strides, gemm_g_m_k_strides, filter_strides,
//                                  filter_dilations, left_pads, right_pads);
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, K, G),
//                                                    Kernel::BlockSize(), 0, kargs));
//
// A block moves kMPerBlock rows of one group's output, one kMPerBlock x kKPerBlock tile after the
// other along GemmK; in each tile its threads take the tile's rows as consecutive
// AligmentIn-element vectors (one row of the tile is read and written by neighbouring threads), so that with C a
// multiple of the vector each vector is C-contiguous in the image as well: one 128-bit load (0 in the padding) and one
// 128-bit store per vector. Tiles past GemmM or GemmK are cut off vector by vector.
#pragma once
#include <string>
#include <type_traits>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

template <typename Problem_>
struct ImageToColumn
{
    using Problem     = std::remove_cvref_t<Problem_>;
    using InDataType  = typename Problem::InDataType;
    using OutDataType = typename Problem::OutDataType;
    using Shape       = typename Problem::BlockShape;

    static constexpr index_t NDimSpatial = Problem::NDimSpatial;
    static constexpr index_t kBlockSize  = Shape::kBlockSize;
    static constexpr index_t kMPerBlock  = Shape::kMPerBlock;
    static constexpr index_t kKPerBlock  = Shape::kKPerBlock;
    static constexpr index_t kVector     = Problem::AligmentIn;
    static constexpr index_t kVecPerRow  = kKPerBlock / kVector;
    static constexpr index_t kIters      = kMPerBlock * kVecPerRow / kBlockSize;

    static_assert(std::is_same_v<InDataType, OutDataType>, "im2col copies: one data type in and out");
    static_assert(Problem::AligmentOut == kVector && Shape::kKPerThread == kVector,
                  "a thread moves whole vectors, the same width in and out");
    static_assert(kIters == Shape::kMPerThread, "each thread moves kMPerThread vectors of its thread tile");

    using Spatial = array<index_t, NDimSpatial>;

    struct Kargs
    {
        const void* p_in;
        void* p_out;
        index_t G, N, C, gemm_m, gemm_k;
        long_index_t in_space, out_space; // elements the buffers span
        Spatial input_spatial_lengths, filter_spatial_lengths, output_spatial_lengths;
        Spatial conv_filter_strides, conv_filter_dilations, input_left_pads;
        array<index_t, NDimSpatial + 3> image_g_n_c_wis_strides; // G, N, C, then the spatial ones
        array<index_t, 3> gemm_g_m_k_strides;
    };

    CK_TILE_HOST static Kargs MakeKargs(const void* p_in, void* p_out, index_t G, index_t N, index_t C,
                                        const Spatial& input_spatial_lengths, const Spatial& filter_spatial_lengths,
                                        const Spatial& output_spatial_lengths,
                                        const array<index_t, NDimSpatial + 3>& image_g_n_c_wis_strides,
                                        const array<index_t, 3>& gemm_g_m_k_strides, const Spatial& conv_filter_strides,
                                        const Spatial& conv_filter_dilations, const Spatial& input_left_pads,
                                        const Spatial& /* input_right_pads: implied by the output lengths */)
    {
        Kargs k{};
        k.p_in                    = p_in;
        k.p_out                   = p_out;
        k.G                       = G;
        k.N                       = N;
        k.C                       = C;
        k.input_spatial_lengths   = input_spatial_lengths;
        k.filter_spatial_lengths  = filter_spatial_lengths;
        k.output_spatial_lengths  = output_spatial_lengths;
        k.conv_filter_strides     = conv_filter_strides;
        k.conv_filter_dilations   = conv_filter_dilations;
        k.input_left_pads         = input_left_pads;
        k.image_g_n_c_wis_strides = image_g_n_c_wis_strides;
        k.gemm_g_m_k_strides      = gemm_g_m_k_strides;
        k.gemm_m                  = N;
        k.gemm_k                  = C;
        long_index_t in_last      = (long_index_t(G) - 1) * image_g_n_c_wis_strides[0] +
                                    (long_index_t(N) - 1) * image_g_n_c_wis_strides[1] +
                                    (long_index_t(C) - 1) * image_g_n_c_wis_strides[2];
        for(index_t d = 0; d < NDimSpatial; ++d)
        {
            k.gemm_m *= output_spatial_lengths[d];
            k.gemm_k *= filter_spatial_lengths[d];
            in_last += (long_index_t(input_spatial_lengths[d]) - 1) * image_g_n_c_wis_strides[d + 3];
        }
        k.in_space  = in_last + 1;
        k.out_space = (long_index_t(G) - 1) * gemm_g_m_k_strides[0] +
                      (long_index_t(k.gemm_m) - 1) * gemm_g_m_k_strides[1] +
                      (long_index_t(k.gemm_k) - 1) * gemm_g_m_k_strides[2] + 1;
        return k;
    }

    // the vectors need C and every stride but the contiguous ones to be multiples of the vector
    CK_TILE_HOST static std::string GetUnsupportedReason(const Kargs& k)
    {
        const std::string v = std::to_string(kVector);
        if(k.C % kVector != 0)
            return "C=" + std::to_string(k.C) + " is not a multiple of " + v;
        if(k.image_g_n_c_wis_strides[2] != 1 || k.gemm_g_m_k_strides[2] != 1)
            return "C and GemmK must be contiguous";
        for(index_t i = 0; i < NDimSpatial + 3; ++i)
            if(i != 2 && k.image_g_n_c_wis_strides[i] % kVector != 0)
                return "an image stride is not a multiple of " + v;
        if(k.gemm_g_m_k_strides[0] % kVector != 0 || k.gemm_g_m_k_strides[1] % kVector != 0)
            return "an output stride is not a multiple of " + v;
        if(k.in_space > 0x7fffffffll / long_index_t(sizeof(InDataType)) ||
           k.out_space > 0x7fffffffll / long_index_t(sizeof(OutDataType)))
            return "a tensor exceeds 2^31 - 1 bytes (32-bit offsets)";
        return "";
    }
    CK_TILE_HOST static bool IsSupportedArgument(const Kargs& k) { return GetUnsupportedReason(k).empty(); }

    // one block per kMPerBlock rows of one group; it walks all of GemmK (upstream's grid is
    // (M tiles, K tiles, G) with one tile per block; longer blocks spread a thread's start-up)
    CK_TILE_HOST static dim3 GridSize(index_t GemmM, index_t /* GemmK */, index_t Batch)
    {
        return dim3(integer_divide_ceil(GemmM, kMPerBlock) * Batch);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST static std::string GetName()
    {
        return "image_to_column_" + std::to_string(kMPerBlock) + "x" + std::to_string(kKPerBlock) + "_v" +
               std::to_string(kVector);
    }

    // An output element's image position splits into a row part (n, and the window's corner
    // o * stride - left_pad per spatial dimension) and a column part (c, and the filter tap's
    // f * dilation): a thread keeps its rows' parts for all of GemmK and works out one column part
    // per tile, so the kernel divides once per row and once per column, not per element.
    struct RowPart
    {
        index_t off;    // g, n
        Spatial corner; // o * stride - left_pad
        bool inside_m;  // m < GemmM
    };
    struct ColumnPart
    {
        index_t off; // c
        Spatial tap; // f * dilation
    };

    CK_TILE_HOST_DEVICE static RowPart GetRowPart(const Kargs& a, index_t g, index_t m)
    {
        RowPart r;
        r.inside_m = m < a.gemm_m;
        index_t mt = m;
        for(index_t d = NDimSpatial - 1; d >= 0; --d)
        {
            r.corner[d] = mt % a.output_spatial_lengths[d] * a.conv_filter_strides[d] - a.input_left_pads[d];
            mt /= a.output_spatial_lengths[d];
        }
        r.off = g * a.image_g_n_c_wis_strides[0] + mt * a.image_g_n_c_wis_strides[1]; // mt is n now
        return r;
    }

    CK_TILE_HOST_DEVICE static ColumnPart GetColumnPart(const Kargs& a, index_t k)
    {
        ColumnPart c;
        c.off      = k % a.C * a.image_g_n_c_wis_strides[2];
        index_t kt = k / a.C;
        for(index_t d = NDimSpatial - 1; d >= 0; --d)
        {
            c.tap[d] = kt % a.filter_spatial_lengths[d] * a.conv_filter_dilations[d];
            kt /= a.filter_spatial_lengths[d];
        }
        return c;
    }

    // the image offset of a row part plus a column part, and whether it lies inside the image
    CK_TILE_HOST_DEVICE static index_t Combine(const Kargs& a, const RowPart& r, const ColumnPart& c, bool& valid)
    {
        index_t off = r.off + c.off;
        valid       = true;
        for(index_t d = 0; d < NDimSpatial; ++d)
        {
            const index_t i = r.corner[d] + c.tap[d];
            valid           = valid && i >= 0 && i < a.input_spatial_lengths[d];
            off += i * a.image_g_n_c_wis_strides[d + 3];
        }
        return off;
    }

    // the image offset of output element (m, k) of group g, and whether it lies inside the image
    CK_TILE_HOST_DEVICE static index_t GetInOffset(const Kargs& a, index_t g, index_t m, index_t k, bool& valid)
    {
        return Combine(a, GetRowPart(a, g, m), GetColumnPart(a, k), valid);
    }

    // one kMPerBlock x kKPerBlock tile: thread t moves vector t % kVecPerRow of rows
    // t / kVecPerRow + r * kRowStep; its column is the same in every row
    static constexpr index_t kRowStep = kBlockSize / kVecPerRow;
    static_assert(kBlockSize % kVecPerRow == 0, "a thread keeps one column of the tile");

    CK_TILE_DEVICE void ConvTensorRearrange(const Kargs& a, const RowPart (&rows)[kIters], index_t g, index_t m0,
                                            index_t k0) const
    {
        const auto x = make_buffer_view<address_space_enum::global>(static_cast<const InDataType*>(a.p_in), a.in_space);
        const auto y = make_buffer_view<address_space_enum::global>(static_cast<OutDataType*>(a.p_out), a.out_space);
        const auto& o   = a.gemm_g_m_k_strides;
        const index_t k = k0 + get_thread_id() % kVecPerRow * kVector;
        if(k >= a.gemm_k)
            return;
        const ColumnPart col = GetColumnPart(a, k);
        const index_t row0   = m0 + get_thread_id() / kVecPerRow;
        static_for<0, kIters, 1>{}([&](auto r) __attribute__((always_inline)) {
            if(rows[r].inside_m)
            {
                bool valid;
                const index_t src = Combine(a, rows[r], col, valid);
                const index_t m   = row0 + r * kRowStep;
                y.template set<kVector>(g * o[0] + m * o[1] + k * o[2], true, x.template get<kVector>(src, valid));
            }
        });
    }

    CK_TILE_DEVICE void operator()(Kargs a) const
    {
        const index_t tiles_m = integer_divide_ceil(a.gemm_m, kMPerBlock);
        const index_t g       = get_block_id() / tiles_m;
        const index_t m0      = get_block_id() % tiles_m * kMPerBlock;
        RowPart rows[kIters];
        static_for<0, kIters, 1>{}(
            [&](auto r) { rows[r] = GetRowPart(a, g, m0 + get_thread_id() / kVecPerRow + r * kRowStep); });
        for(index_t k0 = 0; k0 < a.gemm_k; k0 += kKPerBlock)
            ConvTensorRearrange(a, rows, g, m0, k0);
    }
};

} // namespace ck_tile
