
/* Chunk-aligned random offsets over a file, drawn as IOLab draws them (xorshift64*, seeded per thread): the
 * offsets IOLab read. */
struct random_offsets
{
    uint64_t state;
    uint64_t slots;
};

static struct random_offsets random_offsets_for(int t, uint64_t file_bytes)
{
    struct random_offsets r = {0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1), file_bytes / CHUNK_BYTES};
    if (r.slots == 0)
        r.slots = 1;
    return r;
}

static uint64_t next_offset(struct random_offsets *r)
{
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return ((r->state * 0x2545f4914f6cdd1dULL) % r->slots) * CHUNK_BYTES;
}
