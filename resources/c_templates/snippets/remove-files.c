
static int g_made[THREADS]; /* the files this program created: only those are removed */

static void remove_outputs(int check)
{
    char path[PATH_MAX];
    for (int t = 0; t < FILES_MADE; ++t) {
        if (!g_made[t])
            continue;
        g_made[t] = 0;
        thread_path(t, path, sizeof path);
        if (unlink(path) != 0 && check)
            fail("unlink", path, errno);
    }
}
