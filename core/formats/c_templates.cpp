// SPDX-License-Identifier: MIT
// The C programs' templates, as C. The snippets come first, in the order a program prints them; then one
// template per strategy family. Placeholders: @NAME@, filled by core/formats/c_program.cpp (the case's values
// are #defines it prints above the snippets; a template's @NAME@s are its strategy's calls).
#include "core/formats/c_templates.h"

#include <algorithm>

namespace iolab::c_templates {

namespace {

// ---------------------------------------------------------------------------------------------- snippets

constexpr std::string_view kBase = R"C(static void remove_outputs(int check);

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
)C";

constexpr std::string_view kArguments = R"C(
static const char *g_path; /* what the program writes: its argument, or DEFAULT_PATH */

static void take_arguments(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: %s [OUTPUT]\n  OUTPUT: @OUTPUT_WORDS@ (default: %s)\n", argv[0], DEFAULT_PATH);
        exit(2);
    }
    g_path = argc == 2 ? argv[1] : DEFAULT_PATH;
}
)C";

constexpr std::string_view kPattern = R"C(
/* @PATTERN_COMMENT@ The buffer holds one period of 256 KiB plus a chunk: the data of any write is the
 * contiguous window pattern_at(offset), page aligned at chunk multiples. */
#define PATTERN_PERIOD (256u * 1024u)
static unsigned char *g_pattern;
@PATTERN_SOURCE@
static void make_pattern(void)
{
    const size_t bytes = PATTERN_PERIOD + (CHUNK_BYTES + 4095) / 4096 * 4096;
    g_pattern = allocate(bytes);
@PATTERN_FILL@
}

static const unsigned char *pattern_at(uint64_t offset)
{
    return g_pattern + offset % PATTERN_PERIOD;
}
)C";

constexpr std::string_view kDeadline = R"C(
/* The case's time limit: the timed part ends at the case's size or after TIME_LIMIT_SECONDS, whichever comes
 * first (0: no limit, and no clock read in the loop). */
static double g_deadline;

static int time_is_up(void)
{
    return TIME_LIMIT_SECONDS > 0 && now_seconds() >= g_deadline;
}
)C";

constexpr std::string_view kThreads = R"C(
static uint64_t g_done[THREADS];  /* the bytes each thread moved */
static uint64_t g_calls[THREADS]; /* the calls it made */

/* Runs work(t) on THREADS threads at once and waits for all of them. */
static void run_threads(void *(*work)(void *))
{
    static pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        const int error = pthread_create(&threads[t], NULL, work, (void *)(intptr_t)t);
        if (error != 0)
            fail("pthread_create", "", error);
    }
    for (int t = 0; t < THREADS; ++t) {
        const int error = pthread_join(threads[t], NULL);
        if (error != 0)
            fail("pthread_join", "", error);
    }
}

static uint64_t total(const uint64_t *values)
{
    uint64_t sum = 0;
    for (int t = 0; t < THREADS; ++t)
        sum += values[t];
    return sum;
}
)C";

constexpr std::string_view kThreadShare = R"C(
/* IOLab's threads split the case's size: an even share each, the remainder to the last. */
static uint64_t thread_bytes(int t)
{
    const uint64_t share = TOTAL_BYTES / THREADS;
    return t == THREADS - 1 ? TOTAL_BYTES - share * (THREADS - 1) : share;
}
)C";

constexpr std::string_view kThreadPath = R"C(
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
)C";

constexpr std::string_view kWriteFully = R"C(
/* write(2) until all of it is written. */
static void write_fully(int fd, const unsigned char *data, uint64_t size, const char *call, const char *path)
{
    while (size > 0) {
        const ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail(call, path, EIO);
        data += n;
        size -= (uint64_t)n;
    }
}
)C";

constexpr std::string_view kPwriteFully = R"C(
/* pwrite(2) until all of it is written. */
static void pwrite_fully(int fd, const unsigned char *data, uint64_t size, uint64_t offset, const char *call,
                         const char *path)
{
    while (size > 0) {
        const ssize_t n = pwrite(fd, data, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail(call, path, EIO);
        data += n;
        size -= (uint64_t)n;
        offset += (uint64_t)n;
    }
}
)C";

constexpr std::string_view kShortRead = R"C(
/* A file that ended before the bytes the program wrote into it: it changed while the program ran. */
static void fail_short(const char *path)
{
    fprintf(stderr, "iolab-case: %s ended early: it changed while the program ran\n", path);
    remove_outputs(0);
    exit(1);
}
)C";

constexpr std::string_view kReadFully = R"C(
/* read(2) until `size` bytes have come. */
static void read_fully(int fd, unsigned char *into, uint64_t size, const char *call, const char *path)
{
    while (size > 0) {
        const ssize_t n = read(fd, into, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail_short(path);
        into += n;
        size -= (uint64_t)n;
    }
}
)C";

constexpr std::string_view kPreadFully = R"C(
/* pread(2) until `size` bytes have come. */
static void pread_fully(int fd, unsigned char *into, uint64_t size, uint64_t offset, const char *call,
                        const char *path)
{
    while (size > 0) {
        const ssize_t n = pread(fd, into, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail_short(path);
        into += n;
        size -= (uint64_t)n;
        offset += (uint64_t)n;
    }
}
)C";

constexpr std::string_view kRemoveFiles = R"C(
static int g_made[THREADS]; /* the files this program created: only those are removed */

static void remove_outputs(int check)
{
    char path[PATH_MAX];
    for (int t = 0; t < FILES_MADE; ++t) {
        if (!g_made[t])
            continue;
        g_made[t] = 0;
        thread_path(t, path, sizeof path);
        if (unlink(path) != 0 && check)
            fail("unlink", path, errno);
    }
}
)C";

constexpr std::string_view kRemoveNothingNull = R"C(
static int g_made[THREADS]; /* stays 0: the null device stores nothing, so nothing is removed */

static void remove_outputs(int check)
{
    (void)check;
    (void)g_made;
}
)C";

constexpr std::string_view kRemoveNothing = R"C(
static void remove_outputs(int check)
{
    (void)check; /* the program makes no file */
}
)C";

constexpr std::string_view kSync = R"C(
/* The sync policy's call. */
static void sync_file(int fd, const char *path)
{
    if (SYNC_CALL(fd) != 0)
        fail(SYNC_NAME, path, errno);
}
)C";

constexpr std::string_view kReserveSpace = R"C(
/* Preallocate fallocate: the file's space reserved before the timed part. */
static void reserve_space(int fd, const char *path, uint64_t bytes)
{
    if (bytes > 0 && fallocate(fd, 0, 0, (off_t)bytes) != 0)
        fail("fallocate", path, errno);
}
)C";

constexpr std::string_view kWriteBeforehand = R"C(
/* Preallocate overwrite (the whole file) or rewrite (its first chunk): written with other bytes and made
 * durable before the timed part, then dropped from the page cache, so that the timed part overwrites blocks
 * that exist, with nothing cached. */
static void write_beforehand(const char *path, uint64_t bytes)
{
    static unsigned char piece[65536];
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open (preallocate)", path, errno);
    for (uint64_t offset = 0; offset < bytes; offset += sizeof piece) {
        const uint64_t size = bytes - offset < sizeof piece ? bytes - offset : sizeof piece;
        for (uint64_t i = 0; i < size; ++i)
            piece[i] = (unsigned char)~pattern_at(offset + i)[0];
        write_fully(fd, piece, size, "write (preallocate)", path);
    }
    if (fdatasync(fd) != 0)
        fail("fdatasync (preallocate)", path, errno);
    const int error = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (error != 0)
        fail("posix_fadvise(DONTNEED) (preallocate)", path, error);
    if (close(fd) != 0)
        fail("close", path, errno);
}
)C";

constexpr std::string_view kOpenOutput = R"C(
/* A new file, opened as IOLab opens it (O_CREAT | O_EXCL, the case's O_DIRECT and the sync policy's O_SYNC or
 * O_DSYNC), then prepared as the case's preallocation says, before the timed part. */
static int open_output(const char *path, int flags, uint64_t bytes, int *made)
{
    const int fd = open(path, flags | O_CREAT | O_EXCL | O_CLOEXEC | OPEN_SYNC_FLAGS, 0644);
    if (fd < 0)
        fail((flags & O_DIRECT) != 0 ? "open(O_DIRECT)" : "open", path, errno);
    *made = 1;
@PREPARE@    return fd;
}
)C";

