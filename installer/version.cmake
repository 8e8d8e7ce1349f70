# SPDX-License-Identifier: MIT
# One version: project(VERSION) in the top CMakeLists.txt. This file derives what the packages need from it
# and from resources/CHANGELOG.md (the release date, the AppStream release list), and embeds it in the
# Windows executables' version resources.

set(IOLAB_APP_ID io.github.iolab.iolab)
# Where the AppStream metainfo's screenshots are fetched from: the repository's copy at this version's tag.
set(IOLAB_SCREENSHOT_URL "${PROJECT_HOMEPAGE_URL}/raw/v${PROJECT_VERSION}/resources/screenshots"
    CACHE STRING "Base URL of the screenshots named in the AppStream metainfo")

# "## [X.Y.Z] - YYYY-MM-DD" headings, newest first.
set(IOLAB_CHANGELOG ${PROJECT_SOURCE_DIR}/resources/CHANGELOG.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${IOLAB_CHANGELOG})
file(STRINGS ${IOLAB_CHANGELOG} _iolab_release_headings REGEX "^## \\[[0-9]+\\.[0-9]+\\.[0-9]+\\] - [0-9]+-[0-9]+-[0-9]+$")
set(IOLAB_RELEASE_DATE "")
set(IOLAB_METAINFO_RELEASES "")
foreach(_heading IN LISTS _iolab_release_headings)
  string(REGEX REPLACE "^## \\[([0-9.]+)\\] - ([0-9-]+)$" "\\1;\\2" _release "${_heading}")
  list(GET _release 0 _version)
  list(GET _release 1 _date)
  string(APPEND IOLAB_METAINFO_RELEASES "    <release version=\"${_version}\" date=\"${_date}\"/>\n")
  if(_version VERSION_EQUAL PROJECT_VERSION)
    set(IOLAB_RELEASE_DATE ${_date})
  endif()
endforeach()
string(REGEX REPLACE "\n$" "" IOLAB_METAINFO_RELEASES "${IOLAB_METAINFO_RELEASES}")
if(IOLAB_RELEASE_DATE STREQUAL "")
  # The build goes on (the changelog_matches_version test fails); the man pages say so meanwhile.
  message(WARNING "resources/CHANGELOG.md has no '## [${PROJECT_VERSION}] - YYYY-MM-DD' heading for this version")
  set(IOLAB_RELEASE_DATE "unreleased")
endif()

# Windows: the version resource (Explorer's Properties > Details, installers, crash reports) and the icon.
function(iolab_add_windows_resources target description)
  if(NOT WIN32)
    return()
  endif()
  set(IOLAB_RC_NAME ${target})
  set(IOLAB_RC_DESCRIPTION "${description}")
  set(IOLAB_RC_ICON ${PROJECT_SOURCE_DIR}/resources/icons/iolab.ico)
  set(_rc ${PROJECT_BINARY_DIR}/generated/windows/${target}.rc)
  configure_file(${PROJECT_SOURCE_DIR}/resources/windows/version.rc.in ${_rc} @ONLY)
  target_sources(${target} PRIVATE ${_rc})
endfunction()
