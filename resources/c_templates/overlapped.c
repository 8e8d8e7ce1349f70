
static HANDLE g_files[THREADS];
static int g_made[THREADS]; /* the files this program created: only those are removed */
static uint64_t g_done[THREADS];
static uint64_t g_calls[THREADS];

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
            if (!WriteFile(file, pattern_at(offset), size, &written, NULL) || written != size)
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
    struct random_offsets offsets = random_offsets_for(t, TOTAL_BYTES);
    struct slot *slots = calloc(QUEUE_DEPTH, sizeof *slots);
    struct slot **free_slots = calloc(QUEUE_DEPTH, sizeof *free_slots);
    if (slots == NULL || free_slots == NULL)
        fail("calloc", "", OUT_OF_MEMORY);
    unsigned free_count = 0;
    for (unsigned i = 0; i < QUEUE_DEPTH; ++i) {
        if (!WRITE)
            slots[i].buffer = allocate((CHUNK_BYTES + 4095) / 4096 * 4096);
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
                at = next_offset(&offsets);
            }
            const uint64_t left = WRITE || !RANDOM ? bytes - at : bytes - submitted * CHUNK_BYTES;
            s->bytes = (DWORD)(left < CHUNK_BYTES ? left : CHUNK_BYTES);
            memset(&s->overlapped, 0, sizeof s->overlapped);
            s->overlapped.Offset = (DWORD)at;
            s->overlapped.OffsetHigh = (DWORD)(at >> 32);
            const BOOL started = WRITE ? WriteFile(file, pattern_at(at), s->bytes, NULL, &s->overlapped)
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
    take_arguments(argc, argv);
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
