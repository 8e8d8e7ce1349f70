
/* Thread t's FILE on a file opened as IOLab opens it, with the case's buffer. */
static FILE *open_stream(int t, const char *path, int flags, const char *mode)
{
    const int fd = flags == O_RDONLY ? open(path, O_RDONLY | O_CLOEXEC)
                                     : open_output(path, flags, thread_bytes(t), &g_made[t]);
    if (fd < 0)
        fail("open", path, errno);
    FILE *file = fdopen(fd, mode);
    if (file == NULL)
        fail("fdopen", path, errno);
    apply_buffer(file, t, path);
    return file;
}
