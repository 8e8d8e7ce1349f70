// SPDX-License-Identifier: MIT
// A Windows program for the recorder's tests (tests/cli/test_record_windows.cpp), built with MinGW and run
// under wine as any other: it does a known number of each call the recorder patches, through msvcrt's stdio
// and kernel32's handles, on a second thread and in a child process of itself, so that the test can hold
// the trace against what was done and against the files left on the disk.
//
//   windows_recorded_program FOLDER [all|child|exit3|journal|byhandle]
//
// journal writes only journal.dat: 128 records of 1,000 bytes with WriteFile, FlushFileBuffers after every 16
// (what the replay's Windows ways, its NO_BUFFERING batches and overlapped writes, rewrite). byhandle names
// files through their handles: renamed.tmp written, flushed and renamed to renamed.dat with
// SetFileInformationByHandle(FileRenameInfo), deleted.tmp written and deleted with FileDispositionInfo.
#include <windows.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

// msvcrt's own fprintf. A C++ program's fprintf is MinGW's replacement (libstdc++ asks for it), which writes
// what it formats a character at a time through fputc: the recorder would rightly see fputc calls.
extern "C" int msvcrtFprintf(FILE* stream, const char* format, ...) __asm__("fprintf");

namespace {

std::wstring widen(const std::string& text)
{
    std::wstring wide(text.size(), L'\0');
    const int n = MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), wide.data(),
                                      static_cast<int>(wide.size()));
    wide.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return wide;
}

bool stdioPart(const std::string& folder)
{
    FILE* out = std::fopen((folder + "\\stdio.log").c_str(), "wb");
    if (!out)
        return false;
    std::setvbuf(out, nullptr, _IOFBF, 4096);
    for (int i = 0; i < 1000; ++i)
        std::fputc('x', out);
    const char record[] = "0123456789012345678901234567890123456"; // 37 bytes
    for (int i = 0; i < 200; ++i)
        std::fwrite(record, 1, 37, out);
    for (int i = 0; i < 10; ++i)
        msvcrtFprintf(out, "line %d\n", i);
    // Not a constant: GCC turns fputs of a literal into fwrite.
    const std::string end = "the end\n";
    std::fputs(end.c_str(), out);
    std::fflush(out);
    return std::fclose(out) == 0;
}

