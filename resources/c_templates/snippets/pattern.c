
/* @PATTERN_COMMENT@ The buffer holds one period of 256 KiB plus a chunk: the data of any write is the
 * contiguous window pattern_at(offset), page aligned at chunk multiples. */
#define PATTERN_PERIOD (256u * 1024u)
static unsigned char *g_pattern;
@PATTERN_SOURCE@
static void make_pattern(void)
{
    const size_t bytes = PATTERN_PERIOD + (CHUNK_BYTES + 4095) / 4096 * 4096;
    g_pattern = allocate(bytes);
@PATTERN_FILL@
}

static const unsigned char *pattern_at(uint64_t offset)
{
    return g_pattern + offset % PATTERN_PERIOD;
}
