// SPDX-License-Identifier: MIT
#include "app/gui/matrix_editor.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/check_delegate.h"
#include "app/gui/matrix_grid_model.h"
#include "app/gui/preset_files.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "core/model/axes.h"
#include "platform/platform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace iolab::gui {

namespace {

constexpr const char* kUserPrefix = "user: ";

QStringList tokens(const QString& text)
{
    QStringList out;
    for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString t = part.trimmed();
        if (!t.isEmpty())
            out << t;
    }
    return out;
}

// The declaration behind a field's key.
const AxisSpec& axisOf(const std::string& key)
{
    return *findAxisByMatrixKey(key);
}

QString readWholeFile(const QString& path, QString* error)
{
    if (QFileInfo(path).isDir()) {
        *error = MatrixEditor::tr("%1 is a folder; give a matrix JSON file").arg(path);
        return {};
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = MatrixEditor::tr("cannot read %1: %2").arg(path, file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

void setError(QString* error, const QString& text)
{
    if (error != nullptr)
        *error = text;
}

} // namespace

MatrixEditor::MatrixEditor(const Registry& registry, const QString& presetFolder, QWidget* parent)
    : QWidget(parent), m_registry(registry), m_presetFolder(presetFolder)
{
    m_grid = new MatrixGridModel(registry, this);
    m_files = new PresetFiles(registry, presetFolder, this);
    buildUi();
    connect(m_grid, &MatrixGridModel::draftChanged, this, &MatrixEditor::onDraftChanged);
    connect(m_files, &PresetFiles::listed, this, [this] { reloadPresetList(m_currentPreset); });
    connect(m_files, &PresetFiles::saved, this, &MatrixEditor::presetSaved);
    connect(m_files, &PresetFiles::removed, this, [this](const QString& name, const QString& error) {
        if (error.isEmpty() && m_currentPreset == QString::fromLatin1(kUserPrefix) + name)
            m_currentPreset.clear();
        reloadPresetList(m_currentPreset);
    });
    connect(m_files, &PresetFiles::imported, this,
            [this](const QString&, const MatrixDraft& draft, const QString& error) {
                if (error.isEmpty())
                    setDraft(draft);
            });
    reloadPresetList({});
    loadPreset(QStringLiteral("quick"));
    m_files->list(); // the user's presets join the list when the folder is read
}

void MatrixEditor::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    buildPresetRow(layout);
    buildGrid(layout);
    buildAxisForm(layout);
    buildRunOptions(layout);
    connectPresetActions();
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MatrixEditor::refreshAxisFields);
}

// The preset picker, the name to save under, save, delete and the import/export menu; then the description.
void MatrixEditor::buildPresetRow(QVBoxLayout* layout)
{
    // Two rows, so that a 1366-pixel screen's side panel holds every button whole: the picker and the file
    // menu, then the name to save under with its buttons.
    auto* presetRow = new QHBoxLayout;
    auto* presetLabel = new QLabel(tr("Preset:"), this);
    presetRow->addWidget(presetLabel);
    m_presets = new QComboBox(this);
    m_presets->setObjectName(QStringLiteral("presetChooser"));
    m_presets->setToolTip(
        tr("Built-in experiments from the articles IOLab grew from, and your own presets."));
    m_presets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_presets->setMinimumContentsLength(14);
    m_presets->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    presetLabel->setBuddy(m_presets);
    presetRow->addWidget(m_presets, 1);
    auto* fileButton = new QPushButton(tr("File"), this);
    fileButton->setToolTip(tr("Import or export a matrix JSON file (iolab-cli --matrix reads them)"));
    auto* fileMenu = new QMenu(fileButton);
    fileMenu->addAction(tr("Import matrix JSON..."), this, &MatrixEditor::chooseImport);
    fileMenu->addAction(tr("Export matrix JSON..."), this, &MatrixEditor::chooseExport);
    fileButton->setMenu(fileMenu);
    presetRow->addWidget(fileButton);
    layout->addLayout(presetRow);

    auto* saveRow = new QHBoxLayout;
    m_presetName = new QLineEdit(this);
    m_presetName->setPlaceholderText(tr("name for your preset"));
    m_presetName->setClearButtonEnabled(true);
    m_presetName->setMinimumWidth(80);
    saveRow->addWidget(m_presetName, 1);
    m_savePreset = new QPushButton(tr("Save preset"), this);
    m_savePreset->setObjectName(QStringLiteral("savePreset"));
    m_savePreset->setToolTip(
        tr("Save the matrix as your own preset (matrix JSON, readable by iolab-cli --matrix)."));
    saveRow->addWidget(m_savePreset);
    m_deletePreset = new QPushButton(tr("Delete"), this);
    m_deletePreset->setToolTip(tr("Delete the selected user preset."));
    saveRow->addWidget(m_deletePreset);
    layout->addLayout(saveRow);

    m_description = new QLabel(this);
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_description);
}

