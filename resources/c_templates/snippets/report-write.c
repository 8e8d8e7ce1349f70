
static void report_write(uint64_t bytes, uint64_t calls, double seconds, double durable_seconds)
{
    printf("iolab-case: wrote %llu bytes in %llu calls: %.1f MB/s apparent (%.3f s, until the last call "
           "returned), %.1f MB/s durable (%.3f s, with the final fsync), %.0f calls/s\n",
           (unsigned long long)bytes, (unsigned long long)calls, (double)bytes / 1e6 / seconds, seconds,
           (double)bytes / 1e6 / durable_seconds, durable_seconds, (double)calls / seconds);
}
