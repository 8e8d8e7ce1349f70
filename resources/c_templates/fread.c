
static FILE *g_files[THREADS];
static unsigned char *g_buffers[THREADS];

/* One thread: @FREAD@ of each chunk from its FILE, with the case's buffer; fclose is part of the timed part,
 * as in IOLab. */
#include "parts/reader-start.c"
    FILE *const file = g_files[t];
    unsigned char *const buffer = g_buffers[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes) {
        if (calls % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        const size_t size = bytes - done < CHUNK_BYTES ? (size_t)(bytes - done) : CHUNK_BYTES;
        if (@FREAD@(buffer, 1, size, file) != size) {
            if (ferror(file))
                fail("@FREAD@", path, errno != 0 ? errno : EIO);
            fail_short(path);
        }
        done += size;
        ++calls;
    }
    if (fclose(file) != 0)
        fail("fclose", path, errno);
    free(g_stdio_buffers[t]);
#include "parts/thread-end.c"

#include "parts/main-start.c"
    prepare_data();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        const int fd = open_input(path, 0);
        g_files[t] = fdopen(fd, "rb");
        if (g_files[t] == NULL)
            fail("fdopen", path, errno);
        apply_buffer(g_files[t], t, path);
        g_buffers[t] = allocate(CHUNK_BYTES);
    }
#include "parts/timed-read.c"
