
/* A file to read, opened as IOLab opens it (O_DIRECT as the case has it), with the case's hint. */
static int open_input(const char *path, int flags)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0)
        fail((flags & O_DIRECT) != 0 ? "open(O_DIRECT)" : "open", path, errno);
    advise(fd, path);
    return fd;
}
