    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(reader);
    const double returned = now_seconds();
    report_read(total(g_done), total(g_calls), returned - started);
    remove_outputs(1);
    return 0;
}
