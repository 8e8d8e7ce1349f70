
/* The case's stdio buffer: setvbuf with none (_IONBF) or a buffer of STDIO_BUFFER_BYTES; the default leaves
 * the C library's own (glibc: the filesystem's block size). */
static char *g_stdio_buffers[THREADS];

static void apply_buffer(FILE *file, int t, const char *path)
{
    if (STDIO_BUFFER == 1 && setvbuf(file, NULL, _IONBF, 0) != 0)
        fail("setvbuf", path, errno != 0 ? errno : EINVAL);
    if (STDIO_BUFFER == 2) {
        g_stdio_buffers[t] = malloc(STDIO_BUFFER_BYTES);
        if (g_stdio_buffers[t] == NULL)
            fail("malloc", "", OUT_OF_MEMORY);
        if (setvbuf(file, g_stdio_buffers[t], _IOFBF, STDIO_BUFFER_BYTES) != 0)
            fail("setvbuf", path, errno != 0 ? errno : EINVAL);
    }
}
