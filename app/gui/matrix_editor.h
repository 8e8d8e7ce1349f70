// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix_draft.h"
#include "core/model/result.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QToolButton;
class QVBoxLayout;

namespace iolab {
class Registry;
struct AxisEditorField;
} // namespace iolab

namespace iolab::gui {

class MatrixGridModel;
class PresetFiles;

// Edits a strategy matrix: presets (built in, and the user's own saved as the matrix JSON the CLI reads), the
// strategy x chunk grid, each strategy's other axes, and the run options.
class MatrixEditor : public QWidget
{
    Q_OBJECT

public:
    // The built-in axes with a field, by name (each is the field of the axis with that matrix key; every
    // declared axis with an editor field, core/model/axes.h, has one).
    enum class Axis
    {
        Sizes,
        Buffers,
        Syncs,
        Threads,
        Hints,
        Caches,
        FileSets
    };

    MatrixEditor(const Registry& registry, const QString& presetFolder, QWidget* parent = nullptr);

    MatrixDraft draft() const;
    void setDraft(const MatrixDraft& draft);
    RunOptions runOptions() const;
    void setRunOptions(const RunOptions& options);

    // Presets: built-in names first, then the user's (as the presets folder was last listed, off the GUI
    // thread). Loading one replaces the draft.
    QStringList presetNames() const;
    bool loadPreset(const QString& name, QString* error = nullptr);
    QString currentPreset() const; // "" once the draft was edited
    bool isUserPreset(const QString& name) const;
    // The file operations run off the GUI thread (presetFiles() says what is under way, and what failed, as
    // the window shows it): each returns false with the reason when the input cannot be saved (a bad name,
    // a matrix that cannot run), or true and presetFiles()'s saved, removed, imported or exported follows.
    // A preset saved while the grid was not edited meanwhile becomes the current preset; the preset row
    // waits while a save or a delete is under way.
    bool saveUserPreset(const QString& name, QString* error = nullptr);
    bool deleteUserPreset(const QString& name, QString* error = nullptr);
    void importMatrixFile(const QString& path);
    bool exportMatrixFile(const QString& path, QString* error = nullptr);
    bool isBusyWithPresets() const;
    PresetFiles* presetFiles() const { return m_files; }
    // Reads a matrix file on the calling thread: for the launch's --matrix, read before the window is up.
    bool loadMatrixFile(const QString& path, QString* error = nullptr);

    // The rows the axis fields edit; none selected means every ticked strategy.
    void selectStrategies(const QStringList& strategies);
    QStringList editedStrategies() const;
    // Sets an axis of the edited rows from text in the CLI's syntax ("none, default, 64K"; "fsync-end").
    bool setAxisText(Axis axis, const QString& text, QString* error = nullptr);
    QString axisText(Axis axis) const;
    QLineEdit* axisField(Axis axis) const;
    // The same for any declared axis, by its matrix key ("buffers"); axisField is nullptr for a key without
    // a field.
    bool setAxisText(const std::string& matrixKey, const QString& text, QString* error = nullptr);
    QString axisText(const std::string& matrixKey) const;
    QLineEdit* axisField(const std::string& matrixKey) const;
    static std::string matrixKey(Axis axis);
    // Why the fields as typed cannot run ("" when they can): text in an axis field that does not parse, or
    // that was typed and not yet applied. Run stays disabled while there is one.
    QString inputProblem() const;
    // Applies every axis field typed but not yet applied (as Enter would); false with the first reason.
    bool applyPendingFields(QString* error = nullptr);

    MatrixGridModel* gridModel() const { return m_grid; }
    QTableView* gridView() const { return m_view; }

Q_SIGNALS:
    void changed();

private:
    void buildUi();
    void buildPresetRow(QVBoxLayout* layout);
    void buildGrid(QVBoxLayout* layout);
    void buildAxisForm(QVBoxLayout* layout);
    QLineEdit* addAxisRow(QFormLayout* form, const std::string& key, const AxisEditorField& field);
    void buildRunOptions(QVBoxLayout* layout);
    CrashProbeAt crashProbeAt() const;
    void setCrashProbeAt(CrashProbeAt at);
    void connectPresetActions();
    void reloadPresetList(const QString& select);
    void updatePresetRow();
    void presetSaved(const QString& name, const QString& error);
    void refreshAxisFields();
    void onPresetActivated(int index);
    void onDraftChanged();
    void chooseImport();
    void chooseExport();
    void addChunkColumnFromText();
    QString userPresetPath(const QString& name) const;
    // Parses `text` for the axis and, when `apply`, sets it on the edited rows.
    bool parseAxisText(const std::string& key, const QString& text, bool apply, QString* error);
    void checkField(const std::string& key);
    void showFieldState(const std::string& key);

    const Registry& m_registry;
    QString m_presetFolder;
    MatrixGridModel* m_grid = nullptr;
    PresetFiles* m_files = nullptr;
    QTableView* m_view = nullptr;
    QComboBox* m_presets = nullptr;
    QLabel* m_description = nullptr;
    QLineEdit* m_presetName = nullptr;
    QPushButton* m_savePreset = nullptr;
    QPushButton* m_deletePreset = nullptr;
    QLineEdit* m_newChunk = nullptr;
    QLabel* m_editing = nullptr;
    // The axis fields in declaration order, by matrix key.
    std::vector<std::pair<std::string, QLineEdit*>> m_fields;
    QLabel* m_axisError = nullptr;
    QSpinBox* m_repetitions = nullptr;
    QSpinBox* m_warmups = nullptr;
    QCheckBox* m_verify = nullptr;
    QCheckBox* m_alternate = nullptr;
    QLineEdit* m_latencyTarget = nullptr; // "1ms@p99", empty for none
    QCheckBox* m_dropCaches = nullptr;
    QSpinBox* m_crashProbe = nullptr;
    QComboBox* m_crashProbeAt = nullptr; // where its kills land (CrashProbeAt)
    QString m_currentPreset;
    MatrixDraft m_presetDraft; // as the current preset was loaded or saved
    MatrixDraft m_savingDraft; // as the last save asked for it
    bool m_loading = false;
    std::map<std::string, QString> m_fieldProblems; // axis fields whose text does not parse, with the reason
};

} // namespace iolab::gui
