
static int g_fds[THREADS];

/* One thread: memcpy of each chunk into a WINDOW_BYTES MAP_SHARED window of its file (space reserved first
 * with fallocate), unmapping it and mapping the next as it fills; the sync policy's call after the last. */
#include "parts/writer-start.c"
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    unsigned char *window = NULL;
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes) {
        if (calls % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const unsigned char *source = pattern_at(done);
        uint64_t offset = done;
        uint64_t left = size;
        while (left > 0) {
            if (offset >= end) {
                if (window != NULL && munmap(window, WINDOW_BYTES) != 0)
                    fail("munmap", path, errno);
                start = offset - offset % WINDOW_BYTES;
                window = mmap(NULL, WINDOW_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)start);
                if (window == MAP_FAILED)
                    fail("mmap", path, errno);
                end = start + WINDOW_BYTES;
            }
            const uint64_t piece = left < end - offset ? left : end - offset;
            memcpy(window + (offset - start), source, piece);
            offset += piece;
            source += piece;
            left -= piece;
        }
        done += size;
        ++calls;
    }
    if (window != NULL && munmap(window, WINDOW_BYTES) != 0)
        fail("munmap", path, errno);
#include "parts/sync-and-close.c"
#include "parts/thread-end.c"

#include "parts/main-start.c"
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_RDWR, thread_bytes(t), &g_made[t]);
        /* a store into a hole of a full disk would be a SIGBUS, not an error: the space is reserved first */
        if (thread_bytes(t) > 0 && fallocate(g_fds[t], 0, 0, (off_t)thread_bytes(t)) != 0)
            fail("fallocate", path, errno);
    }
#include "parts/timed-write.c"
