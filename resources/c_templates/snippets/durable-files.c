
/* IOLab's durable time: the timed part, then an fsync of every file it wrote. */
static void make_durable(void)
{
    char path[PATH_MAX];
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            fail("open", path, errno);
        if (fsync(fd) != 0)
            fail("fsync", path, errno);
        if (close(fd) != 0)
            fail("close", path, errno);
    }
}
