// SPDX-License-Identifier: MIT
// Lists the instructions hip-cpu's engine implements, one mnemonic per line (without the encoding
// suffixes _e32, _e64, _sdwa, _dpp), sorted: what `nox -s device_check` compares the code objects'
// instructions with for its coverage line.
#include "engine.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main()
{
    std::vector<std::string> names;
    for(const auto& entry : hip_cpu::instruction_table())
        names.push_back(entry.first);
    std::sort(names.begin(), names.end());
    for(const auto& n : names)
        std::printf("%s\n", n.c_str());
    return 0;
}
