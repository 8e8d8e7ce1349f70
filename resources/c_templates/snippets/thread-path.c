
/* Thread t's file: OUTPUT itself with one thread or one file shared by all (SHARED_FILE); OUTPUT.1,
 * OUTPUT.2, ... with a file per thread. */
static void thread_path(int t, char *path, size_t size)
{
    const int n = THREADS == 1 || SHARED_FILE ? snprintf(path, size, "%s", g_path)
                                              : snprintf(path, size, "%s.%d", g_path, t + 1);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "iolab-case: the path %s is too long\n", g_path);
        exit(2);
    }
}

/* How many files the threads have: one each, or the one they share. */
#define FILES_MADE (SHARED_FILE ? 1 : THREADS)
