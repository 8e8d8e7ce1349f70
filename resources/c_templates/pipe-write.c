
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
#include "parts/thread-end.c"

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
