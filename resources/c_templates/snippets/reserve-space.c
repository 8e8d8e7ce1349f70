
/* Preallocate fallocate: the file's space reserved before the timed part. */
static void reserve_space(int fd, const char *path, uint64_t bytes)
{
    if (bytes > 0 && fallocate(fd, 0, 0, (off_t)bytes) != 0)
        fail("fallocate", path, errno);
}