constexpr std::string_view kOpenNull = R"C(
/* The null device: it stores nothing, so there is nothing to sync or remove. */
static int open_output(const char *path, int flags, uint64_t bytes, int *made)
{
    (void)path;
    (void)bytes;
    (void)made;
    const int fd = open("/dev/null", flags | O_CLOEXEC | OPEN_SYNC_FLAGS);
    if (fd < 0)
        fail("open", "/dev/null", errno);
    return fd;
}
)C";

constexpr std::string_view kDurableFiles = R"C(
/* IOLab's durable time: the timed part, then an fsync of every file it wrote. */
static void make_durable(void)
{
    char path[PATH_MAX];
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            fail("open", path, errno);
        if (fsync(fd) != 0)
            fail("fsync", path, errno);
        if (close(fd) != 0)
            fail("close", path, errno);
    }
}
)C";

constexpr std::string_view kDurableNull = R"C(
static void make_durable(void)
{
    /* the null device keeps nothing: the durable time is the apparent one */
}
)C";

constexpr std::string_view kReportWrite = R"C(
static void report_write(uint64_t bytes, uint64_t calls, double seconds, double durable_seconds)
{
    printf("iolab-case: wrote %llu bytes in %llu calls: %.1f MB/s apparent (%.3f s, until the last call "
           "returned), %.1f MB/s durable (%.3f s, with the final fsync), %.0f calls/s\n",
           (unsigned long long)bytes, (unsigned long long)calls, (double)bytes / 1e6 / seconds, seconds,
           (double)bytes / 1e6 / durable_seconds, durable_seconds, (double)calls / seconds);
}
)C";

constexpr std::string_view kReportRead = R"C(
static void report_read(uint64_t bytes, uint64_t calls, double seconds)
{
    printf("iolab-case: read %llu bytes in %llu calls: %.1f MB/s (%.3f s)\n", (unsigned long long)bytes,
           (unsigned long long)calls, (double)bytes / 1e6 / seconds, seconds);
}
)C";

constexpr std::string_view kDataFile = R"C(
/* The data a read case reads, written before the timed part as IOLab writes it (IOLab's bytes from pattern
 * offset `pattern`), then made durable. */
static void write_data_file(const char *path, uint64_t bytes, uint64_t pattern, int *made)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        fail("open", path, errno);
    *made = 1;
    for (uint64_t offset = 0; offset < bytes; offset += CHUNK_BYTES) {
        const uint64_t size = bytes - offset < CHUNK_BYTES ? bytes - offset : CHUNK_BYTES;
        write_fully(fd, pattern_at(pattern + offset), size, "write", path);
    }
    if (fdatasync(fd) != 0)
        fail("fdatasync", path, errno);
    if (close(fd) != 0)
        fail("close", path, errno);
}
)C";

constexpr std::string_view kCacheCold = R"C(
/* Cold: the file evicted from the page cache before the timed part, as IOLab evicts it (fdatasync, then
 * POSIX_FADV_DONTNEED). */
static void set_cache_state(const char *path)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open (evict)", path, errno);
    if (fdatasync(fd) != 0)
        fail("fdatasync (evict)", path, errno);
    const int error = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (error != 0)
        fail("posix_fadvise(DONTNEED)", path, error);
    if (close(fd) != 0)
        fail("close", path, errno);
}
)C";

constexpr std::string_view kCacheWarm = R"C(
/* Warm: the file read once before the timed part, so that the page cache holds it, as IOLab does. */
static void set_cache_state(const char *path)
{
    static unsigned char piece[65536];
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open (warm)", path, errno);
    for (;;) {
        const ssize_t n = read(fd, piece, sizeof piece);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("read (warm)", path, errno);
        if (n == 0)
            break;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
}
)C";

constexpr std::string_view kAdvise = R"C(
/* The case's access hint, given once when the file is opened. */
static void advise(int fd, const char *path)
{
    const int error = posix_fadvise(fd, 0, 0, FADVISE_HINT);
    if (error != 0)
        fail("posix_fadvise", path, error);
}
)C";

constexpr std::string_view kOpenInput = R"C(
/* A file to read, opened as IOLab opens it (O_DIRECT as the case has it), with the case's hint. */
static int open_input(const char *path, int flags)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0)
        fail((flags & O_DIRECT) != 0 ? "open(O_DIRECT)" : "open", path, errno);
    advise(fd, path);
    return fd;
}
)C";

constexpr std::string_view kPrepareData = R"C(
/* The data every thread reads, written and put in the case's cache state before the timed part. */
static void prepare_data(void)
{
    char path[PATH_MAX];
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        write_data_file(path, SHARED_FILE ? TOTAL_BYTES : thread_bytes(t), 0, &g_made[t]);
    }
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        set_cache_state(path);
    }
}
)C";

constexpr std::string_view kChunkOrder = R"C(
/* Every chunk of a file once, in a random order: a Fisher-Yates shuffle driven by xorshift64*, seeded per
 * thread so that the threads do not walk in step. */
static uint64_t *chunk_order(int t, uint64_t chunks)
{
    uint64_t *order = malloc((chunks > 0 ? chunks : 1) * sizeof *order);
    if (order == NULL)
        fail("malloc", "", ENOMEM);
    for (uint64_t i = 0; i < chunks; ++i)
        order[i] = i;
    uint64_t state = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1);
    for (uint64_t i = chunks; i > 1; --i) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const uint64_t j = (state * 0x2545f4914f6cdd1dULL) % i;
        const uint64_t swap = order[i - 1];
        order[i - 1] = order[j];
        order[j] = swap;
    }
    return order;
}
)C";

constexpr std::string_view kRandomOffsets = R"C(
/* Chunk-aligned random offsets over a file, drawn as IOLab draws them (xorshift64*, seeded per thread): the
 * offsets IOLab read. */
struct random_offsets
{
    uint64_t state;
    uint64_t slots;
};

static struct random_offsets random_offsets_for(int t, uint64_t file_bytes)
{
    struct random_offsets r = {0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1), file_bytes / CHUNK_BYTES};
    if (r.slots == 0)
        r.slots = 1;
    return r;
}

static uint64_t next_offset(struct random_offsets *r)
{
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return ((r->state * 0x2545f4914f6cdd1dULL) % r->slots) * CHUNK_BYTES;
}
)C";

constexpr std::string_view kStdioBuffer = R"C(
/* The case's stdio buffer: setvbuf with none (_IONBF) or a buffer of STDIO_BUFFER_BYTES; the default leaves
 * the C library's own (glibc: the filesystem's block size). */
static char *g_stdio_buffers[THREADS];

static void apply_buffer(FILE *file, int t, const char *path)
{
    if (STDIO_BUFFER == 1 && setvbuf(file, NULL, _IONBF, 0) != 0)
        fail("setvbuf", path, errno != 0 ? errno : EINVAL);
    if (STDIO_BUFFER == 2) {
        g_stdio_buffers[t] = malloc(STDIO_BUFFER_BYTES);
        if (g_stdio_buffers[t] == NULL)
            fail("malloc", "", ENOMEM);
        if (setvbuf(file, g_stdio_buffers[t], _IOFBF, STDIO_BUFFER_BYTES) != 0)
            fail("setvbuf", path, errno != 0 ? errno : EINVAL);
    }
}
)C";

constexpr std::string_view kStdioSync = R"C(
/* The sync policy through stdio: what the FILE holds goes to the kernel (fflush), then the sync call. */
static void flush_and_sync(FILE *file, const char *path)
{
    if (fflush(file) != 0)
        fail("fflush", path, errno);
    sync_file(fileno(file), path);
}
)C";

constexpr std::string_view kStdioOpen = R"C(
/* Thread t's FILE on a file opened as IOLab opens it, with the case's buffer. */
static FILE *open_stream(int t, const char *path, int flags, const char *mode)
{
    const int fd = flags == O_RDONLY ? open(path, O_RDONLY | O_CLOEXEC)
                                     : open_output(path, flags, thread_bytes(t), &g_made[t]);
    if (fd < 0)
        fail("open", path, errno);
    FILE *file = fdopen(fd, mode);
    if (file == NULL)
        fail("fdopen", path, errno);
    apply_buffer(file, t, path);
    return file;
}
)C";

