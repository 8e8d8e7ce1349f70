
/* read(2) until `size` bytes have come. */
static void read_fully(int fd, unsigned char *into, uint64_t size, const char *call, const char *path)
{
    while (size > 0) {
        const ssize_t n = read(fd, into, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail_short(path);
        into += n;
        size -= (uint64_t)n;
    }
}
