// SPDX-License-Identifier: MIT
// The s_waitcnt check: each wave's outstanding memory operations per counter (vmcnt, lgkmcnt) and
// the registers they write. A register read while its load is outstanding is reported with both
// PCs (engine.hpp's check_ready); s_waitcnt retires what the hardware would have completed.
#pragma once
#include "engine.hpp"

namespace hip_cpu {

// Records an operation a memory instruction issued, counting in vmcnt (vm) or lgkmcnt and writing
// `dwords` registers of dst (none for a store). smem: a scalar load, which returns out of order.
void issue(wave& w, const inst& i, bool vm, const operand* dst, int dwords, bool smem = false);

// Retires the oldest of the counter's operations until `keep` remain (s_waitcnt <counter>(keep)).
void retire(wave& w, std::vector<pending_op>& ops, bool vm, int keep);

} // namespace hip_cpu
