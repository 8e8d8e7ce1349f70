/* SPDX-License-Identifier: MIT
 * The write patterns people really have, as small programs to record and advise on (iolab-cli advise), each
 * also with IOLab's advice applied by hand, so that the speed-up IOLab predicts can be set beside the one
 * the changed program really gets (tests/perf/advice_predictions.py, tests/cli/test_advise.cpp).
 *
 *   advice_programs PATTERN as-is|ADVICE|segment-ahead FOLDER
 *
 * ADVICE is the name of IOLab's way (its replay variant) applied by hand, where the pattern has it.
 *
 * logger: 20,000 lines of about 60 bytes through fprintf, each fflushed, an fsync after every 50th.
 * flush-at-sync: fflush only before each fsync. prealloc-fdatasync: the log preallocated to its final size
 * when opened, then fdatasync after the first fsync. rewrite-segment: the log written ahead (by
 * segment-ahead, untimed, as a recycled segment) is overwritten in place ("r+"), with fdatasync.
 *
 * records: 4,096 records of 4 KiB written with write(2), an fsync after every 16th. coalesce: the 16 records
 * between two fsyncs as one 64 KiB write. prealloc-fdatasync: the file preallocated to its 16 MiB when
 * created, then fdatasync after the first fsync. rewrite-segment: the file written ahead (segment-ahead) is
 * overwritten in place (no O_TRUNC), with fdatasync. direct-batch: the 16 records between two fsyncs copied
 * into an aligned 64 KiB batch and written with one pwrite on an O_DIRECT | O_DSYNC descriptor, no fsync;
 * mmap-batch: the same with the batch mapped from a file of its own.
 *
 * smallfiles: 200 files of 2 KiB, each written to a temporary name, fsynced, closed and renamed into place.
 * syncfs-batch: every file written and closed, one syncfs, then every rename. writer-pool: the files shared
 * out over 4 threads, each file still written, fsynced, closed, renamed.
 *
 * appender: 4 threads appending 256-byte records to one file opened O_APPEND, an fdatasync after each.
 * group-commit: a record's thread waits for one fdatasync begun after its write, one thread syncing for all.
 *
 * segment-ahead writes the pattern's file at its final size and makes it durable (fsync of the file and of
 * FOLDER): what IOLab's rewrite-segment does before the timed part.
 *
 * Every file goes under FOLDER, which must exist; the program removes nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char* folder;
static const char* advice;

static int advised(const char* way)
{
    return strcmp(advice, way) == 0;
}

static void fail(const char* what)
{
    fprintf(stderr, "advice_programs: %s: %s\n", what, strerror(errno));
    exit(1);
}

static char* pathOf(const char* name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    return path;
}

#define LOG_LINE "2026-11-30 00:00:%02d.%06d INFO request %6d served in %4d us\n"
#define LOG_FIELDS(n) (n) % 60, (n)*7 % 1000000, (n), (n)*13 % 5000

/* The file `name` at `size` bytes, its blocks written and durable: a segment written ahead. */
static void writeAhead(const char* name, off_t size)
{
    static char block[65536];
    memset(block, 'a', sizeof block);
    int fd = open(pathOf(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fail("open (segment ahead)");
    for (off_t done = 0; done < size;) {
        size_t piece = size - done < (off_t)sizeof block ? (size_t)(size - done) : sizeof block;
        if (write(fd, block, piece) != (ssize_t)piece)
            fail("write (segment ahead)");
        done += (off_t)piece;
    }
    if (fsync(fd) != 0 || close(fd) != 0)
        fail("fsync (segment ahead)");
    int dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0 || fsync(dir) != 0 || close(dir) != 0)
        fail("fsync (the folder)");
}

static off_t loggerBytes(void)
{
    off_t total = 0;
    char line[128];
    for (int n = 1; n <= 20000; ++n)
        total += snprintf(line, sizeof line, LOG_LINE, LOG_FIELDS(n));
    return total;
}

static void logger(void)
{
    if (advised("segment-ahead")) {
        writeAhead("app.log", loggerBytes());
        return;
    }
    /* Written ahead: opened to overwrite ("r+"), every sync data only. */
    FILE* log = fopen(pathOf("app.log"), advised("rewrite-segment") ? "r+" : "w");
    if (!log)
        fail("fopen app.log");
    if (advised("prealloc-fdatasync")) {
        /* The log's final size, then the file preallocated to it: each sync after the first is fdatasync. */
        int error = posix_fallocate(fileno(log), 0, loggerBytes());
        if (error != 0) {
            errno = error;
            fail("posix_fallocate");
        }
    }
    int synced = 0;
    for (int n = 1; n <= 20000; ++n) {
        if (fprintf(log, LOG_LINE, LOG_FIELDS(n)) < 0)
            fail("fprintf");
        if (!advised("flush-at-sync") && fflush(log) != 0)
            fail("fflush");
        if (n % 50 == 0) {
            if (advised("flush-at-sync") && fflush(log) != 0)
                fail("fflush");
            int failed = (advised("prealloc-fdatasync") && synced++ > 0) || advised("rewrite-segment")
                             ? fdatasync(fileno(log))
                             : fsync(fileno(log));
            if (failed != 0)
                fail("fsync");
        }
    }
    if (fclose(log) != 0)
        fail("fclose");
}

static void records(void)
{
    enum
    {
        kRecord = 4096,
        kPerSync = 16,
        kRecords = 4096
    };
    if (advised("segment-ahead")) {
        writeAhead("records.dat", (off_t)kRecord * kRecords);
        return;
    }
    static char batch[kRecord * kPerSync];
    memset(batch, 'r', sizeof batch);
    if (advised("direct-batch") || advised("mmap-batch")) {
        /* The 16 records between two syncs copied into an aligned batch (or one mapped from a file of its
         * own), written durable with one pwrite on an O_DIRECT | O_DSYNC descriptor: that is the sync. */
        char* aligned = NULL;
        if (advised("mmap-batch")) {
            int scratch = open(pathOf("batch.map"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (scratch < 0 || ftruncate(scratch, sizeof batch) != 0)
                fail("batch.map");
            aligned = mmap(NULL, sizeof batch, PROT_READ | PROT_WRITE, MAP_SHARED, scratch, 0);
            if (aligned == MAP_FAILED)
                fail("mmap batch.map");
            unlink(pathOf("batch.map"));
            close(scratch);
        } else if ((errno = posix_memalign((void**)&aligned, 4096, sizeof batch)) != 0) {
            fail("posix_memalign");
        }
        int fd =
            open(pathOf("records.dat"), O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_DSYNC | O_CLOEXEC, 0644);
        if (fd < 0)
            fail("open records.dat (O_DIRECT)");
        for (int r = 0; r < kRecords; r += kPerSync) {
            for (int i = 0; i < kPerSync; ++i)
                memcpy(aligned + i * kRecord, batch + i * kRecord, kRecord);
            if (pwrite(fd, aligned, sizeof batch, (off_t)r * kRecord) != (ssize_t)sizeof batch)
                fail("pwrite");
        }
        if (close(fd) != 0)
            fail("close");
        return;
    }
    /* Written ahead: overwritten in place, no truncation. */
    int fd = open(
        pathOf("records.dat"),
        advised("rewrite-segment") ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fail("open records.dat");
    if (advised("prealloc-fdatasync") && (errno = posix_fallocate(fd, 0, (off_t)kRecord * kRecords)) != 0)
        fail("posix_fallocate");
    for (int r = 0; r < kRecords; r += kPerSync) {
        if (advised("coalesce")) {
            if (write(fd, batch, sizeof batch) != (ssize_t)sizeof batch)
                fail("write");
        } else {
            for (int i = 0; i < kPerSync; ++i)
                if (write(fd, batch + i * kRecord, kRecord) != kRecord)
                    fail("write");
        }
        if ((advised("prealloc-fdatasync") && r > 0) || advised("rewrite-segment")) {
            if (fdatasync(fd) != 0) /* the size is already there: the data alone */
                fail("fdatasync");
        } else if (fsync(fd) != 0) {
            fail("fsync");
        }
    }
    if (close(fd) != 0)
        fail("close");
}

static void writeSmallFile(int i, int sync, int* keep)
{
    char body[2048];
    memset(body, 's', sizeof body);
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s/file%03d.tmp", folder, i);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fail("open");
    if (write(fd, body, sizeof body) != (ssize_t)sizeof body)
        fail("write");
    if (sync && fsync(fd) != 0)
        fail("fsync");
    if (keep != NULL)
        *keep = fd;
    else if (close(fd) != 0)
        fail("close");
}

static void publishSmallFile(int i)
{
    char from[4096];
    char to[4096];
    snprintf(from, sizeof from, "%s/file%03d.tmp", folder, i);
    snprintf(to, sizeof to, "%s/file%03d.txt", folder, i);
    if (rename(from, to) != 0)
        fail("rename");
}

enum
{
    kSmallFiles = 200,
    kPoolThreads = 4
};

static void* smallFileWriter(void* first)
{
    for (int i = (int)(size_t)first; i < kSmallFiles; i += kPoolThreads) {
        writeSmallFile(i, 1, NULL);
        publishSmallFile(i);
    }
    return NULL;
}

static void smallfiles(void)
{
    if (advised("syncfs-batch")) {
        /* Every file written and closed, one syncfs through the last one's descriptor, then every rename. */
        int last = -1;
        for (int i = 0; i < kSmallFiles; ++i)
            writeSmallFile(i, 0, i == kSmallFiles - 1 ? &last : NULL);
        if (syncfs(last) != 0)
            fail("syncfs");
        if (close(last) != 0)
            fail("close");
        for (int i = 0; i < kSmallFiles; ++i)
            publishSmallFile(i);
        return;
    }
    if (advised("writer-pool")) {
        pthread_t threads[kPoolThreads];
        for (size_t t = 0; t < kPoolThreads; ++t)
            if (pthread_create(&threads[t], NULL, smallFileWriter, (void*)t) != 0)
                fail("pthread_create");
        for (int t = 0; t < kPoolThreads; ++t)
            pthread_join(threads[t], NULL);
        return;
    }
    for (int i = 0; i < kSmallFiles; ++i) {
        writeSmallFile(i, 1, NULL);
        publishSmallFile(i);
    }
}

static int appendFd;
/* Group commit: a thread's record is durable once a sync that began after its write has returned. One
 * thread syncs for every record written before it began; the others wait for it. */
static pthread_mutex_t commitLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t commitDone = PTHREAD_COND_INITIALIZER;
static unsigned long long asked, durable;
static int syncing;

static void groupSync(unsigned long long mine)
{
    pthread_mutex_lock(&commitLock);
    while (durable < mine) {
        if (syncing) {
            pthread_cond_wait(&commitDone, &commitLock);
            continue;
        }
        syncing = 1;
        unsigned long long upTo = asked;
        pthread_mutex_unlock(&commitLock);
        int failed = fdatasync(appendFd) != 0;
        pthread_mutex_lock(&commitLock);
        syncing = 0;
        if (failed)
            fail("fdatasync");
        durable = upTo;
        pthread_cond_broadcast(&commitDone);
    }
    pthread_mutex_unlock(&commitLock);
}

static void* appendRecords(void* unused)
{
    (void)unused;
    char record[256];
    memset(record, 'a', sizeof record);
    record[sizeof record - 1] = '\n';
    for (int i = 0; i < 250; ++i) {
        if (write(appendFd, record, sizeof record) != (ssize_t)sizeof record)
            fail("write");
        if (advised("group-commit")) {
            pthread_mutex_lock(&commitLock);
            unsigned long long mine = ++asked;
            pthread_mutex_unlock(&commitLock);
            groupSync(mine);
        } else if (fdatasync(appendFd) != 0) {
            fail("fdatasync");
        }
    }
    return NULL;
}

static void appender(void)
{
    appendFd = open(pathOf("journal.log"), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (appendFd < 0)
        fail("open journal.log");
    pthread_t threads[4];
    for (int t = 0; t < 4; ++t)
        if (pthread_create(&threads[t], NULL, appendRecords, NULL) != 0)
            fail("pthread_create");
    for (int t = 0; t < 4; ++t)
        pthread_join(threads[t], NULL);
    if (close(appendFd) != 0)
        fail("close");
}

int main(int argc, char** argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: advice_programs logger|records|smallfiles|appender as-is|ADVICE FOLDER\n");
        return 2;
    }
    advice = argv[2];
    const char* known[] = {"as-is",         "flush-at-sync", "coalesce",     "prealloc-fdatasync",
                           "syncfs-batch",  "writer-pool",   "group-commit", "rewrite-segment",
                           "segment-ahead", "direct-batch",  "mmap-batch"};
    int found = 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
        found |= strcmp(advice, known[i]) == 0;
    if (!found) {
        fprintf(
            stderr,
            "advice_programs: no way '%s' (as-is, flush-at-sync, coalesce, prealloc-fdatasync, syncfs-batch, "
            "writer-pool, group-commit, rewrite-segment, segment-ahead, direct-batch, mmap-batch)\n",
            advice);
        return 2;
    }
    folder = argv[3];
    if (strcmp(argv[1], "logger") == 0)
        logger();
    else if (strcmp(argv[1], "records") == 0)
        records();
    else if (strcmp(argv[1], "smallfiles") == 0)
        smallfiles();
    else if (strcmp(argv[1], "appender") == 0)
        appender();
    else {
        fprintf(stderr, "advice_programs: no pattern '%s'\n", argv[1]);
        return 2;
    }
    return 0;
}
