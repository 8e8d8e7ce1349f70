# SPDX-License-Identifier: MIT
# The Windows GUI in the mingw cross build. Debian has no Qt for MinGW; ../shared/toolchains holds one (Qt 6.4.2
# with Charts, built from Qt's sources with Debian's mingw-w64, see its README.md), and where it is found the
# cross build makes iolab.exe and its Qt tests too. The archive is checked against the checksum pinned here,
# unpacked once into the build folder (again only when the archive changes), and found through
# CMAKE_PREFIX_PATH, with Debian's own Qt as the host tools (moc, rcc, uic: QT_HOST_PATH=/usr).
#
# Sets IOLAB_BUILD_GUI, and writes windows-gui.txt into the build folder: "built", or "skipped: <why>" for
# installer/dev.sh to print, so that a clone without the toolkit says in one line what it did not build.
#
# The Qt programs link the C++ runtime as DLLs (Qt's DLLs import them, and one runtime per process is the
# only safe number); the rest stay linked statically, needing no DLL (the -static link option in
# CMakeLists.txt, which iolab_deploy_qt_runtime turns off per program).

set(IOLAB_QT_MINGW_ARCHIVE "${PROJECT_SOURCE_DIR}/../shared/toolchains/qt6.4.2-mingw-w64-x86_64.tar.xz"
    CACHE FILEPATH "Qt for MinGW (x86-64, posix threads, shared) as a .tar.xz: the Windows GUI is built with it")
# The toolkit this tree was built and tested with. Another archive fails the configure rather than building
# against a Qt nobody tried.
set(_iolab_qt_sha256 6b73088c380d04224a4b16af9998b09f211f9b771a777ecae992d9f3b772d10a)
set(_iolab_qt_dir qt6.4.2-mingw-w64-x86_64)
set(_iolab_qt_state ${PROJECT_BINARY_DIR}/windows-gui.txt)

option(IOLAB_WINDOWS_GUI "Cross-build the Windows GUI when the Qt for MinGW archive is found" ON)
if(NOT IOLAB_WINDOWS_GUI)
  set(IOLAB_BUILD_GUI OFF)
  file(WRITE ${_iolab_qt_state} "skipped: the Windows GUI is turned off (-DIOLAB_WINDOWS_GUI=OFF)\n")
  return()
endif()
if(NOT EXISTS ${IOLAB_QT_MINGW_ARCHIVE})
  set(IOLAB_BUILD_GUI OFF)
  file(WRITE ${_iolab_qt_state}
       "skipped: the Windows GUI and its tests need Qt for MinGW, and ${IOLAB_QT_MINGW_ARCHIVE} is not there "
       "(building the engine, the CLI and the installer only)\n")
  message(STATUS "Windows GUI: not built, ${IOLAB_QT_MINGW_ARCHIVE} is not there")
  return()
endif()

set(IOLAB_QT_MINGW_PREFIX ${PROJECT_BINARY_DIR}/qt-mingw/${_iolab_qt_dir})
set(_stamp ${PROJECT_BINARY_DIR}/qt-mingw/unpacked-sha256.txt)
set(_unpacked "")
if(EXISTS ${_stamp})
  file(READ ${_stamp} _unpacked)
  string(STRIP "${_unpacked}" _unpacked)
endif()
file(TIMESTAMP ${IOLAB_QT_MINGW_ARCHIVE} _archive_time "%s" UTC)
if(NOT _unpacked STREQUAL "${_iolab_qt_sha256} ${_archive_time}" OR NOT EXISTS ${IOLAB_QT_MINGW_PREFIX}/bin)
  file(SHA256 ${IOLAB_QT_MINGW_ARCHIVE} _sha256)
  if(NOT _sha256 STREQUAL _iolab_qt_sha256)
    message(FATAL_ERROR "${IOLAB_QT_MINGW_ARCHIVE} is not the Qt for MinGW this tree was tested with: its SHA-256 "
                        "is ${_sha256}, expected ${_iolab_qt_sha256}. Restore it, or configure with "
                        "-DIOLAB_WINDOWS_GUI=OFF to build the Windows engine and CLI only.")
  endif()
  message(STATUS "Windows GUI: unpacking ${IOLAB_QT_MINGW_ARCHIVE}")
  file(REMOVE_RECURSE ${PROJECT_BINARY_DIR}/qt-mingw)
  file(ARCHIVE_EXTRACT INPUT ${IOLAB_QT_MINGW_ARCHIVE} DESTINATION ${PROJECT_BINARY_DIR}/qt-mingw)
  if(NOT EXISTS ${IOLAB_QT_MINGW_PREFIX}/bin/Qt6Core.dll)
    message(FATAL_ERROR "${IOLAB_QT_MINGW_ARCHIVE} holds no ${_iolab_qt_dir}/bin/Qt6Core.dll")
  endif()
  file(WRITE ${_stamp} "${_iolab_qt_sha256} ${_archive_time}\n")
