// SPDX-License-Identifier: MIT
// Checks a Windows executable's resources as Explorer and installers read them: the version resource names
// IOLab and this build's version (fixed and string forms), and the executable carries an icon.
//   windows_version_resource EXE DESCRIPTION
#include "core/version.h"

#include <windows.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::wstring wide(const char* text)
{
    const int n = ::MultiByteToWideChar(CP_UTF8, 0, text, -1, nullptr, 0);
    std::wstring out(static_cast<std::size_t>(n > 0 ? n - 1 : 0), L'\0');
    if (n > 1)
        ::MultiByteToWideChar(CP_UTF8, 0, text, -1, out.data(), n);
    return out;
}

std::string narrow(const wchar_t* text)
{
    const int n = ::WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
    std::string out(static_cast<std::size_t>(n > 0 ? n - 1 : 0), '\0');
    if (n > 1)
        ::WideCharToMultiByte(CP_UTF8, 0, text, -1, out.data(), n, nullptr, nullptr);
    return out;
}

std::string stringValue(const std::vector<char>& block, const wchar_t* name)
{
    const std::wstring path = std::wstring(L"\\StringFileInfo\\040904B0\\") + name;
    void* value = nullptr;
    UINT length = 0;
    if (::VerQueryValueW(block.data(), path.c_str(), &value, &length) == 0 || length == 0)
        return {};
    return narrow(static_cast<const wchar_t*>(value));
}

BOOL CALLBACK countIcon(HMODULE, LPCWSTR, LPWSTR, LONG_PTR count)
{
    ++*reinterpret_cast<int*>(count); // NOLINT(performance-no-int-to-ptr): the documented lParam round trip
    return TRUE;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: windows_version_resource EXE DESCRIPTION\n");
        return 2;
    }
    const std::wstring exe = wide(argv[1]);
    const std::string description = argv[2];
    int failures = 0;
    const auto check = [&failures](bool ok, const std::string& what) {
        std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
        failures += ok ? 0 : 1;
    };

    DWORD ignored = 0;
    const DWORD size = ::GetFileVersionInfoSizeW(exe.c_str(), &ignored);
    if (size == 0) {
        std::printf("FAIL %s has no version resource (error %lu)\n", argv[1], ::GetLastError());
        return 1;
    }
    std::vector<char> block(size);
    if (::GetFileVersionInfoW(exe.c_str(), 0, size, block.data()) == 0) {
        std::printf("FAIL cannot read the version resource of %s (error %lu)\n", argv[1], ::GetLastError());
        return 1;
    }
    VS_FIXEDFILEINFO* fixed = nullptr;
    UINT fixedLength = 0;
    if (::VerQueryValueW(block.data(), L"\\", reinterpret_cast<void**>(&fixed), &fixedLength) == 0 ||
        fixed == nullptr) {
        std::printf("FAIL no fixed file info\n");
        return 1;
    }
    const std::string fixedVersion = std::to_string(HIWORD(fixed->dwFileVersionMS)) + "." +
                                     std::to_string(LOWORD(fixed->dwFileVersionMS)) + "." +
                                     std::to_string(HIWORD(fixed->dwFileVersionLS));
    check(fixedVersion == IOLAB_VERSION, "fixed file version " + fixedVersion + " is " IOLAB_VERSION);
    check(stringValue(block, L"FileVersion") == IOLAB_VERSION,
          "FileVersion " + stringValue(block, L"FileVersion"));
    check(stringValue(block, L"ProductVersion") == IOLAB_VERSION,
          "ProductVersion " + stringValue(block, L"ProductVersion"));
    check(stringValue(block, L"ProductName") == "IOLab", "ProductName " + stringValue(block, L"ProductName"));
    check(stringValue(block, L"FileDescription") == description,
          "FileDescription '" + stringValue(block, L"FileDescription") + "'");

    HMODULE module =
        ::LoadLibraryExW(exe.c_str(), nullptr, LOAD_LIBRARY_AS_DATAFILE | LOAD_LIBRARY_AS_IMAGE_RESOURCE);
    int icons = 0;
    if (module != nullptr) {
        ::EnumResourceNamesW(module, MAKEINTRESOURCEW(14) /* RT_GROUP_ICON */, countIcon,
                             reinterpret_cast<LONG_PTR>(&icons));
        ::FreeLibrary(module);
    }
    check(icons >= 1, "icon groups: " + std::to_string(icons));
    return failures == 0 ? 0 : 1;
}
