internal import CGLib

/// A file-descriptor watch or timer attached to an ``EventLoop``. It stays attached until
/// ``cancel()`` is called (from any thread) or its handler asks to stop.
public final class EventSource: @unchecked Sendable {
    /// `GSource *`, referenced for this object's life so `cancel` is safe after the source fired.
    private let source: UnsafeMutablePointer<GSource>

    init(source: UnsafeMutablePointer<GSource>) {
        self.source = source
    }

    deinit { g_source_unref(source) }

    /// Detaches the source; its handler is not called again once this returns on the loop thread.
    public func cancel() { g_source_destroy(source) }

    /// Whether the source was cancelled or finished.
    public var isCancelled: Bool { g_source_is_destroyed(source) != 0 }
}

/// What a watch or timer handler answers: keep the source, or detach it.
public enum SourceDisposition: Sendable {
    /// Keep calling the handler.
    case keep
    /// Detach the source.
    case remove
}

extension EventLoop {
    /// Watches `fileDescriptor` for `events` and calls `handler` on the loop thread with the
    /// conditions that occurred.
    public func watch(
        fileDescriptor: Int32, events: FileEvents,
        handler: @escaping (FileEvents) -> SourceDisposition
    ) -> EventSource {
        let source = g_unix_fd_source_new(fileDescriptor, GIOCondition(rawValue: events.rawValue))!
        // GLib blocks a dispatching source by removing its descriptor from the poll set and
        // adding it back afterwards, and each of those writes the context's eventfd: two wasted
        // wake-ups per D-Bus message. Handlers never iterate the loop themselves, so they cannot
        // recurse and need no blocking.
        g_source_set_can_recurse(source, 1)
        let box = Unmanaged.passRetained(FileHandlerBox(handler)).toOpaque()
        linnet_g_source_set_fd_callback(source, { _, condition, data in
            let box = Unmanaged<FileHandlerBox>.fromOpaque(data!).takeUnretainedValue()
            switch box.handler(FileEvents(rawValue: condition.rawValue)) {
            case .keep: return linnet_g_source_continue()
            case .remove: return linnet_g_source_remove()
            }
        }, box, { data in Unmanaged<FileHandlerBox>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        return EventSource(source: source)
    }

    /// Calls `handler` on the loop thread after `interval` and, while it answers `.keep`, every
    /// `interval` after that. Millisecond resolution.
    public func timer(
        after interval: Duration, handler: @escaping () -> SourceDisposition
    ) -> EventSource {
        let milliseconds = max(0, interval.components.seconds * 1000
            + interval.components.attoseconds / 1_000_000_000_000_000)
        let source = g_timeout_source_new(UInt32(clamping: milliseconds))!
        let box = Unmanaged.passRetained(TimerHandlerBox(handler)).toOpaque()
        g_source_set_callback(source, { data in
            let box = Unmanaged<TimerHandlerBox>.fromOpaque(data!).takeUnretainedValue()
            switch box.handler() {
            case .keep: return linnet_g_source_continue()
            case .remove: return linnet_g_source_remove()
            }
        }, box, { data in Unmanaged<TimerHandlerBox>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        return EventSource(source: source)
    }
}

private final class FileHandlerBox {
    let handler: (FileEvents) -> SourceDisposition
    init(_ handler: @escaping (FileEvents) -> SourceDisposition) { self.handler = handler }
}

private final class TimerHandlerBox {
    let handler: () -> SourceDisposition
    init(_ handler: @escaping () -> SourceDisposition) { self.handler = handler }
}
