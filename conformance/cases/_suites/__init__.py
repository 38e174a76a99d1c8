"""Each frozen suite's sources: v1 (the first suite), v2 and v3 (what each adds, relevels or
retires). A suite is an idea of its own: it is frozen once published."""
