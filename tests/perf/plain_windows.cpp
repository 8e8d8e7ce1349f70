// SPDX-License-Identifier: MIT
// The Windows strategies written the plain way, one program with a mode, for compare.py --wine.
//   plain_windows stdio PATH CHUNK TOTAL [BUFFER]   fwrite per chunk; BUFFER 0 = default, 1 = none, N bytes
//   plain_windows write PATH CHUNK TOTAL [DIRECT]   WriteFile per chunk; DIRECT 1 adds FILE_FLAG_NO_BUFFERING
//   plain_windows pipe  -    CHUNK TOTAL            WriteFile into an anonymous pipe a thread drains
#include "plain_common.h"

#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <windows.h>

#include <thread>
#include <vector>

namespace {

void stdioLoop(const plain::Args& a, const unsigned char* src)
{
    // A new file, as plain_stdio's fopen "wbx" makes on Linux: msvcrt has no "x", so _open with _O_EXCL.
    // (A truncating fopen "wb" measured 25-45% slower at 4 KiB under wine on ext4: the open mode, not the
    // loop, so both sides here create the file the same way.)
    const int fd = ::_open(a.path.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
    std::FILE* f = fd < 0 ? nullptr : ::_fdopen(fd, "wb");
    if (f == nullptr)
        plain::die("open");
    std::vector<char> buffer;
    if (a.extra == 1)
        std::setvbuf(f, nullptr, _IONBF, 0);
    else if (a.extra > 1) {
        buffer.resize(a.extra);
        std::setvbuf(f, buffer.data(), _IOFBF, buffer.size());
    }
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        if (std::fwrite(src + (offset & plain::kMask), 1, a.chunk, f) != a.chunk)
            plain::die("fwrite");
        offset += a.chunk;
    }
    if (std::fclose(f) != 0)
        plain::die("fclose");
    plain::report(offset, start, plain::Clock::now());
}

void writeLoop(const plain::Args& a, const unsigned char* src)
{
    const DWORD flags = FILE_ATTRIBUTE_NORMAL | (a.extra == 1 ? FILE_FLAG_NO_BUFFERING : 0);
    HANDLE h = ::CreateFileA(a.path.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, flags, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        plain::die("CreateFile");
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        DWORD written = 0;
        if (::WriteFile(h, src + (offset & plain::kMask), static_cast<DWORD>(a.chunk), &written, nullptr) ==
                0 ||
            written != a.chunk)
            plain::die("WriteFile");
        offset += a.chunk;
    }
    ::CloseHandle(h);
    plain::report(offset, start, plain::Clock::now());
}

void pipeLoop(const plain::Args& a, const unsigned char* src)
{
    HANDLE readEnd = nullptr;
    HANDLE writeEnd = nullptr;
    if (::CreatePipe(&readEnd, &writeEnd, nullptr, 64 * 1024) == 0)
        plain::die("CreatePipe");
    std::thread reader([readEnd] {
        std::vector<char> buffer(1 << 20);
        DWORD n = 0;
        while (::ReadFile(readEnd, buffer.data(), static_cast<DWORD>(buffer.size()), &n, nullptr) != 0) {
        }
    });
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        DWORD written = 0;
        if (::WriteFile(writeEnd, src + (offset & plain::kMask), static_cast<DWORD>(a.chunk), &written,
                        nullptr) == 0)
            plain::die("WriteFile");
        offset += a.chunk;
    }
    ::CloseHandle(writeEnd);
    reader.join();
    plain::report(offset, start, plain::Clock::now());
    ::CloseHandle(readEnd);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s stdio|write|pipe PATH CHUNK TOTAL [EXTRA]\n", argv[0]);
        return 2;
    }
    const std::string mode = argv[1];
    const auto a = plain::parse(argc - 1, argv + 1);
    const unsigned char* src = plain::sourceBuffer(a.chunk);
    if (mode == "stdio")
        stdioLoop(a, src);
    else if (mode == "write")
        writeLoop(a, src);
    else if (mode == "pipe")
        pipeLoop(a, src);
    else
        return 2;
    if (mode != "pipe") {
        HANDLE h = ::CreateFileA(a.path.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                 OPEN_EXISTING, 0, nullptr);
        ::FlushFileBuffers(h);
        ::CloseHandle(h);
        ::DeleteFileA(a.path.c_str());
    }
}