constexpr std::string_view kPin = R"C(
/* The reader CPU axis: each writer and its reader pinned to one CPU (same) or to two (other), chosen among the
 * CPUs this process may run on as IOLab chooses them. */
static int g_cpus[CPU_SETSIZE];
static int g_cpu_count;

static void find_cpus(void)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        fail("sched_getaffinity", "", errno);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &allowed))
            g_cpus[g_cpu_count++] = cpu;
    }
    if (g_cpu_count < (READER_CPU == 2 ? 2 : 1)) {
        fprintf(stderr, "iolab-case: the reader CPU axis needs %d CPUs, and this process may use %d\n",
                READER_CPU == 2 ? 2 : 1, g_cpu_count);
        exit(1);
    }
}

/* Thread t's writer's (reader = 0) or reader's (reader = 1) CPU. */
static int cpu_for(int t, int reader)
{
    if (READER_CPU == 1)
        return g_cpus[t % g_cpu_count];
    const int first = (t % (g_cpu_count / 2)) * 2;
    return g_cpus[first + reader];
}

static void pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    const int error = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (error != 0)
        fail("pthread_setaffinity_np", "", error);
}
)C";

constexpr std::string_view kPipeReader = R"C(
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
)C";

// ---------------------------------------------------------------------------------------------- templates

// write, direct, write-random, direct-random (IOLab's FdWriteJob: one loop, three orders).
constexpr std::string_view kFdWrite = R"C(
static int g_fds[THREADS];
static uint64_t *g_orders[THREADS]; /* RANDOM: each thread's order of its chunks */

/* One thread: write(2) per chunk from the front of its file; with RANDOM, pwrite(2) of every chunk once in a
 * shuffled order; under preallocate rewrite (REWRITE), pwrite(2) at offset 0 every time. The sync policy's
 * call every SYNC_EVERY full writes and after the last. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    const uint64_t full = bytes / CHUNK_BYTES;
    uint64_t done = 0;
    uint64_t calls = 0;
    uint64_t since_sync = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        if (RANDOM) {
            const uint64_t at = g_orders[t][calls] * CHUNK_BYTES;
            pwrite_fully(fd, pattern_at(at), bytes - at < CHUNK_BYTES ? bytes - at : CHUNK_BYTES, at, "pwrite",
                         path);
        } else if (REWRITE) {
            pwrite_fully(fd, pattern_at(0), size, 0, "pwrite", path);
        } else {
            write_fully(fd, pattern_at(done), size, "write", path);
        }
        done += size;
        ++calls;
        if (SYNC_EVERY > 0 && calls <= full && ++since_sync == SYNC_EVERY) {
            since_sync = 0;
            sync_file(fd, path);
        }
    }
    if (SYNC_AT_END)
        sync_file(fd, path);
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY | DIRECT_FLAG, thread_bytes(t), &g_made[t]);
        if (RANDOM)
            g_orders[t] = chunk_order(t, (thread_bytes(t) + CHUNK_BYTES - 1) / CHUNK_BYTES);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

// stdio, stdio-unlocked, stdio-unlocked-call: @FWRITE@ is the call, @CHUNK_VALUE@ the size it gets.
constexpr std::string_view kStdioWrite = R"C(
static FILE *g_files[THREADS];
@CHUNK_SOURCE@
/* One thread: @FWRITE@ of each chunk into its FILE, with the case's buffer and sync policy (fflush, then the
 * sync call, every SYNC_EVERY chunks, or after the last with fsync-end and fdatasync-end); the fclose that
 * hands the buffer's rest to the kernel is part of the timed part, as in IOLab. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
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
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_files[t] = open_stream(t, path, O_WRONLY, "wb");
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

// putc, putc-unlocked, fputc: @PUTC@ is the call.
constexpr std::string_view kPutc = R"C(
static FILE *g_files[THREADS];

/* One thread: @PUTC@ of each byte into its FILE, with the case's buffer and sync policy (fflush, then the
 * sync call, every SYNC_EVERY bytes, or after the last with fsync-end and fdatasync-end); the fclose is part
 * of the timed part, as in IOLab. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    FILE *const file = g_files[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t since_sync = 0;
    for (; done < bytes; ++done) {
        if (done % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        if (@PUTC@(pattern_at(done)[0], file) == EOF)
            fail("@PUTC@", path, errno != 0 ? errno : EIO);
        if (SYNC_EVERY > 0 && ++since_sync == SYNC_EVERY) {
            since_sync = 0;
            flush_and_sync(file, path);
        }
    }
    if (SYNC_AT_END)
        flush_and_sync(file, path);
    if (fclose(file) != 0)
        fail("fclose", path, errno);
    free(g_stdio_buffers[t]);
    g_done[t] = done;
    g_calls[t] = done;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_files[t] = open_stream(t, path, O_WRONLY, "wb");
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kMmapWindow = R"C(
static int g_fds[THREADS];

/* One thread: memcpy of each chunk into a WINDOW_BYTES MAP_SHARED window of its file (space reserved first
 * with fallocate), unmapping it and mapping the next as it fills; the sync policy's call after the last. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    unsigned char *window = NULL;
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes) {
        if (calls % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const unsigned char *source = pattern_at(done);
        uint64_t offset = done;
        uint64_t left = size;
        while (left > 0) {
            if (offset >= end) {
                if (window != NULL && munmap(window, WINDOW_BYTES) != 0)
                    fail("munmap", path, errno);
                start = offset - offset % WINDOW_BYTES;
                window = mmap(NULL, WINDOW_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)start);
                if (window == MAP_FAILED)
                    fail("mmap", path, errno);
                end = start + WINDOW_BYTES;
            }
            const uint64_t piece = left < end - offset ? left : end - offset;
            memcpy(window + (offset - start), source, piece);
            offset += piece;
            source += piece;
            left -= piece;
        }
        done += size;
        ++calls;
    }
    if (window != NULL && munmap(window, WINDOW_BYTES) != 0)
        fail("munmap", path, errno);
    if (SYNC_AT_END)
        sync_file(fd, path);
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_RDWR, thread_bytes(t), &g_made[t]);
        /* a store into a hole of a full disk would be a SIGBUS, not an error: the space is reserved first */
        if (thread_bytes(t) > 0 && fallocate(g_fds[t], 0, 0, (off_t)thread_bytes(t)) != 0)
            fail("fallocate", path, errno);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kMmapBatchDirect = R"C(
static int g_fds[THREADS];
static unsigned char *g_batches[THREADS];

