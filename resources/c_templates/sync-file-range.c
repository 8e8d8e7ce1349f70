
static int g_fds[THREADS];

/* One thread: pwrite(2) of each chunk at its place (under preallocate rewrite, at offset 0), then
 * sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER) over it: written back, but neither flushed from the
 * device's cache nor with its metadata, so not durable. */
#include "parts/writer-start.c"
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const uint64_t at = REWRITE ? 0 : done;
        pwrite_fully(fd, pattern_at(at), size, at, "pwrite", path);
        if (sync_file_range(fd, (off_t)at, (off_t)size,
                            SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
            fail("sync_file_range", path, errno);
        done += size;
        ++calls;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
#include "parts/thread-end.c"

#include "parts/main-start.c"
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY, thread_bytes(t), &g_made[t]);
    }
#include "parts/timed-write.c"
