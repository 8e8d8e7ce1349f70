
static int g_made[THREADS]; /* stays 0: the null device stores nothing, so nothing is removed */

static void remove_outputs(int check)
{
    (void)check;
    (void)g_made;
}
