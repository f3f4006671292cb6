// SPDX-License-Identifier: MIT
// doctest main of the emulator tests. doctest's own signal handlers are left out: the emulator's
// fault handler is under test, and it hands faults it does not own to the default action.
#define DOCTEST_CONFIG_NO_POSIX_SIGNALS
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
