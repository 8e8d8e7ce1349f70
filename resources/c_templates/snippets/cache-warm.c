
/* Warm: the file read once before the timed part, so that the page cache holds it, as IOLab does. */
static void set_cache_state(const char *path)
{
    static unsigned char piece[65536];
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open (warm)", path, errno);
    for (;;) {
        const ssize_t n = read(fd, piece, sizeof piece);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("read (warm)", path, errno);
        if (n == 0)
            break;
    }
    if (close(fd) != 0)
        fail("close", path, errno);
}
