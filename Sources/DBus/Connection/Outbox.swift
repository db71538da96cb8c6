import Synchronization

/// Work that queues messages in libdbus, handed from other threads to the loop thread in the
/// order it was submitted.
///
/// The loop runs it before dispatching what it has read (``LoopBinding``), and before any send
/// made on the loop thread: a signal emitted on another thread before a call arrived then goes
/// out before that call's reply, as the emitting thread's order promises. One GLib idle source
/// per send did not keep that: a call read in the same loop iteration was dispatched, and
/// answered, first.
final class Outbox: Sendable {
    /// A FIFO whose taken slots are cleared, not removed: taking stays O(1) in a burst of
    /// thousands of signals, and the storage is reset once everything has been taken.
    private struct Queue {
        var items: [(@Sendable () -> Void)?] = []
        var head = 0

        mutating func take() -> (@Sendable () -> Void)? {
            guard head < items.count else { return nil }
            defer {
                items[head] = nil
                head += 1
                if head == items.count {
                    items.removeAll(keepingCapacity: items.count <= 64)
                    head = 0
                }
            }
            return items[head]
        }
    }

    private let queue = Mutex(Queue())

    /// Appends `work`; answers whether the outbox was empty, in which case the caller must queue
    /// a ``drain()`` on the loop.
    func append(_ work: @escaping @Sendable () -> Void) -> Bool {
        queue.withLock { queue in
            queue.items.append(work)
            return queue.items.count - queue.head == 1
        }
    }

    /// Runs everything appended so far, oldest first; on the loop thread only. One item is taken
    /// at a time, so an item that sends (and so drains) still runs after the items before it.
    func drain() {
        while let work = queue.withLock({ $0.take() }) {
            work()
        }
    }
}
