
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
#include "parts/thread-end.c"

#include "parts/main-start.c"
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