// The strategy x chunk grid, the field that adds a chunk column, and the line naming the rows being edited.
void MatrixEditor::buildGrid(QVBoxLayout* layout)
{
    m_view = new QTableView(this);
    m_view->setModel(m_grid);
    m_view->setItemDelegate(new CheckDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    styleTable(m_view);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setToolTip(
        tr("Tick the chunk sizes each strategy writes in. Select rows to edit their other axes."));
    layout->addWidget(m_view, 1);

    auto* chunkRow = new QHBoxLayout;
    m_newChunk = new QLineEdit(this);
    m_newChunk->setPlaceholderText(tr("another chunk size, e.g. 128K"));
    // Wide enough for its hint, whole: "another chunk siz..." told nothing.
    m_newChunk->setMinimumWidth(m_newChunk->fontMetrics().horizontalAdvance(m_newChunk->placeholderText()) +
                                24);
    m_newChunk->setMaximumWidth(m_newChunk->minimumWidth() + 60);
    auto* addChunk = new QPushButton(tr("Add column"), this);
    addChunk->setToolTip(tr("Add a chunk-size column to the grid."));
    chunkRow->addWidget(m_newChunk, 1);
    chunkRow->addWidget(addChunk);
    chunkRow->addStretch(0);
    layout->addLayout(chunkRow);
    connect(addChunk, &QPushButton::clicked, this, &MatrixEditor::addChunkColumnFromText);
    connect(m_newChunk, &QLineEdit::returnPressed, this, &MatrixEditor::addChunkColumnFromText);

    m_editing = new QLabel(this);
    m_editing->setWordWrap(true);
    layout->addWidget(m_editing);
}

// One axis row of the form: the text field, its menu of common values, and how an edit is applied.
QLineEdit* MatrixEditor::addAxisRow(QFormLayout* form, const std::string& key, const AxisEditorField& field)
{
    auto* edit = new QLineEdit(this);
    edit->setToolTip(qs(field.tip));
    auto* pick = new QToolButton(this);
    pick->setText(QStringLiteral("+"));
    pick->setToolTip(tr("Common values: tick to add, untick to remove."));
    pick->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(pick);
    for (const auto& common : field.common) {
        const QString value = qs(common);
        QAction* action = menu->addAction(value);
        action->setCheckable(true);
        connect(action, &QAction::triggered, this, [this, key, edit, value](bool on) {
            QStringList now = tokens(edit->text());
            now.removeAll(value);
            if (on)
                now << value;
            QString why;
            if (!setAxisText(key, now.join(QStringLiteral(", ")), &why))
                m_axisError->setText(why);
        });
    }
    connect(menu, &QMenu::aboutToShow, this, [menu, edit] {
        const QStringList now = tokens(edit->text());
        for (QAction* action : menu->actions())
            action->setChecked(now.contains(action->text(), Qt::CaseInsensitive));
    });
    pick->setMenu(menu);
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(pick);
    form->addRow(qs(field.label), row);
    connect(edit, &QLineEdit::textEdited, this, [this, key] { checkField(key); });
    connect(edit, &QLineEdit::editingFinished, this, [this, key, edit] {
        if (m_loading || !edit->isModified())
            return;
        edit->setModified(false);
        QString why;
        if (setAxisText(key, edit->text(), &why)) {
            if (m_fieldProblems.erase(key) > 0) {
                showFieldState(key);
                Q_EMIT changed();
            }
            return;
        }
        m_axisError->setText(why);
        m_fieldProblems[key] = why;
        showFieldState(key);
        Q_EMIT changed();
    });
    return edit;
}

// The selected rows' other axes, a row for each declared axis with an editor field, and the line that shows
// why a value was not taken.
void MatrixEditor::buildAxisForm(QVBoxLayout* layout)
{
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    for (const auto& axis : caseAxes()) {
        if (axis.editedPerStrategy() && axis.editorField)
            m_fields.emplace_back(axis.matrixKey, addAxisRow(form, axis.matrixKey, *axis.editorField));
    }
    layout->addLayout(form);
    m_axisError = new QLabel(this);
    m_axisError->setWordWrap(true);
    m_axisError->setStyleSheet(QStringLiteral("color: #c0392b;"));
    layout->addWidget(m_axisError);
}

// Repetitions, warm-ups, verification and cache dropping.
void MatrixEditor::buildRunOptions(QVBoxLayout* layout)
{
    // Three rows: the counts, the switches, then the kill -9 probe, so that the side panel of a 1366-pixel
    // screen holds them (the probe's two fields beside the counts made the editor 529 pixels wide in a
    // 444-pixel pane, and cut its preset description).
    auto* options = new QGridLayout;
    auto* counts = new QHBoxLayout;
    auto* switches = new QHBoxLayout;
    auto* probe = new QHBoxLayout;
    counts->addWidget(new QLabel(tr("Repetitions:"), this));
    m_repetitions = new QSpinBox(this);
    m_repetitions->setRange(1, 100);
    m_repetitions->setValue(static_cast<int>(kDefaultRepetitions));
    m_repetitions->setToolTip(tr("Measured repetitions per case; the table shows their median and 95% CI. "
                                 "A preset may ask for more (quick: %1, so that the lowest and the highest "
                                 "can be left out).")
                                  .arg(kTrimmedMeanMinCount));
    counts->addWidget(m_repetitions);
    counts->addWidget(new QLabel(tr("Warm-ups:"), this));
    m_warmups = new QSpinBox(this);
    m_warmups->setRange(0, 10);
    m_warmups->setValue(1);
    m_warmups->setToolTip(tr("Unmeasured repetitions first: they fault in memory and settle caches."));
    counts->addWidget(m_warmups);
    m_verify = new QCheckBox(tr("Verify files"), this);
    m_verify->setToolTip(tr("Writers: read every file back after its repetition and compare it with the "
                            "pattern. Readers: compare every byte they read with what was written."));
    switches->addWidget(m_verify);
    m_dropCaches = new QCheckBox(tr("Drop caches"), this);
    if (canDropCaches())
        m_dropCaches->setToolTip(tr("Cold reads: empty the whole page cache (drop_caches) before each "
                                    "repetition instead of evicting only the data set's files."));
    else {
        m_dropCaches->setEnabled(false);
        m_dropCaches->setToolTip(tr("Needs root. Without it, cold reads evict each file of the data set "
                                    "(fdatasync + posix_fadvise DONTNEED) before each repetition."));
    }
    switches->addWidget(m_dropCaches);
    m_alternate = new QCheckBox(tr("Take turns"), this);
    m_alternate->setObjectName(QStringLiteral("alternateCases"));
    m_alternate->setToolTip(
        tr("Run the cases in rounds: one repetition of every case, then the next round, the order reversed "
           "every other round. A device whose speed drifts over the minutes then weighs on every case alike, "
           "which matters when the answer is a ratio between cases. Off: each case runs all its repetitions "
           "before the next starts. Find a faster way always takes turns."));
    switches->addWidget(m_alternate);
    probe->addWidget(new QLabel(tr("kill -9 probe:"), this));
    m_crashProbe = new QSpinBox(this);
    m_crashProbe->setRange(0, static_cast<int>(kMaxCrashProbeKills));
    m_crashProbe->setSpecialValueText(tr("off"));
    m_crashProbe->setSuffix(tr(" kills"));
    m_crashProbe->setToolTip(
        tr("Runs each file-write case this many more times in a child process that is killed (SIGKILL; "
           "Windows: TerminateProcess), then reads the files back: does it lose bytes its API had "
           "acknowledged? The answer also says what the strategy's design can lose (a stdio buffer), "
           "whatever the kills saw. A process crash is not a power cut: the page cache survives a kill -9. "
           "Read, pipe and null cases are refused while it is on."));
    probe->addWidget(m_crashProbe);
    m_crashProbeAt = new QComboBox(this);
    m_crashProbeAt->addItem(tr("after a call"), static_cast<int>(CrashProbeAt::Ack));
    m_crashProbeAt->addItem(tr("at a moment"), static_cast<int>(CrashProbeAt::Time));
    m_crashProbeAt->setToolTip(tr(
        "Where each kill lands. After a call (the default): each thread stops itself right after the call "
        "whose acknowledgement crosses a byte count drawn for the kill, and is killed there, so every kill "
        "tests what the API promised when it returned. At a moment: at a random time, wherever the child "
        "is; that is mostly inside its slowest call (a stdio buffer's write), which hides what a crash "
        "between two calls loses."));
    m_crashProbeAt->setEnabled(false);
    probe->addWidget(m_crashProbeAt);
    probe->addSpacing(12);
    probe->addWidget(new QLabel(tr("Latency target:"), this));
    m_latencyTarget = new QLineEdit(this);
    m_latencyTarget->setObjectName(QStringLiteral("latencyTarget"));
    m_latencyTarget->setPlaceholderText(tr("none, e.g. 1ms@p99"));
    m_latencyTarget->setMaximumWidth(130);
    m_latencyTarget->setToolTip(tr(
        "The most load whose call latency stays under a target, as fio's latency_target: a time and a "
        "percentile (1ms@p99, 500us@p99.9). The Summary answers it for every queued strategy run at several "
        "queue depths (or threads): the most IOPS that keep the percentile under the target, and what the "
        "next depth costs; the Queue depth chart marks it."));
    probe->addWidget(m_latencyTarget);
    counts->addStretch(1);
    switches->addStretch(1);
    probe->addStretch(1);
    options->addLayout(counts, 0, 0);
    options->addLayout(switches, 1, 0);
    options->addLayout(probe, 2, 0);
    layout->addLayout(options);
    connect(m_repetitions, &QSpinBox::valueChanged, this, &MatrixEditor::changed);
    connect(m_warmups, &QSpinBox::valueChanged, this, &MatrixEditor::changed);
    connect(m_verify, &QCheckBox::toggled, this, &MatrixEditor::changed);
    connect(m_dropCaches, &QCheckBox::toggled, this, &MatrixEditor::changed);
    connect(m_alternate, &QCheckBox::toggled, this, &MatrixEditor::changed);
    connect(m_crashProbe, &QSpinBox::valueChanged, this, &MatrixEditor::changed);
    connect(m_crashProbe, &QSpinBox::valueChanged, m_crashProbeAt,
            [this](int kills) { m_crashProbeAt->setEnabled(kills > 0); });
    connect(m_crashProbeAt, &QComboBox::currentIndexChanged, this, &MatrixEditor::changed);
    connect(m_latencyTarget, &QLineEdit::editingFinished, this, [this] {
        const QString text = m_latencyTarget->text().trimmed();
        try {
            if (!text.isEmpty())
                (void)parseLatencyTarget(text.toStdString());
            m_axisError->clear();
        } catch (const InputError& e) {
            m_axisError->setText(tr("Latency target: %1").arg(QString::fromStdString(e.what())));
        }
        Q_EMIT changed();
    });
}

void MatrixEditor::connectPresetActions()
{
    connect(m_presets, &QComboBox::activated, this, &MatrixEditor::onPresetActivated);
    connect(m_savePreset, &QPushButton::clicked, this, [this] {
        QString why;
        if (!saveUserPreset(m_presetName->text().trimmed(), &why))
            m_axisError->setText(why);
    });
    connect(m_deletePreset, &QPushButton::clicked, this, [this] {
        QString why;
        if (!deleteUserPreset(m_presets->currentText(), &why))
            m_axisError->setText(why);
    });
}

MatrixDraft MatrixEditor::draft() const
{
    // The repetitions field of the run options belongs to the matrix too: a preset that asks for more than
    // the default shows them there, and a matrix saved from here keeps a number other than the default.
    MatrixDraft d = m_grid->draft();
    const auto repetitions = static_cast<std::uint32_t>(m_repetitions->value());
    d.repetitions = repetitions == kDefaultRepetitions ? std::nullopt : std::optional(repetitions);
    const auto kills = static_cast<std::uint32_t>(m_crashProbe->value());
    d.crashProbe = kills == 0 ? std::nullopt : std::optional(kills);
    const CrashProbeAt at = crashProbeAt();
    d.crashProbeAt = kills == 0 || at == CrashProbeAt::Ack ? std::nullopt : std::optional(at);
    d.alternate = m_alternate->isChecked() ? std::optional(true) : std::nullopt;
    // A target that does not read (its message is shown) is left out rather than guessed.
    d.latencyTarget.reset();
    if (const QString text = m_latencyTarget->text().trimmed(); !text.isEmpty()) {
        try {
            d.latencyTarget = parseLatencyTarget(text.toStdString());
        } catch (const InputError&) {
        }
    }
    return d;
}

void MatrixEditor::setDraft(const MatrixDraft& draft)
{
    m_loading = true;
    m_grid->setDraft(draft);
    m_repetitions->setValue(static_cast<int>(draft.repetitions.value_or(kDefaultRepetitions)));
    m_crashProbe->setValue(static_cast<int>(draft.crashProbe.value_or(0)));
    setCrashProbeAt(draft.crashProbeAt.value_or(CrashProbeAt::Ack));
    m_alternate->setChecked(draft.alternate.value_or(false));
    m_latencyTarget->setText(draft.latencyTarget ? QString::fromStdString(toString(*draft.latencyTarget))
                                                 : QString());
    m_loading = false;
    m_currentPreset.clear();
    reloadPresetList({});
    onDraftChanged();
}

RunOptions MatrixEditor::runOptions() const
{
    RunOptions options;
    options.repetitions = static_cast<std::uint32_t>(m_repetitions->value());
    options.warmups = static_cast<std::uint32_t>(m_warmups->value());
    options.verifyFiles = m_verify->isChecked();
    options.dropCaches = m_dropCaches->isEnabled() && m_dropCaches->isChecked();
    options.crashProbe = static_cast<std::uint32_t>(m_crashProbe->value());
    options.crashProbeAt = crashProbeAt();
    options.alternate = m_alternate->isChecked();
    return options;
}

void MatrixEditor::setRunOptions(const RunOptions& options)
{
    m_repetitions->setValue(static_cast<int>(options.repetitions));
    m_warmups->setValue(static_cast<int>(options.warmups));
    m_verify->setChecked(options.verifyFiles);
    m_dropCaches->setChecked(options.dropCaches && m_dropCaches->isEnabled());
    m_crashProbe->setValue(static_cast<int>(options.crashProbe));
    setCrashProbeAt(options.crashProbeAt);
    m_alternate->setChecked(options.alternate);
}

CrashProbeAt MatrixEditor::crashProbeAt() const
{
    return static_cast<CrashProbeAt>(m_crashProbeAt->currentData().toInt());
}

void MatrixEditor::setCrashProbeAt(CrashProbeAt at)
{
    m_crashProbeAt->setCurrentIndex(m_crashProbeAt->findData(static_cast<int>(at)));
}

QString MatrixEditor::userPresetPath(const QString& name) const
{
    return m_files->pathOf(name);
}

QStringList MatrixEditor::presetNames() const
{
    QStringList names;
    for (const auto& p : builtinPresets())
        names << qs(p.name);
    for (const auto& name : m_files->userPresets())
        names << QString::fromLatin1(kUserPrefix) + name;
    return names;
}

bool MatrixEditor::isUserPreset(const QString& name) const
{
    return name.startsWith(QString::fromLatin1(kUserPrefix));
}

void MatrixEditor::reloadPresetList(const QString& select)
{
    const QSignalBlocker block(m_presets);
    m_presets->clear();
    for (const auto& name : presetNames())
        m_presets->addItem(name);
    m_presets->addItem(tr("(custom)"));
    const int at = m_presets->findText(select);
    m_presets->setCurrentIndex(at >= 0 ? at : m_presets->count() - 1);
    updatePresetRow();
}

void MatrixEditor::updatePresetRow()
{
    // While a preset is saved or deleted the list and the buttons wait for it: what they show stays what is
    // in the folder.
    const bool busy = m_files->isBusy();
    m_presets->setEnabled(!busy);
    m_presetName->setEnabled(!busy);
    m_savePreset->setEnabled(!busy);
    m_deletePreset->setEnabled(!busy && isUserPreset(m_presets->currentText()));
}

bool MatrixEditor::isBusyWithPresets() const
{
    return m_files->isBusy();
}

bool MatrixEditor::loadPreset(const QString& name, QString* error)
{
    try {
        Matrix matrix;
        if (isUserPreset(name)) {
            QString why;
            const QString path = userPresetPath(name.mid(static_cast<int>(std::strlen(kUserPrefix))));
            const QString text = readWholeFile(path, &why);
            if (!why.isEmpty()) {
                setError(error, why);
                return false;
            }
            matrix = parseMatrixJson(text.toStdString(), path.toStdString());
        } else if (auto preset = findPreset(name.toStdString())) {
            matrix = *preset;
        } else {
            setError(error, tr("there is no preset named '%1'").arg(name));
            return false;
        }
        setDraft(MatrixDraft::fromMatrix(matrix, m_registry));
    } catch (const InputError& e) {
        setError(error, qs(e.what()));
        return false;
    }
    m_currentPreset = name;
    m_presetDraft = draft();
    reloadPresetList(name);
    onDraftChanged();
    return true;
}

QString MatrixEditor::currentPreset() const
{
    return m_currentPreset;
}

bool MatrixEditor::saveUserPreset(const QString& name, QString* error)
{
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9 _.-]{1,64}$"));
    if (!allowed.match(name).hasMatch() || name.startsWith(QLatin1Char('.'))) {
        setError(error, tr("A preset name is 1 to 64 letters, digits, spaces, '.', '_' or '-'."));
        return false;
    }
    if (const QString problem = qs(draft().problem()); !problem.isEmpty()) {
        setError(error, tr("Not saved: %1.").arg(problem));
        return false;
    }
    MatrixDraft d = draft();
    d.name = name.toStdString();
    m_savingDraft = d;
    m_files->save(name, d.toMatrix());
    updatePresetRow();
    return true;
}

