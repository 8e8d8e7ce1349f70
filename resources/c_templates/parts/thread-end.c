    g_done[t] = done;
    g_calls[t] = calls;
    return NULL;
}
