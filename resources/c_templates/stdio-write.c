
static FILE *g_files[THREADS];
@CHUNK_SOURCE@
/* One thread: @FWRITE@ of each chunk into its FILE, with the case's buffer and sync policy (fflush, then the
 * sync call, every SYNC_EVERY chunks, or after the last with fsync-end and fdatasync-end); the fclose that
 * hands the buffer's rest to the kernel is part of the timed part, as in IOLab. */
#include "parts/writer-start.c"
    FILE *const file = g_files[t];
    const uint64_t bytes = thread_bytes(t);
    const size_t chunk = @CHUNK_VALUE@;
    const uint64_t full = bytes / CHUNK_BYTES;
    uint64_t done = 0;
    uint64_t calls = 0;
    uint64_t since_sync = 0;
    int stopped = 0;
    for (uint64_t n = 0; n < full; ++n) {
        if (n % TIME_CHECK_CALLS == 0 && time_is_up()) {
            stopped = 1;
            break;
        }
        if (@FWRITE@(pattern_at(done), 1, chunk, file) != chunk)
            fail("@FWRITE@", path, errno != 0 ? errno : EIO);
        done += chunk;
        ++calls;
        if (SYNC_EVERY > 0 && ++since_sync == SYNC_EVERY) {
            since_sync = 0;
            flush_and_sync(file, path);
        }
    }
    if (!stopped && done < bytes) {
        const size_t tail = (size_t)(bytes - done);
        if (@FWRITE@(pattern_at(done), 1, tail, file) != tail)
            fail("@FWRITE@", path, errno != 0 ? errno : EIO);
        done += tail;
        ++calls;
    }
    if (SYNC_AT_END)
        flush_and_sync(file, path);
    if (fclose(file) != 0)
        fail("fclose", path, errno);
    free(g_stdio_buffers[t]);
#include "parts/thread-end.c"

#include "parts/main-start.c"
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_files[t] = open_stream(t, path, O_WRONLY, "wb");
    }
#include "parts/timed-write.c"
