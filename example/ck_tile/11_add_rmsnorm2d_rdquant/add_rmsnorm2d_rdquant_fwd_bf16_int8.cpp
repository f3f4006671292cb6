// SPDX-License-Identifier: MIT
#include "add_rmsnorm2d_rdquant_fwd_instances.hpp"

ADD_RMSNORM2D_RDQUANT_DEFINE(bf16, int8, ck_tile::bf16_t, ck_tile::int8_t)
