
/* write(2) until all of it is written. */
static void write_fully(int fd, const unsigned char *data, uint64_t size, const char *call, const char *path)
{
    while (size > 0) {
        const ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(call, path, errno);
        if (n == 0)
            fail(call, path, EIO);
        data += n;
        size -= (uint64_t)n;
    }
}