/* One thread: memcpy of each chunk into a WINDOW_BYTES batch buffer mapped from a scratch file and, each time
 * it is full, pwrite(2) of the batch to the data file, opened O_DIRECT; the sync policy's call after the
 * last. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    unsigned char *const batch = g_batches[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t used = 0;
    uint64_t file_offset = 0;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes) {
        if (calls % TIME_CHECK_CALLS == 0 && time_is_up())
            break;
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const unsigned char *source = pattern_at(done);
        uint64_t left = size;
        while (left > 0) {
            const uint64_t piece = left < WINDOW_BYTES - used ? left : WINDOW_BYTES - used;
            memcpy(batch + used, source, piece);
            used += piece;
            source += piece;
            left -= piece;
            if (used == WINDOW_BYTES) {
                pwrite_fully(fd, batch, used, file_offset, "pwrite(O_DIRECT)", path);
                file_offset += used;
                used = 0;
            }
        }
        done += size;
        ++calls;
    }
    if (used > 0)
        pwrite_fully(fd, batch, used, file_offset, "pwrite(O_DIRECT)", path);
    if (SYNC_AT_END)
        sync_file(fd, path);
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    char scratch[PATH_MAX + 8];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY | O_DIRECT, thread_bytes(t), &g_made[t]);
        if (thread_bytes(t) > 0 && fallocate(g_fds[t], 0, 0, (off_t)thread_bytes(t)) != 0)
            fail("fallocate", path, errno);
        /* The batch lives in a mapping of a scratch file, removed once mapped: the mapping keeps it. */
        snprintf(scratch, sizeof scratch, "%s.batch", path);
        const int batch = open(scratch, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (batch < 0)
            fail("open", scratch, errno);
        if (unlink(scratch) != 0)
            fail("unlink", scratch, errno);
        if (fallocate(batch, 0, 0, WINDOW_BYTES) != 0)
            fail("fallocate", scratch, errno);
        g_batches[t] = mmap(NULL, WINDOW_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, batch, 0);
        if (g_batches[t] == MAP_FAILED)
            fail("mmap", scratch, errno);
        if (close(batch) != 0)
            fail("close", scratch, errno);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kGroupCommit = R"C(
static int g_fd;
static _Atomic uint64_t g_next;     /* the next chunk's offset in the shared file */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_round_done = PTHREAD_COND_INITIALIZER;
static uint64_t g_written;          /* writes completed, in the order they reported (under g_lock) */
static uint64_t g_synced;           /* writes covered by the last sync that returned */
static int g_syncing;               /* a writer is leading a sync round */

static void lock(void)
{
    const int error = pthread_mutex_lock(&g_lock);
    if (error != 0)
        fail("pthread_mutex_lock", "", error);
}

static void unlock(void)
{
    const int error = pthread_mutex_unlock(&g_lock);
    if (error != 0)
        fail("pthread_mutex_unlock", "", error);
}

/* Returns once a sync that began after this writer's write has completed: a writer that finds none running
 * leads one for every write completed so far; the others wait for it, as a database's log writers do. */
static void commit(void)
{
    lock();
    const uint64_t mine = ++g_written;
    while (g_synced < mine) {
        if (g_syncing) {
            const int error = pthread_cond_wait(&g_round_done, &g_lock);
            if (error != 0)
                fail("pthread_cond_wait", "", error);
            continue;
        }
        g_syncing = 1;
        const uint64_t covers = g_written;
        unlock();
        sync_file(g_fd, g_path);
        lock();
        g_syncing = 0;
        g_synced = covers;
        const int error = pthread_cond_broadcast(&g_round_done);
        if (error != 0)
            fail("pthread_cond_broadcast", "", error);
    }
    unlock();
}

/* One writer: takes the next chunk of the shared file, pwrite(2)s it and commits it, until the file is
 * full. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (!time_is_up()) {
        const uint64_t offset = atomic_fetch_add(&g_next, CHUNK_BYTES);
        if (offset >= TOTAL_BYTES)
            break;
        const uint64_t size = TOTAL_BYTES - offset < CHUNK_BYTES ? TOTAL_BYTES - offset : CHUNK_BYTES;
        pwrite_fully(g_fd, pattern_at(offset), size, offset, "pwrite", g_path);
        commit();
        done += size;
        ++calls;
    }
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    g_fd = open_output(g_path, O_WRONLY, TOTAL_BYTES, &g_made[0]);
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    if (close(g_fd) != 0)
        fail("close", g_path, errno);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kPipeWrite = R"C(
/* One thread: write(2) of each chunk into its pipe; its reader drains it. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    if (READER_CPU != 0)
        pin_to(cpu_for(t, 0));
    const int fd = g_pipes[t][1];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        write_fully(fd, pattern_at(done), size, "write (pipe)", "");
        done += size;
        ++calls;
    }
    finish_stream(t);
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: %s (the program writes into pipes, not files)\n", argv[0]);
        return 2;
    }
    make_pattern();
    start_readers();
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    report_pipe(total(g_done), total(g_calls), returned - started);
    return 0;
}
)C";

constexpr std::string_view kVmsplice = R"C(
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
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

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
)C";

// pwritev2-dsync and sync-file-range: one call per chunk that is itself the durability being measured.
constexpr std::string_view kPwritev2Dsync = R"C(
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
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
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
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY, thread_bytes(t), &g_made[t]);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kSyncFileRange = R"C(
static int g_fds[THREADS];

/* One thread: pwrite(2) of each chunk at its place (under preallocate rewrite, at offset 0), then
 * sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER) over it: written back, but neither flushed from the
 * device's cache nor with its metadata, so not durable. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const uint64_t at = REWRITE ? 0 : done;
        pwrite_fully(fd, pattern_at(at), size, at, "pwrite", path);
        if (sync_file_range(fd, (off_t)at, (off_t)size,
                            SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
            fail("sync_file_range", path, errno);
        done += size;
        ++calls;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY, thread_bytes(t), &g_made[t]);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kUringLinkedSync = R"C(
static int g_fds[THREADS];
static struct io_uring g_rings[THREADS];

/* One write, with the sync linked behind it (IOSQE_IO_LINK: the kernel starts the sync once the write has
 * completed) when `linked`, in one submission; returns once both have completed. A short write cancels the
 * sync, so the rest goes again with the sync behind it. */
static void write_and_sync(struct io_uring *ring, int fd, const unsigned char *data, uint64_t size,
                           uint64_t offset, int linked, const char *path)
{
    for (;;) {
        struct io_uring_sqe *write = io_uring_get_sqe(ring);
        if (write == NULL)
            fail("io_uring_get_sqe", path, EBUSY);
        io_uring_prep_write(write, fd, data, (unsigned)size, offset);
        io_uring_sqe_set_data(write, NULL);
        if (linked) {
            write->flags |= IOSQE_IO_LINK;
            struct io_uring_sqe *sync = io_uring_get_sqe(ring);
            if (sync == NULL)
                fail("io_uring_get_sqe", path, EBUSY);
            io_uring_prep_fsync(sync, fd, SYNC_DATA_ONLY ? IORING_FSYNC_DATASYNC : 0);
            io_uring_sqe_set_data(sync, (void *)1);
        }
        const unsigned entries = linked ? 2 : 1;
        int error = io_uring_submit(ring);
        if (error < 0)
            fail("io_uring_submit", path, -error);
        int written = 0;
        int synced = 0;
        for (unsigned seen = 0; seen < entries;) {
            struct io_uring_cqe *cqe = NULL;
            error = io_uring_wait_cqe(ring, &cqe);
            if (error == -EINTR)
                continue;
            if (error < 0)
                fail("io_uring_wait_cqe", path, -error);
            if (io_uring_cqe_get_data(cqe) == NULL)
                written = cqe->res;
            else
                synced = cqe->res;
            io_uring_cqe_seen(ring, cqe);
            ++seen;
        }
        if (written < 0)
            fail("io_uring write", path, -written);
        if (written == 0)
            fail("io_uring write", path, EIO);
        if ((uint64_t)written < size) {
            data += written;
            size -= (uint64_t)written;
            offset += (uint64_t)written;
            continue;
        }
        if (linked && synced < 0)
            fail("io_uring " SYNC_NAME, path, -synced);
        return;
    }
}

/* One thread: each chunk written at its place (under preallocate rewrite, at offset 0), the sync linked to
 * every SYNC_EVERY-th write; the sync policy's call after the last write covers the ones after the last link. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    const uint64_t bytes = thread_bytes(t);
    uint64_t until_sync = SYNC_EVERY;
    uint64_t done = 0;
    uint64_t calls = 0;
    while (done < bytes && !time_is_up()) {
        const uint64_t size = bytes - done < CHUNK_BYTES ? bytes - done : CHUNK_BYTES;
        const uint64_t at = REWRITE ? 0 : done;
        const int linked = --until_sync == 0;
        if (linked)
            until_sync = SYNC_EVERY;
        write_and_sync(&g_rings[t], fd, pattern_at(at), size, at, linked, path);
        done += size;
        ++calls;
    }
    if (SYNC_AT_END)
        sync_file(fd, path);
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        const int error = io_uring_queue_init(2, &g_rings[t], 0);
        if (error < 0)
            fail("io_uring_queue_init", "", -error);
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY, thread_bytes(t), &g_made[t]);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    for (int t = 0; t < THREADS; ++t)
        io_uring_queue_exit(&g_rings[t]);
    remove_outputs(1);
    return 0;
}
)C";

// read, read-direct, read-random, read-random-direct (IOLab's FdReadJob: one loop, two orders).
constexpr std::string_view kFdRead = R"C(
static int g_fds[THREADS];
static unsigned char *g_buffers[THREADS];

/* One thread: read(2) of each chunk from the front of its file into a page-aligned buffer; with RANDOM,
 * pread(2) of chunks at random chunk-aligned offsets of the one file all threads share. */
static void *reader(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
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
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    prepare_data();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        g_fds[t] = open_input(path, DIRECT_FLAG);
        g_buffers[t] = allocate(CHUNK_BYTES);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(reader);
    const double returned = now_seconds();
    report_read(total(g_done), total(g_calls), returned - started);
    remove_outputs(1);
    return 0;
}
)C";