void MatrixEditor::presetSaved(const QString& name, const QString& error)
{
    if (!error.isEmpty()) {
        updatePresetRow(); // the draft stays as it was, unsaved
        return;
    }
    // The saved matrix becomes the current preset unless the grid was edited while it was being saved.
    MatrixDraft now = draft();
    now.name = m_savingDraft.name;
    if (now == m_savingDraft) {
        const QString listed = QString::fromLatin1(kUserPrefix) + name;
        m_loading = true;
        m_grid->setDraft(m_savingDraft);
        m_loading = false;
        m_currentPreset = listed;
        m_presetDraft = m_savingDraft;
    }
    reloadPresetList(m_currentPreset);
}

bool MatrixEditor::deleteUserPreset(const QString& name, QString* error)
{
    if (!isUserPreset(name)) {
        setError(error, tr("Only your own presets can be deleted."));
        return false;
    }
    m_files->remove(name.mid(static_cast<int>(std::strlen(kUserPrefix))));
    updatePresetRow();
    return true;
}

bool MatrixEditor::loadMatrixFile(const QString& path, QString* error)
{
    QString why;
    const QString text = readWholeFile(path, &why);
    if (!why.isEmpty()) {
        setError(error, why);
        return false;
    }
    try {
        const Matrix matrix = parseMatrixJson(text.toStdString(), path.toStdString());
        setDraft(MatrixDraft::fromMatrix(matrix, m_registry));
    } catch (const InputError& e) {
        setError(error, qs(e.what()));
        return false;
    }
    return true;
}

