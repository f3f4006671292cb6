// SPDX-License-Identifier: MIT
// Wave-level collectives of the CPU emulator: operations over the 64 lanes of a wave (lane
// permutes, ballot, readfirstlane, gfx950's LDS transpose reads; the MFMA models of mfma.hpp are
// built on wave_collective).
//
// Every lane of the wave that is active calls the collective; each lane blocks until all active
// lanes of its wave have arrived, and the last lane to arrive computes the result for the whole
// wave, once (not once per lane), then every lane continues with its own result.
//
// Active lanes. A lane is active unless it does not exist (the last wave of a workgroup whose size
// is not a multiple of 64) or has already returned from the kernel. Inactive lanes take no part:
// their input slot is value-initialised (T{}: zero for arithmetic types), their output slot is
// discarded, and they do not hold the collective up, as lanes with EXEC off on hardware.
//
// Limits of the model: lanes of one wave are matched by the order of their calls, so all active
// lanes must call the same sequence of collectives (uniform control flow). Lanes that wait at
// different collectives are an error (launch_error), and so are lanes waiting at a collective while
// the others wait at a barrier (deadlock). A collective's function must not call barrier() or
// another collective. Lane-divergent calls of one collective (e.g. in both arms of an if on the
// lane id) are paired into one call, unlike hardware, which would run each arm with part of EXEC.
//
// Consecutive collectives are safe: a lane's input and output live on its own stack while it
// waits, and the collective is complete (all outputs written) before any of its lanes runs again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/diagnostics.hpp"
#include "ck_tile/core/arch/emulator/scheduler.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

// The addresses of N LDS transpose reads of one lane, and what it receives (detail::lds_transpose_op).
template <typename T, int N>
struct lds_transpose_in
{
    const T* p[N];
};

template <typename T, int N>
struct lds_transpose_out
{
    static constexpr int elems = 8 / static_cast<int>(sizeof(T));
    T v[N * elems];
};

