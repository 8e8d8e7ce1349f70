
/* A file that ended before the bytes the program wrote into it: it changed while the program ran. */
static void fail_short(const char *path)
{
    fprintf(stderr, "iolab-case: %s ended early: it changed while the program ran\n", path);
    remove_outputs(0);
    exit(1);
}
