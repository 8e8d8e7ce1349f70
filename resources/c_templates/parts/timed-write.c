    const double started = now_seconds();
    g_deadline = started + TIME_LIMIT_SECONDS;
    run_threads(writer);
    const double returned = now_seconds();
    make_durable();
    const double durable = now_seconds();
    report_write(total(g_done), total(g_calls), returned - started, durable - started);
    remove_outputs(1);
    return 0;
}
