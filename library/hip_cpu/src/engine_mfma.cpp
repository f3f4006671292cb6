// SPDX-License-Identifier: MIT
// MFMA instructions (and the AGPR moves): not yet implemented; the table stays empty so that a
// kernel using them fails at load, naming the instruction.
#include "engine.hpp"

namespace hip_cpu {

void add_mfma_instructions(handler_table& t)
{
    t["v_accvgpr_write_b32"] = {[](wave& w, const inst& i) {
        lane_u32 tmp;
        vwrite(w, i.op[0], vread(w, i, i.op[1], tmp));
    }};
    t["v_accvgpr_read_b32"] = {[](wave& w, const inst& i) {
        lane_u32 tmp;
        vwrite(w, i.op[0], vread(w, i, i.op[1], tmp));
    }};
    t["v_accvgpr_mov_b32"] = {[](wave& w, const inst& i) {
        lane_u32 tmp;
        vwrite(w, i.op[0], vread(w, i, i.op[1], tmp));
    }};
}

} // namespace hip_cpu
