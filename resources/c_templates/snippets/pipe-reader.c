
/* Thread t's pipe, and the thread that drains it: read(2) of 256 KiB at a time until the writer closes its
 * end. The pipes are made and the readers started before the timed part, as IOLab does. */
static int g_pipes[THREADS][2];
static pthread_t g_readers[THREADS];

static void *drain(void *arg)
{
    const int t = (int)(intptr_t)arg;
    if (READER_CPU != 0)
        pin_to(cpu_for(t, 1));
    unsigned char *buffer = allocate(256 * 1024);
    for (;;) {
        const ssize_t n = read(g_pipes[t][0], buffer, 256 * 1024);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("read (pipe reader)", "", errno);
        if (n == 0)
            break;
    }
    if (close(g_pipes[t][0]) != 0)
        fail("close (pipe reader)", "", errno);
    free(buffer);
    return NULL;
}

static void start_readers(void)
{
    if (READER_CPU != 0)
        find_cpus();
    for (int t = 0; t < THREADS; ++t) {
        if (pipe2(g_pipes[t], O_CLOEXEC) != 0)
            fail("pipe2", "", errno);
        const int error = pthread_create(&g_readers[t], NULL, drain, (void *)(intptr_t)t);
        if (error != 0)
            fail("pthread_create", "", error);
    }
}

/* The end of thread t's stream, in the timed part: the data counts once its reader has it all. */
static void finish_stream(int t)
{
    if (close(g_pipes[t][1]) != 0)
        fail("close (pipe)", "", errno);
    const int error = pthread_join(g_readers[t], NULL);
    if (error != 0)
        fail("pthread_join", "", error);
}

static void report_pipe(uint64_t bytes, uint64_t calls, double seconds)
{
    printf("iolab-case: delivered %llu bytes through the pipe in %llu calls: %.1f MB/s (%.3f s, until the "
           "reader had every byte)\n",
           (unsigned long long)bytes, (unsigned long long)calls, (double)bytes / 1e6 / seconds, seconds);
}
