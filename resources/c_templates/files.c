
/* The set: FILES files in folders of 64 under OUTPUT, with sizes drawn as IOLab draws them (quantiles of the
 * mix at (i + 1/2) / FILES, shuffled in IOLab's fixed order), so the set holds the files IOLab's did. */
#define FILES_PER_FOLDER 64u
static uint64_t g_sizes[FILES];
static int g_made_files[FILES];
static unsigned char g_made_folders[(FILES + FILES_PER_FOLDER - 1) / FILES_PER_FOLDER];
static int g_made_root;
static _Atomic uint64_t g_next;  /* the pool's next file */
static _Atomic uint64_t g_bytes; /* bytes read, over every file */

static void file_path(uint32_t i, char *path, size_t size)
{
    const int n = snprintf(path, size, "%s/%04u/f%06u.dat", g_path, i / FILES_PER_FOLDER, i);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "iolab-case: the path %s is too long\n", g_path);
        exit(2);
    }
}

static void folder_path(uint32_t folder, char *path, size_t size)
{
    const int n = snprintf(path, size, "%s/%04u", g_path, folder);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "iolab-case: the path %s is too long\n", g_path);
        exit(2);
    }
}

static void remove_outputs(int check)
{
    char path[PATH_MAX];
    for (uint32_t i = 0; i < FILES; ++i) {
        if (!g_made_files[i])
            continue;
        g_made_files[i] = 0;
        file_path(i, path, sizeof path);
        if (unlink(path) != 0 && check)
            fail("unlink", path, errno);
    }
    for (uint32_t folder = 0; folder < sizeof g_made_folders; ++folder) {
        if (!g_made_folders[folder])
            continue;
        g_made_folders[folder] = 0;
        folder_path(folder, path, sizeof path);
        if (rmdir(path) != 0 && check)
            fail("rmdir", path, errno);
    }
    if (g_made_root) {
        g_made_root = 0;
        if (rmdir(g_path) != 0 && check)
            fail("rmdir", g_path, errno);
    }
}

/* SplitMix64, IOLab's shuffle of the sizes. */
static uint64_t split_mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void draw_sizes(void)
{
    const double lo = (double)FILE_MIN_BYTES;
    const double hi = (double)FILE_MAX_BYTES;
    (void)hi;
    for (uint32_t i = 0; i < FILES; ++i) {
        const double u = (i + 0.5) / (double)FILES;
        (void)u;
        const double x = @SIZE_EXPRESSION@;
        uint64_t size = (uint64_t)(x + 0.5);
        if (size < FILE_MIN_BYTES)
            size = FILE_MIN_BYTES;
        if (size > FILE_MAX_BYTES)
            size = FILE_MAX_BYTES;
        g_sizes[i] = size;
    }
    uint64_t state = 0x101ab000ULL ^ FILES ^ ((uint64_t)FILE_MIN_BYTES << 20) ^ ((uint64_t)FILE_MAX_BYTES << 7);
    for (uint32_t i = FILES; i > 1; --i) {
        const uint64_t j = split_mix(&state) % i;
        const uint64_t swap = g_sizes[i - 1];
        g_sizes[i - 1] = g_sizes[j];
        g_sizes[j] = swap;
    }
}

/* The set written before the timed part, each file from its own place in the pattern as IOLab's are, then
 * put in the case's cache state. */
static void make_set(void)
{
    char path[PATH_MAX];
    if (mkdir(g_path, 0755) != 0)
        fail("mkdir", g_path, errno);
    g_made_root = 1;
    for (uint32_t folder = 0; folder < sizeof g_made_folders; ++folder) {
        folder_path(folder, path, sizeof path);
        if (mkdir(path, 0755) != 0)
            fail("mkdir", path, errno);
        g_made_folders[folder] = 1;
    }
    for (uint32_t i = 0; i < FILES; ++i) {
        file_path(i, path, sizeof path);
        write_data_file(path, g_sizes[i], (uint64_t)i * 40503u % PATTERN_PERIOD, &g_made_files[i]);
    }
    for (uint32_t i = 0; i < FILES; ++i) {
        file_path(i, path, sizeof path);
        set_cache_state(path);
    }
}

/* One file, the plain way: open(2), the hint, read(2) of a chunk at a time until one comes back short,
 * close(2). */
static void read_file(uint32_t i, unsigned char *buffer)
{
    char path[PATH_MAX];
    file_path(i, path, sizeof path);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open", path, errno);
    advise(fd, path);
    uint64_t bytes = 0;
    for (;;) {
        uint64_t got = 0;
        while (got < CHUNK_BYTES) {
            const ssize_t n = read(fd, buffer + got, CHUNK_BYTES - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                fail("read", path, errno);
            if (n == 0)
                break;
            got += (uint64_t)n;
        }
        bytes += got;
        if (got < CHUNK_BYTES)
            break;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
    if (bytes != g_sizes[i])
        fail_short(path);
    atomic_fetch_add(&g_bytes, bytes);
}

/* A pool worker: the next file of the shared list until none is left. */
static void *pool_worker(void *arg)
{
    (void)arg;
    unsigned char *buffer = allocate(CHUNK_BYTES);
    for (;;) {
        const uint64_t i = atomic_fetch_add(&g_next, 1);
        if (i >= FILES)
            break;
        read_file((uint32_t)i, buffer);
    }
    free(buffer);
    return NULL;
}

/* files-per-thread: one thread for file i. */
static void *file_worker(void *arg)
{
    unsigned char *buffer = allocate(CHUNK_BYTES);
    read_file((uint32_t)(uintptr_t)arg, buffer);
    free(buffer);
    return NULL;
}

/* Starts `count` threads running work(i) and waits for them. */
static void run_workers(uint32_t count, void *(*work)(void *))
{
    pthread_t *threads = malloc(count * sizeof *threads);
    if (threads == NULL)
        fail("malloc", "", OUT_OF_MEMORY);
    for (uint32_t i = 0; i < count; ++i) {
        const int error = pthread_create(&threads[i], NULL, work, (void *)(uintptr_t)i);
        if (error != 0)
            fail("pthread_create", "", error);
    }
    for (uint32_t i = 0; i < count; ++i) {
        const int error = pthread_join(threads[i], NULL);
        if (error != 0)
            fail("pthread_join", "", error);
    }
    free(threads);
}

#include "parts/main-start.c"
    draw_sizes();
    make_set();
    const double started = now_seconds();
    if (FILE_PARALLELISM == 0)
        pool_worker(NULL);
    else if (FILE_PARALLELISM == 1)
        run_workers(THREADS < FILES ? THREADS : FILES, pool_worker);
    else
        run_workers(FILES, file_worker);
    const double seconds = now_seconds() - started;
    const uint64_t bytes = atomic_load(&g_bytes);
    printf("iolab-case: read %u files, %llu bytes, in %.3f s: %.1f MB/s, %.0f files/s\n", (unsigned)FILES,
           (unsigned long long)bytes, seconds, (double)bytes / 1e6 / seconds, FILES / seconds);
    remove_outputs(1);
    return 0;
}
