
/* A new file, opened as IOLab opens it (O_CREAT | O_EXCL, the case's O_DIRECT and the sync policy's O_SYNC or
 * O_DSYNC), then prepared as the case's preallocation says, before the timed part. */
static int open_output(const char *path, int flags, uint64_t bytes, int *made)
{
    const int fd = open(path, flags | O_CREAT | O_EXCL | O_CLOEXEC | OPEN_SYNC_FLAGS, 0644);
    if (fd < 0)
        fail((flags & O_DIRECT) != 0 ? "open(O_DIRECT)" : "open", path, errno);
    *made = 1;
@PREPARE@    return fd;
}
