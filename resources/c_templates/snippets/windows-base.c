/* base.c's Windows form: the same helpers over the Windows API, so the shared snippets serve both. */
#define OUT_OF_MEMORY ERROR_NOT_ENOUGH_MEMORY

static void remove_outputs(int check);

/* Says which call failed on what and why (GetLastError's text), removes what the program made, and ends it
 * with status 1. */
static void fail(const char *call, const char *path, DWORD error)
{
    char text[512] = "";
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, error, 0, text,
                   sizeof text, NULL);
    fprintf(stderr, "iolab-case: %s%s%s failed: %lu %s", call, path[0] != '\0' ? " " : "", path,
            (unsigned long)error, text);
    remove_outputs(0);
    exit(1);
}

static double g_ticks_per_second;

static double now_seconds(void)
{
    if (g_ticks_per_second == 0) {
        LARGE_INTEGER frequency;
        QueryPerformanceFrequency(&frequency);
        g_ticks_per_second = (double)frequency.QuadPart;
    }
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart / g_ticks_per_second;
}

/* Page-aligned memory, as FILE_FLAG_NO_BUFFERING wants it. */
static void *allocate(size_t bytes)
{
    void *memory = VirtualAlloc(NULL, bytes > 0 ? bytes : 1, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    if (memory == NULL)
        fail("VirtualAlloc", "", GetLastError());
    return memory;
}
