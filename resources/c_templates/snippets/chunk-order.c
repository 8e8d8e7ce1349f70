
/* Every chunk of a file once, in a random order: a Fisher-Yates shuffle driven by xorshift64*, seeded per
 * thread so that the threads do not walk in step. */
static uint64_t *chunk_order(int t, uint64_t chunks)
{
    uint64_t *order = malloc((chunks > 0 ? chunks : 1) * sizeof *order);
    if (order == NULL)
        fail("malloc", "", OUT_OF_MEMORY);
    for (uint64_t i = 0; i < chunks; ++i)
        order[i] = i;
    uint64_t state = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1);
    for (uint64_t i = chunks; i > 1; --i) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        const uint64_t j = (state * 0x2545f4914f6cdd1dULL) % i;
        const uint64_t swap = order[i - 1];
        order[i - 1] = order[j];
        order[j] = swap;
    }
    return order;
}
