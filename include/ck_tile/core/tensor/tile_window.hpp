// SPDX-License-Identifier: MIT
// Tile windows: a fixed-size rectangular view into a tensor view, placed at an origin that can
// move (move_tile_window). A window with a tile distribution can be loaded into registers
// (load_tile) and stored from them (store_tile), or added into them (atomic_add_tile); a
// window without one only knows its place and takes the distribution of the tensor stored through
// it.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/tensor/tensor_view.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"

namespace ck_tile {

template <typename TensorView_, typename WindowLengths_>
struct tile_window_with_static_lengths
{
    using TensorView              = TensorView_;
    using WindowLengths           = WindowLengths_;
    using DataType                = typename TensorView::DataType;
    static constexpr index_t ndim = TensorView::ndim;

    TensorView view;
    WindowLengths lengths;
    multi_index<ndim> origin;

    CK_TILE_HOST_DEVICE constexpr const TensorView& get_bottom_tensor_view() const { return view; }
    CK_TILE_HOST_DEVICE static constexpr WindowLengths get_window_lengths() { return WindowLengths{}; }
    CK_TILE_HOST_DEVICE constexpr const multi_index<ndim>& get_window_origin() const { return origin; }
    CK_TILE_HOST_DEVICE constexpr void set_window_origin(const multi_index<ndim>& o)
    {
        static_for<0, ndim>{}([&](auto i) { origin[i] = o[i]; }); // see make_tile_window
    }
    CK_TILE_HOST_DEVICE constexpr void move(const multi_index<ndim>& step) { origin += step; }
};

template <typename TensorView_, typename WindowLengths_, typename StaticTileDistribution_>
struct tile_window_with_static_distribution : tile_window_with_static_lengths<TensorView_, WindowLengths_>
{
    using base                    = tile_window_with_static_lengths<TensorView_, WindowLengths_>;
    using StaticTileDistribution  = StaticTileDistribution_;
    using DataType                = typename base::DataType;
    using Dstr                    = StaticTileDistribution;
    static constexpr index_t ndim = base::ndim;
    static_assert(Dstr::NDimX == ndim, "tile window: the distribution's X dimensions must match the tensor's");

    // Where the calling thread's first element (Y = 0) lies inside the window: computed once, when
    // the window is made, instead of from the thread's lane and warp id on every access, where the
    // backend says so (keep_thread_coordinates, core/arch/arch.hpp).
    multi_index<ndim> thread_offset;

    CK_TILE_DEVICE multi_index<ndim> get_thread_offset() const
    {
        if constexpr(keep_thread_coordinates)
            return thread_offset;
        else
            return Dstr::calculate_index();
    }

    CK_TILE_HOST_DEVICE static constexpr auto get_tile_distribution() { return Dstr{}; }

    // How many registers one memory access moves: a run of the vector Y dimension, limited by what
    // the tensor view guarantees to be contiguous and by 16 bytes.
    CK_TILE_HOST_DEVICE static constexpr index_t get_vector_length()
    {
        constexpr index_t vy = Dstr::get_vector_y_dim();
        constexpr index_t g  = TensorView_::descriptor_t::guaranteed_vector_length;
        if constexpr(vy < 0 || g <= 1)
            return 1;
        else
        {
            index_t v = gcd(Dstr::ys_lengths::at(vy), g);
            while(v * index_t(sizeof(DataType)) > 16)
                v /= 2;
            return v;
        }
    }

    // Visits every memory access of the calling thread: f(d, offset, valid), where the access
    // covers registers d, d + dstride, ... (vector_length of them) and elements offset, offset+1, ...
    template <typename F>
    CK_TILE_DEVICE void for_each_access(F&& f) const
    {
        constexpr index_t vec      = get_vector_length();
        constexpr index_t vy       = Dstr::get_vector_y_dim();
        constexpr index_t dstride  = vy < 0 ? 1 : stride_of_y(vy);
        const auto& desc           = this->view.get_tensor_descriptor();
        const multi_index<ndim> x0 = this->origin + get_thread_offset();
        static_for<0, Dstr::thread_buffer_size>{}([&](auto d) CK_TILE_ACCESS_INLINE {
            constexpr auto y = Dstr::d_to_y(d);
            if constexpr(vec == 1 || y[vy < 0 ? 0 : vy] % vec == 0)
            {
                constexpr auto dx = Dstr::y_to_x_offset(y);
                const auto h      = desc.calculate_hidden_index(x0 + dx);
                const bool valid  = desc.is_valid_hidden_index(h);
                f(number<d>{}, number<dstride>{}, h[0], valid);
            }
        });
    }

    CK_TILE_HOST_DEVICE static constexpr index_t stride_of_y(index_t vy)
    {
        index_t s = 1;
        for(index_t i = vy + 1; i < Dstr::NDimY; ++i)
            s *= Dstr::ys_lengths::at(i);
        return s;
    }

