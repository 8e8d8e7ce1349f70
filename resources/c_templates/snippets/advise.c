
/* The case's access hint, given once when the file is opened. */
static void advise(int fd, const char *path)
{
    const int error = posix_fadvise(fd, 0, 0, FADVISE_HINT);
    if (error != 0)
        fail("posix_fadvise", path, error);
}