// fread, fread-unlocked: @FREAD@ is the call.
constexpr std::string_view kFread = R"C(
static FILE *g_files[THREADS];
static unsigned char *g_buffers[THREADS];

/* One thread: @FREAD@ of each chunk from its FILE, with the case's buffer; fclose is part of the timed part,
 * as in IOLab. */
static void *reader(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
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
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
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
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(reader);
    const double returned = now_seconds();
    report_read(total(g_done), total(g_calls), returned - started);
    remove_outputs(1);
    return 0;
}
)C";

constexpr std::string_view kMmapRead = R"C(
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
    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
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
)C";

// files-serial, files-pool, files-per-thread: FILE_PARALLELISM says which.
constexpr std::string_view kFiles = R"C(
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
        fail("malloc", "", ENOMEM);
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

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
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
)C";

// uring-write, uring-write-direct, uring-random-write, uring-random-write-direct.
constexpr std::string_view kUringWrite = R"C(
static int g_fds[THREADS];
static struct io_uring g_rings[THREADS];
static uint64_t *g_orders[THREADS]; /* RANDOM: each thread's order of its chunks */

/* One thread: QUEUE_DEPTH writes in flight on a ring of its own, from the front of its file or, with RANDOM,
 * every chunk once in a shuffled order. A sync every SYNC_EVERY full writes goes in line (IOSQE_IO_DRAIN: it
 * starts once every write before it has completed, and the writes after it wait for it); the sync policy's
 * call after the last write. */
static void *writer(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    struct io_uring *const ring = &g_rings[t];
    const uint64_t bytes = thread_bytes(t);
    const uint64_t requests = (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
    const uint64_t full = bytes / CHUNK_BYTES;
    uint64_t submitted = 0;
    uint64_t in_flight = 0;
    uint64_t since_sync = 0;
    uint64_t done = 0;
    int sync_due = 0;
    int stopped = 0;
    for (;;) {
        while (!stopped && in_flight < QUEUE_DEPTH && (sync_due || submitted < requests)) {
            if (time_is_up()) {
                stopped = 1;
                break;
            }
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            if (sqe == NULL)
                fail("io_uring_get_sqe", path, EBUSY);
            if (sync_due) {
                io_uring_prep_fsync(sqe, fd, SYNC_DATA_ONLY ? IORING_FSYNC_DATASYNC : 0);
                sqe->flags |= IOSQE_IO_DRAIN;
                io_uring_sqe_set_data(sqe, NULL);
                sync_due = 0;
            } else {
                const uint64_t at = (RANDOM ? g_orders[t][submitted] : submitted) * CHUNK_BYTES;
                const uint64_t size = bytes - at < CHUNK_BYTES ? bytes - at : CHUNK_BYTES;
                io_uring_prep_write(sqe, fd, pattern_at(at), (unsigned)size, at);
                io_uring_sqe_set_data(sqe, (void *)(uintptr_t)size);
                ++submitted;
                if (SYNC_EVERY > 0 && submitted <= full && ++since_sync == SYNC_EVERY) {
                    since_sync = 0;
                    sync_due = 1;
                }
            }
            ++in_flight;
            /* A quarter of the queue at a time, without waiting, as IOLab's loop: a queue refilled at once
               would reach the device in one burst. */
            if (QUEUE_DEPTH >= 4 && io_uring_sq_ready(ring) >= QUEUE_DEPTH / 4)
                io_uring_submit(ring);
        }
        if (in_flight == 0)
            break;
        const int error = io_uring_submit_and_wait(ring, 1);
        if (error < 0 && error != -EINTR)
            fail("io_uring_submit_and_wait", path, -error);
        unsigned head;
        unsigned seen = 0;
        struct io_uring_cqe *cqe;
        io_uring_for_each_cqe(ring, head, cqe)
        {
            const uint64_t size = (uint64_t)(uintptr_t)io_uring_cqe_get_data(cqe);
            if (cqe->res < 0)
                fail(size == 0 ? "io_uring " SYNC_NAME : "io_uring write", path, -cqe->res);
            if (size != 0 && (uint64_t)cqe->res != size)
                fail("io_uring write (short)", path, EIO);
            done += size;
            ++seen;
        }
        io_uring_cq_advance(ring, seen);
        in_flight -= seen;
    }
    if (SYNC_AT_END)
        sync_file(fd, path);
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = submitted;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        const int error = io_uring_queue_init(RING_ENTRIES, &g_rings[t], 0);
        if (error < 0)
            fail("io_uring_queue_init", "", -error);
        thread_path(t, path, sizeof path);
        g_fds[t] = open_output(path, O_WRONLY | DIRECT_FLAG, thread_bytes(t), &g_made[t]);
        if (RANDOM)
            g_orders[t] = chunk_order(t, (thread_bytes(t) + CHUNK_BYTES - 1) / CHUNK_BYTES);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    for (int t = 0; t < THREADS; ++t)
        io_uring_queue_exit(&g_rings[t]);
    remove_outputs(1);
    return 0;
}
)C";

// uring-read, uring-read-direct, uring-random-read, uring-random-read-direct.
constexpr std::string_view kUringRead = R"C(
/* Each request reads into a slot of its own: a chunk rounded up to a page, page aligned for O_DIRECT. */
#define SLOT_BYTES ((CHUNK_BYTES + 4095) / 4096 * 4096)
static int g_fds[THREADS];
static struct io_uring g_rings[THREADS];
static unsigned char *g_slots[THREADS];

/* One thread: QUEUE_DEPTH reads in flight on a ring of its own, from the front of its file or, with RANDOM,
 * at random chunk-aligned offsets of the one file all threads share. */
static void *reader(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
    const int fd = g_fds[t];
    struct io_uring *const ring = &g_rings[t];
    const uint64_t bytes = thread_bytes(t);
    const uint64_t requests = (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
    struct random_offsets offsets = random_offsets_for(t, TOTAL_BYTES);
    unsigned free_slots[QUEUE_DEPTH];
    uint64_t sizes[QUEUE_DEPTH];
    unsigned free_count = QUEUE_DEPTH;
    for (unsigned i = 0; i < QUEUE_DEPTH; ++i)
        free_slots[i] = i;
    uint64_t submitted = 0;
    uint64_t in_flight = 0;
    uint64_t done = 0;
    int stopped = 0;
    for (;;) {
        while (!stopped && free_count > 0 && submitted < requests) {
            if (time_is_up()) {
                stopped = 1;
                break;
            }
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            if (sqe == NULL)
                fail("io_uring_get_sqe", path, EBUSY);
            const unsigned slot = free_slots[--free_count];
            const uint64_t left = bytes - submitted * CHUNK_BYTES;
            sizes[slot] = left < CHUNK_BYTES ? left : CHUNK_BYTES;
            const uint64_t at = RANDOM ? next_offset(&offsets) : submitted * CHUNK_BYTES;
            io_uring_prep_read(sqe, fd, g_slots[t] + (uint64_t)slot * SLOT_BYTES, (unsigned)sizes[slot], at);
            io_uring_sqe_set_data(sqe, (void *)(uintptr_t)slot);
            ++submitted;
            ++in_flight;
            /* A quarter of the queue at a time, without waiting, as IOLab's loop. */
            if (QUEUE_DEPTH >= 4 && io_uring_sq_ready(ring) >= QUEUE_DEPTH / 4)
                io_uring_submit(ring);
        }
        if (in_flight == 0)
            break;
        const int error = io_uring_submit_and_wait(ring, 1);
        if (error < 0 && error != -EINTR)
            fail("io_uring_submit_and_wait", path, -error);
        unsigned head;
        unsigned seen = 0;
        struct io_uring_cqe *cqe;
        io_uring_for_each_cqe(ring, head, cqe)
        {
            const unsigned slot = (unsigned)(uintptr_t)io_uring_cqe_get_data(cqe);
            if (cqe->res < 0)
                fail("io_uring read", path, -cqe->res);
            if ((uint64_t)cqe->res != sizes[slot])
                fail_short(path);
            done += sizes[slot];
            free_slots[free_count++] = slot;
            ++seen;
        }
        io_uring_cq_advance(ring, seen);
        in_flight -= seen;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = submitted;
    return NULL;
}

int main(int argc, char **argv)
{
    take_arguments(argc, argv);
    make_pattern();
    prepare_data();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        const int error = io_uring_queue_init(RING_ENTRIES, &g_rings[t], 0);
        if (error < 0)
            fail("io_uring_queue_init", "", -error);
        thread_path(t, path, sizeof path);
        g_fds[t] = open_input(path, DIRECT_FLAG);
        g_slots[t] = allocate((size_t)QUEUE_DEPTH * SLOT_BYTES);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(reader);
    const double returned = now_seconds();
    report_read(total(g_done), total(g_calls), returned - started);
    for (int t = 0; t < THREADS; ++t)
        io_uring_queue_exit(&g_rings[t]);
    remove_outputs(1);
    return 0;
}
)C";

// overlapped-write, overlapped-read and their random and -direct forms: a Windows program.
constexpr std::string_view kOverlapped = R"C(
static const char *g_path; /* what the program writes: its argument, or DEFAULT_PATH */
static HANDLE g_files[THREADS];
static int g_made[THREADS]; /* the files this program created: only those are removed */
static uint64_t g_done[THREADS];
static uint64_t g_calls[THREADS];
static unsigned char *g_pattern;
static double g_ticks_per_second;
static double g_deadline;

#define PATTERN_PERIOD (256u * 1024u)
#define FILES_MADE (SHARED_FILE ? 1 : THREADS)

static void remove_outputs(int check);

/* Says which call failed on what and why (GetLastError's text), removes what the program made, and ends it
 * with status 1. */
static void fail(const char *call, const char *path, DWORD error)
{
    char text[512] = "";
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, error, 0, text,
                   sizeof text, NULL);
    fprintf(stderr, "iolab-case: %s%s%s failed: %lu %s", call, path[0] != '\0' ? " " : "", path,
            (unsigned long)error, text);
    remove_outputs(0);
    exit(1);
}

