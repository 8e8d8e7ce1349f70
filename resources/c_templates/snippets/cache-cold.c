
/* Cold: the file evicted from the page cache before the timed part, as IOLab evicts it (fdatasync, then
 * POSIX_FADV_DONTNEED). */
static void set_cache_state(const char *path)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("open (evict)", path, errno);
    if (fdatasync(fd) != 0)
        fail("fdatasync (evict)", path, errno);
    const int error = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (error != 0)
        fail("posix_fadvise(DONTNEED)", path, error);
    if (close(fd) != 0)
        fail("close", path, errno);
}
