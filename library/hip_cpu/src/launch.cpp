// SPDX-License-Identifier: MIT
// One kernel launch: the code object of the running arch, the kernel decoded once, the kernel
// arguments laid out as the metadata says (hidden ones filled as ROCm fills them), and the
// workgroups run on the host's threads, each wave from the initial register state its kernel
// descriptor asks for (AMDGPUUsage, "Initial Kernel Execution State").
#include "launch.hpp"
#include "profile.hpp"
#include "racecheck.hpp"

#include "code_object.hpp"
#include "decode.hpp"
#include "engine.hpp"
#include "memory.hpp"
#include "worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <condition_variable>
#include <functional>
#include <thread>

#include <llvm/Demangle/Demangle.h>

namespace hip_cpu {
namespace {

[[noreturn]] void fail(const std::string& what) { throw launch_failure("hip-cpu: " + what); }

struct arch_facts
{
    const char* name;
    std::uint32_t lds_bytes;
    bool fp8_ocp; // the encoding its fp8/bf8 instructions read
};
constexpr arch_facts archs[] = {{"gfx942", 64 * 1024, false}, {"gfx950", 160 * 1024, true}};

const arch_facts* find_arch(const std::string& a)
{
    for(const auto& f : archs)
        if(a == f.name)
            return &f;
    return nullptr;
}

// The runtime's state lives in function-local statics: __hipRegisterFatBinary calls
// set_default_arch from the program's static constructors, before this file's globals may exist.
std::mutex& state_mutex()
{
    static std::mutex m;
    return m;
}
std::string& default_arch()
{
    static std::string a;
    return a;
}

struct loaded_kernel
{
    const code_object* co   = nullptr;
    const kernel_info* info = nullptr;
    program prog;
};
struct loaded_object
{
    std::unique_ptr<code_object> co;
    std::map<std::string, std::unique_ptr<loaded_kernel>, std::less<>> kernels;
};
std::map<std::pair<const void*, std::string>, loaded_object>& objects()
{
    static std::map<std::pair<const void*, std::string>, loaded_object> o;
    return o;
}

// LLVM's demangler: it knows clang's manglings that libstdc++'s __cxa_demangle does not (_Float16's
// DF16_, which every fp16 kernel's name carries)
std::string demangle(const std::string& name) { return llvm::demangle(name); }

// The code object of `arch` in the bundle and the kernel, decoded on first use.
const loaded_kernel& load(const void* bundle, const std::string& arch, const std::string& kernel)
{
    std::lock_guard lock(state_mutex());
    auto& obj = objects()[{bundle, arch}];
    if(!obj.co)
    {
        for(const auto& e : read_bundle(bundle))
            if(e.arch == arch)
            {
                obj.co = std::make_unique<code_object>(e.data, e.size, arch);
                // kernels may read their code object (constants addressed from s_getpc_b64)
                track(obj.co->image(), obj.co->image_size());
            }
        if(!obj.co)
        {
            std::string have;
            for(const auto& a : bundle_archs(bundle))
                have += (have.empty() ? "" : ", ") + a;
            fail("this program has no " + arch + " code object (it was built for " + have +
                 "); set CK_TILE_HIP_CPU_ARCH to one of those, or rebuild with GPU_TARGETS including " + arch);
        }
    }
    auto it = obj.kernels.find(kernel);
    if(it != obj.kernels.end())
        return *it->second;
    const kernel_info* info = obj.co->find_kernel(kernel);
    if(info == nullptr)
        fail("kernel " + demangle(kernel) + " is not in the " + arch + " code object");
    if(info->wavefront_size != 64)
        fail("kernel " + demangle(kernel) + " (" + arch + ") is compiled for wave32; hip-cpu runs wave64");
    if(info->descriptor.private_segment_fixed_size != 0)
        fail("kernel " + demangle(kernel) + " (" + arch + ") uses " +
             std::to_string(info->descriptor.private_segment_fixed_size) +
             " bytes of scratch per lane; hip-cpu does not implement scratch memory yet");
    auto k  = std::make_unique<loaded_kernel>();
    k->info = info;
    k->co   = obj.co.get();
    k->prog = decode(*obj.co, *info);
    return *obj.kernels.emplace(kernel, std::move(k)).first->second;
}

template <typename T>
void put(std::vector<std::uint8_t>& buf, std::uint32_t offset, T v)
{
    if(offset + sizeof(T) <= buf.size())
        std::memcpy(buf.data() + offset, &v, sizeof(T));
}

// Everything a host thread needs to run workgroups: the waves' registers and the LDS.
struct worker_state
{
    std::vector<wave> waves;
    std::unique_ptr<lane_u32[]> vgprs, agprs;
    std::size_t capacity = 0; // waves the registers have room for
    std::vector<std::uint8_t> lds;
    race_state race;    // race detection's shadow (CK_TILE_EMU_RACECHECK=1)
    profile_state prof; // the profile's counts (CK_TILE_EMU_PROFILE=1)
};

} // namespace

void set_default_arch(const std::string& arch)
{
    std::lock_guard lock(state_mutex());
    if(default_arch().empty())
        default_arch() = arch;
}

std::string running_arch()
{
    std::string a;
    if(const char* env = std::getenv("CK_TILE_HIP_CPU_ARCH"); env != nullptr && *env != 0)
        a = env;
    else
    {
        std::lock_guard lock(state_mutex());
        a = default_arch().empty() ? "gfx942" : default_arch();
    }
    if(find_arch(a) == nullptr)
        fail("CK_TILE_HIP_CPU_ARCH=" + a + ": hip-cpu runs gfx942 and gfx950");
    return a;
}

void launch(const kernel_launch& k)
{
    const std::string arch  = running_arch();
    const arch_facts& facts = *find_arch(arch);
    const loaded_kernel& lk = load(k.bundle, arch, k.kernel);
    const kernel_info& info = *lk.info;
    const auto& desc        = info.descriptor;
    const std::string who   = "kernel " + demangle(k.kernel) + " (" + arch + ")";

    const std::uint64_t threads = std::uint64_t{k.block[0]} * k.block[1] * k.block[2];
    if(threads == 0 || k.grid[0] == 0 || k.grid[1] == 0 || k.grid[2] == 0)
        fail(who + ": an empty grid or block");
    if(threads > info.max_flat_workgroup_size)
        fail(who + ": a block of " + std::to_string(threads) + " threads, more than the kernel's " +
             std::to_string(info.max_flat_workgroup_size));
    const std::uint64_t lds_bytes = std::uint64_t{desc.group_segment_fixed_size} + k.dynamic_lds;
    if(lds_bytes > facts.lds_bytes)
        fail(who + ": needs " + std::to_string(lds_bytes) + " bytes of LDS, more than the " +
             std::to_string(facts.lds_bytes) + " a workgroup has on " + arch);

    // the kernel arguments: explicit ones in order from k.args, hidden ones as ROCm fills them
    std::vector<std::uint8_t> kernarg(std::max<std::uint32_t>(info.kernarg_segment_size, 256) + 64, 0);
    std::vector<std::uint8_t> packet(64, 0), queue(256, 0);
    {
        std::size_t explicit_index = 0;
        const int dims             = k.grid[2] * k.block[2] > 1 ? 3 : k.grid[1] * k.block[1] > 1 ? 2 : 1;
        for(const auto& a : info.arguments)
        {
            const std::string& kind = a.value_kind;
            if(kind.rfind("hidden_", 0) != 0)
            {
                if(k.args == nullptr || k.args[explicit_index] == nullptr)
                    fail(who + ": argument " + std::to_string(explicit_index) + " is missing");
                std::memcpy(kernarg.data() + a.offset, k.args[explicit_index], a.size);
                ++explicit_index;
                continue;
            }
            for(int d = 0; d < 3; ++d)
            {
                const std::string axis = std::string("_") + static_cast<char>('x' + d);
                if(kind == "hidden_block_count" + axis)
                    put<std::uint32_t>(kernarg, a.offset, k.grid[d]);
                else if(kind == "hidden_group_size" + axis)
                    put<std::uint16_t>(kernarg, a.offset, static_cast<std::uint16_t>(k.block[d]));
                else if(kind == "hidden_remainder" + axis)
                    put<std::uint16_t>(kernarg, a.offset, 0);
            }
            if(kind == "hidden_grid_dims")
                put<std::uint16_t>(kernarg, a.offset, static_cast<std::uint16_t>(dims));
            else if(kind == "hidden_dynamic_lds_size")
                put<std::uint32_t>(kernarg, a.offset, static_cast<std::uint32_t>(k.dynamic_lds));
            else if(kind == "hidden_queue_ptr")
                put<std::uint64_t>(kernarg, a.offset, reinterpret_cast<std::uint64_t>(queue.data()));
            // global offsets, printf/hostcall buffers, heap, multigrid: 0 (none)
        }
        // the dispatch packet (hsa_kernel_dispatch_packet_t)
        put<std::uint16_t>(packet, 2, static_cast<std::uint16_t>(dims));
        for(int d = 0; d < 3; ++d)
        {
            put<std::uint16_t>(packet, 4 + 2 * d, static_cast<std::uint16_t>(k.block[d]));
            put<std::uint32_t>(packet, 12 + 4 * d, k.grid[d] * k.block[d]);
        }
        put<std::uint32_t>(packet, 28, static_cast<std::uint32_t>(lds_bytes));
        put<std::uint64_t>(packet, 40, reinterpret_cast<std::uint64_t>(kernarg.data()));
    }
    track(kernarg.data(), kernarg.size());
    track(packet.data(), packet.size());
    track(queue.data(), queue.size());
    struct untrack
    {
        std::vector<const void*> p;
        ~untrack()
        {
            for(auto* q : p)
                forget(q);
        }
    } untracked{{kernarg.data(), packet.data(), queue.data()}};

    dispatch d;
    d.prog            = &lk.prog;
    d.code_base       = reinterpret_cast<std::uint64_t>(lk.co->image());
    d.kernarg         = reinterpret_cast<std::uint64_t>(kernarg.data());
    d.dispatch_packet = reinterpret_cast<std::uint64_t>(packet.data());
    d.fp8_ocp         = facts.fp8_ocp;

    const int waves_per_group       = static_cast<int>((threads + lanes - 1) / lanes);
    const std::uint32_t user_sgprs  = (desc.rsrc2 >> 1) & 0x1f;
    const std::uint32_t entry_index = 0;
    const std::uint64_t groups      = std::uint64_t{k.grid[0]} * k.grid[1] * k.grid[2];

    std::atomic<std::uint64_t> next_group{0};
    std::atomic<bool> failed{false};
    std::string failure;
    std::mutex failure_mutex;
    const bool profiling = profile_enabled();
    std::vector<profile_counts> profile(profiling ? lk.prog.code.size() : 0); // merged from the threads

    auto run_groups = [&] {
        // kept by the thread from launch to launch: registers and LDS are not allocated (and
        // faulted in) again for every launch
        thread_local worker_state ws;
        const std::size_t nwaves = static_cast<std::size_t>(waves_per_group);
        ws.waves.resize(nwaves);
        if(ws.capacity < nwaves)
        {
            ws.vgprs    = std::make_unique<lane_u32[]>(nwaves * 256);
            ws.agprs    = std::make_unique<lane_u32[]>(nwaves * 256);
            ws.capacity = nwaves;
        }
        ws.lds.resize(std::max<std::uint64_t>(lds_bytes, 4));
        workgroup wg;
        if(profiling)
        {
            ws.prof.counts.assign(lk.prog.code.size(), {});
            wg.prof = &ws.prof;
        }
        // the thread's counts join the launch's whichever way it leaves
        struct merge_profile
        {
            const worker_state& ws;
            std::vector<profile_counts>& into;
            std::mutex& m;
            ~merge_profile()
            {
                if(into.empty()) // not profiling
                    return;
                std::lock_guard lock(m);
                for(std::size_t n = 0; n < into.size(); ++n)
                    into[n] += ws.prof.counts[n];
            }
        } merge{ws, profile, failure_mutex};
        wg.lds             = ws.lds.data();
        wg.lds_bytes       = static_cast<std::uint32_t>(lds_bytes);
        wg.race            = racecheck_enabled() ? &ws.race : nullptr;
        const bool tgsplit = ((desc.rsrc3 >> 16) & 1) != 0; // COMPUTE_PGM_RSRC3.TG_SPLIT (gfx90a+)
        for(;;)
        {
            const std::uint64_t g = next_group.fetch_add(1);
            if(g >= groups || failed.load(std::memory_order_relaxed))
                return;
            wg.id[0] = static_cast<std::uint32_t>(g % k.grid[0]);
            wg.id[1] = static_cast<std::uint32_t>((g / k.grid[0]) % k.grid[1]);
            wg.id[2] = static_cast<std::uint32_t>(g / (std::uint64_t{k.grid[0]} * k.grid[1]));
            std::memset(ws.lds.data(), 0, ws.lds.size());
            if(wg.race != nullptr)
                ws.race.begin_group(wg.lds_bytes, waves_per_group, tgsplit);
            try
            {
                for(int wi = 0; wi < waves_per_group; ++wi)
                {
                    wave& w = ws.waves[static_cast<std::size_t>(wi)];
                    w       = wave{};
                    w.v     = &ws.vgprs[static_cast<std::size_t>(wi) * 256];
                    w.a     = &ws.agprs[static_cast<std::size_t>(wi) * 256];
                    w.wg    = &wg;
                    w.d     = &d;
                    w.id    = wi;
                    w.pc    = entry_index;
                    w.v_pending.assign(256, 0);
                    w.a_pending.assign(256, 0);
                    w.s_pending.assign(sreg::count, 0);
                    // user SGPRs in the order AMDGPUUsage gives, then the workgroup ids
                    std::uint32_t s = 0;
                    auto put64      = [&](std::uint64_t v) {
                        w.s[s++] = static_cast<std::uint32_t>(v);
                        w.s[s++] = static_cast<std::uint32_t>(v >> 32);
                    };
                    const std::uint16_t cp = desc.code_properties;
                    if(cp & 1)
                    {
                        put64(0); // private segment buffer: no scratch
                        put64(0);
                    }
                    if(cp & 2)
                        put64(d.dispatch_packet);
                    if(cp & 4)
                        put64(reinterpret_cast<std::uint64_t>(queue.data()));
                    if(cp & 8)
                        put64(d.kernarg);
                    if(cp & 16)
                        put64(0); // dispatch id
                    if(cp & 32)
                        put64(0); // flat scratch init
                    if(cp & 64)
                        w.s[s++] = 0; // private segment size
                    // kernel arguments preloaded into SGPRs (gfx940+)
                    const std::uint32_t preload = desc.kernarg_preload & 0x7f, preload_at = desc.kernarg_preload >> 7;
                    for(std::uint32_t q = 0; q < preload && s < sreg::vcc; ++q)
                        std::memcpy(&w.s[s++], kernarg.data() + 4 * (preload_at + q), 4);
                    s = user_sgprs;
                    for(int dim = 0; dim < 3; ++dim)
                        if((desc.rsrc2 >> (7 + dim)) & 1)
                            w.s[s++] = wg.id[dim];
                    if((desc.rsrc2 >> 10) & 1)
                        w.s[s++] = 0; // workgroup info
                    // v0: the work-item ids packed as x | y << 10 | z << 20 (gfx90a+); EXEC: the
                    // lanes this wave has
                    std::uint64_t exec = 0;
                    for(int l = 0; l < lanes; ++l)
                    {
                        const std::uint64_t t = static_cast<std::uint64_t>(wi) * lanes + l;
                        if(t >= threads)
                        {
                            w.v[0][l] = 0;
                            continue;
                        }
                        exec |= std::uint64_t{1} << l;
                        const std::uint32_t x = static_cast<std::uint32_t>(t % k.block[0]);
                        const std::uint32_t y = static_cast<std::uint32_t>((t / k.block[0]) % k.block[1]);
                        const std::uint32_t z =
                            static_cast<std::uint32_t>(t / (std::uint64_t{k.block[0]} * k.block[1]));
                        w.v[0][l] = x | y << 10 | z << 20;
                    }
                    w.set_exec(exec);
                }
                // run each wave to its next barrier or its end, until all have ended
                for(;;)
                {
                    for(auto& w : ws.waves)
                        if(w.status == wave::state::running)
                            run_wave(w);
                    int waiting = 0, ended = 0;
                    std::uint32_t pc = 0;
                    bool same_pc     = true;
                    for(auto& w : ws.waves)
                    {
                        if(w.status == wave::state::at_barrier)
                        {
                            if(waiting > 0 && w.barrier_pc != pc)
                                same_pc = false;
                            pc = w.barrier_pc;
                            ++waiting;
                        }
                        else
                            ++ended;
                    }
                    if(waiting == 0)
                        break;
                    if(ended > 0 || !same_pc)
                    {
                        std::string what = "the waves of workgroup (" + std::to_string(wg.id[0]) + "," +
                                           std::to_string(wg.id[1]) + "," + std::to_string(wg.id[2]) +
                                           ") do not all reach the same s_barrier:";
                        for(auto& w : ws.waves)
                        {
                            char buf[64];
                            if(w.status == wave::state::at_barrier)
                                std::snprintf(buf, sizeof buf, " wave %d waits at 0x%llx;", w.id,
                                              static_cast<unsigned long long>(lk.prog.code[w.barrier_pc].address));
                            else
                                std::snprintf(buf, sizeof buf, " wave %d has ended;", w.id);
                            what += buf;
                        }
                        what.pop_back();
                        throw engine_fault(what);
                    }
                    if(wg.race != nullptr)
                        ws.race.barrier(ws.waves);
                    for(auto& w : ws.waves)
                        w.status = wave::state::running;
                }
            }
            catch(const engine_fault& e)
            {
                std::lock_guard lock(failure_mutex);
                if(!failed.exchange(true))
                    failure = e.what();
                return;
            }
        }
    };

    worker_pool& pool      = worker_pool::get();
    const unsigned workers = static_cast<unsigned>(std::min<std::uint64_t>(pool.size(), groups));
    if(workers <= 1)
        run_groups();
    else
        pool.run(workers, std::function<void()>(run_groups));
    if(failed)
        fail(who + ": " + failure);
    if(profiling)
    {
        profile_launch_info pi;
        pi.kernel = demangle(k.kernel);
        pi.arch   = arch;
        for(int dim = 0; dim < 3; ++dim)
        {
            pi.grid[dim]  = k.grid[dim];
            pi.block[dim] = k.block[dim];
        }
        pi.rsrc1           = desc.rsrc1;
        pi.rsrc3           = desc.rsrc3;
        pi.lds_bytes       = lds_bytes;
        pi.lds_per_cu      = facts.lds_bytes;
        pi.waves_per_block = static_cast<std::uint32_t>(waves_per_group);
        std::fputs(profile_report(pi, lk.prog, profile).c_str(), stderr);
    }
}

} // namespace hip_cpu
