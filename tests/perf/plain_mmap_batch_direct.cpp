// SPDX-License-Identifier: MIT
// memcpy each chunk into a 16 KiB mapped batch buffer (a scratch file) and pwrite it to an O_DIRECT file when
// full (the Optane article, experiment 4). Chunks must divide the batch.
#include "plain_common.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    constexpr std::uint64_t kBatch = 16 * 1024;
    const unsigned char* src = plain::sourceBuffer(a.chunk);
    const std::string batchPath = a.path + ".batch";
    const int data = ::open(a.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_DIRECT, 0644);
    const int batch = ::open(batchPath.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (data < 0 || batch < 0)
        plain::die("open");
    if (::fallocate(data, 0, 0, static_cast<off_t>(a.total)) != 0 || ::fallocate(batch, 0, 0, kBatch) != 0)
        plain::die("fallocate");
    auto* base =
        static_cast<unsigned char*>(::mmap(nullptr, kBatch, PROT_READ | PROT_WRITE, MAP_SHARED, batch, 0));
    if (base == MAP_FAILED)
        plain::die("mmap");
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t used = 0;
    std::uint64_t fileOffset = 0;
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        std::memcpy(base + used, src + (offset & plain::kMask), a.chunk);
        used += a.chunk;
        offset += a.chunk;
        if (used == kBatch) {
            if (::pwrite(data, base, kBatch, static_cast<off_t>(fileOffset)) != static_cast<ssize_t>(kBatch))
                plain::die("pwrite");
            fileOffset += kBatch;
            used = 0;
        }
    }
    ::close(data);
    const auto end = plain::Clock::now();
    plain::report(offset, start, end);
    ::munmap(base, kBatch);
    ::close(batch);
    const int again = ::open(a.path.c_str(), O_RDONLY);
    ::fsync(again);
    ::close(again);
    ::unlink(a.path.c_str());
    ::unlink(batchPath.c_str());
}
