
/* The reader CPU axis: each writer and its reader pinned to one CPU (same) or to two (other), chosen among the
 * CPUs this process may run on as IOLab chooses them. */
static int g_cpus[CPU_SETSIZE];
static int g_cpu_count;

static void find_cpus(void)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        fail("sched_getaffinity", "", errno);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &allowed))
            g_cpus[g_cpu_count++] = cpu;
    }
    if (g_cpu_count < (READER_CPU == 2 ? 2 : 1)) {
        fprintf(stderr, "iolab-case: the reader CPU axis needs %d CPUs, and this process may use %d\n",
                READER_CPU == 2 ? 2 : 1, g_cpu_count);
        exit(1);
    }
}

/* Thread t's writer's (reader = 0) or reader's (reader = 1) CPU. */
static int cpu_for(int t, int reader)
{
    if (READER_CPU == 1)
        return g_cpus[t % g_cpu_count];
    const int first = (t % (g_cpu_count / 2)) * 2;
    return g_cpus[first + reader];
}

static void pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    const int error = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (error != 0)
        fail("pthread_setaffinity_np", "", error);
}
