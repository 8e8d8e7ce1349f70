
/* IOLab's threads split the case's size: an even share each, the remainder to the last. */
static uint64_t thread_bytes(int t)
{
    const uint64_t share = TOTAL_BYTES / THREADS;
    return t == THREADS - 1 ? TOTAL_BYTES - share * (THREADS - 1) : share;
}
