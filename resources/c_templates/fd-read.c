
static int g_fds[THREADS];
static unsigned char *g_buffers[THREADS];

/* One thread: read(2) of each chunk from the front of its file into a page-aligned buffer; with RANDOM,
 * pread(2) of chunks at random chunk-aligned offsets of the one file all threads share. */
#include "parts/reader-start.c"
    const int fd = g_fds[t];
    unsigned char *const buffer = g_buffers[t];
    const uint64_t bytes = thread_bytes(t);
    struct random_offsets offsets = random_offsets_for(t, TOTAL_BYTES);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        if (RANDOM)
            pread_fully(fd, buffer, size, next_offset(&offsets), "pread", path);
        else
            read_fully(fd, buffer, size, "read", path);
        done += size;
        ++calls;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
#include "parts/thread-end.c"

#include "parts/main-start.c"
    prepare_data();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_input(path, DIRECT_FLAG);
        g_buffers[t] = allocate(CHUNK_BYTES);
    }
#include "parts/timed-read.c"
