
static const unsigned char *g_maps[THREADS];
static unsigned char *g_buffers[THREADS];

/* One thread: its whole file mapped (mmap, madvise with the case's hint) and each chunk copied out of the
 * mapping: the page faults do the reading, the copy is what read(2) would have delivered. */
static void *reader(void *arg)
{
    const int t = (int)(intptr_t)arg;
    const unsigned char *const map = g_maps[t];
    unsigned char *const buffer = g_buffers[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes) {
        if (calls % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        memcpy(buffer, map + done, size);
        done += size;
        ++calls;
    }
#include "parts/thread-end.c"

#include "parts/main-start.c"
    prepare_data();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            fail("open", path, errno);
        void *map = mmap(NULL, thread_bytes(t), PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
            fail("mmap", path, errno);
        if (madvise(map, thread_bytes(t), MADVISE_HINT) != 0)
            fail("madvise", path, errno);
        if (close(fd) != 0)
            fail("close", path, errno);
        g_maps[t] = map;
        g_buffers[t] = allocate(CHUNK_BYTES);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(reader);
    const double returned = now_seconds();
    for (int t = 0; t < THREADS; ++t) {
        if (munmap((void *)g_maps[t], thread_bytes(t)) != 0)
            fail("munmap", g_path, errno);
    }
    report_read(total(g_done), total(g_calls), returned - started);
    remove_outputs(1);
    return 0;
}
