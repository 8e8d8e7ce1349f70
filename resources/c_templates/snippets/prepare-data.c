
/* The data every thread reads, written and put in the case's cache state before the timed part. */
static void prepare_data(void)
{
    char path[PATH_MAX];
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        write_data_file(path, SHARED_FILE ? TOTAL_BYTES : thread_bytes(t), 0, &g_made[t]);
    }
    for (int t = 0; t < FILES_MADE; ++t) {
        thread_path(t, path, sizeof path);
        set_cache_state(path);
    }
}