void MatrixEditor::importMatrixFile(const QString& path)
{
    m_files->import(path);
}

bool MatrixEditor::exportMatrixFile(const QString& path, QString* error)
{
    if (const QString problem = qs(draft().problem()); !problem.isEmpty()) {
        setError(error, tr("Not exported: %1.").arg(problem));
        return false;
    }
    m_files->exportTo(path, draft().toMatrix());
    return true;
}

void MatrixEditor::chooseImport()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import matrix"), {}, tr("Matrix JSON (*.json)"));
    if (!path.isEmpty())
        importMatrixFile(path);
}

void MatrixEditor::chooseExport()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export matrix"), QStringLiteral("matrix.json"), tr("Matrix JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString why;
    if (!exportMatrixFile(path, &why))
        m_axisError->setText(why);
}

void MatrixEditor::addChunkColumnFromText()
{
    try {
        const auto bytes = parseBytes(m_newChunk->text().trimmed().toStdString(), "chunk size");
        if (bytes == 0 || bytes > kMaxChunkBytes)
            throw InputError("a chunk size is 1 byte to 1 GiB");
        m_grid->addChunkColumn(bytes);
        m_newChunk->clear();
        m_axisError->clear();
    } catch (const InputError& e) {
        m_axisError->setText(qs(e.what()));
    }
}

