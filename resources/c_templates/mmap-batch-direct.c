
static int g_fds[THREADS];
static unsigned char *g_batches[THREADS];

/* One thread: memcpy of each chunk into a WINDOW_BYTES batch buffer mapped from a scratch file and, each time
 * it is full, pwrite(2) of the batch to the data file, opened O_DIRECT; the sync policy's call after the
 * last. */
#include "parts/writer-start.c"
    const int fd = g_fds[t];
    unsigned char *const batch = g_batches[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t used = 0;
    uint64_t file_offset = 0;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes) {
        if (calls % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const unsigned char *source = pattern_at(done);
        uint64_t left = size;
        while (left > 0) {
            const uint64_t piece = left < WINDOW_BYTES - used ? left : WINDOW_BYTES - used;
            memcpy(batch + used, source, piece);
            used += piece;
            source += piece;
            left -= piece;
            if (used == WINDOW_BYTES) {
                pwrite_fully(fd, batch, used, file_offset, "pwrite(O_DIRECT)", path);
                file_offset += used;
                used = 0;
            }
        }
        done += size;
        ++calls;
    }
    if (used > 0)
        pwrite_fully(fd, batch, used, file_offset, "pwrite(O_DIRECT)", path);
#include "parts/sync-and-close.c"
#include "parts/thread-end.c"

#include "parts/main-start.c"
    char path[PATH_MAX];
    char scratch[PATH_MAX + 8];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY | O_DIRECT, thread_bytes(t), &g_made[t]);
        if (thread_bytes(t) > 0 && fallocate(g_fds[t], 0, 0, (off_t)thread_bytes(t)) != 0)
            fail("fallocate", path, errno);
        /* The batch lives in a mapping of a scratch file, removed once mapped: the mapping keeps it. */
        snprintf(scratch, sizeof scratch, "%s.batch", path);
        const int batch = open(scratch, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (batch < 0)
            fail("open", scratch, errno);
        if (unlink(scratch) != 0)
            fail("unlink", scratch, errno);
        if (fallocate(batch, 0, 0, WINDOW_BYTES) != 0)
            fail("fallocate", scratch, errno);
        g_batches[t] = mmap(NULL, WINDOW_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, batch, 0);
        if (g_batches[t] == MAP_FAILED)
            fail("mmap", scratch, errno);
        if (close(batch) != 0)
            fail("close", scratch, errno);
    }
#include "parts/timed-write.c"
