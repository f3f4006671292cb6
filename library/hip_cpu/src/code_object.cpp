// SPDX-License-Identifier: MIT
#include "code_object.hpp"

#include "launch.hpp"
#include "msgpack.hpp"

#include <algorithm>
#include <cstring>
#include <elf.h>

namespace hip_cpu {
namespace {

constexpr char bundle_magic[]              = "__CLANG_OFFLOAD_BUNDLE__"; // 24 bytes, no terminator in the file
constexpr std::uint32_t nt_amdgpu_metadata = 32;                         // note type of the msgpack metadata
constexpr std::uint32_t r_amdgpu_abs64 = 3, r_amdgpu_relative64 = 13;

template <typename T>
T read(const std::uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

[[noreturn]] void fail(const std::string& what) { throw launch_failure("hip-cpu: " + what); }

} // namespace

std::vector<bundle_entry> read_bundle(const void* bundle)
{
    const auto* p = static_cast<const std::uint8_t*>(bundle);
    if(p == nullptr || std::memcmp(p, bundle_magic, 24) != 0)
        fail("the fat binary is not a clang offload bundle (compressed bundles are not supported: "
             "build without --offload-compress)");
    const auto n = read<std::uint64_t>(p + 24);
    std::vector<bundle_entry> entries;
    const std::uint8_t* q = p + 32;
    for(std::uint64_t k = 0; k < n; ++k)
    {
        const auto offset = read<std::uint64_t>(q);
        const auto size   = read<std::uint64_t>(q + 8);
        const auto idlen  = read<std::uint64_t>(q + 16);
        std::string id(reinterpret_cast<const char*>(q + 24), idlen);
        q += 24 + idlen;
        // hipv4-amdgcn-amd-amdhsa--gfx942[:sramecc+:xnack-]; the host entry is empty
        const auto dashes = id.rfind("--");
        if(id.rfind("hip", 0) != 0 || dashes == std::string::npos)
            continue;
        std::string arch = id.substr(dashes + 2);
        arch             = arch.substr(0, arch.find(':'));
        entries.push_back({arch, p + offset, static_cast<std::size_t>(size)});
    }
    return entries;
}

std::vector<std::string> bundle_archs(const void* bundle)
{
    std::vector<std::string> archs;
    for(const auto& e : read_bundle(bundle))
        archs.push_back(e.arch);
    return archs;
}

code_object::code_object(const std::uint8_t* data, std::size_t size, std::string arch) : arch_(std::move(arch))
{
    if(size < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0 || data[EI_CLASS] != ELFCLASS64)
        fail("the " + arch_ + " code object is not a 64-bit ELF file");
    const auto eh = read<Elf64_Ehdr>(data);
    if(eh.e_machine != EM_AMDGPU)
        fail("the " + arch_ + " code object is not for AMDGPU (e_machine " + std::to_string(eh.e_machine) + ")");

    // the image: every PT_LOAD segment at its virtual address
    std::uint64_t image_end = 0;
    for(int k = 0; k < eh.e_phnum; ++k)
    {
        const auto ph = read<Elf64_Phdr>(data + eh.e_phoff + k * eh.e_phentsize);
        if(ph.p_type == PT_LOAD)
            image_end = std::max<std::uint64_t>(image_end, ph.p_vaddr + ph.p_memsz);
    }
    image_.assign(image_end, 0);
    for(int k = 0; k < eh.e_phnum; ++k)
    {
        const auto ph = read<Elf64_Phdr>(data + eh.e_phoff + k * eh.e_phentsize);
        if(ph.p_type == PT_LOAD && ph.p_filesz > 0)
            std::memcpy(image_.data() + ph.p_vaddr, data + ph.p_offset, ph.p_filesz);
    }

    // sections: the symbol table, the metadata note, the dynamic relocations
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    for(int k = 0; k < eh.e_shnum; ++k)
        sections[k] = read<Elf64_Shdr>(data + eh.e_shoff + k * eh.e_shentsize);
    struct symbol
    {
        std::string name;
        std::uint64_t value, size;
    };
    std::vector<symbol> symbols;
    std::vector<symbol> dynamic_symbols;
    const msgpack::value* kernels_md = nullptr;
    msgpack::value metadata;
    for(const auto& sh : sections)
    {
        if(sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
        {
            const auto& strtab = sections.at(sh.sh_link);
            auto& out          = sh.sh_type == SHT_SYMTAB ? symbols : dynamic_symbols;
            for(std::uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym))
            {
                const auto s = read<Elf64_Sym>(data + sh.sh_offset + off);
                out.push_back(
                    {reinterpret_cast<const char*>(data + strtab.sh_offset + s.st_name), s.st_value, s.st_size});
            }
        }
        else if(sh.sh_type == SHT_NOTE)
        {
            for(std::uint64_t off = 0; off + 12 <= sh.sh_size;)
            {
                const auto* n   = data + sh.sh_offset + off;
                const auto name = read<std::uint32_t>(n), desc = read<std::uint32_t>(n + 4);
                const auto type = read<std::uint32_t>(n + 8);
                const auto* d   = n + 12 + ((name + 3) & ~3u);
                if(type == nt_amdgpu_metadata && std::strncmp(reinterpret_cast<const char*>(n + 12), "AMDGPU", 6) == 0)
                {
                    try
                    {
                        metadata = msgpack::parse(d, desc);
                    }
                    catch(const std::exception& e)
                    {
                        fail("the " + arch_ + " code object's metadata: " + e.what());
                    }
                    kernels_md = metadata.find("amdhsa.kernels");
                }
                off += 12 + ((name + 3) & ~3u) + ((desc + 3) & ~3u);
            }
        }
    }
    if(symbols.empty())
        symbols = dynamic_symbols;
    for(const auto& sh : sections)
    {
        if(sh.sh_type != SHT_RELA)
            continue;
        const bool dynamic = sections.at(sh.sh_link).sh_type == SHT_DYNSYM;
        const auto& syms   = dynamic ? dynamic_symbols : symbols;
        for(std::uint64_t off = 0; off + sizeof(Elf64_Rela) <= sh.sh_size; off += sizeof(Elf64_Rela))
        {
            const auto r    = read<Elf64_Rela>(data + sh.sh_offset + off);
            const auto type = ELF64_R_TYPE(r.r_info);
            const auto base = reinterpret_cast<std::uint64_t>(image_.data());
            if(r.r_offset + 8 > image_.size())
                continue; // a relocation of a non-loaded section (debug info)
            std::uint64_t v;
            if(type == r_amdgpu_relative64)
                v = base + r.r_addend;
            else if(type == r_amdgpu_abs64)
                v = base + syms.at(ELF64_R_SYM(r.r_info)).value + r.r_addend;
            else
                fail("the " + arch_ + " code object has a relocation of type " + std::to_string(type) +
                     " that hip-cpu does not apply");
            std::memcpy(image_.data() + r.r_offset, &v, 8);
        }
    }
    if(kernels_md == nullptr || kernels_md->type != msgpack::value::kind::array)
        fail("the " + arch_ + " code object has no amdhsa.kernels metadata");

    auto find_symbol = [&](const std::string& name) -> const symbol* {
        for(const auto& s : symbols)
            if(s.name == name)
                return &s;
        return nullptr;
    };
    for(const auto& k : kernels_md->items)
    {
        kernel_info info;
        const auto* name  = k.find(".name");
        const auto* symkd = k.find(".symbol");
        if(name == nullptr || symkd == nullptr)
            fail("the " + arch_ + " code object has a kernel without .name or .symbol");
        info.name                 = name->s;
        info.kernarg_segment_size = static_cast<std::uint32_t>(
            k.find(".kernarg_segment_size") ? k.find(".kernarg_segment_size")->integer_or(0) : 0);
        info.max_flat_workgroup_size = static_cast<std::uint32_t>(
            k.find(".max_flat_workgroup_size") ? k.find(".max_flat_workgroup_size")->integer_or(1024) : 1024);
        info.wavefront_size =
            static_cast<std::uint32_t>(k.find(".wavefront_size") ? k.find(".wavefront_size")->integer_or(64) : 64);
        if(const auto* args = k.find(".args"))
            for(const auto& a : args->items)
            {
                kernel_argument arg;
                arg.offset     = static_cast<std::uint32_t>(a.find(".offset") ? a.find(".offset")->integer_or(0) : 0);
                arg.size       = static_cast<std::uint32_t>(a.find(".size") ? a.find(".size")->integer_or(0) : 0);
                arg.value_kind = a.find(".value_kind") ? a.find(".value_kind")->s : "";
                info.arguments.push_back(arg);
            }
        const symbol* kd = find_symbol(symkd->s);
        if(kd == nullptr || kd->value + 64 > image_.size())
            fail("kernel " + info.name + ": no kernel descriptor " + symkd->s + " in the " + arch_ + " code object");
        const std::uint8_t* d           = image_.data() + kd->value;
        auto& desc                      = info.descriptor;
        desc.group_segment_fixed_size   = read<std::uint32_t>(d + 0);
        desc.private_segment_fixed_size = read<std::uint32_t>(d + 4);
        desc.kernarg_size               = read<std::uint32_t>(d + 8);
        desc.code_entry_offset          = read<std::int64_t>(d + 16);
        desc.rsrc3                      = read<std::uint32_t>(d + 44);
        desc.rsrc1                      = read<std::uint32_t>(d + 48);
        desc.rsrc2                      = read<std::uint32_t>(d + 52);
        desc.code_properties            = read<std::uint16_t>(d + 56);
        desc.kernarg_preload            = read<std::uint16_t>(d + 58);
        info.entry                      = kd->value + desc.code_entry_offset;
        info.code_end                   = info.entry;
        if(const symbol* fn = find_symbol(info.name); fn != nullptr && fn->value == info.entry)
            info.code_end = fn->value + fn->size;
        if(info.code_end <= info.entry || info.code_end > image_.size())
            fail("kernel " + info.name + ": its code is not within the " + arch_ + " code object");
        kernels_.emplace(info.name, std::move(info));
    }
}

const kernel_info* code_object::find_kernel(std::string_view name) const
{
    auto it = kernels_.find(name);
    return it == kernels_.end() ? nullptr : &it->second;
}

const std::uint8_t* code_object::at(std::uint64_t address, std::uint64_t bytes) const
{
    if(address + bytes > image_.size())
        return nullptr;
    return image_.data() + address;
}

} // namespace hip_cpu
