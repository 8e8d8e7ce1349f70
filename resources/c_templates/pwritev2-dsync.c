
static int g_fds[THREADS];

/* pwritev2(2) with RWF_DSYNC: the call returns once its data is durable, as with O_DSYNC, chosen per call. */
static void pwritev2_dsync(int fd, const unsigned char *data, uint64_t size, uint64_t offset, const char *path)
{
    while (size > 0) {
        struct iovec iov = {(void *)data, size};
        const ssize_t n = pwritev2(fd, &iov, 1, (off_t)offset, RWF_DSYNC);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("pwritev2(RWF_DSYNC)", path, errno);
        if (n == 0)
            fail("pwritev2(RWF_DSYNC)", path, EIO);
        data += n;
        size -= (uint64_t)n;
        offset += (uint64_t)n;
    }
}

/* One thread: pwritev2 with RWF_DSYNC of each chunk at its place (under preallocate rewrite, at offset 0). */
#include "parts/writer-start.c"
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const uint64_t at = REWRITE ? 0 : done;
        pwritev2_dsync(fd, pattern_at(at), size, at, path);
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
