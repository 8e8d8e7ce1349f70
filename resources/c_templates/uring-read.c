
/* Each request reads into a slot of its own: a chunk rounded up to a page, page aligned for O_DIRECT. */
#define SLOT_BYTES ((CHUNK_BYTES + 4095) / 4096 * 4096)
static int g_fds[THREADS];
static struct io_uring g_rings[THREADS];
static unsigned char *g_slots[THREADS];

/* One thread: QUEUE_DEPTH reads in flight on a ring of its own, from the front of its file or, with RANDOM,
 * at random chunk-aligned offsets of the one file all threads share. */
#include "parts/reader-start.c"
    const int fd = g_fds[t];
    struct io_uring *const ring = &g_rings[t];
    const uint64_t bytes = thread_bytes(t);
    const uint64_t requests = (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES;
    struct random_offsets offsets = random_offsets_for(t, TOTAL_BYTES);
    unsigned free_slots[QUEUE_DEPTH];
    uint64_t sizes[QUEUE_DEPTH];
    unsigned free_count = QUEUE_DEPTH;
    for (unsigned i = 0; i < QUEUE_DEPTH; ++i)
        free_slots[i] = i;
    uint64_t submitted = 0;
    uint64_t in_flight = 0;
    uint64_t done = 0;
    int stopped = 0;
    for (;;) {
        while (!stopped && free_count > 0 && submitted < requests) {
            if (time_is_up()) {
                stopped = 1;
                break;
            }
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            if (sqe == NULL)
                fail("io_uring_get_sqe", path, EBUSY);
            const unsigned slot = free_slots[--free_count];
            const uint64_t left = bytes - submitted * CHUNK_BYTES;
            sizes[slot] = left < CHUNK_BYTES ? left : CHUNK_BYTES;
            const uint64_t at = RANDOM ? next_offset(&offsets) : submitted * CHUNK_BYTES;
            io_uring_prep_read(sqe, fd, g_slots[t] + (uint64_t)slot * SLOT_BYTES, (unsigned)sizes[slot], at);
            io_uring_sqe_set_data(sqe, (void *)(uintptr_t)slot);
            ++submitted;
            ++in_flight;
            /* Each request on its own, without waiting, as IOLab's loop on a plain ring. */
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
            const unsigned slot = (unsigned)(uintptr_t)io_uring_cqe_get_data(cqe);
            if (cqe->res < 0)
                fail("io_uring read", path, -cqe->res);
            if ((uint64_t)cqe->res != sizes[slot])
                fail_short(path);
            done += sizes[slot];
            free_slots[free_count++] = slot;
            ++seen;
        }
        io_uring_cq_advance(ring, seen);
        in_flight -= seen;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
    g_done[t] = done;
    g_calls[t] = submitted;
    return NULL;
}

#include "parts/main-start.c"
    prepare_data();
    char path[PATH_MAX];
    for (int t = 0; t < THREADS; ++t) {
        const int error = io_uring_queue_init(RING_ENTRIES, &g_rings[t], 0);
        if (error < 0)
            fail("io_uring_queue_init", "", -error);
        thread_path(t, path, sizeof path);
        g_fds[t] = open_input(path, DIRECT_FLAG);
        g_slots[t] = allocate((size_t)QUEUE_DEPTH * SLOT_BYTES);
    }
    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(reader);
    const double returned = now_seconds();
    report_read(total(g_done), total(g_calls), returned - started);
    for (int t = 0; t < THREADS; ++t)
        io_uring_queue_exit(&g_rings[t]);
    remove_outputs(1);
    return 0;
}