    // `site`: where the tile API was called, for the emulator's race detection.
    // The access loops below are forced inline on the emulator (CK_TILE_ACCESS_INLINE), both the
    // one with the access hooks and the one without: an outlined one would take the tile and the
    // window by address and keep them in memory instead of registers.
    CK_TILE_DEVICE void load(static_distributed_tensor<DataType, Dstr>& dst,
                             const access_site& site = access_site::current()) const
    {
        constexpr index_t vec = get_vector_length();
        const auto& buf       = this->view.get_buffer_view();
        with_access_hooks([&](auto hooks) CK_TILE_ACCESS_INLINE {
            for_each_access([&](auto d, auto dstride, long_index_t offset, bool valid) CK_TILE_ACCESS_INLINE {
                const auto v = buf.template get<vec, decltype(hooks)::value>(offset, valid, site);
                if constexpr(dstride == 1) // registers d .. d+vec-1 are consecutive: one piece
                    __builtin_memcpy(&dst.get_thread_buffer()[d], &v, sizeof(v));
                else
                    static_for<0, vec>{}([&](auto k) { dst.get_thread_buffer()[d + k * dstride] = v[k]; });
            });
        });
    }

    CK_TILE_DEVICE void store(const static_distributed_tensor<DataType, Dstr>& src,
                              const access_site& site = access_site::current()) const
    {
        constexpr index_t vec = get_vector_length();
        const auto& buf       = this->view.get_buffer_view();
        with_access_hooks([&](auto hooks) CK_TILE_ACCESS_INLINE {
            for_each_access([&](auto d, auto dstride, long_index_t offset, bool valid) CK_TILE_ACCESS_INLINE {
                thread_buffer<DataType, vec> v;
                if constexpr(dstride == 1)
                    __builtin_memcpy(&v, &src.get_thread_buffer()[d], sizeof(v));
                else
                    static_for<0, vec>{}([&](auto k) { v[k] = src.get_thread_buffer()[d + k * dstride]; });
                buf.template set<vec, decltype(hooks)::value>(offset, valid, v, site);
            });
        });
    }

    // Stores f(x) for every element x of a tile of another type (an accumulator), converting one
    // access's elements at a time: the converted tile never exists as a whole, so a large
    // accumulator tile does not need a second set of registers for its converted copy.
    template <typename SrcT, typename F>
    CK_TILE_DEVICE void store_transformed(const static_distributed_tensor<SrcT, Dstr>& src, const F& f,
                                          const access_site& site = access_site::current()) const
    {
        constexpr index_t vec = get_vector_length();
        const auto& buf       = this->view.get_buffer_view();
        with_access_hooks([&](auto hooks) CK_TILE_ACCESS_INLINE {
            for_each_access([&](auto d, auto dstride, long_index_t offset, bool valid) CK_TILE_ACCESS_INLINE {
                thread_buffer<DataType, vec> v;
                static_for<0, vec>{}([&](auto k) { v[k] = f(src.get_thread_buffer()[d + k * dstride]); });
                buf.template set<vec, decltype(hooks)::value>(offset, valid, v, site);
            });
        });
    }

    // adds the tile into the tensor atomically (fp32, int32; fp16 and bf16 in pairs, so the vector
    // length must be even), access by access: the combine step of blocks that share outputs
    CK_TILE_DEVICE void atomic_add(const static_distributed_tensor<DataType, Dstr>& src) const
    {
        atomic_add_transformed(src, [](const DataType& x) { return x; });
    }

