
/* pwrite(2) until all of it is written. */
static void pwrite_fully(int fd, const unsigned char *data, uint64_t size, uint64_t offset, const char *call,
                         const char *path)
{
    while (size > 0) {
        const ssize_t n = pwrite(fd, data, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail(call, path, EIO);
        data += n;
        size -= (uint64_t)n;
        offset += (uint64_t)n;
    }
}