void MatrixEditor::onPresetActivated(int index)
{
    const QString name = m_presets->itemText(index);
    if (index == m_presets->count() - 1)
        return; // "(custom)" is where an edited or imported matrix sits, not something to load
    QString why;
    if (!loadPreset(name, &why))
        m_axisError->setText(why);
}

void MatrixEditor::onDraftChanged()
{
    if (m_loading)
        return;
    const MatrixDraft d = draft();
    if (!m_currentPreset.isEmpty()) {
        // Still the preset as loaded? Otherwise the combo says "(custom)". Other repetitions or kill -9
        // probe kills are run options, not another matrix.
        MatrixDraft asLoaded = d;
        asLoaded.repetitions = m_presetDraft.repetitions;
        asLoaded.crashProbe = m_presetDraft.crashProbe;
        asLoaded.crashProbeAt = m_presetDraft.crashProbeAt;
        asLoaded.alternate = m_presetDraft.alternate;
        const bool same = asLoaded == m_presetDraft;
        if (!same) {
            m_currentPreset.clear();
            reloadPresetList({});
        }
    }
    QString text = qs(d.description);
    if (!d.note.empty())
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + qs(d.note);
    m_description->setText(text);
    m_description->setVisible(!text.isEmpty());
    m_axisError->clear();
    refreshAxisFields();
    Q_EMIT changed();
}

