#define OUT_OF_MEMORY ENOMEM /* the error a failed malloc is named by */

static void remove_outputs(int check);

/* Says which call failed on what and why, removes what the program made, and ends it with status 1. */
static void fail(const char *call, const char *path, int error)
{
    fprintf(stderr, "iolab-case: %s%s%s failed: %s\n", call, path[0] != '\0' ? " " : "", path,
            strerror(error));
    remove_outputs(0);
    exit(1);
}

static double now_seconds(void)
{
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
        fail("clock_gettime", "", errno);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* Page-aligned memory, as O_DIRECT wants it. */
static void *allocate(size_t bytes)
{
    void *memory = NULL;
    const int error = posix_memalign(&memory, 4096, bytes > 0 ? bytes : 1);
    if (error != 0)
        fail("posix_memalign", "", error);
    return memory;
}
