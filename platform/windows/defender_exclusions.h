// SPDX-License-Identifier: MIT
// Defender's exclusion lists as the registry holds them, and the rules for whether an entry covers the target
// folder or one of IOLab's programs. The rules are pure, so the tests try them on paths that must and must
// not match.
#pragma once

#include <windows.h>

#include <string>
#include <string_view>
#include <vector>

namespace iolab::win {

// Whether Defender's path exclusion `exclusion` (environment variables expanded) covers the files IOLab
// writes in the target folder `path`. Both must be absolute ("C:\x", "\\server\share\x"); they are compared
// case-insensitively, name by name, so C:\Data covers C:\Data and C:\Data\runs but not C:\Database, and
// trailing or doubled backslashes do not count. As in Defender, "*" and "?" match within one folder name
// and a folder's exclusion covers its subfolders; a last "\*" (anything in the folder) covers the target's
// contents. A relative or drive-relative entry ("C:Data", "\Data", "Data") covers nothing: its meaning
// depends on a current directory.
bool exclusionCovers(std::wstring_view exclusion, std::wstring_view path);

// Whether the process exclusion `entry` names the program at `program` (a full path): a bare name
// ("iolab-cli.exe", "iolab*.exe") is matched against the file name, a path against the whole path, by the
// rules above (a path names one file: no subfolders).
bool processExclusionCovers(std::wstring_view entry, std::wstring_view program);

// One of Defender's exclusion lists: the value names under a registry key, environment variables expanded.
// `error` is ERROR_SUCCESS, ERROR_FILE_NOT_FOUND when the key does not exist (nothing excluded there), or
// why the key could not be read (ERROR_ACCESS_DENIED: Windows lets only administrators read Defender's
// exclusions).
struct ExclusionList
{
    std::vector<std::wstring> entries;
    DWORD error = ERROR_SUCCESS;
};
ExclusionList readExclusionList(HKEY root, const wchar_t* key);

// `text` with its %VARIABLES% expanded from this process's environment; unchanged where one is not set.
std::wstring expandEnvironment(const std::wstring& text);

} // namespace iolab::win
