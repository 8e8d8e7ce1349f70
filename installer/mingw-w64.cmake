# SPDX-License-Identifier: MIT
# Cross-builds IOLab for Windows on Debian with mingw-w64 (the posix thread model: the default win32 variant has
# no std::thread). Tests run under wine. The CLI and the engine's tests are linked statically (-static, set in
# CMakeLists.txt per program), so they need no DLLs; the GUI shares the runtime DLLs with Qt's.
#   cmake -S . -B build-win -G Ninja -DCMAKE_TOOLCHAIN_FILE=installer/mingw-w64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# ctest and gtest_discover_tests start the test programs through wine, by wine-run.sh, which retries a start
# that produced nothing at all.
find_program(IOLAB_WINE wine)
if(IOLAB_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/wine-run.sh)
endif()
