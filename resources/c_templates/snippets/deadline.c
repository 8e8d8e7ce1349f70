
/* The case's time limit: the timed part ends at the case's size or after TIME_LIMIT_SECONDS, whichever comes
 * first (0: no limit, and no clock read in the loop). */
static double g_deadline;

static int time_is_up(void)
{
    return TIME_LIMIT_SECONDS > 0 && now_seconds() >= g_deadline;
}
