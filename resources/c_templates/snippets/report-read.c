
static void report_read(uint64_t bytes, uint64_t calls, double seconds)
{
    printf("iolab-case: read %llu bytes in %llu calls: %.1f MB/s (%.3f s)\n", (unsigned long long)bytes,
           (unsigned long long)calls, (double)bytes / 1e6 / seconds, seconds);
}