    // atomic_add of f(x) for every element x of a tile of another type, converted access by access
    template <typename SrcT, typename F>
    CK_TILE_DEVICE void atomic_add_transformed(const static_distributed_tensor<SrcT, Dstr>& src, const F& f) const
    {
        constexpr index_t vec = get_vector_length();
        const auto& buf       = this->view.get_buffer_view();
        for_each_access([&](auto d, auto dstride, long_index_t offset, bool valid) {
            thread_buffer<DataType, vec> v;
            static_for<0, vec>{}([&](auto k) { v[k] = f(src.get_thread_buffer()[d + k * dstride]); });
            buf.template atomic_add<vec>(offset, valid, v);
        });
    }
};

// ---- makers and free functions, with upstream's names -----------------------------------------
template <typename View, typename... Ls, typename Origin>
CK_TILE_HOST_DEVICE constexpr auto make_tile_window(const View& view, const tuple<Ls...>& lengths, const Origin& origin)
{
    static_assert(sizeof...(Ls) == View::ndim, "make_tile_window: one window length per tensor dimension");
    return tile_window_with_static_lengths<View, tuple<Ls...>>{view, lengths, to_multi_index(origin)};
}

template <typename View, typename... Ls, typename Origin, typename Encoding>
CK_TILE_DEVICE auto make_tile_window(const View& view, const tuple<Ls...>& lengths, const Origin& origin,
                                     tile_distribution<Encoding>)
{
    static_assert(sizeof...(Ls) == View::ndim, "make_tile_window: one window length per tensor dimension");
    using W = tile_window_with_static_distribution<View, tuple<Ls...>, tile_distribution<Encoding>>;
    W w;
    w.view       = view;
    w.lengths    = lengths;
    const auto o = to_multi_index(origin);
    const auto t = tile_distribution<Encoding>::calculate_index();
    // element by element: a whole small index copied as one piece becomes one wide integer that
    // the compiler then keeps for the window's life, masking and shifting its halves on every
    // access and every move
    static_for<0, View::ndim>{}([&](auto i) {
        w.origin[i]        = o[i];
        w.thread_offset[i] = t[i];
    });
    return w;
}

// the same place, now with a distribution
template <typename View, typename Lengths, typename Encoding>
CK_TILE_DEVICE auto make_tile_window(const tile_window_with_static_lengths<View, Lengths>& w,
                                     tile_distribution<Encoding> dstr)
{
    return make_tile_window(w.view, w.lengths, w.origin, dstr);
}

template <typename Window>
CK_TILE_HOST_DEVICE constexpr void move_tile_window(Window& w, const multi_index<Window::ndim>& step)
{
    w.move(step);
}

template <typename View, typename Lengths, typename Dstr>
CK_TILE_DEVICE auto load_tile(const tile_window_with_static_distribution<View, Lengths, Dstr>& w,
                              const access_site& site = access_site::current())
{
    static_distributed_tensor<typename View::DataType, Dstr> t;
    w.load(t, site);
    return t;
}

template <typename T, typename View, typename Lengths, typename Dstr>
CK_TILE_DEVICE void load_tile(static_distributed_tensor<T, Dstr>& dst,
                              const tile_window_with_static_distribution<View, Lengths, Dstr>& w,
                              const access_site& site = access_site::current())
{
    w.load(dst, site);
}

template <typename View, typename Lengths, typename Dstr, typename T>
CK_TILE_DEVICE void store_tile(const tile_window_with_static_distribution<View, Lengths, Dstr>& w,
                               const static_distributed_tensor<T, Dstr>& t,
                               const access_site& site = access_site::current())
{
    static_assert(std::is_same_v<T, typename View::DataType>,
                  "store_tile: convert the tile to the tensor's type first (type_convert / cast_tile)");
    w.store(t, site);
}

template <typename View, typename Lengths, typename Dstr, typename T>
CK_TILE_DEVICE void store_tile(const tile_window_with_static_lengths<View, Lengths>& w,
                               const static_distributed_tensor<T, Dstr>& t,
                               const access_site& site = access_site::current())
{
    store_tile(make_tile_window(w, Dstr{}), t, site);
}

// What a store of results does: overwrite them, or add into them atomically (the partial results
// of split-K). Epilogues take it as a template argument and call update_tile.
enum struct memory_operation_enum
{
    set,
    atomic_add,
};

// t added into the window's elements with atomic adds (fp32, int32, fp16, bf16): blocks of a grid may add
// into the same outputs. Upstream reaches this through update_tile on a view whose memory
// operation is atomic_add; here it is its own call.
template <typename View, typename Lengths, typename Dstr, typename T>
CK_TILE_DEVICE void atomic_add_tile(const tile_window_with_static_distribution<View, Lengths, Dstr>& w,
                                    const static_distributed_tensor<T, Dstr>& t)
{
    static_assert(std::is_same_v<T, typename View::DataType>, "atomic_add_tile: the tile must have the tensor's type");
    w.atomic_add(t);
}

template <typename View, typename Lengths, typename Dstr, typename T>
CK_TILE_DEVICE void atomic_add_tile(const tile_window_with_static_lengths<View, Lengths>& w,
                                    const static_distributed_tensor<T, Dstr>& t)
{
    atomic_add_tile(make_tile_window(w, Dstr{}), t);
}

// store_tile (set) or atomic_add_tile (atomic_add), chosen at compile time
template <memory_operation_enum Op, typename Window, typename Tile>
CK_TILE_DEVICE void update_tile(const Window& w, const Tile& t)
{
    if constexpr(Op == memory_operation_enum::set)
        store_tile(w, t);
    else
        atomic_add_tile(w, t);
}

// update_tile of f(x) for every element x of t, converted one access at a time (see
// store_transformed): how epilogues store an accumulator tile in the output type
template <memory_operation_enum Op, typename View, typename Lengths, typename Dstr, typename T, typename F>
CK_TILE_DEVICE void update_tile_transformed(const tile_window_with_static_distribution<View, Lengths, Dstr>& w,
                                            const static_distributed_tensor<T, Dstr>& t, const F& f)
{
    if constexpr(Op == memory_operation_enum::set)
        w.store_transformed(t, f);
    else
        w.atomic_add_transformed(t, f);
}

template <memory_operation_enum Op, typename View, typename Lengths, typename Dstr, typename T, typename F>
CK_TILE_DEVICE void update_tile_transformed(const tile_window_with_static_lengths<View, Lengths>& w,
                                            const static_distributed_tensor<T, Dstr>& t, const F& f)
{
    update_tile_transformed<Op>(make_tile_window(w, Dstr{}), t, f);
}

} // namespace ck_tile
