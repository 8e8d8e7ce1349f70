# SPDX-License-Identifier: MIT
# What `cmake --install` puts where, and the CPack packages made from it:
#   Linux:                      iolab_<version>-1_<arch>.deb and iolab-<version>-linux-<arch>.tar.gz
#   Windows with the GUI:       IOLab-<version>-windows-x86_64.exe (NSIS) and .zip (MSVC, or the mingw cross
#                               build with ../shared's Qt for MinGW)
#   Windows, the mingw CLI:     iolab-cli-<version>-windows-x86_64.exe (NSIS) and .zip (no Qt for MinGW found)
# installer/dev.sh package builds the Linux ones; tests/package/ checks them.

set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The IOLab authors")
set(CPACK_PACKAGE_CONTACT "The IOLab authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}: how the way you write changes what you get")
set(CPACK_PACKAGE_HOMEPAGE_URL ${PROJECT_HOMEPAGE_URL})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON) # the debug info of a RelWithDebInfo build stays in the build tree
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/")

if(WIN32)
  install(FILES README.md LICENSE ${IOLAB_CHANGELOG} DESTINATION .)
  set(CPACK_NSIS_MUI_ICON ${PROJECT_SOURCE_DIR}/resources/icons/iolab.ico)
  set(CPACK_NSIS_MUI_UNIICON ${PROJECT_SOURCE_DIR}/resources/icons/iolab.ico)
  set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
  set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
  set(CPACK_NSIS_URL_INFO_ABOUT ${PROJECT_HOMEPAGE_URL})
  set(CPACK_NSIS_HELP_LINK ${PROJECT_HOMEPAGE_URL})
  set(CPACK_NSIS_CONTACT ${CPACK_PACKAGE_CONTACT})
  set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
  # A 64-bit installer for 64-bit programs (NSIS 3's amd64-unicode stubs): it also runs under a 64-bit-only
  # wine, which has no 32-bit side to run NSIS's default x86 stub.
  set(CPACK_NSIS_DEFINES "Target amd64-unicode")
  # Both installers hold iolab-cli: they offer to put bin\ on the PATH, and add Start-menu entries for a
  # command prompt there showing the CLI's help (it starts in bin\, from SetOutPath, so nothing needs
  # quoting), the README and the changelog.
  set(CPACK_NSIS_MODIFY_PATH ON)
  set(CPACK_NSIS_CREATE_ICONS_EXTRA
      "SetOutPath '$INSTDIR\\\\bin'\nCreateShortCut '$SMPROGRAMS\\\\$STARTMENU_FOLDER\\\\IOLab command line.lnk' '$SYSDIR\\\\cmd.exe' '/k iolab-cli.exe --help' '$INSTDIR\\\\bin\\\\iolab-cli.exe' 0")
  set(CPACK_NSIS_DELETE_ICONS_EXTRA "Delete '$SMPROGRAMS\\\\$MUI_TEMP\\\\IOLab command line.lnk'")
  set(CPACK_NSIS_MENU_LINKS "README.md" "Read me" "CHANGELOG.md" "Changes")
  if(IOLAB_BUILD_GUI)
    # The desktop app and the CLI, with Qt's DLLs (MSVC: Qt's deploy script, windeployqt inside).
    # FILENAME_VARIABLE is Qt 6.4's spelling (6.5 also takes OUTPUT_SCRIPT).
    # The mingw cross build has no windeployqt: it installs the list installer/windows-qt.cmake keeps, which
    # package.windows_imports checks against iolab.exe's import tables.
    if(IOLAB_QT_MINGW_PREFIX)
      iolab_install_qt_runtime()
    else()
      qt_generate_deploy_app_script(TARGET iolab FILENAME_VARIABLE _iolab_deploy NO_UNSUPPORTED_PLATFORM_ERROR)
      install(SCRIPT ${_iolab_deploy})
    endif()
    set(CPACK_GENERATOR NSIS ZIP)
    set(CPACK_PACKAGE_NAME IOLab)
    set(CPACK_PACKAGE_INSTALL_DIRECTORY IOLab)
    set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY IOLab)
    set(CPACK_PACKAGE_FILE_NAME "IOLab-${PROJECT_VERSION}-windows-x86_64")
    # A Start-menu entry "IOLab" for bin\iolab.exe, and the icon Add/Remove Programs shows.
    set(CPACK_PACKAGE_EXECUTABLES iolab IOLab)
    set(CPACK_NSIS_INSTALLED_ICON_NAME bin\\\\iolab.exe)
    set(CPACK_NSIS_DISPLAY_NAME "IOLab ${PROJECT_VERSION}")
    set(CPACK_NSIS_PACKAGE_NAME IOLab) # the installer's title and Start-menu folder
    set(CPACK_NSIS_MUI_FINISHPAGE_RUN iolab.exe)
    # "Open with > IOLab" for .json files, as an offer beside the user's own choice: results are .json, and
    # taking over every .json file on the machine would be rude. A ProgID of IOLab's own (its icon, its open
    # command) listed under .json's OpenWithProgids; the uninstaller removes both.
    set(_progid "Software\\\\Classes\\\\IOLab.Result")
    set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "
      WriteRegStr SHCTX '${_progid}' '' 'IOLab result'
      WriteRegStr SHCTX '${_progid}\\\\DefaultIcon' '' '\\\"$INSTDIR\\\\bin\\\\iolab.exe\\\",0'
      WriteRegStr SHCTX '${_progid}\\\\shell\\\\open\\\\command' '' '\\\"$INSTDIR\\\\bin\\\\iolab.exe\\\" \\\"%1\\\"'
      WriteRegStr SHCTX 'Software\\\\Classes\\\\.json\\\\OpenWithProgids' 'IOLab.Result' ''")
    set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "
      DeleteRegKey SHCTX '${_progid}'
      DeleteRegValue SHCTX 'Software\\\\Classes\\\\.json\\\\OpenWithProgids' 'IOLab.Result'")
  else()
    # The mingw cross build: iolab-cli.exe (statically linked, so no DLLs), the README, the changelog and the
    # licence.
    set(CPACK_GENERATOR NSIS ZIP)
    set(CPACK_PACKAGE_NAME iolab-cli)
    set(CPACK_PACKAGE_INSTALL_DIRECTORY "IOLab CLI")
    set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY iolab-cli)
    set(CPACK_PACKAGE_FILE_NAME "iolab-cli-${PROJECT_VERSION}-windows-x86_64")
    set(CPACK_NSIS_DISPLAY_NAME "IOLab command line ${PROJECT_VERSION}")
    set(CPACK_NSIS_PACKAGE_NAME "IOLab command line") # the installer's title and Start-menu folder
    set(CPACK_NSIS_INSTALLED_ICON_NAME bin\\\\iolab-cli.exe)
  endif()
  include(CPack)
  return()
