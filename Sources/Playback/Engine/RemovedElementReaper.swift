internal import CGStreamer
import EventLoop
import Synchronization

/// Takes every element playbin removes from itself to NULL before its last reference goes.
///
/// At a gapless switch playbin sets the finished group's input-selector and uridecodebin to NULL
/// on a streaming thread and then removes them from itself, which drops its last reference. A
/// state change of the whole pipeline running meanwhile on another thread (GStreamer finishing
/// PAUSED→PLAYING after a preroll or a flushing seek, or a pause) walks the same children: when
/// it had already picked the input-selector, it set it back to PLAYING after playbin's NULL, and
/// its release of the element was then the last one. GStreamer disposed an element still in
/// PLAYING, which it reports as a CRITICAL ("Trying to dispose element inputselector0, but it is
/// in PLAYING") and which `make check` (fatal criticals) turns into a crash.
///
/// The reaper holds its own reference from the moment of removal ("element-removed" is emitted
/// while the bin still holds one), and releases it on the pipeline's loop thread after setting
/// the element to NULL there, so that a walk which was already under way has finished with it.
final class RemovedElementReaper: Sendable {
    private let loop: EventLoop
    private let held = Mutex<[UncheckedPointer<GstElement>]>([])

    private init(loop: EventLoop) { self.loop = loop }

    /// Connects a reaper to `bin`'s "element-removed" and returns the handler id. The handler owns
    /// the reaper; disconnecting it releases what the reaper still holds.
    static func install(on bin: UnsafeMutablePointer<GstElement>, loop: EventLoop) -> gulong {
        let reaper = RemovedElementReaper(loop: loop)
        return linnet_gst_connect_child_element(bin, "element-removed", { _, element, data in
            guard let element, let data else { return }
            Unmanaged<RemovedElementReaper>.fromOpaque(data).takeUnretainedValue().hold(element)
        }, Unmanaged.passRetained(reaper).toOpaque(), { data, _ in
            if let data { Unmanaged<RemovedElementReaper>.fromOpaque(data).release() }
        })
    }

    deinit { releaseAll() }

    /// On the removing thread, whichever it is.
    private func hold(_ element: UnsafeMutablePointer<GstElement>) {
        gst_object_ref(element.asObject)
        held.withLock { $0.append(UncheckedPointer(element)) }
        loop.execute { [weak self] in self?.releaseAll() }
    }

    /// Sets every held element to NULL and lets go of it: on the loop thread, or at the end.
    private func releaseAll() {
        let elements = held.withLock { held in
            defer { held.removeAll() }
            return held
        }
        for element in elements {
            gst_element_set_state(element.pointer, GST_STATE_NULL)
            gst_object_unref(element.pointer.asObject)
        }
    }
}
