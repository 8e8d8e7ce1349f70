# SPDX-License-Identifier: MIT
# core/ includes neither Qt, nor an OS header, nor anything of platform/ or app/. This makes that a build
# error rather than a lint: it runs at configure time (included from core/CMakeLists.txt) and again whenever
# a core file changes (cmake -DCORE_DIR=... -DSTAMP=... -P check_includes.cmake, a step of every build).
set(_iolab_forbidden
    "#[ \t]*include[ \t]*[<\"](Q[A-Za-z]+|Qt[A-Za-z]*/|unistd\\.h|fcntl\\.h|sys/|windows\\.h|Windows\\.h|io\\.h|linux/|dirent\\.h|pthread\\.h|signal\\.h|spawn\\.h|winioctl\\.h|shellapi\\.h|platform/|app/)")

function(iolab_check_core_includes core_dir)
  file(GLOB_RECURSE _files "${core_dir}/*.h" "${core_dir}/*.cpp" "${core_dir}/*.in")
  set(_bad "")
  foreach(_file IN LISTS _files)
    file(STRINGS "${_file}" _lines REGEX "${_iolab_forbidden}")
    foreach(_line IN LISTS _lines)
      file(RELATIVE_PATH _rel "${core_dir}/.." "${_file}")
      string(APPEND _bad "\n  ${_rel}: ${_line}")
    endforeach()
  endforeach()
  if(_bad)
    message(FATAL_ERROR "core/ must include neither Qt, nor OS headers, nor platform/ or app/ (put the call "
                        "behind platform/platform.h):${_bad}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  iolab_check_core_includes("${CORE_DIR}")
  file(TOUCH "${STAMP}")
endif()
