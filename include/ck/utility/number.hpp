// SPDX-License-Identifier: MIT
// ck::Number<N>: a compile-time index, CK Tile's number<N>.
#pragma once
#include "ck/ck.hpp"
