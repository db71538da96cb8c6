internal import CDBus
import EventLoop
import Synchronization

/// Hands libdbus's watches, timeouts, wake-ups and dispatch to an ``EventLoop``: sockets are read
/// only when readable, timeouts exist only while calls are pending, and nothing wakes the loop
/// while the connection is idle.
final class LoopBinding: @unchecked Sendable {
    private weak var connection: DBusConnection?
    private let raw: OpaquePointer
    private let loop: EventLoop
    private let dispatchScheduled = Atomic<Bool>(false)
    /// True while the loop thread handles a watch: the dispatch that follows the handling covers
    /// any status change libdbus announces meanwhile, so none needs a queued pass.
    fileprivate let handlingWatch = Atomic<Bool>(false)
    /// True while a dispatch pass runs; touched only on the loop thread. A handler that iterated
    /// the loop would otherwise start a second `dbus_connection_dispatch` inside the first, which
    /// libdbus answers by waiting for the first to finish: a hang.
    private var dispatching = false

    init(connection: DBusConnection) {
        self.connection = connection
        raw = connection.raw
        loop = connection.loop
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(raw, addWatch, removeWatch, toggleWatch, data, nil)
        dbus_connection_set_timeout_functions(raw, addTimeout, removeTimeout, toggleTimeout, data, nil)
        dbus_connection_set_wakeup_main_function(raw, wakeUpLoop, data, nil)
        dbus_connection_set_dispatch_status_function(raw, dispatchStatusChanged, data, nil)
        scheduleDispatch()
    }

    /// Removes every source this binding attached; called before the connection closes.
    func detach() {
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(raw, nil, nil, nil)
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
    }

    /// Queues one dispatch pass on the loop unless one is already queued.
    func scheduleDispatch() {
        guard !dispatchScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.execute { [weak self] in self?.dispatchPending() }
    }

    /// The queued pass: dispatches a batch and queues another while messages remain.
    private func dispatchPending() {
        dispatchScheduled.store(false, ordering: .releasing)
        if dispatchBatch() { scheduleDispatch() }
    }

    /// Dispatches what a watch just read, in the same loop iteration: a queued pass would cost
    /// one more loop iteration (a poll) per incoming call.
    ///
    /// Safe inside the watch's own callback because every libdbus call that adds, removes or
    /// toggles a watch runs on the loop thread (``DBusConnection/onLoop(_:)``): a handler that
    /// closes or releases a connection, or a reply that fills the socket, changes watches here,
    /// and GLib skips a source destroyed earlier in the same iteration. This callback touches its
    /// watch no more after `dbus_watch_handle` returns, since the dispatch may have freed it.
    fileprivate func dispatchAfterWatch() {
        if dispatchBatch() { scheduleDispatch() }
    }

    /// Dispatches up to a bounded batch, so one busy peer cannot starve the rest of the loop;
    /// answers whether messages remain. Nested inside a running pass it only queues one.
    private func dispatchBatch() -> Bool {
        guard let connection else { return false }
        guard !dispatching else { return true }
        dispatching = true
        defer { dispatching = false }
        // What other threads sent before these messages were read goes out before any reply.
        connection.outbox.drain()
        for _ in 0..<64 {
            // The status dispatch returns is computed after the message was handled, as
            // dbus_connection_get_dispatch_status would: after a disconnect that computation is
            // what queues the failures of pending calls, without announcing a status change.
            if dbus_connection_dispatch(connection.raw) != DBUS_DISPATCH_DATA_REMAINS { return false }
        }
        return true
    }

