// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>

namespace iolab::gui {

// Help > How to read the results: what each figure and warning means, in plain words, as HTML.
QString readingGuideHtml();

// Where the manual's presets page is online (Help > The presets shows it in the app).
QUrl presetsHelpUrl();

} // namespace iolab::gui