namespace detail {

// ---- arrival: how a lane waits for its wave ----------------------------------------------------

// Runs the pending collective of wave `w` (all its live lanes have arrived) and releases its lanes.
inline void complete_wave(workgroup& wg, std::uint32_t w)
{
    wave_state& ws            = wg.waves[w];
    const std::uint64_t mask  = ws.arrived;
    const wave_complete_fn fn = ws.complete;
    ws.arrived                = 0;
    ws.complete               = nullptr;
    wg.in_collective          = true;
    fn(ws.frames, mask);
    wg.in_collective = false;
    wg.ready[w] |= mask;
    for(std::uint64_t m = mask; m != 0; m &= m - 1)
        wg.fibers[w * 64 + lowest_bit(m)].state = fiber_state::ready;
}

// The running lane arrives at a wave collective described by (frame, fn, name) and waits until
// its wave's collective has completed (the last lane to arrive runs fn for the whole wave).
inline void wave_arrive(void* frame, wave_complete_fn fn, const char* name)
{
    fiber& self   = *current_fiber(name);
    workgroup& wg = *t_wg;
    if(wg.in_collective)
        fail_workgroup([&] {
            return where(wg) + ": a wave collective was called from inside the function of "
                               "another wave collective";
        });
    const std::uint32_t w   = self.flat >> 6;
    const std::uint64_t bit = std::uint64_t{1} << (self.flat & 63);
    wave_state& ws          = wg.waves[w];
    if(ws.arrived == 0)
    {
        ws.complete = fn;
        ws.name     = name;
    }
    else if(ws.complete != fn)
    {
        fail_workgroup([&] {
            return where(wg) + ": lanes of wave " + std::to_string(w) + " called different wave collectives (lanes " +
                   lane_list(ws.arrived) + " are at '" + ws.name + "', lane " + std::to_string(self.flat & 63) +
                   " at a different '" + name + "'); all active lanes of a wave must execute the same collective";
        });
    }
    ws.frames[self.flat & 63] = frame;
    ws.arrived |= bit;
    self.state = fiber_state::at_wave;
    if(ws.arrived == ws.alive)
        complete_wave(wg, w);
    park(wg, self);
}

// ---- typed collectives ----------------------------------------------------------------------------

template <typename In, typename Out, typename F>
struct wave_frame
{
    const In* in;
    Out* out;
    F* f;
};

// Not value-initialised: a collective fills every active lane's slot (and zeroes the inactive
// lanes' inputs), so clearing the whole buffers on every call would only cost time.
template <typename In, typename Out>
struct wave_buffers
{
    In in[warp_size];
    Out out[warp_size];
};

template <typename In, typename Out, typename F>
void wave_compute(void* const* frames, std::uint64_t active, wave_buffers<In, Out>& b)
{
    using frame_t = wave_frame<In, Out, F>;
    for(std::uint64_t m = active; m != 0; m &= m - 1)
    {
        const int lane = __builtin_ctzll(m);
        b.in[lane]     = *static_cast<const frame_t*>(frames[lane])->in;
    }
    for(std::uint64_t m = ~active; m != 0; m &= m - 1)
        b.in[__builtin_ctzll(m)] = In{};
    // The function of the lowest active lane is used (all lanes pass the same one in practice).
    F& f = *static_cast<const frame_t*>(frames[__builtin_ctzll(active)])->f;
    if constexpr(std::is_invocable_v<F&, const In*, Out*, std::uint64_t>)
        f(static_cast<const In*>(b.in), static_cast<Out*>(b.out), active);
    else
        f(static_cast<const In*>(b.in), static_cast<Out*>(b.out));
    for(std::uint64_t m = active; m != 0; m &= m - 1)
    {
        const int lane                                  = __builtin_ctzll(m);
        *static_cast<const frame_t*>(frames[lane])->out = std::move(b.out[lane]);
    }
}

template <typename In, typename Out, typename F>
void wave_complete(void* const* frames, std::uint64_t active)
{
    // Large operands go to the heap rather than the fiber stack.
    if constexpr((sizeof(In) + sizeof(Out)) * warp_size > 32 * 1024)
    {
        auto b = std::make_unique<wave_buffers<In, Out>>();
        wave_compute<In, Out, F>(frames, active, *b);
    }
    else
    {
        wave_buffers<In, Out> b;
        wave_compute<In, Out, F>(frames, active, b);
    }
}

template <typename In, typename Out, typename F>
Out run_collective(const In& in, F& f, const char* name)
{
    Out result{};
    wave_frame<In, Out, F> frame{&in, &result, &f};
    wave_arrive(&frame, &wave_complete<In, Out, F>, name);
    return result;
}

// Out deduced from the second parameter of a non-generic callable: f(const In*, Out*[, mask]).
struct deduce_out
{};

template <typename M>
struct call_out;
template <typename C, typename R, typename A, typename B, typename... Rest>
struct call_out<R (C::*)(A, B, Rest...) const>
{
    using type = std::remove_pointer_t<B>;
};
template <typename C, typename R, typename A, typename B, typename... Rest>
struct call_out<R (C::*)(A, B, Rest...) const noexcept>
{
    using type = std::remove_pointer_t<B>;
};
template <typename C, typename R, typename A, typename B, typename... Rest>
struct call_out<R (C::*)(A, B, Rest...)>
{
    using type = std::remove_pointer_t<B>;
};
template <typename C, typename R, typename A, typename B, typename... Rest>
struct call_out<R (C::*)(A, B, Rest...) noexcept>
{
    using type = std::remove_pointer_t<B>;
};

template <typename F, typename = void>
struct callable_out
{};
template <typename R, typename A, typename B, typename... Rest>
struct callable_out<R (*)(A, B, Rest...), void>
{
    using type = std::remove_pointer_t<B>;
};
template <typename F>
struct callable_out<F, std::void_t<decltype(&F::operator())>> : call_out<decltype(&F::operator())>
{};

template <typename Out, typename F>
struct resolve_out
{
    using type = Out;
};
template <typename F>
struct resolve_out<deduce_out, F>
{
    using type = typename callable_out<std::decay_t<F>>::type;
};

template <typename T>
struct shuffle_in
{
    T value;
    int src_lane;
};

struct shuffle_op
{
    template <typename T>
    void operator()(const shuffle_in<T>* in, T* out) const
    {
        for(int lane = 0; lane < warp_size; ++lane)
            out[lane] = in[in[lane].src_lane & (warp_size - 1)].value;
    }
};

struct ballot_op
{
    void operator()(const bool* in, std::uint64_t* out) const
    {
        std::uint64_t r = 0;
        for(int lane = 0; lane < warp_size; ++lane)
            r |= static_cast<std::uint64_t>(in[lane]) << lane;
        for(int lane = 0; lane < warp_size; ++lane)
            out[lane] = r;
    }
};

// ds_read_b64_tr_b16 / ds_read_b64_tr_b8 (gfx950): each lane names 8 bytes of LDS, E = 8 / sizeof(T)
// elements. In each group of 16 lanes those 16 x E elements are taken as an E x 16 matrix, row r
// being the elements of lanes r * (16 / E) ... r * (16 / E) + 16 / E - 1 in order, and lane j of the
// group receives column j: element r of its result is element j % E of lane r * (16 / E) + j / E.
// An inactive lane reads nothing; the elements it would have supplied are zero. N such reads are
// one collective (one wave arrival instead of N): read i uses the lanes' addresses p[i] and fills
// elements i * E .. i * E + E - 1.
struct lds_transpose_op
{
    template <typename T, int N>
    void operator()(const lds_transpose_in<T, N>* in, lds_transpose_out<T, N>* out, std::uint64_t active) const
    {
        constexpr int e             = lds_transpose_out<T, N>::elems;
        constexpr int lanes_per_row = 16 / e;
        for(int lane = 0; lane < warp_size; ++lane)
        {
            const int group = lane & ~15;
            const int j     = lane & 15;
            for(int i = 0; i < N; ++i)
                for(int r = 0; r < e; ++r)
                {
                    const int src          = group + r * lanes_per_row + j / e;
                    out[lane].v[i * e + r] = (active >> src) & 1 ? in[src].p[i][j % e] : T{};
                }
        }
    }
};

struct readfirstlane_op
{
    template <typename T>
    void operator()(const T* in, T* out, std::uint64_t active) const
    {
        const T v = in[__builtin_ctzll(active)];
        for(int lane = 0; lane < warp_size; ++lane)
            out[lane] = v;
    }
};

} // namespace detail

