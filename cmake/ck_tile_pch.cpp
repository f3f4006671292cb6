// SPDX-License-Identifier: MIT
// The translation unit that owns the build dir's precompiled header (ck_tile_use_pch in
// CkTileTargets.cmake); it has no code of its own.
