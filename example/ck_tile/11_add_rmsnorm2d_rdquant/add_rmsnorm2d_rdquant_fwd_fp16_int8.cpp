// SPDX-License-Identifier: MIT
#include "add_rmsnorm2d_rdquant_fwd_instances.hpp"

ADD_RMSNORM2D_RDQUANT_DEFINE(fp16, int8, ck_tile::half_t, ck_tile::int8_t)
