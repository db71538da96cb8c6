import CMalloc

/// glibc's allocator settings for linnet, applied once at the top of `main`.
enum AllocatorSettings {
    /// At most two malloc arenas. glibc gives a thread that meets another in malloc an arena of
    /// its own (up to eight per core), and each arena keeps its own partly used pages resident;
    /// linnet's dozen threads (D-Bus loop, Swift's pool, GStreamer's streaming threads) allocate
    /// little and seldom at the same moment. Playing one Ogg this held 0.3–0.4 MiB less (see
    /// README, "Startup and memory"). Takes effect for arenas not created yet, so it runs before
    /// any thread is started.
    static func apply() {
        _ = mallopt(M_ARENA_MAX, 2)
    }
}