static double now_seconds(void)
{
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart / g_ticks_per_second;
}

static int time_is_up(void)
{
    return TIME_LIMIT_SECONDS > 0 && now_seconds() >= g_deadline;
}

/* IOLab's bytes (a hash of i modulo 256 KiB, never zero), in page-aligned memory as FILE_FLAG_NO_BUFFERING
 * wants it: one period plus a chunk, so the data of any request is the window at offset % period. */
static void make_pattern(void)
{
    const size_t bytes = PATTERN_PERIOD + (CHUNK_BYTES + 4095) / 4096 * 4096;
    g_pattern = VirtualAlloc(NULL, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    if (g_pattern == NULL)
        fail("VirtualAlloc", "", GetLastError());
    for (size_t i = 0; i < bytes; ++i) {
        uint64_t x = (uint64_t)(i % PATTERN_PERIOD) * 0x9E3779B97F4A7C15ULL;
        x ^= x >> 29;
        g_pattern[i] = (unsigned char)(1 + (x >> 32) % 255);
    }
}

static uint64_t thread_bytes(int t)
{
    const uint64_t share = TOTAL_BYTES / THREADS;
    return t == THREADS - 1 ? TOTAL_BYTES - share * (THREADS - 1) : share;
}

static void thread_path(int t, char *path, size_t size)
{
    const int n = THREADS == 1 || SHARED_FILE ? snprintf(path, size, "%s", g_path)
                                              : snprintf(path, size, "%s.%d", g_path, t + 1);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "iolab-case: the path %s is too long\n", g_path);
        exit(2);
    }
}

static void remove_outputs(int check)
{
    char path[MAX_PATH];
    for (int t = 0; t < FILES_MADE; ++t) {
        if (!g_made[t])
            continue;
        g_made[t] = 0;
        thread_path(t, path, sizeof path);
        if (!DeleteFileA(path) && check)
            fail("DeleteFile", path, GetLastError());
    }
}

/* Every chunk once, shuffled (Fisher-Yates with xorshift64*, seeded per thread). */
static uint64_t *chunk_order(int t, uint64_t chunks)
{
    uint64_t *order = malloc((chunks > 0 ? chunks : 1) * sizeof *order);
    if (order == NULL)
        fail("malloc", "", ERROR_NOT_ENOUGH_MEMORY);
    for (uint64_t i = 0; i < chunks; ++i)
        order[i] = i;
    uint64_t state = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1);
    for (uint64_t i = chunks; i > 1; --i) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const uint64_t j = (state * 0x2545f4914f6cdd1dULL) % i;
        const uint64_t swap = order[i - 1];
        order[i - 1] = order[j];
        order[j] = swap;
    }
    return order;
}

/* Reads: the data written before the timed part, made durable, then put in the case's cache state (cold: a
 * non-cached open of the file, with no other handle, makes NTFS purge its cached pages; warm: read once). */
static void prepare_data(void)
{
    char path[MAX_PATH];
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        HANDLE file = CreateFileA(path, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        if (file == INVALID_HANDLE_VALUE)
            fail("CreateFile", path, GetLastError());
        g_made[t] = 1;
        const uint64_t bytes = SHARED_FILE ? TOTAL_BYTES : thread_bytes(t);
        for (uint64_t offset = 0; offset < bytes; offset += CHUNK_BYTES) {
            const DWORD size = (DWORD)(bytes - offset < CHUNK_BYTES ? bytes - offset : CHUNK_BYTES);
            DWORD written = 0;
            if (!WriteFile(file, g_pattern + offset % PATTERN_PERIOD, size, &written, NULL) || written != size)
                fail("WriteFile", path, GetLastError());
        }
        if (!FlushFileBuffers(file))
            fail("FlushFileBuffers", path, GetLastError());
        CloseHandle(file);
        file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                           CACHE_COLD ? FILE_FLAG_NO_BUFFERING : FILE_ATTRIBUTE_NORMAL, NULL);
        if (file == INVALID_HANDLE_VALUE)
            fail("CreateFile", path, GetLastError());
        if (!CACHE_COLD) {
            static unsigned char piece[65536];
            DWORD got = 0;
            do {
                if (!ReadFile(file, piece, sizeof piece, &got, NULL))
                    fail("ReadFile", path, GetLastError());
            } while (got > 0);
        }
        CloseHandle(file);
    }
}

/* One request in flight: its OVERLAPPED first, so a completion's OVERLAPPED pointer is its slot. */
struct slot
{
    OVERLAPPED overlapped;
    unsigned char *buffer; /* reads: where this request's bytes land */
    DWORD bytes;
};

/* One thread: QUEUE_DEPTH requests in flight on its file through an I/O completion port, from the front of
 * the file or (RANDOM) at random places: writes every chunk once in a shuffled order, reads at random
 * chunk-aligned offsets of the one file all threads share. With SYNC_EVERY, the queue drains and
 * FlushFileBuffers runs every SYNC_EVERY full writes; with SYNC_AT_END, once after the last. */
