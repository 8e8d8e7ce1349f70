    if (SYNC_AT_END)
        sync_file(fd, path);
    if (close(fd) != 0)
        fail("close", path, errno);
