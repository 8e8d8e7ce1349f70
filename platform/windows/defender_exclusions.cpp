// SPDX-License-Identifier: MIT
#include "platform/windows/defender_exclusions.h"

#include <algorithm>
#include <cstddef>
#include <optional>

namespace iolab::win {

namespace {

// An absolute path as its root ("C:", "\\SERVER\SHARE") and its names, upper-cased as the file systems
// compare them.
struct AbsolutePath
{
    std::wstring root;
    std::vector<std::wstring> names;
};

std::wstring upper(std::wstring text)
{
    if (!text.empty())
        ::CharUpperBuffW(text.data(), static_cast<DWORD>(text.size()));
    return text;
}

std::vector<std::wstring> splitNames(std::wstring_view text)
{
    std::vector<std::wstring> names;
    std::size_t at = 0;
    while (at <= text.size()) {
        const auto end = std::min(text.find(L'\\', at), text.size());
        if (end > at)
            names.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return names;
}

// nullopt for a relative, drive-relative ("C:x", "C:") or root-relative ("\x") path.
std::optional<AbsolutePath> splitAbsolute(std::wstring_view path)
{
    std::wstring text = upper(std::wstring(path));
    std::replace(text.begin(), text.end(), L'/', L'\\');
    if (text.starts_with(L"\\\\?\\UNC\\"))
        text = L"\\\\" + text.substr(8);
    else if (text.starts_with(L"\\\\?\\") || text.starts_with(L"\\\\.\\"))
        text = text.substr(4);
    AbsolutePath out;
    if (text.size() >= 3 && text[1] == L':' && text[2] == L'\\') {
        out.root = text.substr(0, 2);
        out.names = splitNames(std::wstring_view(text).substr(3));
    } else if (text.starts_with(L"\\\\")) {
        auto names = splitNames(std::wstring_view(text).substr(2));
        if (names.size() < 2)
            return std::nullopt;
        out.root = L"\\\\" + names[0] + L"\\" + names[1];
        out.names.assign(names.begin() + 2, names.end());
    } else {
        return std::nullopt;
    }
    // "." stays in its folder; ".." leaves it (never above the root).
    std::vector<std::wstring> names;
    for (auto& name : out.names) {
        if (name == L"..") {
            if (!names.empty())
                names.pop_back();
        } else if (name != L".") {
            names.push_back(std::move(name));
        }
    }
    out.names = std::move(names);
    return out;
}

// `pattern` against one upper-cased name: "*" any run of characters, "?" one character.
bool wildcardMatch(std::wstring_view pattern, std::wstring_view name)
{
    std::size_t p = 0;
    std::size_t n = 0;
    std::size_t star = std::wstring_view::npos;
    std::size_t resume = 0;
    while (n < name.size()) {
        if (p < pattern.size() && (pattern[p] == L'?' || pattern[p] == name[n])) {
            ++p;
            ++n;
        } else if (p < pattern.size() && pattern[p] == L'*') {
            star = p++;
            resume = n;
        } else if (star != std::wstring_view::npos) {
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == L'*')
        ++p;
    return p == pattern.size();
}

bool namesMatch(const std::vector<std::wstring>& patterns, const std::vector<std::wstring>& names)
{
    return std::equal(
        patterns.begin(), patterns.end(), names.begin(),
        [](const std::wstring& pattern, const std::wstring& name) { return wildcardMatch(pattern, name); });
}

} // namespace

bool exclusionCovers(std::wstring_view exclusion, std::wstring_view path)
{
    auto excluded = splitAbsolute(exclusion);
    const auto target = splitAbsolute(path);
    if (!excluded || !target || !wildcardMatch(excluded->root, target->root))
        return false;
    auto& names = excluded->names;
    // IOLab writes in a run folder inside the target, which "anything in the folder" covers.
    if (!names.empty() && names.back() == L"*" && names.size() == target->names.size() + 1)
        names.pop_back();
    return names.size() <= target->names.size() && namesMatch(names, target->names);
}

bool processExclusionCovers(std::wstring_view entry, std::wstring_view program)
{
    const auto image = splitAbsolute(program);
    if (!image || image->names.empty())
        return false;
    if (entry.find_first_of(L"\\/:") == std::wstring_view::npos)
        return wildcardMatch(upper(std::wstring(entry)), image->names.back());
    const auto excluded = splitAbsolute(entry);
    return excluded && wildcardMatch(excluded->root, image->root) &&
           excluded->names.size() == image->names.size() && namesMatch(excluded->names, image->names);
}

std::wstring expandEnvironment(const std::wstring& text)
{
    if (text.find(L'%') == std::wstring::npos)
        return text;
    std::wstring out(text.size() + 256, L'\0');
    DWORD size = ::ExpandEnvironmentStringsW(text.c_str(), out.data(), static_cast<DWORD>(out.size()));
    if (size > out.size()) {
        out.resize(size);
        size = ::ExpandEnvironmentStringsW(text.c_str(), out.data(), static_cast<DWORD>(out.size()));
    }
    if (size == 0 || size > out.size())
        return text;
    out.resize(size - 1); // the count includes the terminating null
    return out;
}

ExclusionList readExclusionList(HKEY root, const wchar_t* key)
{
    ExclusionList list;
    HKEY handle = nullptr;
    list.error = static_cast<DWORD>(::RegOpenKeyExW(root, key, 0, KEY_QUERY_VALUE, &handle));
    if (list.error != ERROR_SUCCESS)
        return list;
    DWORD longestName = 0;
    list.error =
        static_cast<DWORD>(::RegQueryInfoKeyW(handle, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                              nullptr, &longestName, nullptr, nullptr, nullptr));
    std::wstring name(longestName + 1, L'\0');
    DWORD index = 0;
    while (list.error == ERROR_SUCCESS) {
        auto length = static_cast<DWORD>(name.size());
        const auto status = static_cast<DWORD>(
            ::RegEnumValueW(handle, index, name.data(), &length, nullptr, nullptr, nullptr, nullptr));
        if (status == ERROR_NO_MORE_ITEMS)
            break;
        if (status == ERROR_MORE_DATA && name.size() < 32768) { // a longer name added since RegQueryInfoKey
            name.resize(name.size() * 2);
            continue;
        }
        list.error = status;
        if (status == ERROR_SUCCESS) {
            list.entries.push_back(expandEnvironment(name.substr(0, length)));
            ++index;
        }
    }
    ::RegCloseKey(handle);
    return list;
}

} // namespace iolab::win
