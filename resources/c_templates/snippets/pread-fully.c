
/* pread(2) until `size` bytes have come. */
static void pread_fully(int fd, unsigned char *into, uint64_t size, uint64_t offset, const char *call,
                        const char *path)
{
    while (size > 0) {
        const ssize_t n = pread(fd, into, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail_short(path);
        into += n;
        size -= (uint64_t)n;
        offset += (uint64_t)n;
    }
}
