
static void make_durable(void)
{
    /* the null device keeps nothing: the durable time is the apparent one */
}