void MatrixEditor::selectStrategies(const QStringList& strategies)
{
    auto* selection = m_view->selectionModel();
    selection->clearSelection();
    for (int row = 0; row < m_grid->rowCount(); ++row) {
        if (strategies.contains(qs(m_grid->draft().strategies[static_cast<std::size_t>(row)].strategy)))
            selection->select(m_grid->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

QStringList MatrixEditor::editedStrategies() const
{
    QStringList out;
    const auto& rows = m_grid->draft().strategies;
    for (const auto& index : m_view->selectionModel()->selectedRows())
        out << qs(rows[static_cast<std::size_t>(index.row())].strategy);
    if (out.isEmpty()) {
        for (const auto& row : rows) {
            if (row.enabled())
                out << qs(row.strategy);
        }
    }
    // Keep grid order, whatever order the selection came in.
    QStringList ordered;
    for (const auto& row : rows) {
        if (out.contains(qs(row.strategy)))
            ordered << qs(row.strategy);
    }
    return ordered;
}

std::string MatrixEditor::matrixKey(Axis axis)
{
    switch (axis) {
    case Axis::Sizes:
        return "sizes";
    case Axis::Buffers:
        return "buffers";
    case Axis::Syncs:
        return "syncs";
    case Axis::Threads:
        return "threads";
    case Axis::Hints:
        return "hints";
    case Axis::Caches:
        return "caches";
    case Axis::FileSets:
        return "files";
    }
    return "sizes";
}

QLineEdit* MatrixEditor::axisField(Axis axis) const
{
    return axisField(matrixKey(axis));
}

QLineEdit* MatrixEditor::axisField(const std::string& key) const
{
    for (const auto& [fieldKey, field] : m_fields) {
        if (fieldKey == key)
            return field;
    }
    return nullptr;
}

QString MatrixEditor::axisText(Axis axis) const
{
    return axisText(matrixKey(axis));
}

QString MatrixEditor::axisText(const std::string& key) const
{
    const MatrixDraft& d = m_grid->draft();
    const AxisSpec& axis = axisOf(key);
    std::optional<QString> common;
    for (const auto& id : editedStrategies()) {
        const StrategyDraft& row = *d.find(id.toStdString());
        if (!row.takes(key))
            continue;
        const QString text = joined(axis.groupValues(row), [](const std::string& v) { return qs(v); });
        if (common && *common != text)
            return {};
        common = text;
    }
    return common.value_or(QString());
}

bool MatrixEditor::setAxisText(Axis axis, const QString& text, QString* error)
{
    return setAxisText(matrixKey(axis), text, error);
}

bool MatrixEditor::setAxisText(const std::string& key, const QString& text, QString* error)
{
    return parseAxisText(key, text, true, error);
}

namespace {

// Parses every value of the field into the axis's list of a scratch group, sorted without duplicates;
// throws InputError naming the first bad one.
MatrixGroup parseAxisValues(const AxisSpec& axis, const QStringList& texts)
{
    MatrixGroup typed;
    for (const auto& v : texts) {
        const std::string t = v.toStdString();
        if (axis.editorField->check)
            axis.editorField->check(t);
        axis.addGroupValue(typed, t, axis.extra() ? std::string() : axis.name);
    }
    MatrixGroup sorted;
    axis.mergeValues(sorted, typed);
    return sorted;
}

} // namespace

bool MatrixEditor::parseAxisText(const std::string& key, const QString& text, bool apply, QString* error)
{
    const QStringList texts = tokens(text);
    if (texts.isEmpty()) {
        setError(error, tr("Give at least one value."));
        return false;
    }
    MatrixDraft d = m_grid->draft();
    const QStringList edited = editedStrategies();
    if (edited.isEmpty()) {
        setError(error, tr("Tick a chunk size for a strategy, or select its row, first."));
        return false;
    }
    const AxisSpec& axis = axisOf(key);
    MatrixGroup values;
    try {
        values = parseAxisValues(axis, texts);
    } catch (const InputError& e) {
        setError(error, qs(e.what()));
        return false;
    }
    bool any = false;
    for (const auto& id : edited) {
        StrategyDraft row = *d.find(id.toStdString());
        if (!row.takes(key))
            continue;
        any = true;
        axis.clearValues(row);
        axis.mergeValues(row, values);
        if (apply)
            m_grid->updateRow(row);
    }
    if (!any) {
        setError(error, qs(axis.editorField->noneTakes).arg(edited.join(QStringLiteral(", "))));
        return false;
    }
    return true;
}

void MatrixEditor::checkField(const std::string& key)
{
    if (m_loading)
        return;
    QLineEdit* field = axisField(key);
    QString why;
    if (field->text() == axisText(key) || parseAxisText(key, field->text(), false, &why))
        m_fieldProblems.erase(key);
    else
        m_fieldProblems[key] = why;
    showFieldState(key);
    Q_EMIT changed();
}

void MatrixEditor::showFieldState(const std::string& key)
{
    QLineEdit* field = axisField(key);
    const auto problem = m_fieldProblems.find(key);
    const bool bad = problem != m_fieldProblems.end();
    field->setStyleSheet(bad ? QStringLiteral("QLineEdit { border: 2px solid #c0392b; }") : QString());
    field->setProperty("invalid", bad);
    if (bad)
        m_axisError->setText(problem->second);
}

QString MatrixEditor::inputProblem() const
{
    for (const auto& [key, field] : m_fields) { // the first field in the form that has one
        if (const auto problem = m_fieldProblems.find(key); problem != m_fieldProblems.end())
            return tr("Fix the %1 field first: %2")
                .arg(qs(axisOf(key).editorField->fieldName), problem->second);
    }
    return {};
}

bool MatrixEditor::applyPendingFields(QString* error)
{
    for (const auto& [key, field] : m_fields) {
        if (!field->isEnabled() || !field->isModified())
            continue;
        field->setModified(false);
        QString why;
        if (field->text() != axisText(key) && !setAxisText(key, field->text(), &why)) {
            m_fieldProblems[key] = why;
            showFieldState(key);
            Q_EMIT changed();
        }
    }
    if (const QString problem = inputProblem(); !problem.isEmpty()) {
        setError(error, problem);
        return false;
    }
    return true;
}

void MatrixEditor::refreshAxisFields()
{
    // The fields are about to show the draft's values again: text typed and refused is gone with them.
    const bool hadProblems = !m_fieldProblems.empty();
    m_fieldProblems.clear();
    const QStringList edited = editedStrategies();
    const bool selected = !m_view->selectionModel()->selectedRows().isEmpty();
    if (edited.isEmpty())
        m_editing->setText(
            tr("Tick chunk sizes in the grid; then select rows to edit their size, buffer, sync "
               "and threads."));
    else
        m_editing->setText((selected ? tr("Axes of the selected strategies: %1")
                                     : tr("Axes of every ticked strategy (select rows to edit some): %1"))
                               .arg(edited.join(QStringLiteral(", "))));
    for (const auto& [key, field] : m_fields) {
        bool anyTakes = false;
        for (const auto& id : edited)
            anyTakes = anyTakes || m_grid->draft().find(id.toStdString())->takes(key);
        const QString text = axisText(key);
        field->setText(text);
        field->setModified(false);
        field->setPlaceholderText(text.isEmpty() && !edited.isEmpty() ? tr("(differs between the strategies)")
                                                                      : QString());
        field->setEnabled(!edited.isEmpty() && anyTakes);
        showFieldState(key);
        if (!anyTakes)
            field->setPlaceholderText(qs(axisOf(key).editorField->notTaken));
    }
    if (hadProblems)
        Q_EMIT changed();
}

} // namespace iolab::gui