bool handlePart(const std::string& folder)
{
    HANDLE file =
        CreateFileW(widen(folder + "\\handle.dat").c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr,
                    CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_WRITE_THROUGH, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    static char block[4096];
    std::memset(block, 'h', sizeof block);
    DWORD done = 0;
    for (int i = 0; i < 64; ++i)
        WriteFile(file, block, sizeof block, &done, nullptr);
    FlushFileBuffers(file);
    OVERLAPPED at{};
    at.Offset = 8192;
    WriteFile(file, block, sizeof block, &done, &at);
    LARGE_INTEGER start{};
    SetFilePointerEx(file, start, nullptr, FILE_BEGIN);
    ReadFile(file, block, sizeof block, &done, nullptr);
    ReadFile(file, block, sizeof block, &done, nullptr);
    LARGE_INTEGER end;
    end.QuadPart = 100000;
    SetFilePointerEx(file, end, nullptr, FILE_BEGIN);
    SetEndOfFile(file);
    FlushFileBuffers(file);
    return CloseHandle(file) != 0;
}

// The atomic replace: write a temporary file, make it durable, rename it over the real one.
bool replacePart(const std::string& folder)
{
    const std::wstring temporary = widen(folder + "\\settings.tmp");
    const std::wstring final = widen(folder + "\\settings.ini");
    HANDLE file = CreateFileW(temporary.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                              FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    DWORD done = 0;
    WriteFile(file, "key=value\r\n", 11, &done, nullptr);
    FlushFileBuffers(file);
    CloseHandle(file);
    if (!MoveFileExW(temporary.c_str(), final.c_str(), MOVEFILE_REPLACE_EXISTING))
        return false;
    HANDLE scratch = CreateFileW(widen(folder + "\\scratch.bin").c_str(), GENERIC_WRITE, 0, nullptr,
                                 CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    WriteFile(scratch, "x", 1, &done, nullptr);
    CloseHandle(scratch);
    return DeleteFileW(widen(folder + "\\scratch.bin").c_str()) != 0;
}

void threadPart(const std::string& folder)
{
    std::thread writer([folder] {
        HANDLE file = CreateFileW(widen(folder + "\\thread.dat").c_str(), GENERIC_WRITE, 0, nullptr,
                                  CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
        char block[512];
        std::memset(block, 't', sizeof block);
        DWORD done = 0;
        for (int i = 0; i < 50; ++i)
            WriteFile(file, block, sizeof block, &done, nullptr);
        CloseHandle(file);
    });
    writer.join();
}

bool childPart(const std::string& folder)
{
    wchar_t self[MAX_PATH];
    GetModuleFileNameW(nullptr, self, MAX_PATH);
    std::wstring line = L"\"" + std::wstring(self) + L"\" \"" + widen(folder) + L"\" child";
    STARTUPINFOW startup{};
    startup.cb = sizeof startup;
    PROCESS_INFORMATION info{};
    if (!CreateProcessW(self, line.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &startup, &info))
        return false;
    WaitForSingleObject(info.hProcess, INFINITE);
    DWORD code = 1;
    GetExitCodeProcess(info.hProcess, &code);
    CloseHandle(info.hThread);
    CloseHandle(info.hProcess);
    return code == 0;
}

bool journalPart(const std::string& folder)
{
    HANDLE file = CreateFileW(widen(folder + "\\journal.dat").c_str(), GENERIC_WRITE, 0, nullptr,
                              CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    char record[1000];
    std::memset(record, 'j', sizeof record);
    DWORD done = 0;
    for (int i = 0; i < 128; ++i) {
        if (!WriteFile(file, record, sizeof record, &done, nullptr) || done != sizeof record)
            return false;
        if (i % 16 == 15 && !FlushFileBuffers(file))
            return false;
    }
    return CloseHandle(file) != 0;
}

bool byHandlePart(const std::string& folder)
{
    const std::wstring temporary = widen(folder + "\\renamed.tmp");
    const std::wstring final = widen(folder + "\\renamed.dat");
    HANDLE file = CreateFileW(temporary.c_str(), GENERIC_WRITE | DELETE, 0, nullptr, CREATE_ALWAYS,
                              FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    char body[100];
    std::memset(body, 'r', sizeof body);
    DWORD done = 0;
    if (!WriteFile(file, body, sizeof body, &done, nullptr) || !FlushFileBuffers(file))
        return false;
    std::vector<char> buffer(sizeof(FILE_RENAME_INFO) + final.size() * sizeof(wchar_t));
    auto* rename = reinterpret_cast<FILE_RENAME_INFO*>(buffer.data());
    rename->ReplaceIfExists = TRUE;
    rename->RootDirectory = nullptr;
    rename->FileNameLength = static_cast<DWORD>(final.size() * sizeof(wchar_t));
    std::memcpy(rename->FileName, final.c_str(), final.size() * sizeof(wchar_t));
    if (!SetFileInformationByHandle(file, FileRenameInfo, rename, static_cast<DWORD>(buffer.size())))
        return false;
    CloseHandle(file);
    HANDLE gone = CreateFileW(widen(folder + "\\deleted.tmp").c_str(), GENERIC_WRITE | DELETE, 0, nullptr,
                              CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (gone == INVALID_HANDLE_VALUE || !WriteFile(gone, body, 10, &done, nullptr))
        return false;
    FILE_DISPOSITION_INFO disposition{};
    disposition.DeleteFile = TRUE;
    if (!SetFileInformationByHandle(gone, FileDispositionInfo, &disposition, sizeof disposition))
        return false;
    return CloseHandle(gone) != 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fputs("usage: windows_recorded_program FOLDER [all|child|exit3|journal|byhandle]\n", stderr);
        return 2;
    }
    const std::string folder = argv[1];
    const std::string mode = argc > 2 ? argv[2] : "all";
    if (mode == "child") {
        FILE* out = std::fopen((folder + "\\child.dat").c_str(), "wb");
        if (!out)
            return 1;
        char record[100];
        std::memset(record, 'c', sizeof record);
        for (int i = 0; i < 10; ++i)
            std::fwrite(record, 1, sizeof record, out);
        std::fflush(out);
        std::fclose(out);
        return 0;
    }
    if (mode == "journal")
        return journalPart(folder) ? 0 : 1;
    if (mode == "byhandle")
        return byHandlePart(folder) ? 0 : 1;
    if (!stdioPart(folder))
        return 1;
    if (mode == "exit3")
        return 3;
    if (!handlePart(folder) || !replacePart(folder))
        return 1;
    threadPart(folder);
    if (!childPart(folder))
        return 1;
    return 0;
}
