
static FILE *g_files[THREADS];

/* One thread: @PUTC@ of each byte into its FILE, with the case's buffer and sync policy (fflush, then the
 * sync call, every SYNC_EVERY bytes, or after the last with fsync-end and fdatasync-end); the fclose is part
 * of the timed part, as in IOLab. */
#include "parts/writer-start.c"
    FILE *const file = g_files[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t since_sync = 0;
    for (; done < bytes; ++done) {
        if (done % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        if (@PUTC@(pattern_at(done)[0], file) == EOF)
            fail("@PUTC@", path, errno != 0 ? errno : EIO);
        if (SYNC_EVERY > 0 && ++since_sync == SYNC_EVERY) {
            since_sync = 0;
            flush_and_sync(file, path);
        }
    }
    if (SYNC_AT_END)
        flush_and_sync(file, path);
    if (fclose(file) != 0)
        fail("fclose", path, errno);
    free(g_stdio_buffers[t]);
    g_done[t] = done;
    g_calls[t] = done;
    return NULL;
}

#include "parts/main-start.c"
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_files[t] = open_stream(t, path, O_WRONLY, "wb");
    }
#include "parts/timed-write.c"
