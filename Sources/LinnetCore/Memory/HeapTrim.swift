import CMalloc
import Dispatch
import Synchronization

/// Gives freed heap back to the system after a large release: a big queue replaced or cleared,
/// a bulk add or a folder resolved (their transient arrays gone), a large session written.
///
/// glibc keeps freed memory in its free lists and returns only the top of the heap by itself;
/// after a 100 000-track queue was built, tens of megabytes of the resolver's and the encoder's
/// freed blocks stayed resident. `malloc_trim` hands whole free pages back (`madvise`), which
/// costs a walk over the free lists, so it runs only after such events, never per call: on a
/// utility queue, off the loop thread, once the releases stop for ``settleDelay`` (a burst of
/// them, such as a queue replaced and then saved, costs one trim).
public enum HeapTrim {
    /// Changes smaller than this many queue entries (a few hundred KB) are left to the
    /// allocator: its own thresholds handle them, and trimming would cost more than it returns.
    public static let minimumEntries = 2_000
    /// How long the releases must stop before the trim runs; also lets the caller that
    /// reported a release drop its own transient values (a resolution) before the walk.
    static let settleDelay = DispatchTimeInterval.milliseconds(500)

    private static let queue = DispatchQueue(label: "linnet.heap-trim", qos: .utility)
    /// Bumped by every request; a scheduled trim runs only if no newer request came.
    private static let generation = Atomic<UInt64>(0)
    private static let trims = Atomic<Int>(0)

    /// Reports that memory for `entries` queue entries (or as much) was released or replaced;
    /// trims once the releases settle, if `entries` reaches ``minimumEntries``.
    public static func afterRelease(ofEntries entries: Int) {
        guard entries >= minimumEntries else { return }
        let mine = generation.add(1, ordering: .relaxed).newValue
        queue.asyncAfter(deadline: .now() + settleDelay) {
            guard generation.load(ordering: .relaxed) == mine else { return }
            malloc_trim(0)
            trims.add(1, ordering: .relaxed)
        }
    }

    /// How many trims ran in this process (for tests: a release was followed by one).
    public static var trimCount: Int { trims.load(ordering: .relaxed) }
}
