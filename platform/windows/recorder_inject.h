// SPDX-License-Identifier: MIT
// Putting IOLab's recorder (iolab-record.dll) into a process that was started suspended: the path is written
// into the process and a thread of its own calls LoadLibraryW on it, whose DllMain patches the program's
// import tables before its first instruction runs. iolab-cli record uses it for the program, and the
// recorder itself for every process the program starts.
#pragma once

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

namespace iolab::win {

// The process must be suspended, 64-bit like the recorder, and opened with PROCESS_CREATE_THREAD,
// PROCESS_VM_OPERATION, PROCESS_VM_WRITE and PROCESS_QUERY_INFORMATION. Returns 0 when the recorder is in it,
// else the Win32 error (ERROR_MOD_NOT_FOUND when LoadLibraryW failed inside the process). No allocation: the
// recorder calls it from inside a program.
DWORD injectRecorder(HANDLE process, const wchar_t* dllPath);

} // namespace iolab::win
