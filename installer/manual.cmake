# SPDX-License-Identifier: MIT
# The manual: resources/manual/*.md and the screenshots its pages show. app/gui compiles both into the app
# (Help > IOLab manual); packaging.cmake installs them under share/doc/iolab/. tests/gui checks that every
# image a page shows is among these.
file(GLOB IOLAB_MANUAL_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/manual/*.md)
set(IOLAB_MANUAL_SCREENSHOTS
    cdm-grid-1366.png
    export-dialog-1366.png
    health-verdict-1366.png
    history-compare-1366.png
    idle.png
    latency-1366.png
    results-summary-1366.png
    running.png
    start-1366.png
    windows-wine.png)
list(TRANSFORM IOLAB_MANUAL_SCREENSHOTS PREPEND ${PROJECT_SOURCE_DIR}/resources/screenshots/)
