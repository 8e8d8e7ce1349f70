/* SPDX-License-Identifier: MIT */
/* The loops record_overhead.py times with and without IOLab's recorder preloaded (iolab-cli record's
 * libiolab-record.so): a program's own calls, written as a program would, with nothing of IOLab in it.
 *
 *     record_loops write4k FILE BYTES     write(2) of 4 KiB chunks
 *     record_loops fwrite1 FILE BYTES     fwrite of one byte at a time, default buffer
 *     record_loops fputc FILE BYTES       fputc, one byte at a time
 *
 * Prints the loop's own time (CLOCK_MONOTONIC around the loop, the file's open and close excluded) in seconds. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char** argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: record_loops write4k|fwrite1|fputc FILE BYTES\n");
        return 2;
    }
    const char* mode = argv[1];
    const long long bytes = atoll(argv[3]);
    double seconds = 0;
    if (strcmp(mode, "write4k") == 0) {
        static char chunk[4096];
        memset(chunk, 'x', sizeof chunk);
        const int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            return 1;
        const double start = now();
        for (long long done = 0; done < bytes; done += (long long)sizeof chunk) {
            if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk)
                return 1;
        }
        seconds = now() - start;
        close(fd);
    } else {
        FILE* out = fopen(argv[2], "w");
        if (!out)
            return 1;
        const int useFputc = strcmp(mode, "fputc") == 0;
        const char byte = 'x';
        const double start = now();
        for (long long done = 0; done < bytes; ++done) {
            if (useFputc ? fputc(byte, out) == EOF : fwrite(&byte, 1, 1, out) != 1)
                return 1;
        }
        seconds = now() - start;
        fclose(out);
    }
    printf("%.6f\n", seconds);
    return 0;
}
