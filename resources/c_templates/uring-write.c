
static int g_fds[THREADS];
static struct io_uring g_rings[THREADS];
static uint64_t *g_orders[THREADS]; /* RANDOM: each thread's order of its chunks */

/* One thread: QUEUE_DEPTH writes in flight on a ring of its own, from the front of its file or, with RANDOM,
 * every chunk once in a shuffled order. A sync every SYNC_EVERY full writes goes in line (IOSQE_IO_DRAIN: it
 * starts once every write before it has completed, and the writes after it wait for it); the sync policy's
 * call after the last write. */
#include "parts/writer-start.c"
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
            /* Each request on its own, without waiting, as IOLab's loop on a plain ring: a queue refilled at
               once would reach the device in one burst. */
            if (QUEUE_DEPTH >= 4)
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
#include "parts/sync-and-close.c"
    g_done[t] = done;
    g_calls[t] = submitted;
    return NULL;
}

#include "parts/main-start.c"
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
