
/* The sync policy through stdio: what the FILE holds goes to the kernel (fflush), then the sync call. */
static void flush_and_sync(FILE *file, const char *path)
{
    if (fflush(file) != 0)
        fail("fflush", path, errno);
    sync_file(fileno(file), path);
}