static DWORD WINAPI worker(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[MAX_PATH];
    thread_path(t, path, sizeof path);
    const HANDLE file = g_files[t];
    const HANDLE port = CreateIoCompletionPort(file, NULL, 0, 1);
    if (port == NULL)
        fail("CreateIoCompletionPort", path, GetLastError());
    const uint64_t bytes = thread_bytes(t);
    const uint64_t requests = (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
    const uint64_t full = bytes / CHUNK_BYTES;
    uint64_t *order = WRITE && RANDOM ? chunk_order(t, requests) : NULL;
    uint64_t state = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1);
    const uint64_t slots_in_file = TOTAL_BYTES / CHUNK_BYTES > 0 ? TOTAL_BYTES / CHUNK_BYTES : 1;
    struct slot *slots = calloc(QUEUE_DEPTH, sizeof *slots);
    struct slot **free_slots = calloc(QUEUE_DEPTH, sizeof *free_slots);
    if (slots == NULL || free_slots == NULL)
        fail("calloc", "", ERROR_NOT_ENOUGH_MEMORY);
    unsigned free_count = 0;
    for (unsigned i = 0; i < QUEUE_DEPTH; ++i) {
        if (!WRITE) {
            slots[i].buffer = VirtualAlloc(NULL, (CHUNK_BYTES + 4095) / 4096 * 4096, MEM_COMMIT | MEM_RESERVE,
                                           PAGE_READWRITE);
            if (slots[i].buffer == NULL)
                fail("VirtualAlloc", "", GetLastError());
        }
        free_slots[free_count++] = &slots[i];
    }
    uint64_t submitted = 0;
    uint64_t in_flight = 0;
    uint64_t since_sync = 0;
    uint64_t done = 0;
    int sync_due = 0;
    int stopped = 0;
    for (;;) {
        while (!stopped && !sync_due && free_count > 0 && submitted < requests) {
            if (time_is_up()) {
                stopped = 1;
                break;
            }
            struct slot *s = free_slots[--free_count];
            uint64_t at = submitted * CHUNK_BYTES;
            if (RANDOM && WRITE) {
                at = order[submitted] * CHUNK_BYTES;
            } else if (RANDOM) {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                at = ((state * 0x2545f4914f6cdd1dULL) % slots_in_file) * CHUNK_BYTES;
            }
            const uint64_t left = WRITE || !RANDOM ? bytes - at : bytes - submitted * CHUNK_BYTES;
            s->bytes = (DWORD)(left < CHUNK_BYTES ? left : CHUNK_BYTES);
            memset(&s->overlapped, 0, sizeof s->overlapped);
            s->overlapped.Offset = (DWORD)at;
            s->overlapped.OffsetHigh = (DWORD)(at >> 32);
            const BOOL started = WRITE ? WriteFile(file, g_pattern + at % PATTERN_PERIOD, s->bytes, NULL,
                                                   &s->overlapped)
                                       : ReadFile(file, s->buffer, s->bytes, NULL, &s->overlapped);
            if (!started && GetLastError() != ERROR_IO_PENDING)
                fail(WRITE ? "WriteFile (overlapped)" : "ReadFile (overlapped)", path, GetLastError());
            ++submitted;
            ++in_flight;
            if (WRITE && SYNC_EVERY > 0 && submitted <= full && ++since_sync == SYNC_EVERY) {
                since_sync = 0;
                sync_due = 1;
            }
        }
        if (in_flight == 0) {
            if (sync_due) {
                if (!FlushFileBuffers(file))
                    fail("FlushFileBuffers", path, GetLastError());
                sync_due = 0;
                continue;
            }
            break;
        }
        DWORD transferred = 0;
        ULONG_PTR key = 0;
        OVERLAPPED *overlapped = NULL;
        if (!GetQueuedCompletionStatus(port, &transferred, &key, &overlapped, INFINITE))
            fail(WRITE ? "WriteFile (overlapped)" : "ReadFile (overlapped)", path, GetLastError());
        struct slot *s = (struct slot *)overlapped;
        if (transferred != s->bytes) {
            fprintf(stderr, "iolab-case: a request on %s moved %lu of %lu bytes\n", path,
                    (unsigned long)transferred, (unsigned long)s->bytes);
            remove_outputs(0);
            exit(1);
        }
        done += transferred;
        --in_flight;
        free_slots[free_count++] = s;
    }
    if (WRITE && SYNC_AT_END && !FlushFileBuffers(file))
        fail("FlushFileBuffers", path, GetLastError());
    CloseHandle(port);
    g_done[t] = done;
    g_calls[t] = submitted;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: %s [OUTPUT]\n  OUTPUT: @OUTPUT_WORDS@ (default: %s)\n", argv[0], DEFAULT_PATH);
        return 2;
    }
    g_path = argc == 2 ? argv[1] : DEFAULT_PATH;
    LARGE_INTEGER frequency;
    QueryPerformanceFrequency(&frequency);
    g_ticks_per_second = (double)frequency.QuadPart;
    make_pattern();
    if (!WRITE)
        prepare_data();
    char path[MAX_PATH];
    for (int t = 0; t < THREADS; ++t) {
        thread_path(t, path, sizeof path);
        const DWORD flags = FILE_FLAG_OVERLAPPED | (NO_BUFFERING ? FILE_FLAG_NO_BUFFERING : 0) |
                            (WRITE && WRITE_THROUGH ? FILE_FLAG_WRITE_THROUGH : 0) | (WRITE ? 0 : ACCESS_HINT);
        g_files[t] = CreateFileA(path, WRITE ? GENERIC_WRITE : GENERIC_READ, WRITE ? 0 : FILE_SHARE_READ, NULL,
                                 WRITE ? CREATE_NEW : OPEN_EXISTING, flags, NULL);
        if (g_files[t] == INVALID_HANDLE_VALUE)
            fail("CreateFile", path, GetLastError());
        if (WRITE)
            g_made[t] = 1;
    }
    HANDLE threads[THREADS];
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    for (int t = 0; t < THREADS; ++t) {
        threads[t] = CreateThread(NULL, 0, worker, (void *)(intptr_t)t, 0, NULL);
        if (threads[t] == NULL)
            fail("CreateThread", "", GetLastError());
    }
    for (int t = 0; t < THREADS; ++t) {
        if (WaitForSingleObject(threads[t], INFINITE) != WAIT_OBJECT_0)
            fail("WaitForSingleObject", "", GetLastError());
        CloseHandle(threads[t]);
    }
    for (int t = 0; t < THREADS; ++t)
        CloseHandle(g_files[t]);
    const double returned = now_seconds();
    uint64_t bytes = 0;
    uint64_t calls = 0;
    for (int t = 0; t < THREADS; ++t) {
        bytes += g_done[t];
        calls += g_calls[t];
    }
    if (WRITE) {
        /* IOLab's durable time: the timed part, then FlushFileBuffers of every file it wrote. */
        for (int t = 0; t < THREADS; ++t) {
            thread_path(t, path, sizeof path);
            HANDLE file = CreateFileA(path, GENERIC_WRITE, 0, NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
            if (file == INVALID_HANDLE_VALUE)
                fail("CreateFile", path, GetLastError());
            if (!FlushFileBuffers(file))
                fail("FlushFileBuffers", path, GetLastError());
            CloseHandle(file);
        }
        const double durable = now_seconds();
        printf("iolab-case: wrote %llu bytes in %llu requests: %.1f MB/s apparent (%.3f s, until the last "
               "request completed), %.1f MB/s durable (%.3f s, with the final FlushFileBuffers)\n",
               (unsigned long long)bytes, (unsigned long long)calls, (double)bytes / 1e6 / (returned - started),
               returned - started, (double)bytes / 1e6 / (durable - started), durable - started);
    } else {
        printf("iolab-case: read %llu bytes in %llu requests: %.1f MB/s (%.3f s)\n", (unsigned long long)bytes,
               (unsigned long long)calls, (double)bytes / 1e6 / (returned - started), returned - started);
    }
    remove_outputs(1);
    return 0;
}
)C";

} // namespace

const std::vector<Snippet>& snippets()
{
    static const std::vector<Snippet> all{
        {"base", kBase},
        {"arguments", kArguments},
        {"pattern", kPattern},
        {"deadline", kDeadline},
        {"threads", kThreads},
        {"thread-share", kThreadShare},
        {"thread-path", kThreadPath},
        {"write-fully", kWriteFully},
        {"pwrite-fully", kPwriteFully},
        {"short-read", kShortRead},
        {"read-fully", kReadFully},
        {"pread-fully", kPreadFully},
        {"remove-files", kRemoveFiles},
        {"remove-nothing-null", kRemoveNothingNull},
        {"remove-nothing", kRemoveNothing},
        {"sync", kSync},
        {"reserve-space", kReserveSpace},
        {"write-beforehand", kWriteBeforehand},
        {"open-output", kOpenOutput},
        {"open-null", kOpenNull},
        {"durable-files", kDurableFiles},
        {"durable-null", kDurableNull},
        {"report-write", kReportWrite},
        {"report-read", kReportRead},
        {"data-file", kDataFile},
        {"cache-cold", kCacheCold},
        {"cache-warm", kCacheWarm},
        {"advise", kAdvise},
        {"open-input", kOpenInput},
        {"prepare-data", kPrepareData},
        {"chunk-order", kChunkOrder},
        {"random-offsets", kRandomOffsets},
        {"stdio-buffer", kStdioBuffer},
        {"stdio-sync", kStdioSync},
        {"stdio-open", kStdioOpen},
        {"pin", kPin},
        {"pipe-reader", kPipeReader},
    };
    return all;
}

