static void *reader(void *arg)
{
    const int t = (int)(intptr_t)arg;
    char path[PATH_MAX];
    thread_path(t, path, sizeof path);
