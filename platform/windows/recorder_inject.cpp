// SPDX-License-Identifier: MIT
#include "recorder_inject.h"

#include <cwchar>

namespace iolab::win {

DWORD injectRecorder(HANDLE process, const wchar_t* dllPath)
{
    const SIZE_T bytes = (std::wcslen(dllPath) + 1) * sizeof(wchar_t);
    void* remote = VirtualAllocEx(process, nullptr, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    if (!remote)
        return GetLastError();
    DWORD error = 0;
    if (!WriteProcessMemory(process, remote, dllPath, bytes, nullptr)) {
        error = GetLastError();
    } else {
        // kernel32 is at the same address in every process of a session (it is mapped once per boot), so
        // LoadLibraryW's address here is its address there.
        const auto loadLibrary = reinterpret_cast<LPTHREAD_START_ROUTINE>(
            reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "LoadLibraryW")));
        HANDLE thread = CreateRemoteThread(process, nullptr, 0, loadLibrary, remote, 0, nullptr);
        if (!thread) {
            error = GetLastError();
        } else {
            WaitForSingleObject(thread, INFINITE);
            DWORD loaded = 0;
            // The thread's exit code is the low half of the module's address: 0 when LoadLibraryW failed.
            if (!GetExitCodeThread(thread, &loaded))
                error = GetLastError();
            else if (loaded == 0)
                error = ERROR_MOD_NOT_FOUND;
            CloseHandle(thread);
        }
    }
    VirtualFreeEx(process, remote, 0, MEM_RELEASE);
    return error;
}

} // namespace iolab::win