// Generic wave collective. Every active lane passes its `in`; `f(const In* in, Out* out)` is called
// once per wave with in[lane] for all 64 lanes (inactive lanes: In{}) and fills out[lane]; each lane
// gets out[lane]. If f also accepts a third argument, it receives the mask of active lanes
// (std::uint64_t, bit i = lane i). Out may be omitted when f is not generic: it is then the pointee
// of f's second parameter. In and Out must be default-constructible and copyable. `name` (a string
// literal) names the operation in error messages, e.g. "mfma_f32_32x32x8_f16".
template <typename In, typename Out = detail::deduce_out, typename F>
typename detail::resolve_out<Out, F>::type wave_collective(const In& in, F&& f, const char* name = "wave_collective")
{
    using out_t = typename detail::resolve_out<Out, F>::type;
    return detail::run_collective<In, out_t, std::remove_reference_t<F>>(in, f, name);
}

// ds_bpermute: returns `v` of lane (src_lane & 63) of this wave (T{} if that lane is inactive).
template <typename T>
T shuffle(T v, int src_lane)
{
    detail::shuffle_op op;
    return detail::run_collective<detail::shuffle_in<T>, T, detail::shuffle_op>(detail::shuffle_in<T>{v, src_lane}, op,
                                                                                "shuffle");
}

// Bit i of the result is set when lane i is active and passed true.
inline std::uint64_t ballot(bool predicate)
{
    detail::ballot_op op;
    return detail::run_collective<bool, std::uint64_t, detail::ballot_op>(predicate, op, "ballot");
}

// N LDS transpose reads of gfx950 as one collective (lds_transpose_op says what each lane
// receives); p[i] is this lane's 8 bytes of LDS for read i.
template <typename T, int N>
lds_transpose_out<T, N> lds_transpose_read_b64(const lds_transpose_in<T, N>& p)
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2, "lds_transpose_read_b64: 8-bit or 16-bit elements");
    detail::lds_transpose_op op;
    return detail::run_collective<lds_transpose_in<T, N>, lds_transpose_out<T, N>, detail::lds_transpose_op>(
        p, op, "ds_read_b64_tr");
}

// Returns `v` of the lowest active lane of this wave.
template <typename T>
T readfirstlane(T v)
{
    detail::readfirstlane_op op;
    return detail::run_collective<T, T, detail::readfirstlane_op>(v, op, "readfirstlane");
}

} // namespace ck_tile::emu