    fileprivate func attach(_ watch: OpaquePointer) {
        guard dbus_watch_get_enabled(watch) != 0 else { return }
        let flags = dbus_watch_get_flags(watch)
        var events: FileEvents = [.error, .hangup]
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events.insert(.readable) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events.insert(.writable) }
        let watchHandle = UncheckedPointer(watch)
        let source = loop.watch(fileDescriptor: dbus_watch_get_unix_fd(watch), events: events) { [weak self] events in
            var condition: UInt32 = 0
            if events.contains(.readable) { condition |= DBUS_WATCH_READABLE.rawValue }
            if events.contains(.writable) { condition |= DBUS_WATCH_WRITABLE.rawValue }
            if events.contains(.error) || events.contains(.invalid) { condition |= DBUS_WATCH_ERROR.rawValue }
            if events.contains(.hangup) { condition |= DBUS_WATCH_HANGUP.rawValue }
            let binding = self
            binding?.handlingWatch.store(true, ordering: .releasing)
            _ = dbus_watch_handle(watchHandle.pointer, condition)
            binding?.handlingWatch.store(false, ordering: .releasing)
            // Also covers reads that add messages without a change of dispatch status, which
            // libdbus does not announce.
            binding?.dispatchAfterWatch()
            return .keep
        }
        dbus_watch_set_data(watch, Unmanaged.passRetained(source).toOpaque(), releaseSource)
    }

    fileprivate func detach(_ watch: OpaquePointer) {
        if let data = dbus_watch_get_data(watch) {
            Unmanaged<EventSource>.fromOpaque(data).takeUnretainedValue().cancel()
        }
        dbus_watch_set_data(watch, nil, nil)
    }

    fileprivate func attach(timeout: OpaquePointer) {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = Duration.milliseconds(Int(dbus_timeout_get_interval(timeout)))
        let timeoutHandle = UncheckedPointer(timeout)
        let source = loop.timer(after: interval) { [weak self] in
            _ = dbus_timeout_handle(timeoutHandle.pointer)
            self?.scheduleDispatch()
            return .keep
        }
        dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque(), releaseSource)
    }

    fileprivate func detach(timeout: OpaquePointer) {
        if let data = dbus_timeout_get_data(timeout) {
            Unmanaged<EventSource>.fromOpaque(data).takeUnretainedValue().cancel()
        }
        dbus_timeout_set_data(timeout, nil, nil)
    }

    /// libdbus asks for a wake-up on every message it reads, for loops blocked in poll on
    /// another thread. On the loop thread itself the loop is awake already, and the eventfd write
    /// (plus the read and extra poll it causes) was a third of the syscalls per served call.
    fileprivate func wakeUp() {
        if !loop.isCurrentThread { loop.wakeUp() }
    }
}

/// A libdbus watch or timeout pointer; libdbus guarantees it outlives the source that holds it,
/// because removing the watch cancels the source first.
private struct UncheckedPointer: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

private func binding(_ data: UnsafeMutableRawPointer?) -> LoopBinding {
    Unmanaged<LoopBinding>.fromOpaque(data!).takeUnretainedValue()
}

private let releaseSource: DBusFreeFunction = { data in
    guard let data else { return }
    let source = Unmanaged<EventSource>.fromOpaque(data).takeRetainedValue()
    source.cancel()
}

private let addWatch: DBusAddWatchFunction = { watch, data in
    binding(data).attach(watch!)
    return 1
}

private let removeWatch: DBusRemoveWatchFunction = { watch, data in
    binding(data).detach(watch!)
}

private let toggleWatch: DBusWatchToggledFunction = { watch, data in
    binding(data).detach(watch!)
    binding(data).attach(watch!)
}

private let addTimeout: DBusAddTimeoutFunction = { timeout, data in
    binding(data).attach(timeout: timeout!)
    return 1
}

private let removeTimeout: DBusRemoveTimeoutFunction = { timeout, data in
    binding(data).detach(timeout: timeout!)
}

private let toggleTimeout: DBusTimeoutToggledFunction = { timeout, data in
    binding(data).detach(timeout: timeout!)
    binding(data).attach(timeout: timeout!)
}

private let wakeUpLoop: DBusWakeupMainFunction = { data in
    binding(data).wakeUp()
}

private let dispatchStatusChanged: DBusDispatchStatusFunction = { _, status, data in
    let binding = binding(data)
    if status == DBUS_DISPATCH_DATA_REMAINS, !binding.handlingWatch.load(ordering: .acquiring) {
        binding.scheduleDispatch()
    }
}