endif()

list(APPEND CMAKE_PREFIX_PATH ${IOLAB_QT_MINGW_PREFIX})
# The toolchain file confines find_package to CMAKE_FIND_ROOT_PATH.
list(APPEND CMAKE_FIND_ROOT_PATH ${IOLAB_QT_MINGW_PREFIX})
set(QT_HOST_PATH /usr CACHE PATH "Qt for the build machine (moc, rcc, uic)")
set(QT_HOST_PATH_CMAKE_DIR /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake CACHE PATH "")
if(NOT EXISTS ${QT_HOST_PATH_CMAKE_DIR}/Qt6)
  set(QT_HOST_PATH_CMAKE_DIR /usr/lib/x86_64-linux-gnu/cmake CACHE PATH "" FORCE)
endif()
set(IOLAB_BUILD_GUI ON)
file(WRITE ${_iolab_qt_state} "built\n")

# What iolab.exe and the Qt test programs need beside them, as windeployqt would put it: Qt's DLLs, the
# platform plugin (windows, and offscreen for the tests), the Windows style, and the MinGW runtime DLLs.
set(IOLAB_QT_RUNTIME_DLLS)
foreach(_module Core Gui Widgets Charts)
  list(APPEND IOLAB_QT_RUNTIME_DLLS ${IOLAB_QT_MINGW_PREFIX}/bin/Qt6${_module}.dll)
endforeach()
foreach(_dll libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_dll} OUTPUT_VARIABLE _path
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_path}" OR NOT EXISTS "${_path}")
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER} does not know where ${_dll} is (got '${_path}'): install "
                        "g++-mingw-w64-x86-64-posix")
  endif()
  list(APPEND IOLAB_QT_RUNTIME_DLLS ${_path})
endforeach()
set(IOLAB_QT_PLUGINS platforms/qwindows.dll platforms/qoffscreen.dll styles/qwindowsvistastyle.dll)

# Copies the runtime into the folder of a Qt program (Qt6Test.dll too for a test program: pass Test), so that it
# runs from the build tree under wine as it would from the installed folder. One copy per folder, made before
# the program links (two programs of one folder linking in parallel would race to copy the same files).
function(iolab_deploy_qt_runtime target)
  get_target_property(_dir ${target} BINARY_DIR)
  string(MD5 _tag "${_dir}")
  string(SUBSTRING ${_tag} 0 8 _tag)
  set(_deploy iolab_qt_runtime_${_tag})
  if(NOT TARGET ${_deploy})
    set(_files ${IOLAB_QT_RUNTIME_DLLS})
    foreach(_module IN LISTS ARGN)
      list(APPEND _files ${IOLAB_QT_MINGW_PREFIX}/bin/Qt6${_module}.dll)
    endforeach()
    set(_commands COMMAND ${CMAKE_COMMAND} -E copy_if_different ${_files} ${_dir}/)
    foreach(_plugin IN LISTS IOLAB_QT_PLUGINS)
      get_filename_component(_kind ${_plugin} DIRECTORY)
      list(APPEND _files ${IOLAB_QT_MINGW_PREFIX}/plugins/${_plugin})
      list(APPEND _commands COMMAND ${CMAKE_COMMAND} -E make_directory ${_dir}/${_kind}
           COMMAND ${CMAKE_COMMAND} -E copy_if_different ${IOLAB_QT_MINGW_PREFIX}/plugins/${_plugin} ${_dir}/${_kind}/)
    endforeach()
    add_custom_command(OUTPUT ${_dir}/qt-runtime.stamp ${_commands}
                       COMMAND ${CMAKE_COMMAND} -E touch ${_dir}/qt-runtime.stamp
                       DEPENDS ${_files} COMMENT "Deploying Qt's runtime into ${_dir}" VERBATIM)
    add_custom_target(${_deploy} DEPENDS ${_dir}/qt-runtime.stamp)
  endif()
  add_dependencies(${target} ${_deploy})
  set_target_properties(${target} PROPERTIES IOLAB_SHARED_RUNTIME ON)
endfunction()

# Installs the runtime beside bin/iolab.exe: the packages (NSIS, ZIP) then hold everything it imports.
function(iolab_install_qt_runtime)
  install(FILES ${IOLAB_QT_RUNTIME_DLLS} DESTINATION bin)
  foreach(_plugin IN LISTS IOLAB_QT_PLUGINS)
    get_filename_component(_kind ${_plugin} DIRECTORY)
    if(NOT _plugin STREQUAL "platforms/qoffscreen.dll") # the offscreen plugin is for the tests
      install(FILES ${IOLAB_QT_MINGW_PREFIX}/plugins/${_plugin} DESTINATION bin/${_kind})
    endif()
  endforeach()
endfunction()
