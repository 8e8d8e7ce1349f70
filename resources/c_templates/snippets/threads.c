
static uint64_t g_done[THREADS];  /* the bytes each thread moved */
static uint64_t g_calls[THREADS]; /* the calls it made */

/* Runs work(t) on THREADS threads at once and waits for all of them. */
static void run_threads(void *(*work)(void *))
{
    static pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        const int error = pthread_create(&threads[t], NULL, work, (void *)(intptr_t)t);
        if (error != 0)
            fail("pthread_create", "", error);
    }
    for (int t = 0; t < THREADS; ++t) {
        const int error = pthread_join(threads[t], NULL);
        if (error != 0)
            fail("pthread_join", "", error);
    }
}

static uint64_t total(const uint64_t *values)
{
    uint64_t sum = 0;
    for (int t = 0; t < THREADS; ++t)
        sum += values[t];
    return sum;
}