endif()

if(APPLE)
  return()
endif()

# Linux (and other freedesktop systems): the FHS layout under CMAKE_INSTALL_PREFIX.
include(GNUInstallDirs)
set(_gen ${PROJECT_BINARY_DIR}/generated/linux)
set(_docdir ${CMAKE_INSTALL_DATADIR}/doc/iolab) # the package's name, as Debian wants it


# Man pages, configured with the version and date, gzipped as Debian wants them.
set(_man_pages iolab-cli)
if(IOLAB_BUILD_GUI)
  list(APPEND _man_pages iolab)
endif()
set(_man_gz)
foreach(_page IN LISTS _man_pages)
  configure_file(${PROJECT_SOURCE_DIR}/resources/man/${_page}.1.in ${_gen}/man/${_page}.1 @ONLY)
  add_custom_command(OUTPUT ${_gen}/man/${_page}.1.gz
                     COMMAND gzip -9 -n -f -k ${_page}.1
                     WORKING_DIRECTORY ${_gen}/man
                     DEPENDS ${_gen}/man/${_page}.1
                     COMMENT "Compressing the ${_page}(1) man page" VERBATIM)
  list(APPEND _man_gz ${_gen}/man/${_page}.1.gz)
endforeach()
add_custom_target(iolab_man_pages ALL DEPENDS ${_man_gz})
install(FILES ${_man_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES README.md ${IOLAB_CHANGELOG} DESTINATION ${_docdir})
# The manual, its pages' links to each other and to the screenshots they show kept as in the repository.
include(${PROJECT_SOURCE_DIR}/installer/manual.cmake)
install(FILES ${IOLAB_MANUAL_PAGES} DESTINATION ${_docdir}/manual)
install(FILES ${IOLAB_MANUAL_SCREENSHOTS} DESTINATION ${_docdir}/screenshots)
install(FILES LICENSE DESTINATION ${_docdir} RENAME copyright)
install(DIRECTORY resources/matrices/ DESTINATION ${_docdir}/examples FILES_MATCHING PATTERN "*.json")

if(IOLAB_BUILD_GUI)
  # The desktop entry, the icon in every size the hicolor theme takes, and the AppStream metainfo, all named
  # after the application id.
  configure_file(${PROJECT_SOURCE_DIR}/resources/linux/iolab.desktop.in ${_gen}/${IOLAB_APP_ID}.desktop @ONLY)
  configure_file(${PROJECT_SOURCE_DIR}/resources/linux/iolab.metainfo.xml.in ${_gen}/${IOLAB_APP_ID}.metainfo.xml
                 @ONLY)
  install(FILES ${_gen}/${IOLAB_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${_gen}/${IOLAB_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES resources/icons/svg/iolab.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
          RENAME ${IOLAB_APP_ID}.svg)
  foreach(_size 16 24 32 48 64 128 256)
    install(FILES resources/icons/png/iolab-${_size}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${_size}x${_size}/apps RENAME ${IOLAB_APP_ID}.png)
  endforeach()
endif()

set(CPACK_GENERATOR DEB TGZ)
set(CPACK_PACKAGE_NAME iolab)
set(CPACK_PACKAGE_FILE_NAME "iolab-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # iolab_<version>-<release>_<arch>.deb, installing under /usr
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${PROJECT_HOMEPAGE_URL})
# dpkg-shlibdeps turns the libraries the binaries link (Qt, fmt, spdlog, libstdc++) into Depends.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-wayland")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Disk benchmarks measure a device; IOLab measures strategies: fwrite against fwrite_unlocked and the
setvbuf size, the write(2) chunk size, O_DIRECT, O_SYNC and O_DSYNC against fsync and fdatasync, memory maps,
vmsplice into a pipe, N writer threads, read hints and many small files. Each figure shows apparent and
durable throughput, CPU per GiB and the spread over repetitions, with warnings where caches or noise make a
number meaningless. Results export as PDF, CSV and JSON.
.
This package holds the desktop app (iolab) and the command line (iolab-cli).")
include(CPack)