// Snippet names beginning with '@' are chosen per case by the generator: "@outputs" (a new file per thread
// or the null device, and the case's preallocation) and "@cache" (cold or warm). Every snippet a template
// lists is used by it: the tests compile each program with -Wall -Werror, where an unused function fails.
const std::vector<CTemplate>& templates()
{
    using Names = std::vector<std::string_view>;
    const auto join = [](Names a, const Names& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    const Names posix{"stdio.h",  "stdlib.h",  "string.h", "errno.h",  "stdint.h",   "time.h",
                      "limits.h", "pthread.h", "fcntl.h",  "unistd.h", "sys/types.h"};
    // What every writer to files reads and uses; each adds its own.
    const Names writeDefines{"DEFAULT_PATH", "CHUNK_BYTES",     "TOTAL_BYTES",       "THREADS",
                             "SHARED_FILE",  "OPEN_SYNC_FLAGS", "TIME_LIMIT_SECONDS"};
    const Names syncDefines{"SYNC_EVERY", "SYNC_AT_END", "SYNC_CALL", "SYNC_NAME"};
    const Names writer{"base",        "arguments", "pattern", "deadline",    "threads",
                       "thread-path", "@outputs",  "sync",    "report-write"};
    const Names readDefines{"DEFAULT_PATH", "CHUNK_BYTES",  "TOTAL_BYTES",       "THREADS",
                            "SHARED_FILE",  "FADVISE_HINT", "TIME_LIMIT_SECONDS"};
    const Names reader{"base",         "arguments",    "pattern",     "deadline",     "threads",
                       "thread-share", "thread-path",  "write-fully", "remove-files", "data-file",
                       "@cache",       "prepare-data", "report-read"};
    const Names pipeDefines{"CHUNK_BYTES", "TOTAL_BYTES", "THREADS", "READER_CPU", "TIME_LIMIT_SECONDS"};
    const Names pipe{"base",         "pattern",        "deadline", "threads",
                     "thread-share", "remove-nothing", "pin",      "pipe-reader"};
    static const std::vector<CTemplate> all{
        {"fd-write", Os::Linux, posix,
         join(writer, {"thread-share", "write-fully", "pwrite-fully", "chunk-order"}),
         join(join(writeDefines, syncDefines), {"DIRECT_FLAG", "RANDOM", "REWRITE"}), "", kFdWrite},
        {"stdio-write", Os::Linux, posix,
         join(writer, {"thread-share", "stdio-buffer", "stdio-sync", "stdio-open"}),
         join(join(writeDefines, syncDefines), {"STDIO_BUFFER", "STDIO_BUFFER_BYTES", "TIME_CHECK_CALLS"}),
         "", kStdioWrite},
        {"putc", Os::Linux, posix, join(writer, {"thread-share", "stdio-buffer", "stdio-sync", "stdio-open"}),
         join(join(writeDefines, syncDefines), {"STDIO_BUFFER", "STDIO_BUFFER_BYTES", "TIME_CHECK_CALLS"}),
         "", kPutc},
        {"mmap-window", Os::Linux, join(posix, {"sys/mman.h"}), join(writer, {"thread-share"}),
         join(join(writeDefines, syncDefines), {"WINDOW_BYTES", "TIME_CHECK_CALLS"}), "", kMmapWindow},
        {"mmap-batch-direct", Os::Linux, join(posix, {"sys/mman.h"}),
         join(writer, {"thread-share", "pwrite-fully"}),
         join(join(writeDefines, syncDefines), {"WINDOW_BYTES", "TIME_CHECK_CALLS"}), "", kMmapBatchDirect},
        {"group-commit", Os::Linux, join(posix, {"stdatomic.h"}), join(writer, {"pwrite-fully"}),
         join(writeDefines, syncDefines), "", kGroupCommit},
        {"pipe-write", Os::Linux, join(posix, {"sched.h"}), join(pipe, {"write-fully"}), pipeDefines, "",
         kPipeWrite},
        {"vmsplice", Os::Linux, join(posix, {"sched.h", "sys/mman.h", "sys/uio.h"}), pipe, pipeDefines, "",
         kVmsplice},
        {"pwritev2-dsync",
         Os::Linux,
         join(posix, {"sys/uio.h"}),
         {"base", "arguments", "pattern", "deadline", "threads", "thread-share", "thread-path", "@outputs",
          "report-write"},
         join(writeDefines, {"REWRITE"}),
         "",
         kPwritev2Dsync},
        {"sync-file-range",
         Os::Linux,
         posix,
         {"base", "arguments", "pattern", "deadline", "threads", "thread-share", "thread-path",
          "pwrite-fully", "@outputs", "report-write"},
         join(writeDefines, {"REWRITE"}),
         "",
         kSyncFileRange},
        {"uring-linked-sync", Os::Linux, join(posix, {"liburing.h"}), join(writer, {"thread-share"}),
         join(join(writeDefines, syncDefines), {"SYNC_DATA_ONLY", "REWRITE"}), "-luring", kUringLinkedSync},
        {"fd-read", Os::Linux, posix,
         join(reader, {"short-read", "read-fully", "pread-fully", "advise", "open-input", "random-offsets"}),
         join(readDefines, {"DIRECT_FLAG", "RANDOM"}), "", kFdRead},
        {"fread", Os::Linux, posix, join(reader, {"short-read", "advise", "open-input", "stdio-buffer"}),
         join(readDefines, {"STDIO_BUFFER", "STDIO_BUFFER_BYTES", "TIME_CHECK_CALLS"}), "", kFread},
        {"mmap-read",
         Os::Linux,
         join(posix, {"sys/mman.h"}),
         reader,
         {"DEFAULT_PATH", "CHUNK_BYTES", "TOTAL_BYTES", "THREADS", "SHARED_FILE", "MADVISE_HINT",
          "TIME_LIMIT_SECONDS", "TIME_CHECK_CALLS"},
         "",
         kMmapRead},
        {"files",
         Os::Linux,
         join(posix, {"stdatomic.h", "sys/stat.h", "math.h"}),
         {"base", "arguments", "pattern", "write-fully", "short-read", "data-file", "@cache", "advise"},
         {"DEFAULT_PATH", "CHUNK_BYTES", "THREADS", "FADVISE_HINT", "FILES", "FILE_MIN_BYTES",
          "FILE_MAX_BYTES", "FILE_SHAPE", "FILE_PARALLELISM"},
         "",
         kFiles},
        {"uring-write", Os::Linux, join(posix, {"liburing.h"}), join(writer, {"thread-share", "chunk-order"}),
         join(join(writeDefines, syncDefines),
              {"DIRECT_FLAG", "RANDOM", "QUEUE_DEPTH", "RING_ENTRIES", "SYNC_DATA_ONLY"}),
         "-luring", kUringWrite},
        {"uring-read", Os::Linux, join(posix, {"liburing.h"}),
         join(reader, {"short-read", "advise", "open-input", "random-offsets"}),
         join(readDefines, {"DIRECT_FLAG", "RANDOM", "QUEUE_DEPTH", "RING_ENTRIES"}), "-luring", kUringRead},
        {"overlapped",
         Os::Windows,
         {"windows.h", "stdio.h", "stdlib.h", "string.h", "stdint.h"},
         {},
         {"DEFAULT_PATH", "CHUNK_BYTES", "TOTAL_BYTES", "THREADS", "SHARED_FILE", "WRITE", "RANDOM",
          "QUEUE_DEPTH", "NO_BUFFERING", "WRITE_THROUGH", "SYNC_EVERY", "SYNC_AT_END", "ACCESS_HINT",
          "CACHE_COLD", "TIME_LIMIT_SECONDS"},
         "",
         kOverlapped},
    };
    return all;
}

const CTemplate* findTemplate(std::string_view name)
{
    const auto& all = templates();
    const auto it =
        std::find_if(all.begin(), all.end(), [name](const CTemplate& t) { return t.name == name; });
    return it == all.end() ? nullptr : &*it;
}

} // namespace iolab::c_templates
