
static const char *g_path; /* what the program writes: its argument, or DEFAULT_PATH */

static void take_arguments(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: %s [OUTPUT]\n  OUTPUT: @OUTPUT_WORDS@ (default: %s)\n", argv[0], DEFAULT_PATH);
        exit(2);
    }
    g_path = argc == 2 ? argv[1] : DEFAULT_PATH;
}
