
/* Preallocate overwrite (the whole file) or rewrite (its first chunk): written with other bytes and made
 * durable before the timed part, then dropped from the page cache, so that the timed part overwrites blocks
 * that exist, with nothing cached. */
static void write_beforehand(const char *path, uint64_t bytes)
{
    static unsigned char piece[65536];
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open (preallocate)", path, errno);
    for (uint64_t offset = 0; offset < bytes; offset += sizeof piece) {
        const uint64_t size = bytes - offset < sizeof piece ? bytes - offset : sizeof piece;
        for (uint64_t i = 0; i < size; ++i)
            piece[i] = (unsigned char)~pattern_at(offset + i)[0];
        write_fully(fd, piece, size, "write (preallocate)", path);
    }
    if (fdatasync(fd) != 0)
        fail("fdatasync (preallocate)", path, errno);
    const int error = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (error != 0)
        fail("posix_fadvise(DONTNEED) (preallocate)", path, error);
    if (close(fd) != 0)
        fail("close", path, errno);
}
