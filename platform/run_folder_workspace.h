// SPDX-License-Identifier: MIT
// The run folder's bookkeeping, once for every OS: <target>/iolab-run-<time>-<pid>/ with a marker file,
// created on first use; the files and data-set folders a run creates in it, and nothing else, are removed
// after each repetition, at the end and by `iolab-cli clean`. Reading a file back (verify) and writing a data
// set's file are here too, over the OS's whole-file calls. The folder and file calls are the OS's
// (platform/os_primitives.h); each backend derives its workspace from this class and adds only the rest of
// what touches a file's data (durability, the cache, free space).
#pragma once

#include "core/engine/workspace.h"
#include "core/model/target.h"
#include "platform/run_beacon.h"

#include <set>
#include <string>
#include <vector>

namespace iolab {

class RunFolderWorkspace : public Workspace
{
public:
    explicit RunFolderWorkspace(TargetInfo target);
    ~RunFolderWorkspace() override;
    RunFolderWorkspace(const RunFolderWorkspace&) = delete;
    RunFolderWorkspace& operator=(const RunFolderWorkspace&) = delete;

    const TargetInfo& target() const final { return m_target; }
    std::string pathFor(const std::string& name, Outcome& outcome) final;
    std::string directoryFor(const std::string& name, Outcome& outcome) final;
    void removeDirectory(const std::string& path) final;
    void remove(const std::string& path) final;
    void close() final;
    std::string folder() const final { return m_folder; }
    Outcome verify(const std::string& path, std::uint64_t expectedBytes, const Pattern& pattern,
                   std::uint64_t patternOffset, bool prefixOnly) final;
    Outcome readBack(const std::string& path,
                     const std::function<void(const std::byte*, std::size_t)>& consume) final;
    Outcome writeDataFile(const std::string& path, std::uint64_t bytes, std::uint64_t patternOffset,
                          const Pattern& pattern, const std::atomic<bool>& stop,
                          std::uint64_t writeBytes) final;

private:
    bool createFolder(Outcome& outcome);

    TargetInfo m_target;
    std::string m_folder;
    RunBeacon m_beacon;
    std::set<std::string> m_files;
    std::vector<std::string> m_directories; // parents first
};

} // namespace iolab
