
/* Each thread's ring of page-aligned buffers: vmsplice hands the pipe the buffer's pages, so a buffer is
 * filled again only once the reader must have taken them all out; with a pipe one chunk long that is a
 * double buffer. */
static unsigned char *g_rings[THREADS];
static size_t g_strides[THREADS];
static size_t g_counts[THREADS];

/* The largest pipe an unprivileged process may ask for. */
static long pipe_max_bytes(void)
{
    long value = 1024 * 1024;
    FILE *file = fopen("/proc/sys/fs/pipe-max-size", "r");
    if (file != NULL) {
        if (fscanf(file, "%ld", &value) != 1)
            value = 1024 * 1024;
        fclose(file);
    }
    return value;
}

/* Thread t's pipe sized to the chunk (F_SETPIPE_SZ), and its ring. */
static void make_ring(int t)
{
    const long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        fail("sysconf(_SC_PAGESIZE)", "", errno != 0 ? errno : EINVAL);
    long wanted = (long)((CHUNK_BYTES + (uint64_t)page - 1) / (uint64_t)page) * page;
    const long largest = pipe_max_bytes();
    if (wanted > largest)
        wanted = largest;
    if (fcntl(g_pipes[t][1], F_SETPIPE_SZ, (int)wanted) < 0)
        fprintf(stderr, "iolab-case: F_SETPIPE_SZ %ld failed: %s; the pipe keeps its size, as in IOLab\n",
                wanted, strerror(errno));
    const int pipe_bytes = fcntl(g_pipes[t][1], F_GETPIPE_SZ);
    if (pipe_bytes <= 0)
        fail("fcntl(F_GETPIPE_SZ)", "", errno);
    const size_t slots = (size_t)pipe_bytes / (size_t)page;
    const size_t chunk_pages = (CHUNK_BYTES + (size_t)page - 1) / (size_t)page;
    g_strides[t] = chunk_pages * (size_t)page;
    g_counts[t] = (slots + chunk_pages - 1) / chunk_pages + 1;
    void *ring = mmap(NULL, g_strides[t] * g_counts[t], PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (ring == MAP_FAILED)
        fail("mmap (vmsplice ring)", "", errno);
    g_rings[t] = ring;
}

/* One thread: memcpy of each chunk into the next ring buffer, then vmsplice(2) of its pages into the pipe. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    if (READER_CPU != 0)
        pin_to(cpu_for(t, 0));
    const int fd = g_pipes[t][1];
    const uint64_t bytes = thread_bytes(t);
    size_t next = 0;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        unsigned char *const buffer = g_rings[t] + next * g_strides[t];
        next = next + 1 == g_counts[t] ? 0 : next + 1;
        memcpy(buffer, pattern_at(done), size);
        struct iovec iov = {buffer, size};
        while (iov.iov_len > 0) {
            const ssize_t n = vmsplice(fd, &iov, 1, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                fail("vmsplice", "", errno);
            iov.iov_base = (unsigned char *)iov.iov_base + n;
            iov.iov_len -= (size_t)n;
        }
        done += size;
        ++calls;
    }
    finish_stream(t);
#include "parts/thread-end.c"

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: %s (the program writes into pipes, not files)\n", argv[0]);
        return 2;
    }
    make_pattern();
    start_readers();
    for (int t = 0; t < THREADS; ++t)
        make_ring(t);
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    report_pipe(total(g_done), total(g_calls), returned - started);
    return 0;
}
