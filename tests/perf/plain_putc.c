/* SPDX-License-Identifier: MIT */
/* Per-byte and small stdio writes written the plain way, in C, as the code people write: with -O2, glibc's
 * <stdio.h> expands fwrite_unlocked(&c, 1, N, f) with a constant N <= 8 into putc_unlocked calls (a macro that
 * exists only for C), and putc_unlocked is inline in C and C++ alike.
 *
 * usage: plain_putc PATH MODE CHUNK_BYTES TOTAL_BYTES [BUFFER] [THREADED]
 *   MODE: fwrite_unlocked (CHUNK 1-8 as a literal size, larger as a variable), putc, putc_unlocked, fputc
 *         (CHUNK must be 1); BUFFER: 0 default, 1 unbuffered, N bytes (setvbuf).
 *   THREADED 1: start and join one thread first. glibc's locking stdio calls (putc, fputc, fwrite) skip the
 *   FILE lock while a process has never had a second thread; IOLab always has several, so this is the
 *   like-for-like loop for them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { kPeriod = 256 * 1024 };
#define MASK ((uint64_t)kPeriod - 1)

static void die(const char* what)
{
    perror(what);
    exit(1);
}

static void* nothing(void* arg)
{
    return arg;
}

static double cpuSeconds(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 + (double)usage.ru_stime.tv_sec +
           (double)usage.ru_stime.tv_usec * 1e-6;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One loop per literal size, as a user writes `fwrite_unlocked(&record, 1, sizeof record, f)`. */
#define FWRITE_LOOP(N)                                                                                       \
    case N:                                                                                                  \
        for (uint64_t i = 0; i < writes; ++i) {                                                              \
            if (fwrite_unlocked(src + (offset & MASK), 1, N, f) != N)                                        \
                die("fwrite_unlocked");                                                                      \
            offset += N;                                                                                     \
        }                                                                                                    \
        break;

int main(int argc, char** argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s PATH MODE CHUNK_BYTES TOTAL_BYTES [BUFFER]\n", argv[0]);
        return 2;
    }
    const char* path = argv[1];
    const char* mode = argv[2];
    const uint64_t chunk = strtoull(argv[3], NULL, 10);
    const uint64_t total = strtoull(argv[4], NULL, 10);
    const uint64_t buffer = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
    const int threaded = argc > 6 && strcmp(argv[6], "1") == 0;
    const int perByte = strcmp(mode, "fwrite_unlocked") != 0;
    if (chunk == 0 || (perByte && chunk != 1)) {
        fprintf(stderr, "%s writes one byte per call: CHUNK must be 1\n", mode);
        return 2;
    }
    if (threaded) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, nothing, NULL) != 0 || pthread_join(thread, NULL) != 0)
            die("pthread_create");
    }
    unsigned char* src = malloc(kPeriod + chunk);
    for (uint64_t i = 0; i < kPeriod + chunk; ++i)
        src[i] = (unsigned char)(1 + ((i & MASK) * 2654435761ULL >> 13) % 255);
    FILE* f = fopen(path, "wbx");
    if (f == NULL)
        die("fopen");
    char* own = NULL;
    if (buffer == 1) {
        setvbuf(f, NULL, _IONBF, 0);
    } else if (buffer > 1) {
        own = malloc(buffer);
        setvbuf(f, own, _IOFBF, buffer);
    }
    const uint64_t writes = total / chunk;
    uint64_t offset = 0;
    const double start = now();
    const double cpuStart = cpuSeconds();
    if (strcmp(mode, "putc") == 0) {
        for (uint64_t i = 0; i < writes; ++i, ++offset)
            if (putc(src[offset & MASK], f) == EOF)
                die("putc");
    } else if (strcmp(mode, "putc_unlocked") == 0) {
        for (uint64_t i = 0; i < writes; ++i, ++offset)
            if (putc_unlocked(src[offset & MASK], f) == EOF)
                die("putc_unlocked");
    } else if (strcmp(mode, "fputc") == 0) {
        for (uint64_t i = 0; i < writes; ++i, ++offset)
            if (fputc(src[offset & MASK], f) == EOF)
                die("fputc");
    } else if (strcmp(mode, "fwrite_unlocked") == 0) {
        switch (chunk) {
            FWRITE_LOOP(1)
            FWRITE_LOOP(2)
            FWRITE_LOOP(3)
            FWRITE_LOOP(4)
            FWRITE_LOOP(5)
            FWRITE_LOOP(6)
            FWRITE_LOOP(7)
            FWRITE_LOOP(8)
        default:
            for (uint64_t i = 0; i < writes; ++i) {
                if (fwrite_unlocked(src + (offset & MASK), 1, chunk, f) != chunk)
                    die("fwrite_unlocked");
                offset += chunk;
            }
        }
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    if (fclose(f) != 0)
        die("fclose");
    const double end = now();
    FILE* again = fopen(path, "rb");
    fsync(fileno(again));
    fclose(again);
    /* MB/s over the wall clock, then MB per CPU second through the fsync, as IOLab's repetitions count it. */
    const double cpu = cpuSeconds() - cpuStart;
    printf("%.3f %.3f\n", (double)offset / (end - start) / 1e6, cpu > 0 ? (double)offset / cpu / 1e6 : 0.0);
    remove(path);
    free(own);
    free(src);
    return 0;
}
