
/* The data a read case reads, written before the timed part as IOLab writes it (IOLab's bytes from pattern
 * offset `pattern`), then made durable. */
static void write_data_file(const char *path, uint64_t bytes, uint64_t pattern, int *made)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        fail("open", path, errno);
    *made = 1;
    for (uint64_t offset = 0; offset < bytes; offset += CHUNK_BYTES) {
        const uint64_t size = bytes - offset < CHUNK_BYTES ? bytes - offset : CHUNK_BYTES;
        write_fully(fd, pattern_at(pattern + offset), size, "write", path);
    }
    if (fdatasync(fd) != 0)
        fail("fdatasync", path, errno);
    if (close(fd) != 0)
        fail("close", path, errno);
}
