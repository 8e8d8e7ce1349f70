
/* The sync policy's call. */
static void sync_file(int fd, const char *path)
{
    if (SYNC_CALL(fd) != 0)
        fail(SYNC_NAME, path, errno);
}
