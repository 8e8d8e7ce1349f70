// SPDX-License-Identifier: MIT
#include "app/gui/start_page.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/target_model.h"
#include "app/gui/theme.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/formats/presets.h"
#include "core/model/matrix_draft.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

#include <utility>

namespace iolab::gui {

namespace {

QColor mixed(const QColor& a, const QColor& b, double share)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * share + b.redF() * (1 - share)),
                            static_cast<float>(a.greenF() * share + b.greenF() * (1 - share)),
                            static_cast<float>(a.blueF() * share + b.blueF() * (1 - share)));
}

QFont scaled(const QFont& base, double factor, bool bold)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * factor);
    f.setBold(bold);
    return f;
}

QLabel* wrapped(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

const std::vector<StartPage::Question>& StartPage::questions()
{
    static const std::vector<Question> list{
        {QStringLiteral("health-check"), tr("Is this disk as fast as it should be?"),
         tr("Sequential and random reads and writes, the latency of a sync and small files, each set against "
            "what this kind of device typically reaches, with the likely causes when it falls short."),
         tr("Runs the health-check preset: reads and writes past the cache at one request in flight and at "
            "depth, fsync after each 4 KiB write, a thousand small files.")},
        {QStringLiteral("quick"), tr("Which way of writing is fastest here?"),
         tr("Every way a program can write a file in 64 KiB chunks (stdio, write, O_DIRECT, mmap), timed "
            "until the data is on the device, and two ways into a pipe."),
         tr("Runs the quick preset: one case per way of writing, 5 repetitions each.")},
        {QStringLiteral("data-safety"), tr("Is my data safe when the power goes or the program is killed?"),
         tr("Which ways of writing make each write durable and what that costs here, whether the device's "
            "flush is honest, and what each way loses when the program is killed."),
         tr("Runs the data-safety preset: 8 KiB writes with no sync, fsync, fdatasync, O_DSYNC and "
            "RWF_DSYNC for 2 s each (the sync lab), each then killed 3 times with kill -9.")},
    };
    return list;
}

RunOptions StartPage::optionsFor(const Matrix& preset, RunOptions options)
{
    options.repetitions = preset.repetitions.value_or(kDefaultRepetitions);
    options.crashProbe = preset.crashProbe.value_or(0);
    options.alternate = preset.alternate.value_or(false);
    return options;
}

StartPage::StartPage(const Registry& registry, TargetModel* targets, QWidget* parent)
    : QWidget(parent), m_registry(registry), m_targets(targets)
{
    setObjectName(QStringLiteral("startPage"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    // Scrolls rather than cut a card on a small screen; on 1366x768 and up everything shows at once.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* canvas = new QWidget(scroll);
    canvas->setObjectName(QStringLiteral("startCanvas"));
    scroll->setWidget(canvas);
    // The content at most 1180 pixels wide, centred, a little above the middle of a tall screen.
    auto* rows = new QVBoxLayout(canvas);
    rows->setContentsMargins(24, 18, 24, 18);
    auto* centring = new QHBoxLayout;
    auto* content = new QWidget(canvas);
    content->setMaximumWidth(1180);
    centring->addStretch(1);
    centring->addWidget(content, 100);
    centring->addStretch(1);
    rows->addStretch(1);
    rows->addLayout(centring);
    rows->addStretch(2);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);

    // The heading: the app's icon, the question the page asks, and what IOLab is.
    auto* heading = new QHBoxLayout;
    heading->setSpacing(14);
    auto* icon = new QLabel(content);
    icon->setPixmap(loadIcon(QStringLiteral("iolab")).pixmap(56, 56));
    icon->setAlignment(Qt::AlignTop);
    heading->addWidget(icon);
    auto* titles = new QVBoxLayout;
    titles->setSpacing(2);
    m_title = new QLabel(tr("What do you want to know?"), content);
    m_title->setObjectName(QStringLiteral("startTitle"));
    m_title->setFont(scaled(font(), 2.0, true));
    titles->addWidget(m_title);
    m_subtitle =
        wrapped(tr("Pick a question: IOLab runs the measurements that answer it on the target below "
                   "and writes only inside its own marked folder there, which it removes afterwards."),
                content);
    m_subtitle->setProperty("muted", true);
    titles->addWidget(m_subtitle);
    heading->addLayout(titles, 1);
    layout->addLayout(heading);

    // The target every question runs on: the window's target list, and any folder.
    auto* targetRow = new QHBoxLayout;
    auto* targetLabel = new QLabel(tr("Target:"), content);
    targetLabel->setFont(scaled(font(), 1.15, true));
    targetRow->addWidget(targetLabel);
    m_targetChooser = new QComboBox(content);
    m_targetChooser->setObjectName(QStringLiteral("startTarget"));
    m_targetChooser->setModel(m_targets);
    m_targetChooser->setModelColumn(TargetModel::NameColumn);
    m_targetChooser->setMinimumWidth(320);
    m_targetChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_targetChooser->setToolTip(tr("Where the questions run: a mounted filesystem, or a folder you chose."));
    targetLabel->setBuddy(m_targetChooser);
    targetRow->addWidget(m_targetChooser);
    m_chooseFolder = new QPushButton(loadIcon(QStringLiteral("folder")), tr("Choose folder..."), content);
    m_chooseFolder->setToolTip(tr("Run in any folder you can write to."));
    targetRow->addWidget(m_chooseFolder);
    targetRow->addStretch(1);
    layout->addLayout(targetRow);
    m_targetLine = wrapped(QString(), content);
    m_targetLine->setObjectName(QStringLiteral("startTargetLine"));
    layout->addWidget(m_targetLine);
    layout->addSpacing(4);

    // The questions, two to a row, and the comparison as the fourth card.
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(14);
    grid->setVerticalSpacing(14);
    int at = 0;
    for (const Question& q : questions()) {
        Card card;
        card.preset = q.preset;
        card.frame = makeCard(q.title, q.answers, q.runs);
        card.frame->setProperty("preset", q.preset);
        auto* bottom = new QHBoxLayout;
        card.estimate = new QLabel(card.frame);
        card.estimate->setObjectName(QStringLiteral("questionEstimate"));
        card.estimate->setFont(scaled(font(), 1.05, true));
        bottom->addWidget(card.estimate);
        card.blocked = wrapped(QString(), card.frame);
        card.blocked->setObjectName(QStringLiteral("questionBlocked"));
        card.blocked->hide();
        bottom->addWidget(card.blocked, 1);
        bottom->addStretch(0);
        card.run = new QPushButton(tr("Run"), card.frame);
        card.run->setObjectName(QStringLiteral("questionRun"));
        card.run->setToolTip(tr("Run the %1 preset on the target").arg(q.preset));
        card.run->setAccessibleName(tr("Run: %1").arg(q.title));
        bottom->addWidget(card.run, 0, Qt::AlignRight | Qt::AlignBottom);
        static_cast<QVBoxLayout*>(card.frame->layout())->addLayout(bottom);
        connect(card.run, &QPushButton::clicked, this,
                [this, preset = q.preset] { Q_EMIT runRequested(preset); });
        grid->addWidget(card.frame, at / 2, at % 2);
        m_cards.push_back(std::move(card));
        ++at;
    }
    QFrame* compare = makeCard(
        tr("Compare with another machine"),
        tr("Set a result from another machine (its app or iolab-cli run), or from this one before a change, "
           "beside a run made here: every case and every system fact side by side."),
        tr("Opens History, where every run is kept: select two runs there and Compare."));
    auto* compareButtons = new QHBoxLayout;
    compareButtons->addStretch(1);
    m_import = new QPushButton(tr("Add result to History..."), compare);
    m_import->setToolTip(tr("Copy a result JSON from elsewhere into History"));
    compareButtons->addWidget(m_import);
    m_openHistory = new QPushButton(tr("Open History"), compare);
    m_openHistory->setObjectName(QStringLiteral("questionRun"));
    compareButtons->addWidget(m_openHistory);
    static_cast<QVBoxLayout*>(compare->layout())->addLayout(compareButtons);
    grid->addWidget(compare, at / 2, at % 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    // Everything else: the strategy matrix, and results already made.
    auto* other = new QHBoxLayout;
    auto* design = wrapped(tr("Design your own: every strategy, chunk size and axis in the strategy matrix, "
                              "and the experiments from the articles IOLab grew from as presets."),
                           content);
    design->setProperty("muted", true);
    other->addWidget(design, 1);
    m_custom = new QPushButton(tr("Custom matrix..."), content);
    m_custom->setObjectName(QStringLiteral("customMatrix"));
    m_custom->setToolTip(tr("The strategy matrix, the plan and the results (Ctrl+M)"));
    other->addWidget(m_custom);
    m_openResult = new QPushButton(loadIcon(QStringLiteral("open")), tr("Open result..."), content);
    other->addWidget(m_openResult);
    layout->addSpacing(4);
    layout->addLayout(other);

    connect(m_targetChooser, &QComboBox::activated, this, [this](int row) {
        if (row >= 0 && row < m_targets->rowCount())
            Q_EMIT targetChosen(m_targets->entry(row).key());
    });
    // A rescan resets the list, and the chooser with it: it shows the selected target again.
    connect(m_targets, &QAbstractItemModel::modelReset, this, [this] { selectChooserRow(m_targetKey); });
    connect(m_chooseFolder, &QPushButton::clicked, this, &StartPage::chooseFolderRequested);
    connect(m_import, &QPushButton::clicked, this, &StartPage::importRequested);
    connect(m_openHistory, &QPushButton::clicked, this, &StartPage::historyRequested);
    connect(m_custom, &QPushButton::clicked, this, &StartPage::customMatrixRequested);
    connect(m_openResult, &QPushButton::clicked, this, &StartPage::openResultRequested);
    refresh(nullptr, false, RunOptions{}, {});
    followPalette(palette());
}

QFrame* StartPage::makeCard(const QString& title, const QString& answers, const QString& runs)
{
    auto* card = new QFrame(this);
    card->setObjectName(QStringLiteral("questionCard"));
    card->setAttribute(Qt::WA_Hover);
    card->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    card->setMinimumHeight(150);
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(18, 14, 18, 14);
    layout->setSpacing(6);
    auto* heading = wrapped(title, card);
    heading->setObjectName(QStringLiteral("questionTitle"));
    heading->setFont(scaled(font(), 1.4, true));
    layout->addWidget(heading);
    layout->addWidget(wrapped(answers, card));
    auto* what = wrapped(runs, card);
    what->setObjectName(QStringLiteral("questionRuns"));
    what->setFont(scaled(font(), 0.92, false));
    what->setProperty("muted", true);
    layout->addWidget(what);
    layout->addStretch(1);
    return card;
}

void StartPage::followPalette(const QPalette& palette)
{
    // Every colour spelled out from the palette given (View > light, dark or the system's): a widget under a
    // style sheet does not follow the application's palette by itself.
    setPalette(palette);
    const QColor text = palette.color(QPalette::WindowText);
    const QColor base = palette.color(QPalette::Base);
    const QColor window = palette.color(QPalette::Window);
    const QColor accent = palette.color(QPalette::Highlight);
    const QColor onAccent = palette.color(QPalette::HighlightedText);
    const bool dark = window.lightnessF() < 0.5;
    const QColor border = mixed(text, window, dark ? 0.22 : 0.16);
    const QColor hover = dark ? accent.lighter(125) : accent.darker(112);
    const QColor problem = dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x2a, 0x1e);
    const QStringList rules{
        QStringLiteral("QWidget#startCanvas { background-color: %1; }").arg(window.name()),
        QStringLiteral("QLabel { color: %1; }").arg(text.name()),
        QStringLiteral("QLabel[muted=\"true\"] { color: %1; }").arg(mixed(text, window, 0.68).name()),
        QStringLiteral(
            "QFrame#questionCard { background-color: %1; border: 1px solid %2; border-radius: 10px; }")
            .arg(base.name(), border.name()),
        QStringLiteral("QFrame#questionCard:hover { border-color: %1; }").arg(accent.name()),
        QStringLiteral("QFrame#questionCard QLabel[muted=\"true\"] { color: %1; }")
            .arg(mixed(text, base, 0.68).name()),
        QStringLiteral(
            "QPushButton#questionRun { background-color: %1; color: %2; border: none; border-radius: 6px; "
            "padding: 7px 22px; font-weight: 600; }")
            .arg(accent.name(), onAccent.name()),
        QStringLiteral("QPushButton#questionRun:hover { background-color: %1; }").arg(hover.name()),
        QStringLiteral("QPushButton#questionRun:disabled { background-color: %1; color: %2; }")
            .arg(border.name(), mixed(text, window, 0.55).name()),
        QStringLiteral("QLabel#questionBlocked { color: %1; }").arg(problem.name()),
        QStringLiteral("QLabel#startTargetLine[problem=\"true\"] { color: %1; font-weight: 600; }")
            .arg(problem.name())};
    setStyleSheet(rules.join(QLatin1Char('\n')));
}

void StartPage::selectChooserRow(const QString& key)
{
    const QSignalBlocker block(m_targetChooser);
    m_targetChooser->setCurrentIndex(key.isEmpty() ? -1 : m_targets->rowForKey(key));
}

void StartPage::refresh(const TargetEntry* target, bool pending, const RunOptions& options,
                        const std::vector<CaseResult>& known)
{
    m_targetKey = target != nullptr ? target->key() : QString();
    selectChooserRow(m_targetKey);
    QString line;
    bool problem = false;
    if (target == nullptr) {
        line =
            tr("Choose a target first: one of the filesystems listed above, or any folder you can write to "
               "(Choose folder...).");
        problem = true;
    } else if (pending) {
        line = tr("Looking at %1...").arg(target->displayName());
    } else if (!target->problem.isEmpty()) {
        line = tr("%1 cannot be a target: %2").arg(target->displayName(), target->problem);
        problem = true;
    } else if (target->kind != TargetEntry::Kind::Folder) {
        line = tr("A pipe or the null device keeps nothing: choose a folder on a disk for these questions.");
        problem = true;
    } else {
        const TargetInfo& t = target->info;
        QString device = qs(t.device.empty() ? t.mountSource : t.device);
        if (!t.deviceModel.empty())
            device += QStringLiteral(" (%1)").arg(qs(t.deviceModel));
        line = tr("%1 on %2 · %3 free of %4")
                   .arg(qs(t.fsType), device, qs(formatBytes(t.freeBytes)), qs(formatBytes(t.totalBytes)));
    }
    m_targetLine->setText(line);
    if (std::exchange(m_targetProblem, problem) != problem) {
        m_targetLine->setProperty("problem", problem);
        m_targetLine->style()->unpolish(m_targetLine);
        m_targetLine->style()->polish(m_targetLine);
    }

    for (Card& card : m_cards) {
        card.preview.reset();
        const auto preset = findPreset(card.preset.toStdString());
        if (target != nullptr && !pending && preset) {
            try {
                // The one estimate the Plan shows too: previewRun, on the preset as the editor would load it.
                card.preview = previewRun(m_registry, MatrixDraft::fromMatrix(*preset, m_registry), *target,
                                          optionsFor(*preset, options), known);
            } catch (const InputError& e) {
                RunPreview failed;
                failed.blocked = qs(e.what());
                card.preview = failed;
            }
        }
        QString blocked;
        if (target == nullptr)
            blocked = tr("Choose a target first.");
        else if (pending)
            blocked = tr("Looking at the target...");
        else if (target->kind != TargetEntry::Kind::Folder)
            blocked = tr("Choose a folder on a disk first.");
        else if (!card.preview)
            blocked = tr("This preset is not available here.");
        else
            blocked = card.preview->blocked;
        card.estimate->setVisible(blocked.isEmpty());
        card.estimate->setText(blocked.isEmpty() ? estimateText(card.preset) : QString());
        card.estimate->setToolTip(card.preview ? card.preview->summary() : QString());
        card.blocked->setText(blocked);
        card.blocked->setVisible(!blocked.isEmpty());
        card.run->setEnabled(blocked.isEmpty());
    }
}

const std::optional<RunPreview>& StartPage::preview(const QString& preset) const
{
    static const std::optional<RunPreview> none;
    for (const Card& card : m_cards) {
        if (card.preset == preset)
            return card.preview;
    }
    return none;
}

QString StartPage::estimateText(const QString& preset) const
{
    const auto& p = preview(preset);
    if (!p || !p->blocked.isEmpty())
        return {};
    const QString duration = qs(formatDuration(p->estimate.seconds));
    const std::size_t cases = p->cases().size();
    return cases == 1 ? tr("About %1 · 1 case").arg(duration)
                      : tr("About %1 · %2 cases").arg(duration).arg(cases);
}

QPushButton* StartPage::runButton(const QString& preset) const
{
    for (const Card& card : m_cards) {
        if (card.preset == preset)
            return card.run;
    }
    return nullptr;
}

} // namespace iolab::gui
