
static int g_fds[THREADS];
static uint64_t *g_orders[THREADS]; /* RANDOM: each thread's order of its chunks */

/* One thread: write(2) per chunk from the front of its file; with RANDOM, pwrite(2) of every chunk once in a
 * shuffled order; under preallocate rewrite (REWRITE), pwrite(2) at offset 0 every time. The sync policy's
 * call every SYNC_EVERY full writes and after the last. */
#include "parts/writer-start.c"
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    const uint64_t full = bytes / CHUNK_BYTES;
    uint64_t done = 0;
    uint64_t calls = 0;
    uint64_t since_sync = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        if (RANDOM) {
            const uint64_t at = g_orders[t][calls] * CHUNK_BYTES;
            pwrite_fully(fd, pattern_at(at), bytes - at < CHUNK_BYTES ? bytes - at : CHUNK_BYTES, at, "pwrite",
                         path);
        } else if (REWRITE) {
            pwrite_fully(fd, pattern_at(0), size, 0, "pwrite", path);
        } else {
            write_fully(fd, pattern_at(done), size, "write", path);
        }
        done += size;
        ++calls;
        if (SYNC_EVERY > 0 && calls <= full && ++since_sync == SYNC_EVERY) {
            since_sync = 0;
            sync_file(fd, path);
        }
    }
#include "parts/sync-and-close.c"
#include "parts/thread-end.c"

#include "parts/main-start.c"
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY | DIRECT_FLAG, thread_bytes(t), &g_made[t]);
        if (RANDOM)
            g_orders[t] = chunk_order(t, (thread_bytes(t) + CHUNK_BYTES - 1) / CHUNK_BYTES);
    }
#include "parts/timed-write.c"
