
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
#include "parts/writer-start.c"
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
#include "parts/sync-and-close.c"
#include "parts/thread-end.c"

#include "parts/main-start.c"
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
